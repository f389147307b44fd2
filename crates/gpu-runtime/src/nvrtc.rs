//! Run-time compilation of CUDA C with NVRTC, for the device's own architecture.

use std::collections::BTreeMap;
use std::ffi::{c_char, CString};

use cudarc::nvrtc::result as rtc;
use cudarc::nvrtc::sys;
use serde::{Deserialize, Serialize};

use crate::error::{GpuError, Result};
use crate::libs;

/// What NVRTC produced: machine code for one architecture, or PTX that the
/// driver compiles when the module is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageKind {
    Cubin,
    Ptx,
}

impl ImageKind {
    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Cubin => "cubin",
            ImageKind::Ptx => "ptx",
        }
    }
}

/// The architecture a module is compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Target {
    /// Architecture number: 90 for compute capability 9.0.
    pub arch: u32,
    pub kind: ImageKind,
    /// The architecture-specific target (`sm_90a`): its features (wgmma)
    /// run on that one architecture only, never on a later one.
    #[serde(default)]
    pub arch_specific: bool,
}

impl Target {
    /// The `--gpu-architecture` option: `sm_90` yields a cubin, `compute_90`
    /// PTX, `sm_90a` a cubin with the architecture-specific features.
    pub fn arch_option(&self) -> String {
        let suffix = if self.arch_specific { "a" } else { "" };
        match self.kind {
            ImageKind::Cubin => format!("--gpu-architecture=sm_{}{suffix}", self.arch),
            ImageKind::Ptx => format!("--gpu-architecture=compute_{}{suffix}", self.arch),
        }
    }

    /// This target with its architecture-specific features, where the
    /// device runs them: machine code for its own architecture only (PTX for
    /// an older one would be compiled by the driver for this device, which
    /// the specific features do not survive).
    pub fn specific(&self) -> Option<Target> {
        (self.kind == ImageKind::Cubin).then_some(Target {
            arch_specific: true,
            ..*self
        })
    }
}

/// Options of one compilation besides the architecture.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileOptions {
    /// `-D NAME=VALUE` for each entry.
    pub defines: BTreeMap<String, String>,
    #[serde(default)]
    pub fast_math: bool,
    /// Further NVRTC options, passed as they are.
    #[serde(default)]
    pub extra: Vec<String>,
}

impl CompileOptions {
    pub fn with_defines<K: ToString, V: ToString>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        CompileOptions {
            defines: pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        }
    }

    /// The full NVRTC argument list for `target`, in a canonical order (the
    /// module cache hashes it).
    pub fn arguments(&self, target: &Target) -> Result<Vec<String>> {
        let mut args = vec![target.arch_option(), "-std=c++17".to_string()];
        if self.fast_math {
            args.push("--use_fast_math".to_string());
        }
        for (name, value) in &self.defines {
            validate_define(name, value)?;
            args.push(format!("-D{name}={value}"));
        }
        let mut extra = self.extra.clone();
        extra.sort();
        args.extend(extra);
        Ok(args)
    }
}

fn validate_define(name: &str, value: &str) -> Result<()> {
    let ident = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ident {
        return Err(GpuError::Template(format!(
            "-D {name}={value}: `{name}` is not a C identifier"
        )));
    }
    if value.contains(['\n', '\r', '\0']) {
        return Err(GpuError::Template(format!(
            "-D {name}: the value must be one line"
        )));
    }
    Ok(())
}

/// A compiled module with NVRTC's log (warnings are kept even on success).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledModule {
    pub image: Vec<u8>,
    pub kind: ImageKind,
    pub log: String,
}

/// NVRTC's version, e.g. `(13, 0)`.
pub fn version() -> Result<(u32, u32)> {
    libs::require_nvrtc()?;
    libs::guard(GpuError::Library, || {
        let (mut major, mut minor) = (0i32, 0i32);
        // SAFETY: writes two ints.
        unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .map_err(|e| GpuError::Library(format!("nvrtcVersion: {e:?}")))?;
        Ok((major.max(0) as u32, minor.max(0) as u32))
    })?
}

/// The real architectures this NVRTC can emit machine code for (e.g. 75, 80, 90).
pub fn supported_archs() -> Result<Vec<u32>> {
    libs::require_nvrtc()?;
    libs::guard(GpuError::Library, || {
        let mut n = 0i32;
        // SAFETY: writes one int, then `n` ints into a buffer of that size.
        unsafe { sys::nvrtcGetNumSupportedArchs(&mut n) }
            .result()
            .map_err(|e| GpuError::Library(format!("nvrtcGetNumSupportedArchs: {e:?}")))?;
        let mut archs = vec![0i32; n.max(0) as usize];
        unsafe { sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) }
            .result()
            .map_err(|e| GpuError::Library(format!("nvrtcGetSupportedArchs: {e:?}")))?;
        Ok(archs.into_iter().map(|a| a.max(0) as u32).collect())
    })?
}

/// Machine code for the device when NVRTC knows its architecture; otherwise
/// PTX for the newest architecture NVRTC knows that the device can run, which
/// the driver compiles at load time.
pub fn choose_target(compute_capability: (u32, u32), supported: &[u32]) -> Result<Target> {
    let arch = compute_capability.0 * 10 + compute_capability.1;
    if supported.contains(&arch) {
        return Ok(Target {
            arch,
            kind: ImageKind::Cubin,
            arch_specific: false,
        });
    }
    supported
        .iter()
        .copied()
        .filter(|&a| a <= arch)
        .max()
        .map(|a| Target {
            arch: a,
            kind: ImageKind::Ptx,
            arch_specific: false,
        })
        .ok_or_else(|| {
            GpuError::Library(format!(
                "NVRTC supports none of the architectures up to sm_{arch} (it knows {supported:?})"
            ))
        })
}

/// [`choose_target`] with this machine's NVRTC.
pub fn target_for(compute_capability: (u32, u32)) -> Result<Target> {
    choose_target(compute_capability, &supported_archs()?)
}

/// Compiles `source` (file name `name` in messages) for `target`.
pub fn compile(
    source: &str,
    name: &str,
    options: &CompileOptions,
    target: &Target,
) -> Result<CompiledModule> {
    let args = options.arguments(target)?;
    libs::require_nvrtc()?;
    let src = CString::new(source)
        .map_err(|_| GpuError::Template(format!("{name}: the source contains a NUL byte")))?;
    let cname = CString::new(name)
        .map_err(|_| GpuError::Template(format!("{name:?}: the name contains a NUL byte")))?;
    libs::guard(GpuError::Library, || {
        compile_loaded(&src, &cname, &args, target.kind)
    })?
}

fn compile_loaded(
    src: &CString,
    name: &CString,
    args: &[String],
    kind: ImageKind,
) -> Result<CompiledModule> {
    let lib_err = |call: &str, e: rtc::NvrtcError| GpuError::Library(format!("{call}: {e:?}"));
    let prog =
        rtc::create_program(src, Some(name)).map_err(|e| lib_err("nvrtcCreateProgram", e))?;
    // The program is destroyed on every path below.
    struct Program(sys::nvrtcProgram);
    impl Drop for Program {
        fn drop(&mut self) {
            // SAFETY: created above, destroyed once.
            let _ = unsafe { rtc::destroy_program(self.0) };
        }
    }
    let prog = Program(prog);
    // SAFETY: the program is alive.
    let compiled = unsafe { rtc::compile_program(prog.0, args) };
    let log = unsafe { rtc::get_program_log(prog.0) }
        .map(|chars| c_chars_to_string(&chars))
        .unwrap_or_default();
    if let Err(e) = compiled {
        return Err(GpuError::Compile {
            message: format!("{:?}", e.0),
            log,
        });
    }
    let image = match kind {
        ImageKind::Ptx => unsafe { rtc::get_ptx(prog.0) }
            .map_err(|e| lib_err("nvrtcGetPTX", e))?
            .into_iter()
            .map(|c| c as u8)
            .collect(),
        ImageKind::Cubin => {
            unsafe { get_cubin(prog.0) }.map_err(|e| lib_err("nvrtcGetCUBIN", e))?
        }
    };
    Ok(CompiledModule { image, kind, log })
}

/// # Safety
/// `prog` must be a live, compiled program.
unsafe fn get_cubin(prog: sys::nvrtcProgram) -> std::result::Result<Vec<u8>, rtc::NvrtcError> {
    let mut size = 0usize;
    sys::nvrtcGetCUBINSize(prog, &mut size).result()?;
    let mut buf = vec![0u8; size];
    sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut c_char).result()?;
    Ok(buf)
}

fn c_chars_to_string(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .map(|&c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_arch_known_to_nvrtc_gets_a_cubin() {
        let t = choose_target((9, 0), &[75, 80, 86, 89, 90, 100]).unwrap();
        assert_eq!(
            t,
            Target {
                arch: 90,
                kind: ImageKind::Cubin,
                arch_specific: false,
            }
        );
        assert_eq!(t.arch_option(), "--gpu-architecture=sm_90");
    }

    #[test]
    fn device_newer_than_nvrtc_falls_back_to_ptx_of_the_newest_older_arch() {
        let t = choose_target((12, 0), &[75, 80, 90, 100]).unwrap();
        assert_eq!(
            t,
            Target {
                arch: 100,
                kind: ImageKind::Ptx,
                arch_specific: false,
            }
        );
        assert_eq!(t.arch_option(), "--gpu-architecture=compute_100");
    }

    #[test]
    fn device_older_than_every_supported_arch_is_an_error() {
        let err = choose_target((5, 2), &[75, 80]).unwrap_err();
        assert!(err.to_string().contains("sm_52"), "{err}");
    }

    #[test]
    fn arguments_are_canonical_and_carry_the_defines() {
        let target = Target {
            arch: 90,
            kind: ImageKind::Cubin,
            arch_specific: false,
        };
        let mut a = CompileOptions::with_defines([("VEC", 4), ("BLOCK_SIZE", 256)]);
        a.extra = vec!["--restrict".into(), "--extra-device-vectorization".into()];
        a.fast_math = true;
        let mut b = CompileOptions::with_defines([("BLOCK_SIZE", 256), ("VEC", 4)]);
        b.extra = vec!["--extra-device-vectorization".into(), "--restrict".into()];
        b.fast_math = true;
        let args = a.arguments(&target).unwrap();
        assert_eq!(args, b.arguments(&target).unwrap());
        assert!(args.contains(&"-std=c++17".to_string()));
        assert!(args.contains(&"--use_fast_math".to_string()));
        let block = args.iter().position(|s| s == "-DBLOCK_SIZE=256").unwrap();
        let vec = args.iter().position(|s| s == "-DVEC=4").unwrap();
        assert!(block < vec);
    }

    #[test]
    fn a_define_that_is_not_an_identifier_is_rejected() {
        let target = Target {
            arch: 90,
            kind: ImageKind::Cubin,
            arch_specific: false,
        };
        let opts = CompileOptions::with_defines([("1BAD", 1)]);
        assert!(matches!(
            opts.arguments(&target),
            Err(GpuError::Template(_))
        ));
        let opts = CompileOptions::with_defines([("X", "1\n#define Y 2")]);
        assert!(matches!(
            opts.arguments(&target),
            Err(GpuError::Template(_))
        ));
    }

    #[test]
    fn compiling_without_nvrtc_is_an_error_not_a_panic() {
        let target = Target {
            arch: 90,
            kind: ImageKind::Cubin,
            arch_specific: false,
        };
        let result = compile(
            "extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; }",
            "k.cu",
            &CompileOptions::default(),
            &target,
        );
        match result {
            Ok(m) => assert!(!m.image.is_empty()),
            Err(e) => assert!(matches!(e, GpuError::Library(_)), "{e:?}"),
        }
    }

    #[test]
    fn c_strings_stop_at_the_nul() {
        let chars: Vec<c_char> = b"warning: x\n\0garbage"
            .iter()
            .map(|&b| b as c_char)
            .collect();
        assert_eq!(c_chars_to_string(&chars), "warning: x");
    }
}
