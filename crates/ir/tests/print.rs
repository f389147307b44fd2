//! The printer on hand-built IR: every construct, parenthesisation, literals,
//! declarators and the renaming rule.

use hone_ir::print::{print_expr, print_function, print_module, print_type, print_type_decl};
use hone_ir::*;

// ---------------------------------------------------------------- builders

fn ex(kind: ExprKind, ty: Type) -> Expr {
    Expr {
        kind,
        ty,
        span: Span::default(),
    }
}

fn st(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
    }
}

fn int(v: i64) -> Expr {
    ex(ExprKind::IntLit(v as u64), Type::INT)
}

fn lit(v: u64, s: Scalar) -> Expr {
    ex(ExprKind::IntLit(v), Type::Scalar(s))
}

fn flt(v: f32) -> Expr {
    ex(ExprKind::FloatLit(v as f64), Type::FLOAT)
}

fn dbl(v: f64) -> Expr {
    ex(ExprKind::FloatLit(v), Type::DOUBLE)
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let ty = if op.is_comparison() || matches!(op, BinaryOp::LogicAnd | BinaryOp::LogicOr) {
        Type::BOOL
    } else {
        a.ty.clone()
    };
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

fn add(a: Expr, b: Expr) -> Expr {
    bin(BinaryOp::Add, a, b)
}
fn sub(a: Expr, b: Expr) -> Expr {
    bin(BinaryOp::Sub, a, b)
}
fn mul(a: Expr, b: Expr) -> Expr {
    bin(BinaryOp::Mul, a, b)
}
fn lt(a: Expr, b: Expr) -> Expr {
    bin(BinaryOp::Lt, a, b)
}

fn un(op: UnaryOp, a: Expr) -> Expr {
    let ty = a.ty.clone();
    ex(ExprKind::Unary(op, Box::new(a)), ty)
}

fn neg(a: Expr) -> Expr {
    un(UnaryOp::Neg, a)
}

fn assign(op: Option<BinaryOp>, l: Expr, r: Expr) -> Expr {
    let ty = l.ty.clone();
    ex(
        ExprKind::Assign {
            op,
            lhs: Box::new(l),
            rhs: Box::new(r),
        },
        ty,
    )
}

fn incdec(increment: bool, prefix: bool, t: Expr) -> Expr {
    let ty = t.ty.clone();
    ex(
        ExprKind::IncDec {
            increment,
            prefix,
            target: Box::new(t),
        },
        ty,
    )
}

fn cond(c: Expr, t: Expr, f: Expr) -> Expr {
    let ty = t.ty.clone();
    ex(ExprKind::Cond(Box::new(c), Box::new(t), Box::new(f)), ty)
}

fn cast(ty: Type, e: Expr) -> Expr {
    ex(
        ExprKind::Cast {
            implicit: false,
            expr: Box::new(e),
        },
        ty,
    )
}

fn implicit(ty: Type, e: Expr) -> Expr {
    ex(
        ExprKind::Cast {
            implicit: true,
            expr: Box::new(e),
        },
        ty,
    )
}

fn index(b: Expr, i: Expr) -> Expr {
    let ty = b.ty.pointee().cloned().unwrap_or(Type::INT);
    ex(ExprKind::Index(Box::new(b), Box::new(i)), ty)
}

fn deref(p: Expr) -> Expr {
    let ty = p.ty.pointee().cloned().unwrap_or(Type::INT);
    ex(ExprKind::Deref(Box::new(p)), ty)
}

fn addr(x: Expr) -> Expr {
    let ty = Type::ptr(x.ty.clone());
    ex(ExprKind::AddrOf(Box::new(x)), ty)
}

fn comma(a: Expr, b: Expr) -> Expr {
    let ty = b.ty.clone();
    ex(ExprKind::Comma(Box::new(a), Box::new(b)), ty)
}

fn intrinsic(i: Intrinsic, ty: Type, args: Vec<Expr>) -> Expr {
    ex(ExprKind::Intrinsic(i, args), ty)
}

fn builtin(b: Builtin) -> Expr {
    ex(ExprKind::Builtin(b), Type::UINT)
}

fn ptr_to(pointee: Type, pointee_const: bool, restrict: bool) -> Type {
    Type::Pointer(Box::new(PointerType {
        pointee,
        pointee_const,
        restrict,
        pointee_volatile: false,
    }))
}

fn array(elem: Type, n: u64) -> Type {
    Type::Array(Box::new(elem), ArrayLen::Const(n))
}

fn decl(var: VarId, init: Option<Expr>) -> Stmt {
    st(StmtKind::Decl {
        var,
        init: init.map(Init::Expr),
    })
}

fn expr_stmt(e: Expr) -> Stmt {
    st(StmtKind::Expr(e))
}

/// Builds one function; variables are referred to by the `VarId` it returns.
struct Fb {
    f: Function,
}

impl Fb {
    fn new(name: &str, kind: FuncKind, ret: Type) -> Fb {
        Fb {
            f: Function::new(name, kind, ret),
        }
    }

    fn add_var(&mut self, name: &str, ty: Type, kind: VarKind, is_const: bool) -> VarId {
        let id = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: name.to_string(),
            ty,
            kind,
            is_const,
            is_volatile: false,
            span: Span::default(),
        });
        id
    }

    fn param(&mut self, name: &str, ty: Type) -> VarId {
        let id = self.add_var(name, ty, VarKind::Param, false);
        self.f.params.push(id);
        id
    }

    fn local(&mut self, name: &str, ty: Type) -> VarId {
        self.add_var(name, ty, VarKind::Local, false)
    }

    fn v(&self, id: VarId) -> Expr {
        ex(ExprKind::Var(id), self.f.var(id).ty.clone())
    }
}

/// A function with int `a`, `b`, `c`, `i`, float `x`, `y`, pointer `p`,
/// array `s` and `float4 q`, for expression tests.
struct Scope {
    fb: Fb,
    a: Expr,
    b: Expr,
    c: Expr,
    i: Expr,
    x: Expr,
    y: Expr,
    p: Expr,
    s: Expr,
    q: Expr,
}

fn scope() -> Scope {
    let mut fb = Fb::new("k", FuncKind::Global, Type::Void);
    let ids: Vec<VarId> = [
        ("a", Type::INT),
        ("b", Type::INT),
        ("c", Type::INT),
        ("i", Type::INT),
        ("x", Type::FLOAT),
        ("y", Type::FLOAT),
        ("p", Type::ptr(Type::FLOAT)),
        ("s", array(Type::FLOAT, 16)),
        ("q", Type::Vector(Scalar::F32, 4)),
    ]
    .into_iter()
    .map(|(n, t)| fb.local(n, t))
    .collect();
    for &id in &ids {
        fb.f.body.push(decl(id, None));
    }
    let v = |k: usize| fb.v(ids[k]);
    Scope {
        a: v(0),
        b: v(1),
        c: v(2),
        i: v(3),
        x: v(4),
        y: v(5),
        p: v(6),
        s: v(7),
        q: v(8),
        fb,
    }
}

impl Scope {
    fn show(&self, e: &Expr) -> String {
        let m = Module {
            files: vec![],
            functions: vec![self.fb.f.clone()],
            ..Module::default()
        };
        print_expr(&m, &self.fb.f, e)
    }
}

// ------------------------------------------------------- parenthesisation

#[test]
fn binary_operators_get_only_the_parentheses_c_needs() {
    let s = scope();
    let (a, b, c) = (s.a.clone(), s.b.clone(), s.c.clone());
    let cases = [
        (mul(add(a.clone(), b.clone()), c.clone()), "(a + b) * c"),
        (add(a.clone(), mul(b.clone(), c.clone())), "a + b * c"),
        (sub(a.clone(), sub(b.clone(), c.clone())), "a - (b - c)"),
        (sub(sub(a.clone(), b.clone()), c.clone()), "a - b - c"),
        (add(a.clone(), sub(b.clone(), c.clone())), "a + (b - c)"),
        (
            bin(BinaryOp::Div, a.clone(), mul(b.clone(), c.clone())),
            "a / (b * c)",
        ),
        (
            bin(
                BinaryOp::LogicAnd,
                lt(a.clone(), b.clone()),
                lt(b.clone(), c.clone()),
            ),
            "a < b && b < c",
        ),
        (
            bin(
                BinaryOp::LogicAnd,
                bin(BinaryOp::LogicOr, a.clone(), b.clone()),
                c.clone(),
            ),
            "(a || b) && c",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
}

#[test]
fn groupings_compilers_warn_about_are_parenthesised() {
    let s = scope();
    let (a, b, c) = (s.a.clone(), s.b.clone(), s.c.clone());
    let cases = [
        (
            bin(BinaryOp::Shl, add(a.clone(), b.clone()), c.clone()),
            "(a + b) << c",
        ),
        (
            bin(
                BinaryOp::BitOr,
                bin(BinaryOp::BitAnd, a.clone(), b.clone()),
                c.clone(),
            ),
            "(a & b) | c",
        ),
        (
            bin(
                BinaryOp::BitAnd,
                a.clone(),
                bin(BinaryOp::Eq, b.clone(), c.clone()),
            ),
            "a & (b == c)",
        ),
        (
            bin(
                BinaryOp::BitAnd,
                bin(BinaryOp::BitAnd, a.clone(), b.clone()),
                c.clone(),
            ),
            "a & b & c",
        ),
        (
            bin(
                BinaryOp::LogicOr,
                bin(BinaryOp::LogicAnd, a.clone(), b.clone()),
                c.clone(),
            ),
            "(a && b) || c",
        ),
        (
            bin(BinaryOp::Eq, lt(a.clone(), b.clone()), c.clone()),
            "(a < b) == c",
        ),
        // An implicit conversion in between changes nothing.
        (
            bin(
                BinaryOp::BitXor,
                implicit(Type::INT, bin(BinaryOp::Shr, a.clone(), b.clone())),
                c.clone(),
            ),
            "(a >> b) ^ c",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
}

#[test]
fn a_greater_than_before_a_parenthesis_never_closes_a_template() {
    let s = scope();
    let (a, b, c, i) = (s.a.clone(), s.b.clone(), s.c.clone(), s.i.clone());
    let gt = |l: Expr, r: Expr| bin(BinaryOp::Gt, l, r);
    let shr = |l: Expr, r: Expr| bin(BinaryOp::Shr, l, r);
    let and = |l: Expr, r: Expr| bin(BinaryOp::LogicAnd, l, r);
    let k1 = mul(add(c.clone(), int(1)), int(2));
    let cases = [
        // `i<n && j>(k + 1)` would be a template call to tree-sitter.
        (
            and(lt(i.clone(), a.clone()), gt(b.clone(), k1.clone())),
            "i < a && (b > (c + 1) * 2)",
        ),
        (
            lt(i.clone(), shr(b.clone(), add(c.clone(), int(1)))),
            "i < (b >> (c + 1))",
        ),
        (
            comma(
                lt(i.clone(), a.clone()),
                gt(b.clone(), cast(Type::INT, s.x.clone())),
            ),
            "i < a, (b > (int)x)",
        ),
        // Without a `<` nothing changes, nor with `>` before a name.
        (
            and(gt(i.clone(), a.clone()), gt(b.clone(), k1.clone())),
            "i > a && b > (c + 1) * 2",
        ),
        (shr(b.clone(), add(c.clone(), int(1))), "b >> (c + 1)"),
        (
            and(lt(i.clone(), a.clone()), gt(b.clone(), c.clone())),
            "i < a && b > c",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
}

#[test]
fn unary_postfix_and_assignment_forms() {
    let s = scope();
    let (a, b, c, i, x, p) = (
        s.a.clone(),
        s.b.clone(),
        s.c.clone(),
        s.i.clone(),
        s.x.clone(),
        s.p.clone(),
    );
    let cases = [
        (neg(neg(x.clone())), "-(-x)"),
        (neg(un(UnaryOp::Plus, x.clone())), "-+x"),
        (un(UnaryOp::Plus, un(UnaryOp::Plus, x.clone())), "+(+x)"),
        (neg(incdec(false, true, a.clone())), "-(--a)"),
        (un(UnaryOp::Plus, incdec(true, true, a.clone())), "+(++a)"),
        // C reads `-a--` right, tree-sitter as `(-a)--`.
        (neg(incdec(false, false, a.clone())), "-(a--)"),
        (un(UnaryOp::Not, incdec(true, false, a.clone())), "!(a++)"),
        (deref(incdec(false, false, p.clone())), "*p--"),
        (sub(a.clone(), neg(int(1))), "a - -1"),
        (sub(a.clone(), incdec(false, true, b.clone())), "a - --b"),
        (add(a.clone(), incdec(true, false, b.clone())), "a + b++"),
        (un(UnaryOp::Not, lt(a.clone(), b.clone())), "!(a < b)"),
        (un(UnaryOp::BitNot, a.clone()), "~a"),
        (
            add(cond(a.clone(), b.clone(), c.clone()), int(1)),
            "(a ? b : c) + 1",
        ),
        (
            cond(a.clone(), b.clone(), cond(c.clone(), a.clone(), b.clone())),
            "a ? b : c ? a : b",
        ),
        (
            cond(cond(a.clone(), b.clone(), c.clone()), a.clone(), b.clone()),
            "(a ? b : c) ? a : b",
        ),
        (
            cond(a.clone(), assign(None, b.clone(), c.clone()), c.clone()),
            "a ? b = c : c",
        ),
        (
            cond(a.clone(), b.clone(), assign(None, c.clone(), a.clone())),
            "a ? b : (c = a)",
        ),
        (
            assign(None, a.clone(), assign(None, b.clone(), c.clone())),
            "a = b = c",
        ),
        (
            assign(None, assign(None, a.clone(), b.clone()), c.clone()),
            "(a = b) = c",
        ),
        (
            assign(Some(BinaryOp::Shl), a.clone(), add(b.clone(), c.clone())),
            "a <<= b + c",
        ),
        (
            assign(Some(BinaryOp::Add), deref(p.clone()), x.clone()),
            "*p += x",
        ),
        (deref(incdec(true, false, p.clone())), "*p++"),
        (incdec(true, false, deref(p.clone())), "(*p)++"),
        (incdec(true, true, deref(p.clone())), "++*p"),
        (deref(add(p.clone(), i.clone())), "*(p + i)"),
        (addr(index(p.clone(), i.clone())), "&p[i]"),
        (addr(addr(a.clone())), "&(&a)"),
        (deref(deref(p.clone())), "**p"),
        (
            cast(Type::FLOAT, add(a.clone(), b.clone())),
            "(float)(a + b)",
        ),
        (add(cast(Type::FLOAT, a.clone()), x.clone()), "(float)a + x"),
        (cast(Type::FLOAT, neg(a.clone())), "(float)-a"),
        (cast(Type::ptr(Type::INT), p.clone()), "(int *)p"),
        (
            index(cast(Type::ptr(Type::INT), p.clone()), int(0)),
            "((int *)p)[0]",
        ),
        (
            mul(implicit(Type::FLOAT, add(a.clone(), b.clone())), x.clone()),
            "(a + b) * x",
        ),
        (add(implicit(Type::FLOAT, a.clone()), x.clone()), "a + x"),
        (
            comma(
                assign(None, a.clone(), int(1)),
                assign(None, b.clone(), int(2)),
            ),
            "a = 1, b = 2",
        ),
        (comma(a.clone(), comma(b.clone(), c.clone())), "a, (b, c)"),
        (
            assign(None, a.clone(), comma(b.clone(), c.clone())),
            "a = (b, c)",
        ),
        (index(p.clone(), comma(b.clone(), c.clone())), "p[(b, c)]"),
        // A parenthesised comma expression starting with an assignment gives
        // the assignment its own parentheses, for tree-sitter's sake; at the
        // top it needs none.
        (
            assign(
                None,
                a.clone(),
                comma(assign(None, b.clone(), c.clone()), c.clone()),
            ),
            "a = ((b = c), c)",
        ),
        (
            index(
                p.clone(),
                comma(
                    comma(assign(Some(BinaryOp::Add), b.clone(), c.clone()), c.clone()),
                    a.clone(),
                ),
            ),
            "p[((b += c), c, a)]",
        ),
        (
            comma(assign(None, b.clone(), c.clone()), c.clone()),
            "b = c, c",
        ),
        (index(s.s.clone(), add(i.clone(), int(1))), "s[i + 1]"),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
}

#[test]
fn calls_intrinsics_builtins_and_components() {
    let s = scope();
    let (a, b, x, y, p, q) = (
        s.a.clone(),
        s.b.clone(),
        s.x.clone(),
        s.y.clone(),
        s.p.clone(),
        s.q.clone(),
    );
    let math =
        |func, f32, args| intrinsic(Intrinsic::Math(MathFn { func, f32 }), Type::FLOAT, args);
    let comp = |v: Expr, c| ex(ExprKind::Component(Box::new(v), c), Type::FLOAT);
    let cases = [
        (
            intrinsic(Intrinsic::SyncThreads, Type::Void, vec![]),
            "__syncthreads()",
        ),
        (
            math(MathOp::Fma, true, vec![x.clone(), y.clone(), flt(1.0)]),
            "fmaf(x, y, 1.0f)",
        ),
        (math(MathOp::Sqrt, false, vec![dbl(2.0)]), "sqrt(2.0)"),
        (
            math(MathOp::Max, false, vec![a.clone(), b.clone()]),
            "max(a, b)",
        ),
        (
            intrinsic(
                Intrinsic::Atomic(AtomicOp::Add),
                Type::FLOAT,
                vec![add(p.clone(), a.clone()), x.clone()],
            ),
            "atomicAdd(p + a, x)",
        ),
        (
            intrinsic(
                Intrinsic::Atomic(AtomicOp::Cas),
                Type::INT,
                vec![addr(a.clone()), int(0), comma(a.clone(), b.clone())],
            ),
            "atomicCAS(&a, 0, (a, b))",
        ),
        (
            intrinsic(
                Intrinsic::Shfl(ShflKind::Down),
                Type::FLOAT,
                vec![lit(0xffff_ffff, Scalar::U32), x.clone(), int(16)],
            ),
            "__shfl_down_sync(0xffffffffu, x, 16)",
        ),
        (
            intrinsic(
                Intrinsic::Vote(VoteKind::Ballot),
                Type::UINT,
                vec![lit(0xffff_ffff, Scalar::U32), lt(a.clone(), b.clone())],
            ),
            "__ballot_sync(0xffffffffu, (a < b))",
        ),
        (
            intrinsic(
                Intrinsic::MakeVector,
                Type::Vector(Scalar::F32, 4),
                vec![x.clone(), y.clone(), flt(0.0), flt(1.0)],
            ),
            "make_float4(x, y, 0.0f, 1.0f)",
        ),
        (
            intrinsic(
                Intrinsic::MakeVector,
                Type::Vector(Scalar::U32, 2),
                vec![lit(1, Scalar::U32), lit(2, Scalar::U32)],
            ),
            "make_uint2(1u, 2u)",
        ),
        (comp(q.clone(), 0), "q.x"),
        (comp(q.clone(), 3), "q.w"),
        (
            comp(
                deref(ex(
                    ExprKind::Var(VarId(8)),
                    Type::ptr(Type::Vector(Scalar::F32, 4)),
                )),
                1,
            ),
            "(*q).y",
        ),
        (
            add(
                mul(
                    builtin(Builtin::BlockIdx(Dim::X)),
                    builtin(Builtin::BlockDim(Dim::X)),
                ),
                builtin(Builtin::ThreadIdx(Dim::X)),
            ),
            "blockIdx.x * blockDim.x + threadIdx.x",
        ),
        (
            sub(
                builtin(Builtin::GridDim(Dim::Z)),
                builtin(Builtin::WarpSize),
            ),
            "gridDim.z - warpSize",
        ),
        (
            mul(
                ex(
                    ExprKind::SizeOf(Type::Vector(Scalar::F64, 2)),
                    Type::Scalar(Scalar::U64),
                ),
                ex(
                    ExprKind::SizeOf(ptr_to(Type::FLOAT, true, false)),
                    Type::Scalar(Scalar::U64),
                ),
            ),
            "sizeof(double2) * sizeof(const float *)",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
}

// ---------------------------------------------------------------- literals

#[test]
fn integer_literals_carry_the_suffix_of_their_type() {
    let s = scope();
    let cases = [
        (lit(0, Scalar::I32), "0"),
        (lit(2147483647, Scalar::I32), "2147483647"),
        (lit(7, Scalar::U32), "7u"),
        (lit(4294967295, Scalar::U32), "0xffffffffu"),
        (lit(65535, Scalar::U32), "65535u"),
        (lit(1_000_000, Scalar::U32), "1000000u"),
        (lit(0x8000_0000, Scalar::U32), "0x80000000u"),
        (lit(0xffff_0000, Scalar::U32), "0xffff0000u"),
        (lit(0x0f0f_0f0f, Scalar::U64), "0xf0f0f0full"),
        (lit(12_345_678_901, Scalar::U64), "12345678901ull"),
        (lit(7, Scalar::I64), "7ll"),
        (
            lit(9223372036854775807, Scalar::I64),
            "9223372036854775807ll",
        ),
        (lit(u64::MAX, Scalar::U64), "0xffffffffffffffffull"),
        (lit(65, Scalar::I8), "'A'"),
        (lit(b'\'' as u64, Scalar::I8), r"'\''"),
        (lit(b'\\' as u64, Scalar::I8), r"'\\'"),
        (lit(10, Scalar::I8), r"'\n'"),
        (lit(0, Scalar::I8), r"'\0'"),
        (lit(7, Scalar::I8), r"'\x07'"),
        (lit(-1i64 as u64, Scalar::I8), r"'\xff'"),
        (lit(200, Scalar::I8), "(char)200"),
        (lit(255, Scalar::U8), "(unsigned char)255"),
        (lit(3, Scalar::I16), "(short)3"),
        (lit(3, Scalar::U16), "(unsigned short)3"),
        (lit(1, Scalar::Bool), "(bool)1"),
        (ex(ExprKind::BoolLit(true), Type::BOOL), "true"),
        (ex(ExprKind::BoolLit(false), Type::BOOL), "false"),
        // Values a literal cannot hold directly still read back the same.
        (lit(-5i64 as u64, Scalar::I32), "-5"),
        (
            lit(i32::MIN as i64 as u64, Scalar::I32),
            "(-2147483647 - 1)",
        ),
        (lit(-3i64 as u64, Scalar::I64), "-3ll"),
        (
            lit(i64::MIN as u64, Scalar::I64),
            "(-9223372036854775807ll - 1)",
        ),
        (lit(3_000_000_000, Scalar::I32), "(int)3000000000ll"),
        (lit(-1i64 as u64, Scalar::I16), "(short)-1"),
        (lit(1 << 40, Scalar::U32), "(unsigned int)1099511627776ll"),
        (
            ex(ExprKind::IntLit(0), Type::ptr(Type::FLOAT)),
            "(float *)0",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
    // A negative value is a unary expression: it is parenthesised where that
    // is needed and never fuses with a minus before it.
    assert_eq!(
        s.show(&sub(s.a.clone(), lit(-5i64 as u64, Scalar::I32))),
        "a - -5"
    );
    assert_eq!(s.show(&neg(lit(-5i64 as u64, Scalar::I32))), "-(-5)");
    assert_eq!(
        s.show(&index(lit(-1i64 as u64, Scalar::I16), s.a.clone())),
        "((short)-1)[a]"
    );
}

#[test]
fn float_literals_are_shortest_round_trip_text() {
    let s = scope();
    let cases = [
        (flt(1.0), "1.0f"),
        (flt(0.1), "0.1f"),
        (flt(1e-7), "1e-7f"),
        (flt(f32::MAX), "3.4028235e38f"),
        (flt(f32::MIN_POSITIVE), "1.1754944e-38f"),
        (flt(1e-45), "1e-45f"),
        (flt(16777216.0), "16777216.0f"),
        (dbl(0.1), "0.1"),
        (dbl(1.0), "1.0"),
        (dbl(1e300), "1e300"),
        (dbl(0.30000000000000004), "0.30000000000000004"),
        (dbl(5e-324), "5e-324"),
        (flt(-2.5), "-2.5f"),
        (flt(-0.0), "-0.0f"),
        (dbl(f64::INFINITY), "(1.0 / 0.0)"),
        (flt(f32::NEG_INFINITY), "(-1.0f / 0.0f)"),
        (flt(f32::NAN), "(0.0f / 0.0f)"),
        // A float literal holding a value between floats keeps its double text.
        (ex(ExprKind::FloatLit(0.1), Type::FLOAT), "0.1f"),
        (
            ex(ExprKind::FloatLit(0.1000000001), Type::FLOAT),
            "0.1000000001f",
        ),
        (ex(ExprKind::FloatLit(2.5), Type::INT), "(int)2.5"),
    ];
    for (e, want) in cases {
        assert_eq!(s.show(&e), want);
    }
    assert_eq!(s.show(&mul(s.x.clone(), flt(-2.5))), "x * -2.5f");
    assert_eq!(s.show(&sub(s.x.clone(), flt(-2.5))), "x - -2.5f");
}

#[test]
fn float_literal_text_reads_back_to_the_same_value() {
    let samples: [f32; 8] = [0.1, 1.0 / 3.0, 123456.79, 1e-38, 7e-45, 3.0e38, 0.5, 1e10];
    for v in samples {
        let text = print_expr(
            &Module::default(),
            &Fb::new("k", FuncKind::Device, Type::Void).f,
            &flt(v),
        );
        let digits = text.strip_suffix('f').expect("float suffix");
        assert_eq!(digits.parse::<f32>().unwrap(), v, "{text}");
        assert!(digits.contains(['.', 'e']), "{text}");
    }
    for v in [
        0.1f64,
        1.0 / 3.0,
        2.0f64.powi(-1074),
        1.7976931348623157e308,
        1e22,
    ] {
        let text = print_expr(
            &Module::default(),
            &Fb::new("k", FuncKind::Device, Type::Void).f,
            &dbl(v),
        );
        assert_eq!(text.parse::<f64>().unwrap(), v, "{text}");
        assert!(text.contains(['.', 'e']), "{text}");
    }
}

// ----------------------------------------------------------- declarations

#[test]
fn declarators_of_every_type_shape() {
    let cases = [
        (Type::FLOAT, false, "x", "float x"),
        (Type::Scalar(Scalar::U8), true, "x", "const unsigned char x"),
        (Type::Vector(Scalar::F32, 4), false, "v", "float4 v"),
        (Type::Vector(Scalar::U32, 2), false, "v", "uint2 v"),
        (Type::Vector(Scalar::I64, 3), false, "v", "longlong3 v"),
        (Type::ptr(Type::FLOAT), false, "p", "float *p"),
        (
            ptr_to(Type::FLOAT, true, true),
            false,
            "p",
            "const float *__restrict__ p",
        ),
        (
            ptr_to(Type::FLOAT, false, true),
            true,
            "p",
            "float *const __restrict__ p",
        ),
        (
            ptr_to(Type::FLOAT, true, false),
            true,
            "p",
            "const float *const p",
        ),
        (Type::ptr(Type::ptr(Type::INT)), false, "pp", "int **pp"),
        (
            ptr_to(ptr_to(Type::INT, true, false), true, false),
            false,
            "pp",
            "const int *const *pp",
        ),
        (
            array(array(Type::FLOAT, 17), 16),
            false,
            "s",
            "float s[16][17]",
        ),
        (
            array(Type::ptr(Type::FLOAT), 4),
            false,
            "ps",
            "float *ps[4]",
        ),
        (
            Type::ptr(array(Type::FLOAT, 17)),
            false,
            "row",
            "float (*row)[17]",
        ),
        (array(Type::INT, 3), true, "t", "const int t[3]"),
        (
            Type::Array(Box::new(Type::FLOAT), ArrayLen::Unsized),
            false,
            "dyn",
            "float dyn[]",
        ),
    ];
    for (ty, is_const, name, want) in cases {
        assert_eq!(print_type_decl(&ty, is_const, name), want);
    }
    assert_eq!(
        print_type(&ptr_to(Type::FLOAT, true, false)),
        "const float *"
    );
    assert_eq!(print_type(&array(Type::FLOAT, 4)), "float[4]");
    assert_eq!(
        print_type(&Type::ptr(array(Type::FLOAT, 4))),
        "float (*)[4]"
    );
    assert_eq!(print_type(&Type::Void), "void");
}

// --------------------------------------------------------------- modules

/// Every statement form and declaration kind in one module.
fn sample_module() -> Module {
    // __device__ float sq(float v)
    let mut sq = Fb::new("sq", FuncKind::Device, Type::FLOAT);
    sq.f.inline = Some("__forceinline__".to_string());
    let v = sq.param("v", Type::FLOAT);
    sq.f.body = vec![st(StmtKind::Return(Some(mul(sq.v(v), sq.v(v)))))];

    // __device__ int *pick(int *a, int *b, bool first): calls `sq` before
    // its definition would be seen, which the prototypes make legal.
    let mut pick = Fb::new("pick", FuncKind::Device, Type::ptr(Type::INT));
    pick.f.inline = Some("__noinline__".to_string());
    let pa = pick.param("a", Type::ptr(Type::INT));
    let pb = pick.param("b", Type::ptr(Type::INT));
    let first = pick.param("first", Type::BOOL);
    pick.f.body = vec![st(StmtKind::Return(Some(cond(
        pick.v(first),
        pick.v(pa),
        pick.v(pb),
    ))))];

    let mut k = Fb::new("transpose", FuncKind::Global, Type::Void);
    k.f.launch_bounds = Some((256, Some(2)));
    let input = k.param("in", ptr_to(Type::FLOAT, true, true));
    let out = k.param("out", ptr_to(Type::FLOAT, false, true));
    let n = k.add_var("n", Type::INT, VarKind::Param, true);
    k.f.params.push(n);
    let tile = k.add_var(
        "tile",
        array(array(Type::FLOAT, 33), 32),
        VarKind::Shared,
        false,
    );
    let dynsh = k.add_var(
        "dyn",
        Type::Array(Box::new(Type::FLOAT), ArrayLen::Unsized),
        VarKind::ExternShared,
        false,
    );
    let tx = k.add_var("tx", Type::INT, VarKind::Local, true);
    let coef = k.local("coef", array(array(Type::FLOAT, 2), 2));
    let acc = k.local("acc", Type::Vector(Scalar::F32, 4));
    let i = k.local("i", Type::INT);
    let j = k.local("j", Type::INT);
    let sum = k.local("sum", Type::FLOAT);
    let lane = k.local("lane", Type::UINT);

    let txe = || implicit(Type::INT, builtin(Builtin::ThreadIdx(Dim::X)));
    let calls_sq = ex(
        ExprKind::Call(FuncId(0), vec![index(k.v(input), k.v(i))]),
        Type::FLOAT,
    );
    let tile_at = |r: Expr, c: Expr| index(index(k.v(tile), r), c);
    k.f.body = vec![
        decl(tile, None),
        decl(dynsh, None),
        decl(tx, Some(txe())),
        st(StmtKind::Decl {
            var: coef,
            init: Some(Init::List(vec![
                Init::List(vec![Init::Expr(flt(1.0)), Init::Expr(flt(0.5))]),
                Init::List(vec![Init::Expr(flt(0.25)), Init::Expr(flt(0.125))]),
            ])),
        }),
        decl(
            acc,
            Some(intrinsic(
                Intrinsic::MakeVector,
                Type::Vector(Scalar::F32, 4),
                vec![flt(0.0), flt(0.0), flt(0.0), flt(0.0)],
            )),
        ),
        decl(sum, Some(flt(0.0))),
        st(StmtKind::If {
            cond: bin(BinaryOp::Ge, k.v(tx), k.v(n)),
            then: vec![st(StmtKind::Return(None))],
            els: None,
        }),
        st(StmtKind::For {
            init: vec![decl(i, Some(k.v(tx)))],
            cond: Some(lt(k.v(i), k.v(n))),
            step: Some(assign(
                Some(BinaryOp::Add),
                k.v(i),
                implicit(Type::INT, builtin(Builtin::BlockDim(Dim::X))),
            )),
            body: vec![
                expr_stmt(assign(Some(BinaryOp::Add), k.v(sum), calls_sq.clone())),
                st(StmtKind::If {
                    cond: lt(k.v(sum), flt(0.0)),
                    then: vec![st(StmtKind::Continue)],
                    els: Some(vec![st(StmtKind::If {
                        cond: bin(BinaryOp::Gt, k.v(sum), flt(1e6)),
                        then: vec![st(StmtKind::Break)],
                        els: Some(vec![expr_stmt(assign(
                            None,
                            tile_at(int(0), k.v(tx)),
                            k.v(sum),
                        ))]),
                    })]),
                }),
            ],
        }),
        st(StmtKind::For {
            init: vec![],
            cond: None,
            step: None,
            body: vec![st(StmtKind::Break)],
        }),
        decl(j, Some(int(0))),
        st(StmtKind::While {
            cond: lt(k.v(j), int(4)),
            body: vec![expr_stmt(incdec(true, false, k.v(j)))],
        }),
        st(StmtKind::DoWhile {
            body: vec![expr_stmt(incdec(false, true, k.v(j)))],
            cond: bin(BinaryOp::Gt, k.v(j), int(0)),
        }),
        decl(
            lane,
            Some(bin(
                BinaryOp::BitAnd,
                builtin(Builtin::ThreadIdx(Dim::X)),
                lit(31, Scalar::U32),
            )),
        ),
        st(StmtKind::Switch {
            value: k.v(lane),
            arms: vec![
                SwitchArm {
                    labels: vec![Some(0), Some(1)],
                    body: vec![expr_stmt(assign(None, k.v(sum), flt(1.0)))],
                },
                SwitchArm {
                    labels: vec![Some(-2)],
                    body: vec![
                        expr_stmt(assign(Some(BinaryOp::Mul), k.v(sum), flt(2.0))),
                        st(StmtKind::Break),
                    ],
                },
                SwitchArm {
                    labels: vec![None],
                    body: vec![st(StmtKind::Block(vec![expr_stmt(assign(
                        None,
                        index(k.v(dynsh), k.v(tx)),
                        k.v(sum),
                    ))]))],
                },
            ],
        }),
        expr_stmt(intrinsic(Intrinsic::SyncThreads, Type::Void, vec![])),
        expr_stmt(assign(
            None,
            index(k.v(out), k.v(tx)),
            add(
                tile_at(k.v(tx), int(0)),
                index(index(k.v(coef), int(1)), int(1)),
            ),
        )),
        st(StmtKind::Block(vec![expr_stmt(assign(
            None,
            index(k.v(dynsh), int(0)),
            ex(ExprKind::Component(Box::new(k.v(acc)), 2), Type::FLOAT),
        ))])),
    ];
    Module {
        files: vec!["sample.cu".to_string()],
        functions: vec![sq.f, pick.f, k.f],
        ..Module::default()
    }
}

/// Compares printed text with `tests/expected/NAME.cu`.
fn expect(name: &str, text: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expected")
        .join(format!("{name}.cu"));
    hone_testkit::assert_expected(&path, text);
}

#[test]
fn sample_module_prints_every_statement_form() {
    expect(
        "sample_module_prints_every_statement_form",
        &print_module(&sample_module()),
    );
}

#[test]
fn device_functions_get_prototypes_before_all_definitions() {
    let text = print_module(&sample_module());
    let first_definition = text.find(") {").expect("a definition");
    for proto in [
        "__device__ __forceinline__ float sq(float v);",
        "__device__ __noinline__ int *pick(int *a, int *b, bool first);",
    ] {
        let at = text
            .find(proto)
            .unwrap_or_else(|| panic!("{proto} missing"));
        assert!(at < first_definition, "{proto} after a definition");
    }
    assert!(
        !text.contains(
            "transpose(const float *__restrict__ in, float *__restrict__ out, const int n);"
        ),
        "kernels need no prototype"
    );
    assert!(text.contains(
        "__global__ void __launch_bounds__(256, 2) transpose(const float *__restrict__ in, float *__restrict__ out, const int n) {"
    ));
}

#[test]
fn launch_bounds_without_min_blocks_and_function_alone() {
    let mut k = Fb::new("k", FuncKind::Global, Type::Void);
    k.f.launch_bounds = Some((128, None));
    let m = Module {
        files: vec![],
        functions: vec![k.f.clone()],
        ..Module::default()
    };
    assert_eq!(
        print_function(&m, &k.f),
        "__global__ void __launch_bounds__(128) k() {\n}\n"
    );
    assert_eq!(print_module(&m), print_function(&m, &k.f));
}

#[test]
fn for_initialisations_c_cannot_write_in_the_clause_get_a_block() {
    let mut k = Fb::new("k", FuncKind::Global, Type::Void);
    let i = k.local("i", Type::INT);
    let j = k.local("j", Type::INT);
    let p = k.local("p", Type::ptr(Type::INT));
    let x = k.local("x", Type::FLOAT);
    let u = k.local("u", Type::INT);
    let w = k.local("w", Type::INT);
    k.f.body = vec![
        decl(u, None),
        decl(w, None),
        // Same specifiers: one clause with two declarators.
        st(StmtKind::For {
            init: vec![decl(i, Some(int(0))), decl(p, Some(addr(k.v(i))))],
            cond: Some(lt(k.v(i), int(4))),
            step: None,
            body: vec![expr_stmt(incdec(true, false, deref(k.v(p))))],
        }),
        // Different base types: a block holds the declarations.
        st(StmtKind::For {
            init: vec![decl(j, Some(int(0))), decl(x, Some(flt(1.0)))],
            cond: None,
            step: Some(incdec(true, false, k.v(j))),
            body: vec![expr_stmt(assign(Some(BinaryOp::Mul), k.v(x), flt(2.0)))],
        }),
        // Two expressions: one comma expression.
        st(StmtKind::For {
            init: vec![
                expr_stmt(assign(None, k.v(u), int(0))),
                expr_stmt(assign(None, k.v(w), int(0))),
            ],
            cond: Some(lt(k.v(u), k.v(w))),
            step: Some(comma(
                incdec(true, false, k.v(u)),
                incdec(false, false, k.v(w)),
            )),
            body: vec![],
        }),
    ];
    let m = Module {
        files: vec![],
        functions: vec![k.f.clone()],
        ..Module::default()
    };
    expect(
        "for_initialisations_c_cannot_write_in_the_clause_get_a_block",
        &print_function(&m, &k.f),
    );
}

#[test]
fn empty_last_switch_arm_gets_an_empty_statement() {
    let mut k = Fb::new("k", FuncKind::Device, Type::Void);
    let a = k.param("a", Type::Scalar(Scalar::I64));
    k.f.body = vec![st(StmtKind::Switch {
        value: k.v(a),
        arms: vec![
            SwitchArm {
                labels: vec![Some(i64::MIN)],
                body: vec![st(StmtKind::Return(None))],
            },
            SwitchArm {
                labels: vec![Some(3), None],
                body: vec![],
            },
        ],
    })];
    let m = Module {
        files: vec![],
        functions: vec![k.f.clone()],
        ..Module::default()
    };
    assert_eq!(
        print_function(&m, &k.f),
        "__device__ void k(long long a) {
    switch (a) {
        case (-9223372036854775807 - 1):
            return;
        case 3:
        default:
            ;
    }
}
"
    );
}

#[test]
fn case_labels_are_written_in_the_switch_type() {
    let print_switch = |ty: Type, label: i64| {
        let mut k = Fb::new("k", FuncKind::Device, Type::Void);
        let a = k.param("a", ty);
        k.f.body = vec![st(StmtKind::Switch {
            value: k.v(a),
            arms: vec![SwitchArm {
                labels: vec![Some(label)],
                body: vec![st(StmtKind::Break)],
            }],
        })];
        let m = Module {
            files: vec![],
            functions: vec![k.f.clone()],
            ..Module::default()
        };
        let text = print_function(&m, &k.f);
        text.lines()
            .find(|l| l.contains("case"))
            .map(|l| l.trim().to_string())
            .unwrap_or(text)
    };
    assert_eq!(print_switch(Type::UINT, -1), "case 4294967295:");
    assert_eq!(print_switch(Type::UINT, 7), "case 7:");
    assert_eq!(print_switch(Type::INT, -2), "case -2:");
    assert_eq!(print_switch(Type::INT, 1 << 32), "case 0:");
    assert_eq!(print_switch(Type::INT, 0xffff_ffff), "case -1:");
    assert_eq!(
        print_switch(Type::Scalar(Scalar::U64), -1),
        "case 18446744073709551615ull:"
    );
    assert_eq!(print_switch(Type::Scalar(Scalar::I64), -1), "case -1:");
    // Values of types narrower than int are promoted before comparing.
    assert_eq!(print_switch(Type::Scalar(Scalar::U8), 300), "case 300:");
}

#[test]
fn launch_time_array_lengths_print_as_their_expression() {
    let mut k = Fb::new("k", FuncKind::Global, Type::Void);
    let n = k.param("n", Type::INT);
    let halo = k.add_var(
        "halo",
        Type::Array(
            Box::new(Type::FLOAT),
            ArrayLen::Expr(Box::new(add(
                builtin(Builtin::BlockDim(Dim::X)),
                implicit(Type::UINT, k.v(n)),
            ))),
        ),
        VarKind::Shared,
        false,
    );
    k.f.body = vec![decl(halo, None)];
    let m = Module {
        files: vec![],
        functions: vec![k.f.clone()],
        ..Module::default()
    };
    assert_eq!(
        print_function(&m, &k.f),
        "__global__ void k(int n) {\n    __shared__ float halo[blockDim.x + n];\n}\n"
    );
}

// ------------------------------------------------------------------ names

/// `(printed function, module)` of a kernel whose body is built by `body`.
fn print_kernel(build: impl FnOnce(&mut Fb) -> Vec<Stmt>, extra: Vec<Function>) -> String {
    let mut k = Fb::new("k", FuncKind::Global, Type::Void);
    k.f.body = build(&mut k);
    let mut functions = extra;
    functions.push(k.f.clone());
    let m = Module {
        files: vec![],
        functions,
        ..Module::default()
    };
    print_function(&m, &k.f)
}

#[test]
fn shadowing_that_c_resolves_the_same_way_keeps_its_names() {
    let text = print_kernel(
        |k| {
            let outer = k.param("x", Type::INT);
            let inner = k.local("x", Type::FLOAT);
            vec![
                st(StmtKind::Block(vec![
                    decl(inner, Some(flt(1.0))),
                    expr_stmt(assign(None, k.v(inner), flt(2.0))),
                ])),
                expr_stmt(assign(None, k.v(outer), int(3))),
            ]
        },
        vec![],
    );
    assert_eq!(
        text,
        "__global__ void k(int x) {\n    {\n        float x = 1.0f;\n        x = 2.0f;\n    }\n    x = 3;\n}\n"
    );
}

#[test]
fn clashing_names_are_made_distinct() {
    // Two variables of one scope named `t`, a parameter redeclared in the
    // body's outermost block, a keyword, a built-in, and a name that is not
    // an identifier.
    let text = print_kernel(
        |k| {
            let p = k.param("n", Type::INT);
            let t1 = k.local("t", Type::INT);
            let t2 = k.local("t", Type::INT);
            let t3 = k.local("t_1", Type::INT);
            let n2 = k.local("n", Type::INT);
            let kw = k.local("float", Type::INT);
            let bi = k.local("threadIdx", Type::INT);
            let vt = k.local("float4", Type::INT);
            let odd = k.local("a.b", Type::INT);
            let empty = k.local("", Type::INT);
            vec![
                decl(t1, Some(k.v(p))),
                decl(t2, Some(k.v(t1))),
                decl(t3, Some(k.v(t2))),
                decl(n2, Some(k.v(p))),
                decl(kw, None),
                decl(bi, None),
                decl(vt, None),
                decl(odd, None),
                decl(empty, None),
            ]
        },
        vec![],
    );
    expect("clashing_names_are_made_distinct", &text);
}

#[test]
fn a_use_that_would_find_the_wrong_variable_renames_the_shadowing_one() {
    let text = print_kernel(
        |k| {
            let outer = k.local("v", Type::INT);
            let inner = k.local("v", Type::INT);
            vec![
                decl(outer, Some(int(1))),
                st(StmtKind::Block(vec![
                    // `int v = v + 1;` would read the new `v`.
                    decl(inner, Some(add(k.v(outer), int(1)))),
                    // and this means the outer one.
                    expr_stmt(assign(None, k.v(outer), k.v(inner))),
                ])),
            ]
        },
        vec![],
    );
    assert_eq!(
        text,
        "__global__ void k() {\n    int v = 1;\n    {\n        int v_1 = v + 1;\n        v = v_1;\n    }\n}\n"
    );
}

#[test]
fn for_and_switch_scopes_follow_cpp() {
    let text = print_kernel(
        |k| {
            let i = k.local("i", Type::INT);
            let i_body = k.local("i", Type::INT);
            let i_nested = k.local("i", Type::INT);
            let a = k.local("a", Type::INT);
            let a2 = k.local("a", Type::INT);
            vec![
                st(StmtKind::For {
                    init: vec![decl(i, Some(int(0)))],
                    cond: Some(lt(k.v(i), int(2))),
                    step: None,
                    body: vec![
                        // Redeclaring `i` in the body's outermost block is an
                        // error in C++, in a nested block it is shadowing.
                        decl(i_body, Some(int(1))),
                        st(StmtKind::Block(vec![decl(i_nested, Some(int(2)))])),
                    ],
                }),
                st(StmtKind::Switch {
                    value: int(0),
                    arms: vec![
                        SwitchArm {
                            labels: vec![Some(0)],
                            body: vec![decl(a, None)],
                        },
                        SwitchArm {
                            labels: vec![Some(1)],
                            body: vec![decl(a2, None)],
                        },
                    ],
                }),
            ]
        },
        vec![],
    );
    assert!(
        text.contains(
            "for (int i = 0; i < 2;) {\n        int i_1 = 1;\n        {\n            int i = 2;"
        ),
        "{text}"
    );
    assert!(
        text.contains("            int a;\n        case 1:\n            int a_1;"),
        "{text}"
    );
}

#[test]
fn a_variable_hiding_a_called_function_is_renamed() {
    let mut callee = Fb::new("scale", FuncKind::Device, Type::FLOAT);
    let v = callee.param("v", Type::FLOAT);
    callee.f.body = vec![st(StmtKind::Return(Some(callee.v(v))))];
    let text = print_kernel(
        |k| {
            let hider = k.local("scale", Type::FLOAT);
            let maxv = k.local("fmaxf", Type::FLOAT);
            let unused_call_scope = k.local("min", Type::INT);
            vec![
                decl(unused_call_scope, Some(int(0))),
                st(StmtKind::Block(vec![
                    decl(hider, Some(flt(1.0))),
                    decl(maxv, Some(flt(2.0))),
                    expr_stmt(assign(
                        None,
                        k.v(hider),
                        ex(ExprKind::Call(FuncId(0), vec![k.v(maxv)]), Type::FLOAT),
                    )),
                    expr_stmt(intrinsic(
                        Intrinsic::Math(MathFn {
                            func: MathOp::Fmax,
                            f32: true,
                        }),
                        Type::FLOAT,
                        vec![k.v(hider), k.v(maxv)],
                    )),
                ])),
            ]
        },
        vec![callee.f],
    );
    // `min` is never called, so it keeps its name.
    assert_eq!(
        text,
        "__global__ void k() {
    int min = 0;
    {
        float scale_1 = 1.0f;
        float fmaxf_1 = 2.0f;
        scale_1 = scale(fmaxf_1);
        fmaxf(scale_1, fmaxf_1);
    }
}
"
    );
}

// ------------------------------------------------------ structs and globals

#[test]
fn structs_globals_volatile_and_operator_calls() {
    let vec2 = std::sync::Arc::new(
        StructType::new(
            "V2",
            RecordKind::Struct,
            vec![("x".into(), Type::FLOAT), ("y".into(), Type::FLOAT)],
        )
        .unwrap(),
    );
    let mut aligned = StructType::new(
        "Cell",
        RecordKind::Class,
        vec![
            ("v".into(), Type::Struct(vec2.clone())),
            ("tag".into(), array(Type::INT, 3)),
        ],
    )
    .unwrap();
    aligned.align = 16;
    aligned.size = 32;
    let cell = std::sync::Arc::new(aligned);
    let v2 = Type::Struct(vec2.clone());
    // __device__ V2 operator+(V2 a, V2 b)
    let mut plus = Fb::new("operator+", FuncKind::Device, v2.clone());
    let a = plus.param("a", v2.clone());
    let b = plus.param("b", v2.clone());
    let field = |e: Expr, i: u32| ex(ExprKind::Field(Box::new(e), i), Type::FLOAT);
    let sum = ex(
        ExprKind::Aggregate(vec![
            add(field(plus.v(a), 0), field(plus.v(b), 0)),
            add(field(plus.v(a), 1), field(plus.v(b), 1)),
        ]),
        v2.clone(),
    );
    plus.f.body = vec![st(StmtKind::Return(Some(sum)))];

    let mut k = Fb::new("k", FuncKind::Global, Type::Void);
    let cells = k.param("cells", ptr_to(Type::Struct(cell.clone()), false, false));
    let mut vp = ptr_to(Type::FLOAT, false, false);
    if let Type::Pointer(p) = &mut vp {
        p.pointee_volatile = true;
    }
    let s = k.param("s", vp);
    let t = k.local("t", Type::INT);
    k.f.vars[t.0 as usize].is_volatile = true;
    let elem = index(k.v(cells), int(1));
    let member_v = ex(ExprKind::Field(Box::new(elem.clone()), 0), v2.clone());
    let through = ex(ExprKind::Field(Box::new(deref(k.v(cells))), 0), v2.clone());
    let call = ex(
        ExprKind::Call(FuncId(0), vec![member_v.clone(), through]),
        v2.clone(),
    );
    let tag = index(
        ex(ExprKind::Field(Box::new(elem), 1), array(Type::INT, 3)),
        int(2),
    );
    let coeff = ex(ExprKind::Global(GlobalId(0)), array(Type::FLOAT, 2));
    k.f.body = vec![
        decl(t, Some(tag)),
        expr_stmt(assign(None, member_v, call)),
        expr_stmt(assign(None, index(k.v(s), int(0)), index(coeff, int(1)))),
    ];
    let m = Module {
        files: vec![],
        structs: vec![vec2.clone(), cell.clone()],
        globals: vec![
            GlobalVar {
                name: "coeff".into(),
                ty: array(Type::FLOAT, 2),
                space: GlobalSpace::Constant,
                is_const: false,
                is_volatile: false,
                is_extern: false,
                init: Some(Init::List(vec![Init::Expr(flt(0.5)), Init::Expr(flt(2.0))])),
                span: Span::default(),
            },
            GlobalVar {
                name: "dyn_smem".into(),
                ty: Type::Array(Box::new(Type::FLOAT), ArrayLen::Unsized),
                space: GlobalSpace::Shared,
                is_const: false,
                is_volatile: true,
                is_extern: true,
                init: None,
                span: Span::default(),
            },
        ],
        functions: vec![plus.f.clone(), k.f.clone()],
    };
    assert_eq!(
        print_module(&m),
        "struct V2 {\n    float x;\n    float y;\n};\n\n\
         class alignas(16) Cell {\npublic:\n    V2 v;\n    int tag[3];\n};\n\n\
         __constant__ float coeff[2] = {0.5f, 2.0f};\n\n\
         extern __shared__ volatile float dyn_smem[];\n\n\
         __device__ V2 operator+(V2 a, V2 b);\n\n\
         __device__ V2 operator+(V2 a, V2 b) {\n    return V2{a.x + b.x, a.y + b.y};\n}\n\n\
         __global__ void k(Cell *cells, volatile float *s) {\n    \
         volatile int t = cells[1].tag[2];\n    \
         cells[1].v = cells[1].v + cells->v;\n    \
         s[0] = coeff[1];\n}\n"
    );
}
