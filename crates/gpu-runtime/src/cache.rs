//! The on-disk cache of compiled modules.
//!
//! A module is keyed by the SHA-256 of everything that decides NVRTC's output:
//! the source, the sorted option list, the target architecture and NVRTC's
//! version. Entries are written to a temporary name and renamed, so parallel
//! compilers and concurrent processes never see half a file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

use crate::error::{GpuError, Result};
use crate::nvrtc::{self, CompileOptions, CompiledModule, ImageKind, Target};

/// Environment variable that overrides the cache directory.
pub const CACHE_DIR_ENV: &str = "HONE_CACHE_DIR";

#[derive(Debug, Clone)]
pub struct ModuleCache {
    dir: PathBuf,
}

/// A module taken from or put into the cache.
#[derive(Debug, Clone)]
pub struct CachedModule {
    pub module: CompiledModule,
    /// The image file: what a worker process loads.
    pub path: PathBuf,
    /// Whether it was found rather than compiled.
    pub hit: bool,
}

impl ModuleCache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ModuleCache { dir: dir.into() }
    }

    /// `$HONE_CACHE_DIR`, else `$XDG_CACHE_HOME/hone`, else `~/.cache/hone`.
    pub fn default_dir() -> Option<PathBuf> {
        Self::dir_from_env(|name| std::env::var_os(name))
    }

    fn dir_from_env(get: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
        let var = |name: &str| get(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        var(CACHE_DIR_ENV)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("hone")))
            .or_else(|| var("HOME").map(|h| h.join(".cache").join("hone")))
    }

    /// The cache at [`ModuleCache::default_dir`], or one in the system's
    /// temporary directory when no home is known.
    pub fn open_default() -> ModuleCache {
        ModuleCache::new(
            Self::default_dir().unwrap_or_else(|| std::env::temp_dir().join("hone-cache")),
        )
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cache key of one compilation.
    pub fn key(
        source: &str,
        arguments: &[String],
        target: &Target,
        nvrtc_version: (u32, u32),
    ) -> String {
        let mut args: Vec<&str> = arguments.iter().map(String::as_str).collect();
        args.sort_unstable();
        let mut h = Sha256::new();
        // Lengths precede each field so that no two inputs hash the same bytes.
        let mut field = |bytes: &[u8]| {
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        };
        field(b"hone-module-v1");
        field(source.as_bytes());
        field(&(args.len() as u64).to_le_bytes());
        for a in args {
            field(a.as_bytes());
        }
        field(target.arch_option().as_bytes());
        field(format!("{}.{}", nvrtc_version.0, nvrtc_version.1).as_bytes());
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    fn image_path(&self, key: &str, kind: ImageKind) -> PathBuf {
        self.dir.join(format!("{key}.{}", kind.extension()))
    }

    fn log_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.log"))
    }

    pub fn load(&self, key: &str, kind: ImageKind) -> Option<CachedModule> {
        let path = self.image_path(key, kind);
        let image = std::fs::read(&path).ok()?;
        if image.is_empty() {
            return None;
        }
        let log = std::fs::read_to_string(self.log_path(key)).unwrap_or_default();
        Some(CachedModule {
            module: CompiledModule { image, kind, log },
            path,
            hit: true,
        })
    }

    pub fn store(&self, key: &str, module: &CompiledModule) -> Result<PathBuf> {
        std::fs::create_dir_all(&self.dir).map_err(|e| GpuError::io(&self.dir, e))?;
        write_atomically(&self.log_path(key), module.log.as_bytes())?;
        let path = self.image_path(key, module.kind);
        write_atomically(&path, &module.image)?;
        Ok(path)
    }

    /// Returns the cached module for `key`, or runs `compile` and stores its result.
    pub fn get_or_compile(
        &self,
        key: &str,
        kind: ImageKind,
        compile: impl FnOnce() -> Result<CompiledModule>,
    ) -> Result<CachedModule> {
        if let Some(hit) = self.load(key, kind) {
            return Ok(hit);
        }
        let module = compile()?;
        let path = self.store(key, &module)?;
        Ok(CachedModule {
            module,
            path,
            hit: false,
        })
    }

    /// Compiles with NVRTC through the cache.
    pub fn compile(
        &self,
        source: &str,
        name: &str,
        options: &CompileOptions,
        target: &Target,
        nvrtc_version: (u32, u32),
    ) -> Result<CachedModule> {
        let key = Self::key(source, &options.arguments(target)?, target, nvrtc_version);
        self.get_or_compile(&key, target.kind, || {
            nvrtc::compile(source, name, options, target)
        })
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp.{}.{n}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| GpuError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        GpuError::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn cubin90() -> Target {
        Target {
            arch: 90,
            kind: ImageKind::Cubin,
            arch_specific: false,
        }
    }

    #[test]
    fn cache_dir_prefers_override_then_xdg_then_home() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let all = env(&[
            (CACHE_DIR_ENV, "/o"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(ModuleCache::dir_from_env(all), Some(PathBuf::from("/o")));
        let xdg = env(&[
            (CACHE_DIR_ENV, ""),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(
            ModuleCache::dir_from_env(xdg),
            Some(PathBuf::from("/x/hone"))
        );
        let home = env(&[("HOME", "/h")]);
        assert_eq!(
            ModuleCache::dir_from_env(home),
            Some(PathBuf::from("/h/.cache/hone"))
        );
        assert_eq!(ModuleCache::dir_from_env(env(&[])), None);
    }

    #[test]
    fn key_ignores_option_order_but_not_option_values() {
        let a = vec!["-DA=1".to_string(), "-DB=2".to_string()];
        let b = vec!["-DB=2".to_string(), "-DA=1".to_string()];
        let c = vec!["-DB=3".to_string(), "-DA=1".to_string()];
        let k = |args: &[String]| ModuleCache::key("src", args, &cubin90(), (13, 0));
        assert_eq!(k(&a), k(&b));
        assert_ne!(k(&a), k(&c));
        assert_eq!(k(&a).len(), 64);
    }

    #[test]
    fn key_depends_on_source_target_and_nvrtc_version() {
        let args = vec!["-DA=1".to_string()];
        let base = ModuleCache::key("src", &args, &cubin90(), (13, 0));
        assert_ne!(base, ModuleCache::key("src2", &args, &cubin90(), (13, 0)));
        assert_ne!(base, ModuleCache::key("src", &args, &cubin90(), (12, 8)));
        let ptx = Target {
            arch: 90,
            kind: ImageKind::Ptx,
            arch_specific: false,
        };
        assert_ne!(base, ModuleCache::key("src", &args, &ptx, (13, 0)));
        // Field boundaries matter: moving a byte between fields changes the key.
        let split = ModuleCache::key("s", &["rc-DA=1".to_string()], &cubin90(), (13, 0));
        assert_ne!(
            ModuleCache::key("src", &["-DA=1".to_string()], &cubin90(), (13, 0)),
            split
        );
    }

    #[test]
    fn second_request_is_served_from_disk_without_compiling() {
        let dir = std::env::temp_dir().join(format!("hone-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = ModuleCache::new(&dir);
        let calls = Cell::new(0);
        let compile = || {
            calls.set(calls.get() + 1);
            Ok(CompiledModule {
                image: vec![1, 2, 3, 4],
                kind: ImageKind::Cubin,
                log: "warning: something".into(),
            })
        };
        let first = cache
            .get_or_compile("abc", ImageKind::Cubin, compile)
            .unwrap();
        assert!(!first.hit);
        let second = cache
            .get_or_compile("abc", ImageKind::Cubin, compile)
            .unwrap();
        assert!(second.hit);
        assert_eq!(calls.get(), 1);
        assert_eq!(second.module, first.module);
        assert_eq!(std::fs::read(&second.path).unwrap(), vec![1, 2, 3, 4]);
        // A different kind under the same key is a miss.
        assert!(cache.load("abc", ImageKind::Ptx).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn compile_errors_are_not_cached() {
        let dir = std::env::temp_dir().join(format!("hone-cache-err-{}", std::process::id()));
        let cache = ModuleCache::new(&dir);
        let failing = || {
            Err(GpuError::Compile {
                message: "NVRTC_ERROR_COMPILATION".into(),
                log: "error: expected ;".into(),
            })
        };
        assert!(cache
            .get_or_compile("bad", ImageKind::Cubin, failing)
            .is_err());
        assert!(cache.load("bad", ImageKind::Cubin).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
