//! What every stage's tests share: the corpus of CUDA inputs at the
//! repository's `tests/corpus/`, and the one way expected outputs are
//! checked and updated. `HONE_BLESS=1 cargo test` rewrites every expected
//! file that differs instead of failing.

pub mod browser;
pub mod slurm;

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file or folder of the CUDA input corpus (`tests/corpus/NAME`).
pub fn corpus(name: &str) -> PathBuf {
    repo_root().join("tests/corpus").join(name)
}

/// True when expected files are to be rewritten from the actual outputs.
pub fn blessing() -> bool {
    std::env::var_os("HONE_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Compares `actual` with the expected file at `path` (a missing file is
/// expected to be empty). When blessing, rewrites the file instead, and
/// removes it when `actual` is empty. The error names the file and the
/// first differing line.
pub fn check(path: &Path, actual: &str) -> Result<(), String> {
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    if blessing() {
        if actual.is_empty() {
            let _ = std::fs::remove_file(path);
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(path, actual)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        return Ok(());
    }
    let first = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.lines().count().min(actual.lines().count()));
    Err(format!(
        "{}: differs at line {} (HONE_BLESS=1 rewrites it)\n  expected: {}\n  actual:   {}",
        path.display(),
        first + 1,
        expected.lines().nth(first).unwrap_or("<end>"),
        actual.lines().nth(first).unwrap_or("<end>"),
    ))
}

/// [`check`], panicking with its message.
pub fn assert_expected(path: &Path, actual: &str) {
    if let Err(e) = check(path, actual) {
        panic!("{e}");
    }
}

/// The thesis's five-point stencil (`seed/psysha.cu`, `examples/stencil/`)
/// computed on the host: a neighbour outside the grid is replaced by the centre.
pub fn stencil5_reference<T>(a: &[T], nx: usize, ny: usize) -> Vec<T>
where
    T: Copy + Default + std::ops::Add<Output = T>,
{
    let mut out = vec![T::default(); nx * ny];
    for j in 0..ny {
        for i in 0..nx {
            let c = i + nx * j;
            let w = if i == 0 { c } else { c - 1 };
            let e = if i == nx - 1 { c } else { c + 1 };
            let n = if j == 0 { c } else { c - nx };
            let s = if j == ny - 1 { c } else { c + nx };
            out[c] = a[w] + a[e] + a[n] + a[s] + a[c];
        }
    }
    out
}

/// The corpus's `seed/diffusion.cu` computed on the host, in the kernel's
/// association order and in `f32` without contraction, so an emulated run
/// matches it bit for bit. `coef` is `[ce, cw, cn, cs, ct, cb, cc]`.
pub fn diffusion_reference(input: &[f32], [nx, ny, nz]: [usize; 3], coef: [f32; 7]) -> Vec<f32> {
    let [ce, cw, cn, cs, ct, cb, cc] = coef;
    let mut out = vec![0f32; input.len()];
    let xy = nx * ny;
    for z in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                let c = i + j * nx + z * xy;
                let w = if i == 0 { c } else { c - 1 };
                let e = if i == nx - 1 { c } else { c + 1 };
                let n = if j == 0 { c } else { c - nx };
                let s = if j == ny - 1 { c } else { c + nx };
                let b = if z == 0 { c } else { c - xy };
                let t = if z == nz - 1 { c } else { c + xy };
                out[c] = cc * input[c]
                    + cw * input[w]
                    + ce * input[e]
                    + cs * input[s]
                    + cn * input[n]
                    + cb * input[b]
                    + ct * input[t];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("hone-testkit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("x.txt");
        std::fs::write(&file, "a\nb\n").unwrap();
        assert_eq!(check(&file, "a\nb\n"), Ok(()));
        if !blessing() {
            let e = check(&file, "a\nc\n").unwrap_err();
            assert!(e.contains("x.txt: differs at line 2"), "{e}");
            assert!(check(&dir.join("absent.txt"), "").is_ok());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
