//! Textures, emulated as read-only loads, and surfaces, as loads and stores.
//!
//! A texture object parameter (`cudaTextureObject_t t`) becomes the array it
//! reads, `const T *__restrict__ t`, followed by `int t_width` and
//! `int t_height`, and `int t_depth` when it is read with `tex3D` or
//! `int t_layers` when it is layered; `T` is the type its fetches name
//! (`tex2D<float>(t, x, y)`). A 3-D texture is stored x fastest, then y,
//! then z; a layered one layer after layer; a cubemap's six square faces
//! (+x, -x, +y, -y, +z, -z) one after another, and a layered cubemap's
//! layers of six faces. A surface object (`cudaSurfaceObject_t s`) becomes a
//! writable `T *s` with the same extents, `T` named by its reads or by the
//! host code's channel descriptor. A legacy texture
//! reference (`texture<float, 2> t;` at file scope) becomes the same
//! parameters, appended to each kernel that reads it. The launch file binds
//! them like any buffer and scalar.
//!
//! Fetches are the loads the texture unit would make, written out:
//! `tex1Dfetch(t, i)` is `t[i]`; `tex1D`/`tex2D` take float coordinates
//! (scaled by the extent when normalized), point sampling reads the texel
//! `floor(x)`, linear filtering blends the two (four) texels around
//! `x - 0.5` with the weight in 8-bit fixed point as the hardware keeps it.
//! Out-of-range texels are clamped, read as zero in border mode, or, with
//! normalized coordinates, wrapped or mirrored (the index taken modulo the
//! extent, or modulo twice it and reflected). `tex3D` blends eight texels;
//! a layered fetch clamps its layer; `texCubemap(t, x, y, z)` picks the face
//! of the major axis and reads it at `((s / m + 1) / 2, (t / m + 1) / 2)`
//! as the programming guide's cubemap table gives `s`, `t` and `m`, clamped
//! at the face's edges. Surface accesses take the x-coordinate in bytes;
//! out of range they trap (`__trap()`, a fault in the emulator), clamp, or
//! read zero and write nothing, as their boundary mode says. The
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
    /// `cudaAddressModeWrap`: the coordinate repeats (normalized coordinates only).
    Wrap,
    /// `cudaAddressModeMirror`: the coordinate repeats, every other copy mirrored.
    Mirror,
}

/// How a texture's texels are laid out, from the fetches that read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Shape {
    /// 1-D or 2-D: `t[j * t_width + i]`.
    Plain,
    /// 3-D: `t[(k * t_height + j) * t_width + i]`, with `t_depth`.
    Volume,
    /// 1-D or 2-D layers, one after another, with `t_layers`.
    Layered,
    /// Six square faces of `t_width` texels a side, one after another.
    Cubemap,
    /// Layers of six faces each, with `t_layers`.
    CubemapLayered,
}

impl Shape {
    /// The parameter after `t_width` and `t_height`, if any.
    fn extra_extent(self) -> Option<&'static str> {
        match self {
            Shape::Volume => Some("_depth"),
            Shape::Layered | Shape::CubemapLayered => Some("_layers"),
            Shape::Plain | Shape::Cubemap => None,
        }
    }
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
    /// A surface object: a writable array read and written with byte x-coordinates.
    pub surface: bool,
    pub elem: Type,
    pub dims: u8,
    pub shape: Shape,
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
    /// The layouts its fetches imply.
    shapes: Vec<Shape>,
}

/// Each fetch with the number of its coordinates (0: an integer index) and
/// the layout it reads.
const FETCHES: &[(&str, u8, Shape)] = &[
    ("tex1Dfetch", 0, Shape::Plain),
    ("tex1D", 1, Shape::Plain),
    ("tex2D", 2, Shape::Plain),
    ("tex3D", 3, Shape::Volume),
    ("tex1DLayered", 1, Shape::Layered),
    ("tex2DLayered", 2, Shape::Layered),
    ("texCubemap", 3, Shape::Cubemap),
    ("texCubemapLayered", 3, Shape::CubemapLayered),
];

/// Surface accesses: name, dimensions, whether it writes.
const SURFACES: &[(&str, u8, bool)] = &[
    ("surf1Dread", 1, false),
    ("surf2Dread", 2, false),
    ("surf3Dread", 3, false),
    ("surf1Dwrite", 1, true),
    ("surf2Dwrite", 2, true),
    ("surf3Dwrite", 3, true),
];

/// Texture reads hone does not emulate; their diagnostics name them.
fn unsupported_fetch(name: &str) -> bool {
    name.starts_with("tex1D")
        || name.starts_with("tex2D")
        || name.starts_with("tex3D")
        || name.starts_with("texCubemap")
        || name.starts_with("surf")
}

fn fetch_kind(name: &str) -> Option<(u8, Shape)> {
    FETCHES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, d, s)| (*d, *s))
}

fn surface_kind(name: &str) -> Option<(u8, bool)> {
    SURFACES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, d, w)| (*d, *w))
}

/// Where the texture or surface argument of call `name` is: after the
/// value a write stores or the `&v` a read fills in.
fn object_arg_at(name: &str, first: Option<Node>) -> usize {
    let writes = surface_kind(name).is_some_and(|(_, w)| w);
    let out_param = first.is_some_and(|a| {
        a.kind() == "pointer_expression" && a.child(0).is_some_and(|op| op.kind() == "&")
    });
    usize::from(writes || out_param)
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
            let kind = fetch_kind(fname).or(surface_kind(fname).map(|(d, _)| (d, Shape::Plain)));
            if let Some((dims, shape)) = kind {
                let args = n
                    .child_by_field_name("arguments")
                    .map(syntax::named_children)
                    .unwrap_or_default();
                let at = object_arg_at(fname, args.first().copied());
                if let Some(a) = args.get(at).filter(|a| a.kind() == "identifier") {
                    let u = out.entry(syntax::text(*a, src).to_string()).or_default();
                    u.coord_dims = u.coord_dims.max(dims);
                    let shape = if surface_kind(fname).is_some() && dims == 3 {
                        Shape::Volume
                    } else {
                        shape
                    };
                    if !u.shapes.contains(&shape) {
                        u.shapes.push(shape);
                    }
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
    let linear = one(field("filterMode")).as_deref() == Some("cudaFilterModeLinear");
    let norm_field = if name.is_some() {
        "normalized"
    } else {
        "normalizedCoords"
    };
    let normalized_coords = matches!(one(field(norm_field)).as_deref(), Some("true") | Some("1"));
    // Wrapping and mirroring apply to normalized coordinates only; with
    // unnormalized ones the texture unit clamps.
    let address = match one(field("addressMode")).as_deref() {
        Some("cudaAddressModeBorder") => Address::Border,
        Some("cudaAddressModeWrap") if normalized_coords => Address::Wrap,
        Some("cudaAddressModeMirror") if normalized_coords => Address::Mirror,
        _ => Address::Clamp,
    };
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
    if !(1..=3).contains(&dims) {
        return Err(l.error(
            t,
            "texture",
            format!("texture reference `{name}` of type {dims} is not supported (1-, 2- and 3-dimensional ones are)"),
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
    let ptr = if b.surface {
        Type::Pointer(Box::new(PointerType {
            pointee: b.elem.clone(),
            pointee_const: false,
            restrict: false,
            pointee_volatile: false,
        }))
    } else {
        read_only(&b.elem)
    };
    let param = |name: String, ty: Type| Param {
        name,
        qt: QualType::new(ty),
        span,
        by_ref: false,
    };
    let mut out = vec![param(name.to_string(), ptr)];
    if coord_dims >= 1 {
        out.push(param(format!("{name}_width"), Type::INT));
    }
    if coord_dims >= 2 {
        out.push(param(format!("{name}_height"), Type::INT));
    }
    if let Some(suffix) = b.shape.extra_extent() {
        out.push(param(format!("{name}{suffix}"), Type::INT));
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
        let surface = match tname {
            "cudaTextureObject_t" | "CUtexObject" => false,
            "cudaSurfaceObject_t" | "CUsurfObject" => true,
            _ => return None,
        };
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
        // The layout is the one this function's reads imply or, for an
        // object only passed on, the one the file's reads do.
        let file_uses = body_uses(root, self.ctx.src);
        let mut shapes = uses
            .get(&name)
            .map(|u| u.shapes.clone())
            .unwrap_or_default();
        if shapes.is_empty() {
            for u in file_uses.values() {
                for sh in &u.shapes {
                    if *sh != Shape::Plain && !shapes.contains(sh) {
                        shapes.push(*sh);
                    }
                }
            }
        }
        let shape = match shapes.as_slice() {
            [] => Shape::Plain,
            [one] => *one,
            _ => {
                return Some(Err(self.error(
                    p,
                    "texture",
                    format!("`{name}` is read as textures of different kinds ({shapes:?})"),
                )))
            }
        };
        if surface {
            return Some(self.surface_object_param(p, name, shape, &uses, root));
        }
        let elem_at = uses
            .get(&name)
            .and_then(|u| u.elem)
            .or_else(|| file_uses.values().filter_map(|u| u.elem).min());
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
            surface: false,
            elem,
            dims: if shape == Shape::Plain { 2 } else { 3 },
            shape,
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

    /// A `cudaSurfaceObject_t` parameter: `T *s`, `int s_width`,
    /// `int s_height` (and `int s_depth` for 3-D accesses), `T` named by its
    /// reads (`surf2Dread<float>(...)`) or the host code's channel descriptor.
    fn surface_object_param(
        &mut self,
        p: Node,
        name: String,
        shape: Shape,
        uses: &HashMap<String, Uses>,
        root: Node,
    ) -> LResult<Vec<Param>> {
        let named = uses
            .get(&name)
            .and_then(|u| u.elem)
            .or_else(|| host_channel_type(self.ctx.src))
            .and_then(|(s, e)| find_node(root, s, e));
        let elem = match (named, host_channel_bits(self.ctx.src)) {
            (Some(t), _) => self.type_descriptor(t)?,
            (None, Some(t)) => t,
            (None, None) => {
                return Err(self.error(
                    p,
                    "surface",
                    format!("the element type of surface `{name}` is not named: neither its reads (`surf2Dread<float>(...)`) nor the host code's one channel descriptor name it"),
                ))
            }
        };
        let b = TextureBinding {
            object: true,
            surface: true,
            elem,
            dims: if shape == Shape::Volume { 3 } else { 2 },
            shape,
            normalized_float: false,
            sampling: host_sampling(self.ctx.src, None),
        };
        let params = texture_params(&name, &b, 2, self.span(p));
        self.textures.insert(name, b);
        Ok(params)
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
        let mut names = vec![
            name.to_string(),
            format!("{name}_width"),
            format!("{name}_height"),
        ];
        if let Some(suffix) = self.textures[name].shape.extra_extent() {
            names.push(format!("{name}{suffix}"));
        }
        for n in names {
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
                surface: false,
                elem: r.elem,
                dims: r.dims,
                shape: if r.dims == 3 {
                    Shape::Volume
                } else {
                    Shape::Plain
                },
                normalized_float: r.normalized_float,
                sampling: r.sampling,
            };
            out.extend(texture_params(name, &b, uses[name].coord_dims, span));
            self.textures.insert(name.clone(), b);
        }
        out
    }

    /// `tex1Dfetch<T>(obj, i)`, `tex2D(texref, x, y)`, `surf2Dwrite(v, s, x, y)`,
    /// ...; `None` for other names.
    pub(crate) fn texture_fetch(
        &mut self,
        n: Node,
        name: &str,
        targs: Option<&[Node]>,
        args: &[Node],
    ) -> Option<LResult<Expr>> {
        if !unsupported_fetch(name) {
            return None;
        }
        if let Some((dims, writes)) = surface_kind(name) {
            return Some(self.surface_access(n, name, dims, writes, targs, args));
        }
        let Some((dims, shape)) = fetch_kind(name) else {
            return Some(Err(self.error(
                n,
                name,
                format!("`{name}` is not supported (tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered, texCubemap, texCubemapLayered and surf1D/2D/3D read and write are)"),
            )));
        };
        // `tex2D(&v, t, x, y)` stores the texel in `v`.
        if object_arg_at(name, args.first().copied()) == 1 {
            return Some(self.fetch_into(n, name, dims, shape, args));
        }
        Some(self.fetch(n, name, dims, shape, args))
    }

    fn fetch_into(
        &mut self,
        n: Node,
        name: &str,
        dims: u8,
        shape: Shape,
        args: &[Node],
    ) -> LResult<Expr> {
        let texel = self.fetch(n, name, dims, shape, &args[1..])?;
        let target = args[0].child_by_field_name("argument").unwrap_or(args[0]);
        let lhs = self.expr(target)?;
        let value = self.convert(texel, &lhs.ty.clone(), args[0], "texture value")?;
        Ok(build::assign(lhs, value, self.span(n)))
    }

    /// The variable a texture's parameter `name` became.
    fn bound_var(&mut self, n: Node, name: &str) -> LResult<Expr> {
        let span = self.span(n);
        match self.lookup(name).cloned() {
            Some(Entry::Var(id)) => Ok(build::var(id, &self.var(id).ty.clone(), span)),
            _ => Err(self.error(n, "texture", format!("`{name}` is not bound"))),
        }
    }

    /// The texture argument `a` of a fetch, with its binding.
    fn texture_arg(&mut self, n: Node, a: Node) -> LResult<(TextureBinding, Expr)> {
        let tex = self.text(a).to_string();
        let Some(b) = self.textures.get(&tex).cloned() else {
            let declared_at = self.ctx.texture_ref(&tex).map(|r| r.declared_at);
            let msg = if declared_at.is_some_and(|at| at > n.start_byte()) {
                format!("texture reference `{tex}` is read before its declaration")
            } else if declared_at.is_some() {
                format!("texture reference `{tex}` read in a __device__ function: only kernels read texture references (pass the value in)")
            } else {
                format!("`{tex}` is not a texture this function can read (a cudaTextureObject_t parameter or a texture reference)")
            };
            return Err(self.error(a, "texture", msg));
        };
        let base = self.bound_var(a, &tex)?;
        Ok((b, base))
    }

    /// Coordinates lowered, refusing side effects: the fetch reads them
    /// more than once.
    fn coords(&mut self, args: &[Node], ty: &Type, what: &str) -> LResult<Vec<Expr>> {
        let mut out = Vec::new();
        for a in args {
            let e = self.expr(*a)?;
            if has_effects(&e) {
                return Err(self.error(
                    *a,
                    "texture",
                    format!("{what}s with side effects are not supported"),
                ));
            }
            let mut e = self.convert(e, ty, *a, what)?;
            // The call converts integer coordinates to `int`; printed
            // without the cast, an unsigned expression would compare and
            // divide as unsigned.
            if ty == &Type::INT {
                if let ExprKind::Cast { implicit, .. } = &mut e.kind {
                    *implicit = false;
                }
            }
            out.push(e);
        }
        Ok(out)
    }

    fn fetch(
        &mut self,
        n: Node,
        name: &str,
        dims: u8,
        shape: Shape,
        args: &[Node],
    ) -> LResult<Expr> {
        let layered = matches!(shape, Shape::Layered | Shape::CubemapLayered);
        let want = if dims == 0 {
            2
        } else {
            1 + dims as usize + usize::from(layered)
        };
        if args.len() != want {
            return Err(self.error(
                n,
                "texture",
                format!("`{name}` takes {want} arguments, {} given", args.len()),
            ));
        }
        let (b, base) = self.texture_arg(n, args[0])?;
        let tex = self.text(args[0]).to_string();
        if b.surface {
            return Err(self.error(
                args[0],
                "texture",
                format!("`{name}` on surface `{tex}`: surfaces are read with surf1Dread, surf2Dread and surf3Dread"),
            ));
        }
        let span = self.span(n);
        let texel = if dims == 0 {
            let mut i = self
                .coords(&args[1..], &Type::INT, "texture index")?
                .remove(0);
            // The fetch converts its index to `int`; the printed array
            // index would imply no conversion, so it is written out.
            if let ExprKind::Cast { implicit, .. } = &mut i.kind {
                *implicit = false;
            }
            build::index(base, i)
        } else {
            if shape != b.shape || dims > b.dims {
                return Err(self.error(
                    n,
                    "texture",
                    format!("`{name}` on texture `{tex}`, which this function reads as {:?} with {} dimensions", b.shape, b.dims),
                ));
            }
            let coord_args = &args[1..1 + dims as usize];
            let coords = self.coords(coord_args, &Type::FLOAT, "texture coordinate")?;
            let layer = if layered {
                let l = self
                    .coords(&args[want - 1..], &Type::INT, "texture layer")?
                    .remove(0);
                let layers = self.bound_var(n, &format!("{tex}_layers"))?;
                Some(clamp(l, &layers, span))
            } else {
                None
            };
            let width = self.bound_var(n, &format!("{tex}_width"))?;
            let (coords, extents, plane, sampling) = match shape {
                Shape::Cubemap | Shape::CubemapLayered => {
                    let (face, u, v) = cube_face(&coords, span);
                    let plane = match layer {
                        Some(l) => build::arith(
                            BinaryOp::Add,
                            build::arith(BinaryOp::Mul, l, build::lit(6, span)),
                            face,
                        ),
                        None => face,
                    };
                    // Face coordinates are normalized; each face is clamped
                    // at its edges.
                    let s = Sampling {
                        address: Address::Clamp,
                        normalized_coords: true,
                        ..b.sampling
                    };
                    (vec![u, v], vec![width.clone(), width], Some(plane), s)
                }
                _ => {
                    let mut extents = vec![width];
                    for suffix in ["_height", "_depth"].iter().take(dims as usize - 1) {
                        extents.push(self.bound_var(n, &format!("{tex}{suffix}"))?);
                    }
                    (coords, extents, layer, b.sampling)
                }
            };
            let grid = Grid {
                base: &base,
                extents: &extents,
                plane: plane.as_ref(),
                address: sampling.address,
            };
            if sampling.linear {
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
                return Ok(linear(&grid, &coords, sampling, norm, span));
            } else {
                let idx: Vec<Expr> = coords
                    .iter()
                    .zip(&extents)
                    .map(|(c, w)| floor_int(scaled(c.clone(), w, sampling), span))
                    .collect();
                grid.texel(&idx, span)
            }
        };
        match self.normalization(n, &b)? {
            Some(max) => Ok(per_component(&texel, |c| normalized(c, max, span), span)),
            None => Ok(texel),
        }
    }

    /// `surf2Dread<T>(s, x, y[, mode])`, `surf2Dread(&v, s, x, y[, mode])`,
    /// `surf2Dwrite(v, s, x, y[, mode])`, ...: the x-coordinate counts bytes;
    /// out-of-range accesses trap (the default), are clamped, or read zero
    /// and write nothing.
    fn surface_access(
        &mut self,
        n: Node,
        name: &str,
        dims: u8,
        writes: bool,
        targs: Option<&[Node]>,
        args: &[Node],
    ) -> LResult<Expr> {
        let at = object_arg_at(name, args.first().copied());
        let want = 1 + at + dims as usize;
        if args.len() != want && args.len() != want + 1 {
            return Err(self.error(
                n,
                "surface",
                format!(
                    "`{name}` takes {want} arguments and a boundary mode, {} given",
                    args.len()
                ),
            ));
        }
        let surf = self.text(args[at]).to_string();
        let b = match self.textures.get(&surf) {
            Some(b) if b.surface => b.clone(),
            _ => {
                return Err(self.error(
                    args[at],
                    "surface",
                    format!("`{surf}` is not a surface this function can access (a cudaSurfaceObject_t parameter)"),
                ))
            }
        };
        if dims > b.dims {
            return Err(self.error(
                n,
                "surface",
                format!("`{name}` on {}-dimensional surface `{surf}`", b.dims),
            ));
        }
        let base = self.bound_var(args[at], &surf)?;
        let span = self.span(n);
        let mode = match args.get(want).map(|m| self.text(*m).trim().to_string()) {
            None => Boundary::Trap,
            Some(m) => match m.as_str() {
                "cudaBoundaryModeTrap" => Boundary::Trap,
                "cudaBoundaryModeClamp" => Boundary::Clamp,
                "cudaBoundaryModeZero" => Boundary::Zero,
                _ => {
                    return Err(self.error(
                        args[want],
                        "surface",
                        format!("boundary mode `{m}` (cudaBoundaryModeTrap, cudaBoundaryModeClamp or cudaBoundaryModeZero)"),
                    ))
                }
            },
        };
        let Some(size) = b.elem.size().filter(|s| *s > 0) else {
            return Err(self.error(n, "surface", "surface element of unknown size"));
        };
        let mut idx = self.coords(&args[at + 1..want], &Type::INT, "surface coordinate")?;
        idx[0] = build::arith(BinaryOp::Div, idx[0].clone(), build::lit(size, span));
        let mut extents = Vec::new();
        for suffix in ["_width", "_height", "_depth"].iter().take(dims as usize) {
            extents.push(self.bound_var(n, &format!("{surf}{suffix}"))?);
        }
        let inside = inside(&idx, &extents, span);
        let at_index = |idx: &[Expr]| build::index(base.clone(), linear_index(idx, &extents, None));
        let element = match mode {
            Boundary::Trap => {
                let trap = build::mk(
                    ExprKind::Comma(
                        Box::new(build::mk(
                            ExprKind::Intrinsic(Intrinsic::Trap, vec![]),
                            Type::Void,
                            span,
                        )),
                        Box::new(build::lit(0, span)),
                    ),
                    Type::INT,
                    span,
                );
                build::index(
                    base.clone(),
                    build::select(inside.clone(), linear_index(&idx, &extents, None), trap),
                )
            }
            Boundary::Clamp => {
                let c: Vec<Expr> = idx
                    .iter()
                    .zip(&extents)
                    .map(|(i, e)| clamp(i.clone(), e, span))
                    .collect();
                at_index(&c)
            }
            Boundary::Zero => at_index(&idx),
        };
        if writes {
            let value = self.expr(args[0])?;
            if mode == Boundary::Zero && has_effects(&value) {
                return Err(self.error(
                    args[0],
                    "surface",
                    "a value with side effects written with cudaBoundaryModeZero is not supported",
                ));
            }
            let value = self.convert(value, &b.elem, args[0], "surface value")?;
            let store = build::assign(element, value, span);
            return Ok(match mode {
                Boundary::Zero => build::logic(
                    BinaryOp::LogicAnd,
                    inside,
                    build::mk(
                        ExprKind::Comma(
                            Box::new(store),
                            Box::new(build::mk(ExprKind::BoolLit(true), Type::BOOL, span)),
                        ),
                        Type::BOOL,
                        span,
                    ),
                ),
                _ => store,
            });
        }
        let read = match mode {
            Boundary::Zero => {
                build::select(inside, element, build::conv(build::lit(0, span), &b.elem))
            }
            _ => element,
        };
        if let Some(t) = targs.and_then(|t| t.first()) {
            let named = self.type_descriptor(*t)?;
            if named.size() != b.elem.size() {
                return Err(self.error(
                    *t,
                    "surface",
                    format!(
                        "`{name}<{}>` on surface `{surf}` of {}-byte elements",
                        self.text(*t),
                        size
                    ),
                ));
            }
        }
        if at == 1 {
            let target = args[0].child_by_field_name("argument").unwrap_or(args[0]);
            let lhs = self.expr(target)?;
            let read = self.convert(read, &lhs.ty.clone(), args[0], "surface value")?;
            return Ok(build::assign(lhs, read, span));
        }
        Ok(read)
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

/// What a surface access does out of range.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Boundary {
    /// A fault (`__trap()`).
    Trap,
    Clamp,
    /// Reads zero, writes nothing.
    Zero,
}

/// Whether every index lies in `0..extent`.
fn inside(idx: &[Expr], extents: &[Expr], span: Span) -> Expr {
    let mut all: Option<Expr> = None;
    for (i, n) in idx.iter().zip(extents) {
        let lo = build::compare(BinaryOp::Ge, i.clone(), build::lit(0, span));
        let hi = build::compare(BinaryOp::Lt, i.clone(), n.clone());
        let both = build::logic(BinaryOp::LogicAnd, lo, hi);
        all = Some(match all {
            Some(acc) => build::logic(BinaryOp::LogicAnd, acc, both),
            None => both,
        });
    }
    all.unwrap_or_else(|| build::mk(ExprKind::BoolLit(true), Type::BOOL, span))
}

/// `((i % n) + n) % n`: the index repeated with period `n`.
fn wrap(i: Expr, n: &Expr) -> Expr {
    build::arith(
        BinaryOp::Rem,
        build::arith(
            BinaryOp::Add,
            build::arith(BinaryOp::Rem, i, n.clone()),
            n.clone(),
        ),
        n.clone(),
    )
}

/// The index mirrored at each edge: `m = wrap(i, 2n)`, then `m` or `2n - 1 - m`.
fn mirror(i: Expr, n: &Expr, span: Span) -> Expr {
    let two_n = build::arith(BinaryOp::Mul, n.clone(), build::lit(2, span));
    let m = wrap(i, &two_n);
    let back = build::arith(
        BinaryOp::Sub,
        build::arith(BinaryOp::Sub, two_n, build::lit(1, span)),
        m.clone(),
    );
    build::select(build::compare(BinaryOp::Lt, m.clone(), n.clone()), m, back)
}

/// The texels a fetch reads: the array, its extents, the layer (or face)
/// its coordinates index into, and the addressing mode.
struct Grid<'e> {
    base: &'e Expr,
    extents: &'e [Expr],
    plane: Option<&'e Expr>,
    address: Address,
}

impl Grid<'_> {
    /// The texel at integer coordinates `idx` with the addressing mode applied.
    fn texel(&self, idx: &[Expr], span: Span) -> Expr {
        let elem = self.base.ty.pointee().cloned().unwrap_or(Type::FLOAT);
        let each = |f: &dyn Fn(Expr, &Expr) -> Expr| -> Vec<Expr> {
            idx.iter()
                .zip(self.extents)
                .map(|(i, n)| f(i.clone(), n))
                .collect()
        };
        let at = |idx: &[Expr]| {
            build::index(
                self.base.clone(),
                linear_index(idx, self.extents, self.plane),
            )
        };
        match self.address {
            Address::Clamp => at(&each(&|i, n| clamp(i, n, span))),
            Address::Wrap => at(&each(&|i, n| wrap(i, n))),
            Address::Mirror => at(&each(&|i, n| mirror(i, n, span))),
            Address::Border => {
                let zero = build::conv(build::lit(0, span), &elem);
                build::select(inside(idx, self.extents, span), at(idx), zero)
            }
        }
    }
}

/// `i`, `j * width + i` or `(k * height + j) * width + i`, after `plane`
/// whole planes of the extents' size.
fn linear_index(idx: &[Expr], extents: &[Expr], plane: Option<&Expr>) -> Expr {
    let mut out = idx.last().cloned().unwrap_or_else(|| unreachable!());
    let mut outer = plane.cloned();
    for k in (0..idx.len()).rev() {
        if k + 1 < idx.len() {
            out = build::arith(
                BinaryOp::Add,
                build::arith(BinaryOp::Mul, out, extents[k].clone()),
                idx[k].clone(),
            );
        }
        if k + 1 == idx.len() {
            if let Some(p) = outer.take() {
                out = build::arith(
                    BinaryOp::Add,
                    build::arith(BinaryOp::Mul, p, extents[k].clone()),
                    out,
                );
            }
        }
    }
    out
}

/// The face a cubemap direction `(x, y, z)` selects and the normalized
/// coordinates on it: the major axis picks the face (+x, -x, +y, -y, +z, -z:
/// 0 to 5; ties go to x, then y), and with `m` the major component's
/// magnitude and `(s, t)` the table's pair for that face,
/// `u = (s / m + 1) / 2`, `v = (t / m + 1) / 2`.
fn cube_face(c: &[Expr], span: Span) -> (Expr, Expr, Expr) {
    let (x, y, z) = (c[0].clone(), c[1].clone(), c[2].clone());
    let abs = |e: &Expr| math(MathOp::Fabs, true, vec![e.clone()], Type::FLOAT, span);
    let neg = |e: &Expr| {
        build::mk(
            ExprKind::Unary(hone_ir::UnaryOp::Neg, Box::new(e.clone())),
            Type::FLOAT,
            span,
        )
    };
    let ge = |a: Expr, b: Expr| build::compare(BinaryOp::Ge, a, b);
    let nonneg = |e: &Expr| ge(e.clone(), flit(0.0, span));
    let pick = |c: Expr, a: i64, b: i64| {
        build::select(c, build::lit(a as u64, span), build::lit(b as u64, span))
    };
    let x_major = build::logic(
        BinaryOp::LogicAnd,
        ge(abs(&x), abs(&y)),
        ge(abs(&x), abs(&z)),
    );
    let face = build::select(
        x_major,
        pick(nonneg(&x), 0, 1),
        build::select(
            ge(abs(&y), abs(&z)),
            pick(nonneg(&y), 2, 3),
            pick(nonneg(&z), 4, 5),
        ),
    );
    let is = |k: u64| build::compare(BinaryOp::Eq, face.clone(), build::lit(k, span));
    let below = |k: u64| build::compare(BinaryOp::Lt, face.clone(), build::lit(k, span));
    let s = build::select(
        is(0),
        neg(&z),
        build::select(is(1), z.clone(), build::select(is(5), neg(&x), x.clone())),
    );
    let t = build::select(is(2), z.clone(), build::select(is(3), neg(&z), neg(&y)));
    let m = build::select(below(2), abs(&x), build::select(below(4), abs(&y), abs(&z)));
    let half = |e: Expr| {
        build::arith(
            BinaryOp::Mul,
            build::arith(
                BinaryOp::Add,
                build::arith(BinaryOp::Div, e, m.clone()),
                flit(1.0, span),
            ),
            flit(0.5, span),
        )
    };
    (face, half(s), half(t))
}

/// Linear filtering: the texels around `c - 0.5` blended with weights in
/// 8-bit fixed point (`rintf(frac * 256) / 256`, as the texture unit keeps
/// them), each component of a vector texel on its own; an integer texture
/// read as normalized floats (`norm`: the value of 1.0) is blended after the
/// conversion, as the texture unit does.
fn linear(grid: &Grid, coords: &[Expr], s: Sampling, norm: Option<f64>, span: Span) -> Expr {
    let mut lows = Vec::new();
    let mut weights = Vec::new();
    for (c, w) in coords.iter().zip(grid.extents) {
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
    let lerp = |a: Expr, b: Expr, t: &Expr| {
        // a + t * (b - a)
        build::arith(
            BinaryOp::Add,
            a.clone(),
            build::arith(BinaryOp::Mul, t.clone(), build::arith(BinaryOp::Sub, b, a)),
        )
    };
    // Blends along the last `k` axes, the earlier ones fixed at `fixed`.
    fn blend(
        at: &dyn Fn(Vec<Expr>) -> Expr,
        lerp: &dyn Fn(Expr, Expr, &Expr) -> Expr,
        lows: &[Expr],
        weights: &[Expr],
        fixed: Vec<Expr>,
        span: Span,
    ) -> Expr {
        let d = fixed.len();
        if d == lows.len() {
            // Coordinates run x first: the fixed list holds them outermost first.
            let mut idx = fixed;
            idx.reverse();
            return at(idx);
        }
        let axis = lows.len() - 1 - d;
        let i = lows[axis].clone();
        let next = build::arith(BinaryOp::Add, i.clone(), build::lit(1, span));
        let mut lo = fixed.clone();
        lo.push(i);
        let mut hi = fixed;
        hi.push(next);
        lerp(
            blend(at, lerp, lows, weights, lo, span),
            blend(at, lerp, lows, weights, hi, span),
            &weights[axis],
        )
    }
    let value = |c: Expr| match norm {
        Some(max) => normalized(c, max, span),
        None => c,
    };
    let elem = grid.base.ty.pointee().cloned().unwrap_or(Type::FLOAT);
    match elem {
        Type::Vector(_, n) => float_vector(
            n,
            |k| {
                blend(
                    &|idx: Vec<Expr>| value(component(grid.texel(&idx, span), k, span)),
                    &lerp,
                    &lows,
                    &weights,
                    Vec::new(),
                    span,
                )
            },
            span,
        ),
        _ => blend(
            &|idx: Vec<Expr>| value(grid.texel(&idx, span)),
            &lerp,
            &lows,
            &weights,
            Vec::new(),
            span,
        ),
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
