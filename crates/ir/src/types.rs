//! Types of the IR. C's implicit conversions are made explicit by the front end
//! (`ExprKind::Cast { implicit: true }`), so consumers never re-derive C's rules.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Scalar types. `long` and `size_t` are 64-bit, as on every platform CUDA supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scalar {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

/// The six types C carries arithmetic out in once the integer promotions
/// are done: what an operation computes in, what a kernel's scalar argument
/// can be, what random test kernels are made of. Serialized as `"i32"` ...
/// `"f64"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arith {
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Arith {
    pub const ALL: [Arith; 6] = [
        Arith::I32,
        Arith::U32,
        Arith::I64,
        Arith::U64,
        Arith::F32,
        Arith::F64,
    ];

    /// The type an operation on `s` is carried out in.
    pub fn of(s: Scalar) -> Arith {
        match s.promoted() {
            Scalar::U32 => Arith::U32,
            Scalar::I64 => Arith::I64,
            Scalar::U64 => Arith::U64,
            Scalar::F32 => Arith::F32,
            Scalar::F64 => Arith::F64,
            _ => Arith::I32,
        }
    }

    pub fn scalar(self) -> Scalar {
        match self {
            Arith::I32 => Scalar::I32,
            Arith::U32 => Scalar::U32,
            Arith::I64 => Scalar::I64,
            Arith::U64 => Scalar::U64,
            Arith::F32 => Scalar::F32,
            Arith::F64 => Scalar::F64,
        }
    }

    pub fn size(self) -> u32 {
        self.scalar().size()
    }
    pub fn is_float(self) -> bool {
        self.scalar().is_float()
    }
    pub fn is_signed(self) -> bool {
        self.scalar().is_signed()
    }
    pub fn c_name(self) -> &'static str {
        self.scalar().c_name()
    }
}

impl Scalar {
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64 | Scalar::F32 | Scalar::F64
        )
    }
    /// C's integer promotion: types narrower than `int` become `int`.
    pub fn promoted(self) -> Scalar {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 => Scalar::I32,
            s => s,
        }
    }

    /// C's usual arithmetic conversions: the type both operands are converted to.
    pub fn usual_arithmetic(a: Scalar, b: Scalar) -> Scalar {
        if a == Scalar::F64 || b == Scalar::F64 {
            return Scalar::F64;
        }
        if a == Scalar::F32 || b == Scalar::F32 {
            return Scalar::F32;
        }
        let (a, b) = (a.promoted(), b.promoted());
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if a.size() >= b.size() { a } else { b };
        }
        // After promotion a higher rank is a larger size (long and long long are
        // one 64-bit type), so a signed type of higher rank holds every value of
        // the unsigned one and C's "convert both to unsigned" case cannot arise.
        let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
        if u.size() >= s.size() {
            u
        } else {
            s
        }
    }

    /// The CUDA C spelling the printer uses.
    pub fn c_name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "char",
            Scalar::U8 => "unsigned char",
            Scalar::I16 => "short",
            Scalar::U16 => "unsigned short",
            Scalar::I32 => "int",
            Scalar::U32 => "unsigned int",
            Scalar::I64 => "long long",
            Scalar::U64 => "unsigned long long",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }
    /// Prefix of CUDA's vector type names (`float` in `float4`, `uint` in `uint2`).
    pub fn vector_prefix(self) -> Option<&'static str> {
        Some(match self {
            Scalar::I8 => "char",
            Scalar::U8 => "uchar",
            Scalar::I16 => "short",
            Scalar::U16 => "ushort",
            Scalar::I32 => "int",
            Scalar::U32 => "uint",
            Scalar::I64 => "longlong",
            Scalar::U64 => "ulonglong",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
            Scalar::Bool => return None,
        })
    }
}

/// Where a variable lives. Pointers carry no space in the type (CUDA pointers are
/// generic); the emulator tags pointer values with their space at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AddressSpace {
    Global,
    Shared,
    Local,
    Constant,
}

/// Length of an array dimension. `Unsized` is `extern __shared__ T s[]`.
/// `Expr` is a length only known at launch (`__shared__ float sb[blockDim.x + 2]`),
/// which the shared-memory sketches of PSySha use; NVRTC rejects it, the emulator
/// evaluates it once per block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ArrayLen {
    Const(u64),
    Unsized,
    Expr(Box<crate::Expr>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Type {
    Void,
    Scalar(Scalar),
    /// CUDA's built-in vector types: `float2`, `float4`, `double2`, `int2`, `int4`, ...
    Vector(Scalar, u8),
    Pointer(Box<PointerType>),
    Array(Box<Type>, ArrayLen),
    /// A struct or class value. The definition travels with the type, so a
    /// consumer sizes and lays it out without the module; `Module::structs`
    /// lists each definition once, in declaration order, for the printer.
    Struct(Arc<StructType>),
}

/// `struct` or `class`: only the keyword the printer writes differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RecordKind {
    Struct,
    Class,
    /// Every member at offset 0; the size is the largest member's, rounded
    /// up to the largest alignment.
    Union,
}

/// A struct's data members with their layout as nvcc computes it (the C ABI of
/// the host: each field at the next multiple of its alignment, the size
/// rounded up to the largest alignment). Member functions are not part of the
/// type: the front end lowers them to functions taking the object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructType {
    pub name: String,
    pub kind: RecordKind,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    /// Byte offset from the start of the struct.
    pub offset: u64,
}

impl StructType {
    /// Lays out `fields` in order. `None` when a field has no constant size
    /// (an unsized array, a launch-time length, `void`) or the struct's size
    /// does not fit 64 bits.
    pub fn new(name: &str, kind: RecordKind, fields: Vec<(String, Type)>) -> Option<StructType> {
        let mut offset = 0u64;
        let mut align = 1u64;
        let mut out = Vec::with_capacity(fields.len());
        for (fname, ty) in fields {
            let size = ty.size()?;
            let a = ty.align().max(1);
            if kind == RecordKind::Union {
                out.push(Field {
                    name: fname,
                    ty,
                    offset: 0,
                });
                offset = offset.max(size);
            } else {
                offset = offset.div_ceil(a).checked_mul(a)?;
                out.push(Field {
                    name: fname,
                    ty,
                    offset,
                });
                offset = offset.checked_add(size)?;
            }
            align = align.max(a);
        }
        // An empty struct is one byte in C++.
        let size = offset.max(1).div_ceil(align).checked_mul(align)?;
        Some(StructType {
            name: name.to_string(),
            kind,
            fields: out,
            size,
            align,
        })
    }

    pub fn field(&self, name: &str) -> Option<(usize, &Field)> {
        self.fields.iter().enumerate().find(|(_, f)| f.name == name)
    }

    /// The path of member indices to `name`, looking through anonymous
    /// members (`union { struct { short lo, hi; }; int all; }`), which the
    /// front end names after their type, `anon_…`, and base classes
    /// ([`BASE_PREFIX`]).
    pub fn member_path(&self, name: &str) -> Option<Vec<usize>> {
        if let Some((i, _)) = self.field(name) {
            return Some(vec![i]);
        }
        self.fields
            .iter()
            .enumerate()
            .find_map(|(i, f)| match &f.ty {
                Type::Struct(inner) if inner.name.starts_with(ANON_PREFIX) || is_base(&f.name) => {
                    let mut path = inner.member_path(name)?;
                    path.insert(0, i);
                    Some(path)
                }
                _ => None,
            })
    }

    /// Whether values of this type hold a union anywhere in them.
    pub fn has_union(&self) -> bool {
        self.kind == RecordKind::Union || self.fields.iter().any(|f| f.ty.has_union())
    }
}

/// The struct hone's `cuda_fp16.h` defines for `half`.
pub const HALF_STRUCT: &str = "__half";
/// The struct hone's `cuda_bf16.h` defines for `__nv_bfloat16`.
pub const BFLOAT16_STRUCT: &str = "__nv_bfloat16";

/// One number of a value in memory, as [`Type::value_leaves`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    Scalar(Scalar),
    /// IEEE binary16 bits.
    Half,
    /// bfloat16 bits (a float's upper half).
    BFloat16,
    /// An address, 8 bytes.
    Pointer,
}

impl Leaf {
    pub fn size(self) -> u32 {
        match self {
            Leaf::Scalar(s) => s.size(),
            Leaf::Half | Leaf::BFloat16 => 2,
            Leaf::Pointer => 8,
        }
    }
    pub fn is_float(self) -> bool {
        match self {
            Leaf::Scalar(s) => s.is_float(),
            Leaf::Half | Leaf::BFloat16 => true,
            Leaf::Pointer => false,
        }
    }
}

/// The name the front end gives an unnamed struct or union.
pub const ANON_PREFIX: &str = "anon_";

/// The name prefix of the members that hold a struct's base classes
/// (`struct D : B` has a first member `__base0` of type `B`): member access
/// looks through them. C++ reserves names with two underscores, so no
/// member of the program's own has it.
pub const BASE_PREFIX: &str = "__base";

/// Whether a member is a base class's (`__base0`, `__base1`, ...).
pub fn is_base(member: &str) -> bool {
    member
        .strip_prefix(BASE_PREFIX)
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointerType {
    pub pointee: Type,
    /// `const T *`: the pointee is const.
    pub pointee_const: bool,
    pub restrict: bool,
    /// `volatile T *`: every access through the pointer is a memory access.
    #[serde(default)]
    pub pointee_volatile: bool,
}

impl Type {
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub const INT: Type = Type::Scalar(Scalar::I32);
    pub const UINT: Type = Type::Scalar(Scalar::U32);
    pub const FLOAT: Type = Type::Scalar(Scalar::F32);
    pub const DOUBLE: Type = Type::Scalar(Scalar::F64);

    pub fn ptr(pointee: Type) -> Type {
        Type::Pointer(Box::new(PointerType {
            pointee,
            pointee_const: false,
            restrict: false,
            pointee_volatile: false,
        }))
    }
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }
    /// Whether a value of this type holds a union (in a struct or array).
    pub fn has_union(&self) -> bool {
        match self {
            Type::Struct(st) => st.has_union(),
            Type::Array(e, _) => e.has_union(),
            _ => false,
        }
    }
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Pointer(p) => Some(&p.pointee),
            Type::Array(e, _) => Some(e),
            _ => None,
        }
    }
    pub fn as_struct(&self) -> Option<&StructType> {
        match self {
            Type::Struct(s) => Some(s),
            _ => None,
        }
    }
    /// The scalars a value of this type is made of, with their byte offsets
    /// from `offset`, in memory order: vector components, array elements and
    /// struct members in turn; pointers are 64-bit unsigned. Unsized arrays
    /// and launch-time lengths contribute nothing.
    pub fn scalar_leaves(&self, offset: u64, out: &mut Vec<(u64, Scalar)>) {
        match self {
            Type::Void => {}
            Type::Scalar(s) => out.push((offset, *s)),
            Type::Vector(s, n) => {
                for k in 0..*n as u64 {
                    out.push((offset + k * s.size() as u64, *s));
                }
            }
            Type::Pointer(_) => out.push((offset, Scalar::U64)),
            Type::Array(e, ArrayLen::Const(n)) => {
                let size = e.size().unwrap_or(0);
                for k in 0..*n {
                    e.scalar_leaves(offset + k * size, out);
                }
            }
            Type::Array(..) => {}
            Type::Struct(st) => {
                for f in &st.fields {
                    f.ty.scalar_leaves(offset + f.offset, out);
                }
            }
        }
    }
    /// [`Self::scalar_leaves`], with pointers as such and the 16-bit
    /// floating-point structs of
    /// hone's `cuda_fp16.h` and `cuda_bf16.h` (`__half`, `__nv_bfloat16`:
    /// their bits in one `unsigned short`) as the numbers they hold, so
    /// launch files and dumps give their values rather than their bits.
    pub fn value_leaves(&self, offset: u64, out: &mut Vec<(u64, Leaf)>) {
        match self {
            Type::Struct(st) if st.name == HALF_STRUCT => out.push((offset, Leaf::Half)),
            Type::Struct(st) if st.name == BFLOAT16_STRUCT => out.push((offset, Leaf::BFloat16)),
            Type::Array(e, ArrayLen::Const(n)) => {
                let size = e.size().unwrap_or(0);
                for k in 0..*n {
                    e.value_leaves(offset + k * size, out);
                }
            }
            Type::Struct(st) => {
                for f in &st.fields {
                    f.ty.value_leaves(offset + f.offset, out);
                }
            }
            Type::Pointer(_) => out.push((offset, Leaf::Pointer)),
            _ => {
                let mut leaves = Vec::new();
                self.scalar_leaves(offset, &mut leaves);
                out.extend(leaves.into_iter().map(|(o, s)| (o, Leaf::Scalar(s))));
            }
        }
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }
    /// Size in bytes; `None` for void, unsized arrays and launch-time lengths.
    pub fn size(&self) -> Option<u64> {
        match self {
            Type::Void => None,
            Type::Scalar(s) => Some(s.size() as u64),
            // CUDA aligns 2- and 4-vectors to their full size; 3-vectors are packed.
            Type::Vector(s, n) => Some(s.size() as u64 * *n as u64),
            Type::Pointer(_) => Some(8),
            // A size past u64 is no size: callers report the type as unsupported.
            Type::Array(e, ArrayLen::Const(n)) => e.size().and_then(|s| s.checked_mul(*n)),
            Type::Array(_, _) => None,
            Type::Struct(s) => Some(s.size),
        }
    }
    /// Alignment in bytes, as nvcc lays out CUDA's types.
    pub fn align(&self) -> u64 {
        match self {
            Type::Void => 1,
            Type::Scalar(s) => s.size() as u64,
            Type::Vector(s, 3) => s.size() as u64,
            Type::Vector(s, n) => s.size() as u64 * *n as u64,
            Type::Pointer(_) => 8,
            Type::Array(e, _) => e.align(),
            Type::Struct(s) => s.align,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scalar::{self, *};
    use super::{Arith, RecordKind, StructType, Type};

    #[test]
    fn arithmetic_is_carried_out_in_the_promoted_type() {
        let all = [Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64];
        for s in all {
            assert_eq!(Arith::of(s).scalar(), s.promoted(), "{s:?}");
        }
        for a in Arith::ALL {
            assert_eq!(Arith::of(a.scalar()), a);
        }
        let names: Vec<String> = Arith::ALL
            .iter()
            .map(|a| serde_json::to_string(a).unwrap())
            .collect();
        assert_eq!(
            names,
            ["\"i32\"", "\"u32\"", "\"i64\"", "\"u64\"", "\"f32\"", "\"f64\""]
        );
    }

    #[test]
    fn struct_layout_follows_the_c_abi() {
        let inner = StructType::new(
            "In",
            RecordKind::Struct,
            vec![("c".into(), Type::Scalar(I8)), ("d".into(), Type::DOUBLE)],
        )
        .unwrap();
        assert_eq!((inner.size, inner.align), (16, 8));
        let s = StructType::new(
            "S",
            RecordKind::Struct,
            vec![
                ("a".into(), Type::Scalar(I8)),
                ("b".into(), Type::INT),
                ("v".into(), Type::Vector(F32, 3)),
                ("w".into(), Type::Vector(F32, 4)),
                ("in".into(), Type::Struct(std::sync::Arc::new(inner))),
                ("t".into(), Type::Scalar(I16)),
            ],
        )
        .unwrap();
        let offsets: Vec<u64> = s.fields.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, vec![0, 4, 8, 32, 48, 64]);
        assert_eq!((s.size, s.align), (80, 16));
        let empty = StructType::new("E", RecordKind::Struct, vec![]).unwrap();
        assert_eq!((empty.size, empty.align), (1, 1));
    }

    #[test]
    fn usual_arithmetic_conversions_follow_c() {
        let cases: [(Scalar, Scalar, Scalar); 9] = [
            (I8, U16, I32),
            (Bool, I32, I32),
            (I32, U32, U32),
            (U32, I64, I64),
            (I32, U64, U64),
            (I64, U64, U64),
            (U8, U32, U32),
            (I64, F32, F32),
            (F32, F64, F64),
        ];
        for (a, b, want) in cases {
            assert_eq!(Scalar::usual_arithmetic(a, b), want, "{a:?} with {b:?}");
            assert_eq!(Scalar::usual_arithmetic(b, a), want, "{b:?} with {a:?}");
        }
    }
}
