//! Textures, emulated as read-only loads.
//!
//! A texture object parameter (`cudaTextureObject_t t`) becomes the array it
//! reads, `const T *__restrict__ t`, followed by `int t_width` (and
//! `int t_height` for 2D reads) where coordinates need the extent; `T` is
//! the type its fetches name (`tex2D<float>(t, x, y)`). A legacy texture
//! reference (`texture<float, 2> t;` at file scope) becomes the same
//! parameters, appended to each kernel that reads it. The launch file binds
//! them like any buffer and scalar.
//!
//! Fetches are the loads the texture unit would make, written out:
//! `tex1Dfetch(t, i)` is `t[i]`; `tex1D`/`tex2D` take float coordinates
//! (scaled by the extent when normalized), point sampling reads the texel
//! `floor(x)`, linear filtering blends the two (four) texels around
//! `x - 0.5` with the weight in 8-bit fixed point as the hardware keeps it.
//! Out-of-range texels are clamped, or read as zero in border mode. The
//! addressing and filter modes are those the host code sets
//! (`t.filterMode = cudaFilterModeLinear;`, or a `cudaTextureDesc`'s fields
//! for objects); both default to point sampling with clamping.

use std::collections::HashMap;

use hone_ir::build;
use hone_ir::{
    BinaryOp, Expr, ExprKind, Intrinsic, MathFn, MathOp, PointerType, Scalar, Span, Type,
};
use tree_sitter::Node;

use super::func::{Entry, FnLowerer, LResult, Param};
use super::{ModuleCtx, QualType};
use crate::syntax;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Address {
    Clamp,
    Border,
}

/// How a texture is sampled, from the host code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sampling {
    pub address: Address,
    pub linear: bool,
    pub normalized_coords: bool,
}

/// A legacy texture reference declared at file scope.
#[derive(Clone, Debug)]
pub(crate) struct TextureRef {
    pub elem: Type,
    pub dims: u8,
    /// `cudaReadModeNormalizedFloat`: integer texels read as floats in [0, 1].
    pub normalized_float: bool,
    pub sampling: Sampling,
    /// Where its declaration starts: only functions after it can read it,
    /// as in C++.
    pub declared_at: usize,
}

/// A texture a function reads, bound to its parameters.
#[derive(Clone, Debug)]
pub(crate) struct TextureBinding {
    /// A texture object (a parameter, passed on to calls) rather than a reference.
    pub object: bool,
    pub elem: Type,
    pub dims: u8,
    pub normalized_float: bool,
    pub sampling: Sampling,
}

/// What the fetches in a function body say about texture `name`.
#[derive(Clone, Debug, Default)]
struct Uses {
    /// The element type node of `tex2D<T>(...)`.
    elem: Option<(usize, usize)>,
    /// Largest dimension read with float coordinates (0: `tex1Dfetch` only).
    coord_dims: u8,
}

const FETCHES: &[(&str, u8)] = &[("tex1Dfetch", 0), ("tex1D", 1), ("tex2D", 2)];

/// Texture reads hone does not emulate; their diagnostics name them.
fn unsupported_fetch(name: &str) -> bool {
    name.starts_with("tex1D")
        || name.starts_with("tex2D")
        || name.starts_with("tex3D")
        || name.starts_with("texCubemap")
        || name.starts_with("surf")
}

fn fetch_dims(name: &str) -> Option<u8> {
    FETCHES.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Which textures a function body reads, by the first argument of its fetches.
fn body_uses(body: Node, src: &str) -> HashMap<String, Uses> {
    let mut out: HashMap<String, Uses> = HashMap::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "call_expression" {
            let f = n.child_by_field_name("function");
            let (fname, targs) = match f {
                Some(f) if f.kind() == "identifier" => (syntax::text(f, src), None),
                Some(f) if f.kind() == "template_function" => (
                    f.child_by_field_name("name")
                        .map(|c| syntax::text(c, src))
                        .unwrap_or(""),
                    f.child_by_field_name("arguments")
                        .and_then(|a| syntax::named_children(a).into_iter().next()),
                ),
                _ => ("", None),
            };
            if let Some(dims) = fetch_dims(fname) {
                let first = n
                    .child_by_field_name("arguments")
                    .and_then(|a| syntax::named_children(a).into_iter().next());
                if let Some(a) = first.filter(|a| a.kind() == "identifier") {
                    let u = out.entry(syntax::text(a, src).to_string()).or_default();
                    u.coord_dims = u.coord_dims.max(dims);
                    if u.elem.is_none() {
                        u.elem = targs.map(|t| (t.start_byte(), t.end_byte()));
                    }
                }
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}

/// The sampling the host code sets: for a reference `name`, its own fields;
/// for objects (`name` is `None`), the fields of the file's texture
/// descriptors when they agree.
pub(crate) fn host_sampling(src: &str, name: Option<&str>) -> Sampling {
    let field = |f: &str| host_field(src, name, f);
    let one = |vals: Vec<String>| {
        if vals.len() == 1 {
            vals.into_iter().next()
        } else {
            None
        }
    };
    let address = match one(field("addressMode")).as_deref() {
        Some("cudaAddressModeBorder") => Address::Border,
        _ => Address::Clamp,
    };
    let linear = one(field("filterMode")).as_deref() == Some("cudaFilterModeLinear");
    let norm_field = if name.is_some() {
        "normalized"
    } else {
        "normalizedCoords"
    };
    let normalized_coords = matches!(one(field(norm_field)).as_deref(), Some("true") | Some("1"));
    Sampling {
        address,
        linear,
        normalized_coords,
    }
}

/// Whether the file's texture descriptors read texture objects as
/// normalized floats (`desc.readMode = cudaReadModeNormalizedFloat`).
fn host_normalized_float(src: &str) -> bool {
    host_field(src, None, "readMode") == ["cudaReadModeNormalizedFloat"]
}

/// The byte range of `T` in the file's one `cudaCreateChannelDesc<T>()`
/// (the texels' type), when all its channel descriptors name one type.
fn host_channel_type(src: &str) -> Option<(usize, usize)> {
    const CALL: &str = "cudaCreateChannelDesc<";
    let mut found: Option<(usize, usize)> = None;
    let mut from = 0;
    while let Some(i) = src[from..].find(CALL) {
        let start = from + i + CALL.len();
        let end = start + src[start..].find('>')?;
        let (s, e) = (
            start + (src[start..end].len() - src[start..end].trim_start().len()),
            start + src[start..end].trim_end().len(),
        );
        match found {
            Some((fs, fe)) if src[fs..fe] != src[s..e] => return None,
            None => found = Some((s, e)),
            _ => {}
        }
        from = end;
    }
    found
}

/// The texel type of the file's channel descriptors written with bit counts
/// (`cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned)`), when
/// they all name one.
fn host_channel_bits(src: &str) -> Option<Type> {
    const CALL: &str = "cudaCreateChannelDesc(";
    let mut found: Option<Type> = None;
    let mut from = 0;
    while let Some(i) = src[from..].find(CALL) {
        let start = from + i + CALL.len();
        let end = start + src[start..].find(')')?;
        from = end;
        let args: Vec<&str> = src[start..end].split(',').map(str::trim).collect();
        let [x, y, z, w, kind] = args.as_slice() else {
            return None;
        };
        let bits: Vec<u32> = [x, y, z, w]
            .iter()
            .map(|b| b.parse().ok())
            .collect::<Option<_>>()?;
        let n = bits.iter().filter(|&&b| b > 0).count() as u8;
        if n == 0 || bits[1..n as usize].iter().any(|&b| b != bits[0]) {
            return None;
        }
        let scalar = match (*kind, bits[0]) {
            ("cudaChannelFormatKindUnsigned", 8) => Scalar::U8,
            ("cudaChannelFormatKindUnsigned", 16) => Scalar::U16,
            ("cudaChannelFormatKindUnsigned", 32) => Scalar::U32,
            ("cudaChannelFormatKindSigned", 8) => Scalar::I8,
            ("cudaChannelFormatKindSigned", 16) => Scalar::I16,
            ("cudaChannelFormatKindSigned", 32) => Scalar::I32,
            ("cudaChannelFormatKindFloat", 32) => Scalar::F32,
            _ => return None,
        };
        let t = if n == 1 {
            Type::Scalar(scalar)
        } else {
            Type::Vector(scalar, n)
        };
        match &found {
            Some(f) if *f != t => return None,
            _ => found = Some(t),
        }
    }
    found
}

/// The values the host code assigns to field `f` of texture reference
/// `name`'s, or (`None`) of any texture descriptor's, each once.
fn host_field(src: &str, name: Option<&str>, f: &str) -> Vec<String> {
    let mut vals = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find(f) {
        let before = &rest[..i];
        let after = &rest[i + f.len()..];
        rest = after;
        let owner_ok = match name {
            Some(n) => {
                before.trim_end().ends_with(&format!("{n}.")) || before.ends_with(&format!("{n}."))
            }
            None => before.ends_with('.'),
        };
        if !owner_ok {
            continue;
        }
        // `[0]` of addressMode, then `=`.
        let after = after.trim_start();
        let after = match after.strip_prefix('[') {
            Some(a) => a.split_once(']').map(|(_, r)| r).unwrap_or(a),
            None => after,
        };
        let Some(value) = after.trim_start().strip_prefix('=') else {
            continue;
        };
        let v: String = value
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !vals.contains(&v) {
            vals.push(v);
        }
    }
    vals
}

/// `texture<T, dims, mode>` of a file-scope declaration.
pub(crate) fn texture_ref_type(l: &mut FnLowerer, t: Node, name: &str) -> LResult<TextureRef> {
    let args = t
        .child_by_field_name("arguments")
        .map(syntax::named_children)
        .unwrap_or_default();
    let Some(first) = args.first() else {
        return Err(l.error(t, "texture", "`texture<...>` without an element type"));
    };
    let elem = l.type_descriptor(*first)?;
    let dims = match args.get(1) {
        Some(d) => l.const_int(*d, "texture dimension")?,
        None => 1,
    };
    if !(1..=2).contains(&dims) {
        return Err(l.error(
            t,
            "texture",
            format!("{dims}-dimensional texture reference `{name}` is not supported (1 and 2 are)"),
        ));
    }
    let normalized_float = args
        .get(2)
        .is_some_and(|m| l.text(*m).contains("cudaReadModeNormalizedFloat"));
    Ok(TextureRef {
        elem,
        dims: dims as u8,
        normalized_float,
        sampling: host_sampling(l.ctx.src, Some(name)),
        declared_at: t.start_byte(),
    })
}

fn read_only(elem: &Type) -> Type {
    Type::Pointer(Box::new(PointerType {
        pointee: elem.clone(),
        pointee_const: true,
        restrict: true,
        pointee_volatile: false,
    }))
}

/// The parameters a texture becomes.
fn texture_params(name: &str, b: &TextureBinding, coord_dims: u8, span: Span) -> Vec<Param> {
    let param = |name: String, ty: Type| Param {
        name,
        qt: QualType::new(ty),
        span,
        by_ref: false,
    };
    let mut out = vec![param(name.to_string(), read_only(&b.elem))];
    if coord_dims >= 1 {
        out.push(param(format!("{name}_width"), Type::INT));
    }
    if coord_dims >= 2 {
        out.push(param(format!("{name}_height"), Type::INT));
    }
    out
}

fn function_body<'t>(n: Node<'t>) -> Option<Node<'t>> {
    let mut cur = Some(n);
    while let Some(c) = cur {
        if c.kind() == "function_definition" {
            return c.child_by_field_name("body");
        }
        cur = c.parent();
    }
    None
}

impl ModuleCtx<'_> {
    fn texture_ref(&self, name: &str) -> Option<&TextureRef> {
        self.texture_refs.get(name)
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// A `cudaTextureObject_t` parameter as the parameters it becomes, or
    /// `None` for any other parameter.
    pub(crate) fn texture_object_param(&mut self, p: Node) -> Option<LResult<Vec<Param>>> {
        let t = p.child_by_field_name("type")?;
        let tname = self.text(t).trim();
        if tname != "cudaTextureObject_t" && tname != "CUtexObject" {
            return None;
        }
        let name = match p.child_by_field_name("declarator") {
            Some(d) if d.kind() == "identifier" => self.text(d).to_string(),
            _ => {
                return Some(Err(self.error(
                    p,
                    "texture",
                    "a texture object parameter must be a plain named parameter",
                )))
            }
        };
        let Some(body) = function_body(p) else {
            return Some(Err(self.error(
                p,
                "texture",
                format!("texture object `{name}` in a declaration without a body"),
            )));
        };
        // The element type is the one this function's reads name or, for an
        // object only passed on, the first one named in the file.
        let uses = body_uses(body, self.ctx.src);
        let mut root = body;
        while let Some(parent) = root.parent() {
            root = parent;
        }
        let elem_at = uses.get(&name).and_then(|u| u.elem).or_else(|| {
            body_uses(root, self.ctx.src)
                .values()
                .filter_map(|u| u.elem)
                .min()
        });
        let Some((s, e)) = elem_at else {
            return Some(Err(self.error(
                p,
                "texture",
                format!("the reads of texture object `{name}` do not name their type (`tex2D<float>(...)`)"),
            )));
        };
        let Some(tnode) = find_node(root, s, e) else {
            return Some(Err(self.error(
                p,
                "texture",
                "texture element type not found",
            )));
        };
        let fetched = match self.type_descriptor(tnode) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        // Normalized-float reads name the float type they return; the
        // texels are the channel descriptor's integers.
        let normalized_float = host_normalized_float(self.ctx.src)
            && matches!(component_scalar(&fetched), Some(Scalar::F32));
        let elem = if normalized_float {
            let named = host_channel_type(self.ctx.src).and_then(|(s, e)| find_node(root, s, e));
            match (named, host_channel_bits(self.ctx.src)) {
                (Some(cnode), _) => match self.type_descriptor(cnode) {
                    Ok(t) => t,
                    Err(e) => return Some(Err(e)),
                },
                (None, Some(t)) => t,
                (None, None) => {
                    return Some(Err(self.error(
                        p,
                        "texture",
                        format!("texture object `{name}` is read as normalized floats, but the file names no one channel type (`cudaCreateChannelDesc<uchar4>()`)"),
                    )))
                }
            }
        } else {
            fetched
        };
        let b = TextureBinding {
            object: true,
            elem,
            dims: 2,
            normalized_float,
            sampling: host_sampling(self.ctx.src, None),
        };
        let span = self.span(p);
        // Always the pointer, width and height, so that every function taking
        // the object has the same parameters and calls can pass it on.
        let params = texture_params(&name, &b, 2, span);
        self.textures.insert(name, b);
        Some(Ok(params))
    }

    /// A texture object argument as the values of the parameters it became.
    pub(crate) fn texture_object_arg(&mut self, a: Node) -> Option<Vec<Expr>> {
        if a.kind() != "identifier" {
            return None;
        }
        let name = self.text(a);
        if !self.textures.get(name).is_some_and(|b| b.object) {
            return None;
        }
        let span = self.span(a);
        let mut out = Vec::new();
        for n in [
            name.to_string(),
            format!("{name}_width"),
            format!("{name}_height"),
        ] {
            match self.lookup(&n).cloned() {
                Some(Entry::Var(id)) => out.push(build::var(id, &self.var(id).ty.clone(), span)),
                _ => return None,
            }
        }
        Some(out)
    }

    /// Parameters appended to a kernel for the texture references it reads.
    pub(crate) fn texture_ref_params(&mut self, function: Node) -> Vec<Param> {
        let Some(body) = function.child_by_field_name("body") else {
            return Vec::new();
        };
        let uses = body_uses(body, self.ctx.src);
        // A function's signature must not depend on how far the collector
        // has read: a reference declared after the function is not in scope.
        let mut names: Vec<&String> = uses
            .keys()
            .filter(|n| {
                self.ctx
                    .texture_ref(n)
                    .is_some_and(|r| r.declared_at < function.start_byte())
            })
            .collect();
        names.sort();
        let span = self.span(function);
        let mut out = Vec::new();
        for name in names {
            let r = self
                .ctx
                .texture_ref(name)
                .cloned()
                .unwrap_or_else(|| unreachable!());
            if self.lookup(name).is_some() {
                continue;
            }
            let b = TextureBinding {
                object: false,
                elem: r.elem,
                dims: r.dims,
                normalized_float: r.normalized_float,
                sampling: r.sampling,
            };
            out.extend(texture_params(name, &b, uses[name].coord_dims, span));
            self.textures.insert(name.clone(), b);
        }
        out
    }

    /// `tex1Dfetch<T>(obj, i)`, `tex2D(texref, x, y)`, ...; `None` for other names.
    pub(crate) fn texture_fetch(
        &mut self,
        n: Node,
        name: &str,
        _targs: Option<&[Node]>,
        args: &[Node],
    ) -> Option<LResult<Expr>> {
        if !unsupported_fetch(name) {
            return None;
        }
        let Some(dims) = fetch_dims(name) else {
            return Some(Err(self.error(
                n,
                name,
                format!("`{name}` is not supported (tex1Dfetch, tex1D and tex2D are)"),
            )));
        };
        Some(self.fetch(n, name, dims, args))
    }

    fn fetch(&mut self, n: Node, name: &str, dims: u8, args: &[Node]) -> LResult<Expr> {
        let want = if dims == 0 { 2 } else { 1 + dims as usize };
        if args.len() != want {
            return Err(self.error(
                n,
                "texture",
                format!("`{name}` takes {want} arguments, {} given", args.len()),
            ));
        }
        let tex = self.text(args[0]).to_string();
        let Some(b) = self.textures.get(&tex).cloned() else {
            let declared_at = self.ctx.texture_ref(&tex).map(|r| r.declared_at);
            let msg = if declared_at.is_some_and(|at| at > n.start_byte()) {
                format!("texture reference `{tex}` is read before its declaration")
            } else if declared_at.is_some() {
                format!("texture reference `{tex}` read in a __device__ function: only kernels read texture references (pass the value in)")
            } else {
                format!("`{tex}` is not a texture this function can read (a cudaTextureObject_t parameter or a texture reference)")
            };
            return Err(self.error(args[0], "texture", msg));
        };
        let base = match self.lookup(&tex).cloned() {
            Some(Entry::Var(id)) => build::var(id, &self.var(id).ty.clone(), self.span(args[0])),
            _ => {
                return Err(self.error(args[0], "texture", format!("texture `{tex}` is not bound")))
            }
        };
        let span = self.span(n);
        let mut coords = Vec::new();
        for a in &args[1..] {
            let e = self.expr(*a)?;
            if has_effects(&e) {
                return Err(self.error(
                    *a,
                    "texture",
                    "texture coordinates with side effects are not supported",
                ));
            }
            coords.push(e);
        }
        let texel = if dims == 0 {
            let mut i = self.convert(coords.remove(0), &Type::INT, args[1], "texture index")?;
            // The fetch converts its index to `int`; the printed array
            // index would imply no conversion, so it is written out.
            if let ExprKind::Cast { implicit, .. } = &mut i.kind {
                *implicit = false;
            }
            build::index(base, i)
        } else {
            if dims > b.dims {
                return Err(self.error(
                    n,
                    "texture",
                    format!("`{name}` on {}-dimensional texture `{tex}`", b.dims),
                ));
            }
            let mut extents = Vec::new();
            for suffix in ["_width", "_height"].iter().take(dims as usize) {
                let ext = format!("{tex}{suffix}");
                match self.lookup(&ext).cloned() {
                    Some(Entry::Var(id)) => extents.push(build::var(id, &Type::INT, span)),
                    _ => return Err(self.error(n, "texture", format!("`{ext}` is not bound"))),
                }
            }
            let mut fc = Vec::new();
            for (c, a) in coords.into_iter().zip(&args[1..]) {
                fc.push(self.convert(c, &Type::FLOAT, *a, "texture coordinate")?);
            }
            if b.sampling.linear {
                let norm = match self.normalization(n, &b)? {
                    Some(max) => Some(max),
                    None if component_scalar(&b.elem) == Some(Scalar::F32) => None,
                    None => {
                        return Err(self.error(
                            n,
                            "texture",
                            "linear filtering reads float textures, or integer ones as normalized floats",
                        ))
                    }
                };
                return Ok(linear(&base, &fc, &extents, b.sampling, norm, span));
            } else {
                let idx: Vec<Expr> = fc
                    .iter()
                    .zip(&extents)
                    .map(|(c, w)| floor_int(scaled(c.clone(), w, b.sampling), span))
                    .collect();
                texel_at(&base, &idx, &extents, b.sampling.address, span)
            }
        };
        match self.normalization(n, &b)? {
            Some(max) => Ok(per_component(&texel, |c| normalized(c, max, span), span)),
            None => Ok(texel),
        }
    }

    /// For a texture read as normalized floats, the integer value that reads
    /// as 1.0.
    fn normalization(&mut self, n: Node, b: &TextureBinding) -> LResult<Option<f64>> {
        if !b.normalized_float {
            return Ok(None);
        }
        let Some(s) = component_scalar(&b.elem).filter(|s| s.is_integer()) else {
            return Err(self.error(
                n,
                "texture",
                "cudaReadModeNormalizedFloat on a non-integer texture",
            ));
        };
        Ok(Some(match s {
            Scalar::U8 => 255.0,
            Scalar::I8 => 127.0,
            Scalar::U16 => 65535.0,
            Scalar::I16 => 32767.0,
            _ => {
                return Err(self.error(
                    n,
                    "texture",
                    "cudaReadModeNormalizedFloat on a 32-bit texture",
                ))
            }
        }))
    }
}

/// Component `k` of a vector value.
fn component(v: Expr, k: u8, span: Span) -> Expr {
    let s = component_scalar(&v.ty).unwrap_or(Scalar::F32);
    build::mk(ExprKind::Component(Box::new(v), k), Type::Scalar(s), span)
}

/// The float vector of `n` components `f(0)`, `f(1)`, ...
fn float_vector(n: u8, f: impl Fn(u8) -> Expr, span: Span) -> Expr {
    build::mk(
        ExprKind::Intrinsic(Intrinsic::MakeVector, (0..n).map(f).collect()),
        Type::Vector(Scalar::F32, n),
        span,
    )
}

/// The scalar of a scalar or vector type.
fn component_scalar(t: &Type) -> Option<Scalar> {
    match t {
        Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
        _ => None,
    }
}

/// An integer texel component as the float in [0, 1] (or [-1, 1]) it reads as.
fn normalized(c: Expr, max: f64, span: Span) -> Expr {
    build::arith(BinaryOp::Div, build::cast(c, &Type::FLOAT), flit(max, span))
}

/// `f` applied to a scalar value, or to each component of a vector value
/// (the components gathered again into a float vector).
fn per_component(v: &Expr, f: impl Fn(Expr) -> Expr, span: Span) -> Expr {
    match v.ty {
        Type::Vector(_, n) => float_vector(n, |k| f(component(v.clone(), k, span)), span),
        _ => f(v.clone()),
    }
}

/// The `type_descriptor` spanning `start..end` (the innermost node of that
/// range is the type's name inside it).
fn find_node(root: Node, start: usize, end: usize) -> Option<Node> {
    let mut n = root.descendant_for_byte_range(start, end)?;
    while n.kind() != "type_descriptor" {
        n = n
            .parent()
            .filter(|p| p.start_byte() == start && p.end_byte() == end)?;
    }
    Some(n)
}

fn has_effects(e: &Expr) -> bool {
    let mut found = false;
    hone_ir::visit::visit_expr(e, &mut |x: &Expr| {
        if matches!(
            x.kind,
            ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::Call(..)
        ) {
            found = true;
        }
    });
    found
}

fn flit(v: f64, span: Span) -> Expr {
    build::mk(ExprKind::FloatLit(v), Type::FLOAT, span)
}

fn math(op: MathOp, f32: bool, args: Vec<Expr>, ty: Type, span: Span) -> Expr {
    build::mk(
        ExprKind::Intrinsic(Intrinsic::Math(MathFn { func: op, f32 }), args),
        ty,
        span,
    )
}

/// A coordinate in texels: normalized coordinates times the extent.
fn scaled(c: Expr, extent: &Expr, s: Sampling) -> Expr {
    if s.normalized_coords {
        build::arith(BinaryOp::Mul, c, extent.clone())
    } else {
        c
    }
}

/// `(int)floorf(c)`.
fn floor_int(c: Expr, span: Span) -> Expr {
    build::cast(
        math(MathOp::Floor, true, vec![c], Type::FLOAT, span),
        &Type::INT,
    )
}

/// `min(max(i, 0), n - 1)`.
fn clamp(i: Expr, n: &Expr, span: Span) -> Expr {
    let lo = math(
        MathOp::Max,
        false,
        vec![i, build::lit(0, span)],
        Type::INT,
        span,
    );
    let hi = build::arith(BinaryOp::Sub, n.clone(), build::lit(1, span));
    math(MathOp::Min, false, vec![lo, hi], Type::INT, span)
}

/// The texel at integer coordinates `idx` with the addressing mode applied.
fn texel_at(base: &Expr, idx: &[Expr], extents: &[Expr], address: Address, span: Span) -> Expr {
    let elem = base.ty.pointee().cloned().unwrap_or(Type::FLOAT);
    match address {
        Address::Clamp => {
            let c: Vec<Expr> = idx
                .iter()
                .zip(extents)
                .map(|(i, n)| clamp(i.clone(), n, span))
                .collect();
            build::index(base.clone(), linear_index(&c, extents))
        }
        Address::Border => {
            let mut inside: Option<Expr> = None;
            for (i, n) in idx.iter().zip(extents) {
                let lo = build::compare(BinaryOp::Ge, i.clone(), build::lit(0, span));
                let hi = build::compare(BinaryOp::Lt, i.clone(), n.clone());
                let both = build::logic(BinaryOp::LogicAnd, lo, hi);
                inside = Some(match inside {
                    Some(acc) => build::logic(BinaryOp::LogicAnd, acc, both),
                    None => both,
                });
            }
            let load = build::index(base.clone(), linear_index(idx, extents));
            let zero = build::conv(build::lit(0, span), &elem);
            match inside {
                Some(c) => build::select(c, load, zero),
                None => load,
            }
        }
    }
}

/// `i` or `j * width + i`.
fn linear_index(idx: &[Expr], extents: &[Expr]) -> Expr {
    match idx {
        [i] => i.clone(),
        [i, j] => build::arith(
            BinaryOp::Add,
            build::arith(BinaryOp::Mul, j.clone(), extents[0].clone()),
            i.clone(),
        ),
        _ => idx[0].clone(),
    }
}

/// Linear filtering: the texels around `c - 0.5` blended with weights in
/// 8-bit fixed point (`rintf(frac * 256) / 256`, as the texture unit keeps
/// them), each component of a vector texel on its own; an integer texture
/// read as normalized floats (`norm`: the value of 1.0) is blended after the
/// conversion, as the texture unit does.
fn linear(
    base: &Expr,
    coords: &[Expr],
    extents: &[Expr],
    s: Sampling,
    norm: Option<f64>,
    span: Span,
) -> Expr {
    let mut lows = Vec::new();
    let mut weights = Vec::new();
    for (c, w) in coords.iter().zip(extents) {
        let x = build::arith(BinaryOp::Sub, scaled(c.clone(), w, s), flit(0.5, span));
        let fl = math(MathOp::Floor, true, vec![x.clone()], Type::FLOAT, span);
        let frac = build::arith(BinaryOp::Sub, x, fl.clone());
        let q = math(
            MathOp::Round,
            true,
            vec![build::arith(BinaryOp::Mul, frac, flit(256.0, span))],
            Type::FLOAT,
            span,
        );
        weights.push(build::arith(BinaryOp::Div, q, flit(256.0, span)));
        lows.push(build::cast(fl, &Type::INT));
    }
    let one = |e: &Expr| build::arith(BinaryOp::Add, e.clone(), build::lit(1, span));
    let lerp = |a: Expr, b: Expr, t: &Expr| {
        // a + t * (b - a)
        build::arith(
            BinaryOp::Add,
            a.clone(),
            build::arith(BinaryOp::Mul, t.clone(), build::arith(BinaryOp::Sub, b, a)),
        )
    };
    let elem = base.ty.pointee().cloned().unwrap_or(Type::FLOAT);
    let blend = |at: &dyn Fn(Vec<Expr>) -> Expr| match lows.as_slice() {
        [i] => lerp(at(vec![i.clone()]), at(vec![one(i)]), &weights[0]),
        [i, j] => {
            let top = lerp(
                at(vec![i.clone(), j.clone()]),
                at(vec![one(i), j.clone()]),
                &weights[0],
            );
            let bottom = lerp(
                at(vec![i.clone(), one(j)]),
                at(vec![one(i), one(j)]),
                &weights[0],
            );
            lerp(top, bottom, &weights[1])
        }
        _ => at(lows.clone()),
    };
    let value = |c: Expr| match norm {
        Some(max) => normalized(c, max, span),
        None => c,
    };
    match elem {
        Type::Vector(_, n) => float_vector(
            n,
            |k| {
                blend(&|idx: Vec<Expr>| {
                    value(component(
                        texel_at(base, &idx, extents, s.address, span),
                        k,
                        span,
                    ))
                })
            },
            span,
        ),
        _ => blend(&|idx: Vec<Expr>| value(texel_at(base, &idx, extents, s.address, span))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_types_come_from_the_host_code() {
        let src = "cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();";
        let (s, e) = host_channel_type(src).expect("one type");
        assert_eq!(&src[s..e], "uchar4");
        let two = "cudaCreateChannelDesc<uchar4>(); cudaCreateChannelDesc<float>();";
        assert_eq!(host_channel_type(two), None);
        let bits = "cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);";
        assert_eq!(host_channel_bits(bits), Some(Type::Scalar(Scalar::U8)));
        let four = "cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindSigned)";
        assert_eq!(host_channel_bits(four), Some(Type::Vector(Scalar::I16, 4)));
        assert_eq!(
            host_channel_bits("cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned)"),
            None
        );
        assert!(host_normalized_float(
            "d.readMode = cudaReadModeNormalizedFloat;"
        ));
        assert!(!host_normalized_float(
            "d.readMode = cudaReadModeElementType;"
        ));
    }
}
