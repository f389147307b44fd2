//! C types from declaration specifiers and declarators.

use hone_ir::{ArrayLen, PointerType, Scalar, Type};
use tree_sitter::Node;

use super::func::{Entry, FnLowerer, LResult};
use super::{names, QualType, TypeEntry};
use crate::syntax;

/// What a declaration says besides its declarators.
#[derive(Default)]
pub(crate) struct Specs<'t> {
    pub ty: Option<Node<'t>>,
    pub is_const: bool,
    pub volatile: Option<Node<'t>>,
    pub shared: bool,
    pub constant: bool,
    pub device: bool,
    pub global: bool,
    pub host: bool,
    pub managed: bool,
    pub extern_: bool,
    pub static_: bool,
    pub forceinline: bool,
    pub noinline: bool,
    pub constexpr: bool,
    pub launch_bounds: Option<Node<'t>>,
}

impl Specs<'_> {
    /// The inlining attribute the function keeps for the printer.
    pub fn inline(&self) -> Option<String> {
        if self.forceinline {
            Some("__forceinline__".to_string())
        } else if self.noinline {
            Some("__noinline__".to_string())
        } else {
            None
        }
    }
}

/// How array lengths in a declarator are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArrayCtx {
    /// Parameters: constant lengths; the array itself becomes a pointer
    /// (`float a[][16]` is `float (*a)[16]`).
    Param,
    /// Locals: lengths must be constant; an empty `[]` is allowed (sized by the initializer).
    Local,
    /// `__shared__`: lengths may be launch-time expressions.
    Shared,
    /// Everywhere else (typedefs, casts, file scope): constant lengths only.
    Const,
}

pub(crate) struct Declared<'t> {
    pub name: Option<String>,
    /// `T &name`: a C++ reference to `qt`.
    pub is_ref: bool,
    pub qt: QualType,
    /// The parameter list when the declarator declares a function.
    pub params: Option<Node<'t>>,
    /// The name (or the declarator when abstract), for spans.
    pub node: Node<'t>,
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    pub fn specs<'t>(&mut self, node: Node<'t>) -> LResult<Specs<'t>> {
        let mut s = Specs::default();
        let mut cursor = node.walk();
        let kids: Vec<(Option<&str>, Node<'t>)> = node
            .children(&mut cursor)
            .enumerate()
            .map(|(i, c)| (node.field_name_for_child(i as u32), c))
            .collect();
        for (field, c) in kids {
            match field {
                Some("type") => {
                    s.ty = Some(c);
                    continue;
                }
                Some(_) => continue,
                None => {}
            }
            let text = self.text(c).trim();
            match c.kind() {
                "type_qualifier"
                | "storage_class_specifier"
                | "__global__"
                | "__device__"
                | "__host__"
                | "__forceinline__"
                | "__noinline__"
                | "virtual" => match text {
                    "const" => s.is_const = true,
                    "constexpr" => {
                        s.is_const = true;
                        s.constexpr = true;
                    }
                    "volatile" => s.volatile = Some(c),
                    // Restrict on a non-pointer means nothing; `__grid_constant__`
                    // and `register` do not change the semantics hone models.
                    "restrict" | "__restrict__" | "__restrict" | "__grid_constant__"
                    | "register" | "inline" | "__inline" | "__inline__" => {}
                    "__shared__" => s.shared = true,
                    "__constant__" => s.constant = true,
                    "__device__" => s.device = true,
                    "__global__" => s.global = true,
                    "__host__" => s.host = true,
                    "__managed__" => s.managed = true,
                    "extern" => s.extern_ = true,
                    "static" => s.static_ = true,
                    "__forceinline__" => s.forceinline = true,
                    "__noinline__" => s.noinline = true,
                    other => {
                        let other = other.to_string();
                        return Err(self.error(c, &other, format!("`{other}` is not supported")));
                    }
                },
                "launch_bounds" => s.launch_bounds = Some(c),
                "explicit_function_specifier" => {
                    return Err(self.error(c, "class", "C++ class members are not supported"))
                }
                _ => {}
            }
        }
        Ok(s)
    }

    /// The type named by the specifiers, with their `const`.
    pub fn base_type(&mut self, specs: &Specs, node: Node) -> LResult<QualType> {
        let Some(t) = specs.ty else {
            return Err(self.error(node, "declaration", "declaration without a type"));
        };
        let mut qt = self.type_node(t)?;
        qt.is_const |= specs.is_const;
        qt.is_volatile |= specs.volatile.is_some();
        Ok(qt)
    }

    pub(crate) fn type_node(&mut self, t: Node) -> LResult<QualType> {
        let text = self.text(t);
        match t.kind() {
            "primitive_type" => match names::primitive_type(text) {
                Some(ty) => Ok(QualType::new(ty)),
                None => Err(self.error(t, text, format!("type `{text}` is not supported"))),
            },
            "sized_type_specifier" => self.sized_type(t),
            "type_identifier" => self.named_type(t, text),
            "qualified_identifier"
                if !names::is_cooperative_groups(text) && !text.contains('<') =>
            {
                // A type in a namespace: namespaces share the file's one scope.
                let key: String = text.split_whitespace().collect();
                let last = key.rsplit("::").next().unwrap_or(&key).to_string();
                self.named_type(t, &last)
            }
            "qualified_identifier" | "nested_namespace_specifier" | "dependent_type" => {
                // `ns::S<T>`: namespaces share the file's one scope.
                let named = t
                    .child_by_field_name("name")
                    .filter(|n| n.kind() == "template_type");
                if let Some(n) = named.filter(|_| !names::is_cooperative_groups(text)) {
                    if let Some(ty) = self.class_instance_type(n)? {
                        return Ok(QualType::new(ty));
                    }
                }
                if names::is_cooperative_groups(text) {
                    Err(self.error(
                        t,
                        "cooperative groups",
                        "cooperative groups are not supported",
                    ))
                } else {
                    Err(self.error(
                        t,
                        "qualified name",
                        format!("qualified type `{text}` is not supported"),
                    ))
                }
            }
            "template_type" => {
                if let Some(ty) = self.class_instance_type(t)? {
                    return Ok(QualType::new(ty));
                }
                let name = t
                    .child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or("");
                if names::is_texture_type(name) {
                    Err(self.error(
                        t,
                        "texture",
                        "texture and surface references are not supported",
                    ))
                } else {
                    Err(self.error(
                        t,
                        "template",
                        format!("class template `{text}` is not supported"),
                    ))
                }
            }
            "struct_specifier" | "union_specifier" | "class_specifier" => {
                if let Some(st) = self.ctx.anon_structs.get(&t.start_byte()) {
                    return Ok(QualType::new(Type::Struct(st.clone())));
                }
                // A named struct nested in a class template's instance is
                // bound by its name (`Collector::define_record_as`).
                let bound = |l: &Self, n: Node| matches!(l.lookup(l.text(n)), Some(Entry::Type(_)));
                match t.child_by_field_name("name") {
                    Some(n) if t.child_by_field_name("body").is_none() || bound(self, n) => {
                        let name = self.text(n);
                        self.named_type(n, name)
                    }
                    _ => Err(self.error(
                        t,
                        "struct",
                        "struct definitions are supported at file scope only",
                    )),
                }
            }
            "enum_specifier" => Err(self.error(t, "enum", "enum types are not supported; use int")),
            "placeholder_type_specifier" => Err(self.error(t, "auto", "`auto` is not supported")),
            "decltype" => Err(self.error(t, "decltype", "`decltype` is not supported")),
            k => {
                let k = k.to_string();
                Err(self.error(t, &k, format!("type `{text}` is not supported")))
            }
        }
    }

    fn sized_type(&mut self, t: Node) -> LResult<QualType> {
        let (mut unsigned, mut longs, mut short) = (false, 0, false);
        let mut base = None;
        for c in syntax::children(t) {
            match self.text(c) {
                "unsigned" => unsigned = true,
                "signed" => {}
                "long" => longs += 1,
                "short" => short = true,
                other => base = Some((c, other)),
            }
        }
        use Scalar::*;
        let s = match base.map(|b| b.1) {
            None | Some("int") => match (short, longs > 0, unsigned) {
                (true, _, false) => I16,
                (true, _, true) => U16,
                (false, true, false) => I64,
                (false, true, true) => U64,
                (false, false, false) => I32,
                (false, false, true) => U32,
            },
            Some("char") if !short && longs == 0 => {
                if unsigned {
                    U8
                } else {
                    I8
                }
            }
            // nvcc has no `long double` on the device; it is double there.
            Some("double") if !unsigned && !short => F64,
            Some(other) => {
                let n = base.map(|b| b.0).unwrap_or(t);
                return Err(self.error(
                    n,
                    "type",
                    format!("type `{}` is not supported (`{other}`)", self.text(t)),
                ));
            }
        };
        Ok(QualType::new(Type::Scalar(s)))
    }

    fn named_type(&mut self, t: Node, name: &str) -> LResult<QualType> {
        match self.lookup(name) {
            Some(Entry::Type(qt)) => return Ok(qt.clone()),
            Some(Entry::Poisoned) => return Err(super::func::Abort),
            Some(Entry::Lambda(_)) => {
                return Err(self.error(t, "lambda", format!("`{name}` is a lambda, not a type")))
            }
            Some(Entry::Group(_)) => {
                return Err(self.error(
                    t,
                    "cooperative groups",
                    format!("`{name}` stands for a cooperative group: groups are parameters and variables of their own types only"),
                ))
            }
            Some(Entry::ClassTemplate(_)) => {
                return Err(self.error(
                    t,
                    "class template",
                    format!("class template `{name}` needs its template arguments"),
                ))
            }
            Some(Entry::Var(_)) | Some(Entry::Const(..)) => {
                // `(a & (b)) & c` parses as a cast of `&c` (see `repair`).
                let in_cast = t
                    .parent()
                    .filter(|d| d.kind() == "type_descriptor")
                    .and_then(|d| d.parent())
                    .is_some_and(|c| c.kind() == "cast_expression");
                let hint = if in_cast {
                    "; the parser read the parenthesised expression as a cast: \
                     parenthesise it twice, `((...))`"
                } else {
                    ""
                };
                return Err(self.error(
                    t,
                    "type",
                    format!("`{name}` is a variable, not a type{hint}"),
                ));
            }
            None => {}
        }
        match self.ctx.typedefs.get(name) {
            Some(TypeEntry::Ok(qt)) => return Ok(qt.clone()),
            Some(TypeEntry::Unsupported { construct, message }) => {
                let (c, m) = (construct.clone(), message.clone());
                return Err(self.error(t, &c, format!("type `{name}`: {m}")));
            }
            None => {}
        }
        if let Some(ty) = names::named_type(name) {
            return Ok(QualType::new(ty));
        }
        if let Some((construct, message)) = names::unsupported_type(name) {
            return Err(self.error(t, construct, message));
        }
        Err(self.error(t, "unknown type", format!("unknown type `{name}`")))
    }

    /// Applies a declarator to a base type.
    pub fn declarator<'t>(
        &mut self,
        base: QualType,
        node: Node<'t>,
        actx: ArrayCtx,
    ) -> LResult<Declared<'t>> {
        let mut qt = base;
        let mut params: Option<Node<'t>> = None;
        let mut is_ref = false;
        let mut cur = node;
        let mut steps = 0;
        loop {
            steps += 1;
            if steps > 64 {
                return Err(self.error(cur, "declarator", "declarator is nested too deeply"));
            }
            match cur.kind() {
                "identifier" | "field_identifier" | "type_identifier" => {
                    return Ok(Declared {
                        name: Some(self.text(cur).to_string()),
                        is_ref,
                        qt,
                        params,
                        node: cur,
                    })
                }
                "pointer_declarator" | "abstract_pointer_declarator" => {
                    if params.is_some() {
                        return Err(self.error(
                            cur,
                            "function pointer",
                            "function pointers are not supported",
                        ));
                    }
                    let (mut is_const, mut restrict, mut volatile) = (false, false, false);
                    for c in syntax::children(cur) {
                        match (c.kind(), self.text(c)) {
                            ("type_qualifier", "const") => is_const = true,
                            ("type_qualifier", "restrict" | "__restrict__" | "__restrict") => {
                                restrict = true
                            }
                            ("type_qualifier", "volatile") => volatile = true,
                            ("type_qualifier", other) => {
                                let other = other.to_string();
                                return Err(self.error(
                                    c,
                                    &other,
                                    format!("`{other}` is not supported here"),
                                ));
                            }
                            // The grammar reads `__restrict` as Microsoft's modifier.
                            ("ms_pointer_modifier", "__restrict") => restrict = true,
                            ("ms_pointer_modifier", _) => {
                                return Err(self.error(
                                    c,
                                    "pointer modifier",
                                    "pointer modifiers are not supported",
                                ))
                            }
                            _ => {}
                        }
                    }
                    qt = QualType {
                        ty: Type::Pointer(Box::new(PointerType {
                            pointee: qt.ty,
                            pointee_const: qt.is_const,
                            restrict,
                            pointee_volatile: qt.is_volatile,
                        })),
                        is_const,
                        is_volatile: volatile,
                    };
                    match cur.child_by_field_name("declarator") {
                        Some(d) => cur = d,
                        None => {
                            return Ok(Declared {
                                name: None,
                                is_ref,
                                qt,
                                params,
                                node: cur,
                            })
                        }
                    }
                }
                "array_declarator" | "abstract_array_declarator" => {
                    if params.is_some() {
                        return Err(self.error(
                            cur,
                            "function pointer",
                            "functions returning arrays are not supported",
                        ));
                    }
                    if matches!(qt.ty, Type::Array(_, ArrayLen::Unsized)) {
                        return Err(self.error(
                            cur,
                            "array",
                            "only the first array dimension may be left empty",
                        ));
                    }
                    if qt.ty == Type::Void {
                        return Err(self.error(cur, "array", "array of void"));
                    }
                    let len = match cur.child_by_field_name("size") {
                        None => ArrayLen::Unsized,
                        Some(size) => self.array_len(size, actx)?,
                    };
                    qt = QualType {
                        ty: Type::Array(Box::new(qt.ty), len),
                        is_const: qt.is_const,
                        is_volatile: qt.is_volatile,
                    };
                    match cur.child_by_field_name("declarator") {
                        Some(d) => cur = d,
                        None => {
                            return Ok(Declared {
                                name: None,
                                is_ref,
                                qt,
                                params,
                                node: cur,
                            })
                        }
                    }
                }
                "function_declarator" | "abstract_function_declarator" => {
                    if params.is_some() {
                        return Err(self.error(
                            cur,
                            "function pointer",
                            "functions returning functions are not supported",
                        ));
                    }
                    if let Some(c) = syntax::named_children(cur).into_iter().find(|c| {
                        !matches!(
                            c.kind(),
                            "parameter_list" | "identifier" | "field_identifier"
                        ) && cur.child_by_field_name("declarator") != Some(*c)
                            // `const` of a member function.
                            && !(c.kind() == "type_qualifier" && self.text(*c) == "const")
                    }) {
                        let k = self.text(c).to_string();
                        return Err(self.error(
                            c,
                            "function qualifier",
                            format!("`{k}` after a parameter list is not supported"),
                        ));
                    }
                    params = cur.child_by_field_name("parameters");
                    match cur.child_by_field_name("declarator") {
                        Some(d) => cur = d,
                        None => {
                            return Ok(Declared {
                                name: None,
                                is_ref,
                                qt,
                                params,
                                node: cur,
                            })
                        }
                    }
                }
                "parenthesized_declarator" => match syntax::named_children(cur).first() {
                    Some(d) => cur = *d,
                    None => return Err(self.error(cur, "declarator", "empty declarator")),
                },
                "reference_declarator" | "abstract_reference_declarator" => {
                    if is_ref {
                        return Err(self.error(
                            cur,
                            "reference",
                            "references to references and functions returning references are not supported",
                        ));
                    }
                    if self.text(cur).trim_start().starts_with("&&") {
                        return Err(self.error(
                            cur,
                            "rvalue reference",
                            "rvalue references are not supported",
                        ));
                    }
                    is_ref = true;
                    match syntax::named_children(cur).first() {
                        Some(d) => cur = *d,
                        None => {
                            return Ok(Declared {
                                name: None,
                                is_ref,
                                qt,
                                params,
                                node: cur,
                            })
                        }
                    }
                }
                // `k<int>` of an explicit specialization, lowered as an instance.
                "template_function" if params.is_some() && self.specializing => {
                    let name = cur.child_by_field_name("name").unwrap_or(cur);
                    return Ok(Declared {
                        name: Some(self.text(name).to_string()),
                        is_ref,
                        qt,
                        params,
                        node: cur,
                    });
                }
                "operator_name" => {
                    let name: String = self.text(cur).split_whitespace().collect();
                    return Ok(Declared {
                        name: Some(name),
                        is_ref,
                        qt,
                        params,
                        node: cur,
                    });
                }
                // `S::f` of a member function defined outside its class:
                // the member is `f`.
                "qualified_identifier" if params.is_some() && self.member_declarator => {
                    let mut name = cur;
                    while name.kind() == "qualified_identifier" {
                        match name.child_by_field_name("name") {
                            Some(n) => name = n,
                            None => break,
                        }
                    }
                    if name.kind() == "destructor_name" {
                        return Err(self.error(
                            name,
                            "destructor",
                            "destructors are not supported",
                        ));
                    }
                    let text: String = self.text(name).split_whitespace().collect();
                    return Ok(Declared {
                        name: Some(text),
                        is_ref,
                        qt,
                        params,
                        node: cur,
                    });
                }
                "qualified_identifier" | "destructor_name" | "template_function" => {
                    return Err(self.error(
                        cur,
                        "class",
                        "C++ member and operator declarations are not supported",
                    ))
                }
                k => {
                    let k = k.to_string();
                    return Err(self.error(cur, &k, format!("unsupported declarator `{k}`")));
                }
            }
        }
    }

    fn array_len(&mut self, size: Node, actx: ArrayCtx) -> LResult<ArrayLen> {
        let e = self.expr(size)?;
        if !e.ty.scalar().is_some_and(|s| s.is_integer()) {
            return Err(self.error(size, "array", "array length must be an integer"));
        }
        match self.fold(&e) {
            Some(n) if n > 0 && n <= u64::MAX as i128 => Ok(ArrayLen::Const(n as u64)),
            Some(n) => Err(self.error(size, "array", format!("array length {n} is not positive"))),
            None if actx == ArrayCtx::Shared => Ok(ArrayLen::Expr(Box::new(e))),
            None if actx == ArrayCtx::Local => Err(self.error(
                size,
                "variable-length array",
                "local array length must be a constant expression",
            )),
            None => Err(self.error(size, "array", "array length must be a constant expression")),
        }
    }

    /// The underlying type of `enum E : T`, when an integer type.
    pub fn enum_base(&mut self, b: Node) -> Option<Scalar> {
        let qt = self.type_node(b).ok()?;
        qt.ty.scalar().filter(|s| s.is_integer())
    }

    /// The type of a `type_descriptor` (casts, `sizeof`, template arguments).
    pub fn type_descriptor(&mut self, node: Node) -> LResult<Type> {
        if node.kind() != "type_descriptor" {
            return Err(self.error(node, "type", "expected a type"));
        }
        let specs = self.specs(node)?;
        let base = self.base_type(&specs, node)?;
        let qt = match node.child_by_field_name("declarator") {
            Some(d) => {
                let decl = self.declarator(base, d, ArrayCtx::Const)?;
                if decl.params.is_some() {
                    return Err(self.error(
                        d,
                        "function pointer",
                        "function types are not supported",
                    ));
                }
                decl.qt
            }
            None => base,
        };
        Ok(qt.ty)
    }

    /// Whether `name` names a type in the current scope.
    pub fn is_type_name(&self, name: &str) -> bool {
        match self.lookup(name) {
            Some(Entry::Type(_)) => true,
            Some(_) => false,
            None => {
                self.ctx.typedefs.contains_key(name)
                    || names::named_type(name).is_some()
                    || names::unsupported_type(name).is_some()
            }
        }
    }

    /// Resolves a type name (already known to be one by `is_type_name`).
    pub fn type_from_name(&mut self, node: Node, name: &str) -> LResult<Type> {
        Ok(self.named_type(node, name)?.ty)
    }
}
