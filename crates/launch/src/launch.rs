//! A launch file read, its paths resolved against its folder, and resolved
//! against the kernel it names.

use std::path::{Path, PathBuf};

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_frontend::{FrontendOptions, KernelNotFound, Parsed};
use hone_ir::{Function, Type};

use crate::buffers::{buffer_bytes, make_buffer, parse_type, Pointers};
use crate::data::LaunchData;
use crate::file::{ArgSpec, BufferSpec, LaunchFile};

/// What is wrong with a launch, in words that name the file, argument or
/// buffer at fault.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub struct LaunchError(String);

impl LaunchError {
    pub fn new(message: impl Into<String>) -> LaunchError {
        LaunchError(message.into())
    }

    /// The same error under a prefix such as the launch file's path.
    pub fn context(self, prefix: impl std::fmt::Display) -> LaunchError {
        LaunchError(format!("{prefix}: {}", self.0))
    }
}

impl From<KernelNotFound> for LaunchError {
    fn from(e: KernelNotFound) -> LaunchError {
        LaunchError(e.to_string())
    }
}

/// A launch file read, with paths resolved against the launch file's folder.
pub struct Launch {
    pub file: LaunchFile,
    /// The launch file itself.
    pub path: PathBuf,
    pub source_path: PathBuf,
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<(String, Option<String>)>,
}

impl Launch {
    pub fn read(path: &Path) -> Result<Launch, LaunchError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LaunchError(format!("cannot read launch file {}: {e}", path.display())))?;
        Launch::from_json(&text, path)
    }

    /// A launch file's text, as if read from `path` (which names it in errors
    /// and is the folder its paths are relative to).
    pub fn from_json(text: &str, path: &Path) -> Result<Launch, LaunchError> {
        // The path to the field at fault (`args.in.len`) goes in the message.
        let invalid = |field: String, e: serde_json::Error| {
            let at = if field.is_empty() || field == "." {
                String::new()
            } else {
                format!(" in `{field}`")
            };
            LaunchError(format!(
                "{}:{}:{}: invalid launch file{at}: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
        };
        let mut de = serde_json::Deserializer::from_str(text);
        let file: LaunchFile = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let field = e.path().to_string();
            invalid(field, e.into_inner())
        })?;
        de.end().map_err(|e| invalid(String::new(), e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let source_path = base.join(&file.source);
        let include_dirs = file.include.iter().map(|p| base.join(p)).collect();
        let defines = file
            .defines
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    serde_json::Value::String(s) => Some(s.clone()),
                    serde_json::Value::Null => None,
                    other => Some(other.to_string()),
                };
                (k.clone(), value)
            })
            .collect();
        Ok(Launch {
            file,
            path: path.to_path_buf(),
            source_path,
            include_dirs,
            defines,
        })
    }

    /// The kernel the launch names.
    pub fn kernel_name(&self) -> &str {
        &self.file.kernel
    }

    /// The launch's `-D` and `-I`, for parsing its source or another one;
    /// a kernel named with template arguments is asked for as an instance.
    pub fn frontend_options(&self) -> FrontendOptions {
        FrontendOptions {
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
            instantiate: if self.file.kernel.contains('<') {
                vec![self.file.kernel.clone()]
            } else {
                Vec::new()
            },
        }
    }

    /// Parses the launch's source; diagnostics are left to the caller.
    pub fn parse(&self) -> Result<Parsed, LaunchError> {
        hone_frontend::parse_file(&self.source_path, &self.frontend_options())
            .map_err(|e| LaunchError(e.to_string()))
    }

    /// The launch's kernel in `parsed`.
    pub fn kernel<'a>(&self, parsed: &'a Parsed) -> Result<&'a Function, KernelNotFound> {
        parsed.kernel(&self.file.kernel, &self.source_path.display().to_string())
    }

    /// The grid, block and dynamic shared memory, within CUDA's limits.
    pub fn config(&self) -> Result<LaunchConfig, LaunchError> {
        let grid = self.file.grid.to_array("grid")?;
        let block = self.file.block.to_array("block")?;
        for (what, dims, limits) in [
            ("grid", grid, [i32::MAX as u32, 65535, 65535]),
            ("block", block, [1024, 1024, 64]),
        ] {
            for (k, (&d, &most)) in dims.iter().zip(&limits).enumerate() {
                if d > most {
                    return Err(LaunchError(format!(
                        "`{what}` {dims:?}: dimension {} is {d}, more than CUDA's limit of {most}",
                        ["x", "y", "z"][k]
                    )));
                }
            }
        }
        let threads: u64 = block.iter().map(|&d| d as u64).product();
        if threads > 1024 {
            return Err(LaunchError(format!(
                "`block` {block:?}: {threads} threads, more than CUDA's limit of 1024 per block"
            )));
        }
        let shared = self.file.dynamic_shared_bytes;
        if shared > hone_emulator::SHARED_LIMIT {
            return Err(LaunchError(format!(
                "`dynamic_shared_bytes` is {shared}, more than the {} bytes of shared memory a block may have",
                hone_emulator::SHARED_LIMIT
            )));
        }
        Ok(LaunchConfig {
            grid,
            block,
            dynamic_shared_bytes: shared,
        })
    }

    /// Configuration, arguments and buffers for `kernel`, named after the
    /// launch file, within the emulator's default memory limit.
    pub fn data(&self, kernel: &Function) -> Result<LaunchData, LaunchError> {
        self.data_within(kernel, hone_emulator::DEFAULT_MAX_MEMORY)
    }

    /// [`Launch::data`] with buffers of at most `max_bytes` together: a
    /// launch asking for more is refused, naming the file and the buffer,
    /// before anything is allocated.
    pub fn data_within(
        &self,
        kernel: &Function,
        max_bytes: u64,
    ) -> Result<LaunchData, LaunchError> {
        self.data_unnamed(kernel, max_bytes)
            .map_err(|e| e.context(self.path.display()))
    }

    fn data_unnamed(&self, kernel: &Function, max_bytes: u64) -> Result<LaunchData, LaunchError> {
        let config = self.config()?;
        let (args, buffers) = self.arguments_within(kernel, max_bytes)?;
        Ok(LaunchData {
            name: self.path.display().to_string(),
            config,
            args,
            buffers,
            symbols: self
                .file
                .symbols
                .iter()
                .map(|(k, v)| (k.clone(), v.init.clone()))
                .collect(),
        })
    }

    /// The names `dump` gives that are not buffer arguments: the module's
    /// `__device__` and `__constant__` variables, or an error naming the
    /// first that is neither.
    pub fn dumped_symbols(
        &self,
        buffers: &[Buffer],
        module: &hone_ir::Module,
    ) -> Result<Vec<String>, LaunchError> {
        let mut out = Vec::new();
        for name in &self.file.dump {
            if buffers.iter().any(|b| &b.name == name) {
                continue;
            }
            match module.global_named(name) {
                Some((_, g)) if g.space != hone_ir::GlobalSpace::Shared => out.push(name.clone()),
                _ => {
                    return Err(LaunchError(format!(
                        "`dump` names `{name}`, which is neither a buffer argument of the launch nor a `__device__` or `__constant__` variable"
                    )))
                }
            }
        }
        Ok(out)
    }

    /// The buffers the launch file's `dump` names, in its order.
    pub fn dumped<'a>(&'a self, buffers: &'a [Buffer]) -> Vec<&'a Buffer> {
        self.file
            .dump
            .iter()
            .filter_map(|name| buffers.iter().find(|b| &b.name == name))
            .collect()
    }

    /// Builds the kernel arguments in parameter order, and the buffers they
    /// point to, within the emulator's default memory limit.
    pub fn arguments(
        &self,
        kernel: &Function,
    ) -> Result<(Vec<KernelArg>, Vec<Buffer>), LaunchError> {
        self.arguments_within(kernel, hone_emulator::DEFAULT_MAX_MEMORY)
    }

    /// [`Launch::arguments`] with buffers of at most `max_bytes` together.
    pub fn arguments_within(
        &self,
        kernel: &Function,
        max_bytes: u64,
    ) -> Result<(Vec<KernelArg>, Vec<Buffer>), LaunchError> {
        let params: Vec<&str> = kernel
            .params
            .iter()
            .map(|&p| kernel.var(p).name.as_str())
            .collect();
        for name in self.file.args.keys() {
            if !params.contains(&name.as_str()) {
                return Err(LaunchError(format!(
                    "launch file names argument `{name}`, but kernel `{}` has no such parameter (parameters: {})",
                    kernel.name,
                    params.join(", ")
                )));
            }
        }
        // First every buffer's name and element type, so that pointer values
        // may name any of them; then their contents.
        let mut planned: Vec<(String, Type, &BufferSpec)> = Vec::new();
        let mut args = Vec::new();
        for &p in &kernel.params {
            let var = kernel.var(p);
            let spec = self.file.args.get(&var.name).ok_or_else(|| {
                LaunchError(format!(
                    "launch file gives no value for parameter `{}` of kernel `{}`",
                    var.name, kernel.name
                ))
            })?;
            match (spec, &var.ty) {
                (ArgSpec::Buffer(b), Type::Pointer(ptr)) => {
                    // A struct buffer is named by the struct the parameter points to.
                    let elem = match &ptr.pointee {
                        Type::Struct(st) if names_struct(&b.ty, &st.name) => ptr.pointee.clone(),
                        _ => parse_type(&b.ty).map_err(|e| e.context(format_args!("argument `{}`", var.name)))?,
                    };
                    if !compatible(&elem, &ptr.pointee) {
                        return Err(LaunchError(format!(
                            "argument `{}`: buffer of `{}` passed for a parameter pointing to `{}`",
                            var.name,
                            b.ty,
                            hone_ir::print::print_type(&ptr.pointee)
                        )));
                    }
                    if b.offset > b.len {
                        return Err(LaunchError(format!(
                            "argument `{}`: \"offset\" {} is past the buffer's {} elements",
                            var.name, b.offset, b.len
                        )));
                    }
                    let bytes = b.offset as u64 * elem.size().unwrap_or(0);
                    args.push(match bytes {
                        0 => KernelArg::Buffer(planned.len()),
                        bytes => KernelArg::BufferAt {
                            buffer: planned.len(),
                            bytes,
                        },
                    });
                    planned.push((var.name.clone(), elem, b));
                }
                (ArgSpec::Number(n), Type::Scalar(s)) => {
                    if s.is_float() {
                        args.push(KernelArg::Float(n.as_f64().unwrap_or(0.0)));
                    } else {
                        let v = n.as_i64().or_else(|| n.as_u64().map(|u| u as i64)).ok_or_else(|| {
                            LaunchError(format!("argument `{}`: expected an integer for `{}`, got {n}", var.name, s.c_name()))
                        })?;
                        args.push(KernelArg::Int(v));
                    }
                }
                (ArgSpec::Buffer(b), Type::Struct(st)) if names_struct(&b.ty, &st.name) => {
                    // A struct by value: one element, passed as its bytes.
                    if b.len != 1 || b.offset != 0 {
                        return Err(LaunchError(format!(
                            "argument `{}`: the parameter is one `{}` passed by value; give \"len\": 1 and no \"offset\"",
                            var.name, st.name
                        )));
                    }
                    args.push(KernelArg::Buffer(planned.len()));
                    planned.push((var.name.clone(), var.ty.clone(), b));
                }
                (ArgSpec::Buffer(_), ty) => {
                    return Err(LaunchError(format!(
                        "argument `{}`: a buffer was given, but the parameter is `{}`",
                        var.name,
                        hone_ir::print::print_type(ty)
                    )))
                }
                (ArgSpec::Number(_), ty) => {
                    return Err(LaunchError(format!(
                        "argument `{}`: a number was given, but the parameter is `{}` (give {{\"type\", \"len\", \"init\"}})",
                        var.name,
                        hone_ir::print::print_type(ty)
                    )))
                }
            }
        }
        for (name, b) in &self.file.buffers {
            if planned.iter().any(|(n, _, _)| n == name) {
                return Err(LaunchError(format!(
                    "`buffers` names `{name}`, which is already a parameter's buffer"
                )));
            }
            let elem = parse_type(&b.ty).map_err(|e| e.context(format_args!("buffer `{name}`")))?;
            planned.push((name.clone(), elem, b));
        }
        let pointers = Pointers {
            buffers: planned
                .iter()
                .map(|(n, t, _)| (n.clone(), t.clone()))
                .collect(),
        };
        let mut budget = max_bytes;
        let mut buffers = Vec::new();
        for (name, elem, b) in planned {
            budget -= buffer_bytes(&name, &elem, b.len, budget)?;
            buffers.push(make_buffer(&name, elem, b, &pointers)?);
        }
        Ok((args, buffers))
    }
}

/// A buffer's element type must match the pointee up to const-ness and signedness
/// of the spelling (`unsigned` vs `unsigned int` are the same type already).
fn compatible(elem: &Type, pointee: &Type) -> bool {
    match (elem, pointee) {
        // `float *` values for a `const float *const *` parameter.
        (Type::Pointer(a), Type::Pointer(b)) => compatible(&a.pointee, &b.pointee),
        _ => elem == pointee || matches!(pointee, Type::Void),
    }
}

/// Whether a buffer's `type` names the struct `name`, by its own name or by
/// the alias CUDA's headers give it (`half2` for `__half2`).
fn names_struct(ty: &str, name: &str) -> bool {
    const ALIASES: &[(&str, &str)] = &[
        ("half", "__half"),
        ("half2", "__half2"),
        ("nv_bfloat16", "__nv_bfloat16"),
        ("nv_bfloat162", "__nv_bfloat162"),
    ];
    let ty = ty.trim();
    ty == name || ALIASES.iter().any(|&(a, n)| a == ty && n == name)
}
