//! Launch geometry of the SYMV kernels, and the host's copy of the atomic
//! kernel's tiling (which tiles exist, in which order blocks take them, and
//! which are checked), so that the grid can be sized and the tiling tested
//! without a GPU.

use hone_gpu::launch::LaunchDims;

use super::space::DeviceLimits;
use super::{Config, Result, SymvError, Uplo};

/// Threads per block of the helper kernels (fill, scale).
pub const HELPER_BLOCK: u32 = 256;

/// The tiling of the stored triangle by the atomic kernel: tiles of `tile_r`
/// rows by `tile_c` columns, numbered column tile by column tile, row tiles
/// top to bottom within one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    pub uplo: Uplo,
    pub tile_r: usize,
    pub tile_c: usize,
}

impl Tiling {
    /// The tiling of an atomic-kernel configuration:
    /// rows `BLOCK_SIZE * VEC * STEPS`, columns `UX * NP`.
    pub fn of(uplo: Uplo, config: &Config) -> Result<Tiling> {
        let get = |k: &str| {
            config
                .get(k)
                .copied()
                .filter(|v| *v > 0)
                .ok_or_else(|| SymvError::Config(format!("{k} must be set and positive")))
        };
        Ok(Tiling {
            uplo,
            tile_r: (get("BLOCK_SIZE")? * get("VEC")? * get("STEPS")?) as usize,
            tile_c: (get("UX")? * get("NP")?) as usize,
        })
    }

    pub fn column_tiles(&self, n: usize) -> usize {
        n.div_ceil(self.tile_c)
    }

    pub fn row_tiles(&self, n: usize) -> usize {
        n.div_ceil(self.tile_r)
    }

    /// The first row tile of column tile `j` that holds stored elements.
    pub fn first(&self, j: usize) -> usize {
        match self.uplo {
            Uplo::Lower => j * self.tile_c / self.tile_r,
            Uplo::Upper => 0,
        }
    }

    /// How many row tiles of column tile `j` hold stored elements.
    pub fn count(&self, j: usize, n: usize) -> usize {
        match self.uplo {
            Uplo::Lower => self.row_tiles(n) - j * self.tile_c / self.tile_r,
            Uplo::Upper => ((j * self.tile_c + self.tile_c).min(n) - 1) / self.tile_r + 1,
        }
    }

    /// The number of tiles, the work items of the persistent grid.
    pub fn total(&self, n: usize) -> u64 {
        (0..self.column_tiles(n))
            .map(|j| self.count(j, n) as u64)
            .sum()
    }

    /// Every tile as (row tile, column tile), in the kernel's numbering.
    pub fn tiles(&self, n: usize) -> Vec<(usize, usize)> {
        (0..self.column_tiles(n))
            .flat_map(|j| (self.first(j)..self.first(j) + self.count(j, n)).map(move |i| (i, j)))
            .collect()
    }

    /// Whether the kernel takes tile (i, j) unchecked: every element inside
    /// the matrix and strictly inside the stored triangle.
    pub fn is_full(&self, i: usize, j: usize, n: usize) -> bool {
        let (row0, col0) = (i * self.tile_r, j * self.tile_c);
        match self.uplo {
            Uplo::Lower => row0 >= col0 + self.tile_c && row0 + self.tile_r <= n,
            Uplo::Upper => row0 + self.tile_r <= col0 && col0 + self.tile_c <= n,
        }
    }
}

fn param(config: &Config, k: &str) -> Result<i64> {
    config
        .get(k)
        .copied()
        .ok_or_else(|| SymvError::Config(format!("{k} is missing")))
}

/// Dynamic shared memory that holds an SM to `multiplicity` blocks:
/// `smem_per_sm / multiplicity - smem_reserved_per_block`, at most the
/// per-block opt-in limit.
pub fn multiplicity_shared(limits: &DeviceLimits, multiplicity: i64) -> i64 {
    (limits.smem_per_sm / multiplicity.max(1) - limits.smem_reserved_per_block)
        .min(limits.smem_per_block_optin)
}

/// Launch of the atomic kernel: a persistent grid of `sm_count *
/// MULTIPLICITY` blocks (fewer when there are fewer tiles), each with the
/// shared memory that enforces MULTIPLICITY.
pub fn atomic_launch(
    uplo: Uplo,
    config: &Config,
    shared_need: i64,
    n: usize,
    limits: &DeviceLimits,
) -> Result<LaunchDims> {
    let tiling = Tiling::of(uplo, config)?;
    let multiplicity = param(config, "MULTIPLICITY")?;
    let block = param(config, "BLOCK_SIZE")?;
    let shared = multiplicity_shared(limits, multiplicity);
    if shared < shared_need {
        return Err(SymvError::Config(format!(
            "MULTIPLICITY={multiplicity} leaves {shared} bytes of shared memory per block, \
             the kernel needs {shared_need}"
        )));
    }
    let grid = (limits.sm_count * multiplicity)
        .min(tiling.total(n) as i64)
        .max(1);
    Ok(LaunchDims {
        grid: (grid as u32, 1, 1),
        block: (block as u32, 1, 1),
        shared_mem: shared as u32,
    })
}

/// Launch of the L+U kernel: one block per NB rows of y.
pub fn lu_launch(config: &Config, n: usize) -> Result<LaunchDims> {
    let nb = param(config, "NB")?.max(1) as usize;
    let block = param(config, "BLOCK_SIZE")? as u32;
    Ok(LaunchDims {
        grid: (n.div_ceil(nb).max(1) as u32, 1, 1),
        block: (block, 1, 1),
        shared_mem: 0,
    })
}

/// Launch of `symv_scale` over n elements.
pub fn scale_launch(n: usize) -> LaunchDims {
    LaunchDims {
        grid: (n.div_ceil(HELPER_BLOCK as usize).max(1) as u32, 1, 1),
        block: (HELPER_BLOCK, 1, 1),
        shared_mem: 0,
    }
}

/// Launch of `symv_fill` over an lda x n array: one grid row per column.
pub fn fill_launch(n: usize, lda: usize) -> Result<LaunchDims> {
    if n > 65_535 {
        return Err(SymvError::Problem(format!(
            "n = {n}: the fill kernel takes one grid row per column, at most 65535"
        )));
    }
    let blocks = lda.div_ceil(HELPER_BLOCK as usize).clamp(1, 64);
    Ok(LaunchDims {
        grid: (blocks as u32, n.max(1) as u32, 1),
        block: (HELPER_BLOCK, 1, 1),
        shared_mem: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symv::config;
    use rand::{Rng, SeedableRng};

    fn atomic(bs: i64, vec: i64, steps: i64, ux: i64, np: i64) -> Config {
        config([
            ("BLOCK_SIZE", bs),
            ("VEC", vec),
            ("STEPS", steps),
            ("UX", ux),
            ("NP", np),
            ("MULTIPLICITY", 2),
        ])
    }

    /// Each stored element of an n x n matrix lies in exactly one tile, and
    /// full tiles hold only strictly off-diagonal elements inside the matrix.
    fn check_cover(tiling: Tiling, n: usize) {
        let mut hits = vec![0u8; n * n];
        for (i, j) in tiling.tiles(n) {
            let full = tiling.is_full(i, j, n);
            let mut stored_in_tile = 0;
            for r in i * tiling.tile_r..(i + 1) * tiling.tile_r {
                for c in j * tiling.tile_c..(j + 1) * tiling.tile_c {
                    let inside = r < n && c < n;
                    if full {
                        assert!(
                            inside && r != c && tiling.uplo.stores(r, c),
                            "{tiling:?} n={n} tile ({i},{j}) full but holds ({r},{c})"
                        );
                    }
                    if inside && tiling.uplo.stores(r, c) {
                        hits[c * n + r] += 1;
                        stored_in_tile += 1;
                    }
                }
            }
            assert!(
                stored_in_tile > 0,
                "{tiling:?} n={n}: tile ({i},{j}) is empty"
            );
        }
        for c in 0..n {
            for r in 0..n {
                let want = u8::from(tiling.uplo.stores(r, c));
                assert_eq!(hits[c * n + r], want, "{tiling:?} n={n} element ({r},{c})");
            }
        }
        assert_eq!(tiling.total(n), tiling.tiles(n).len() as u64);
    }

    #[test]
    fn tiles_cover_the_stored_triangle_exactly_once() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for uplo in Uplo::ALL {
            for &(r, c) in &[(32, 8), (64, 64), (8, 24), (96, 40), (1, 1), (48, 16)] {
                for n in [1, 2, 7, 8, 31, 64, 65, 100, 129] {
                    check_cover(
                        Tiling {
                            uplo,
                            tile_r: r,
                            tile_c: c,
                        },
                        n,
                    );
                }
            }
            for _ in 0..40 {
                let t = Tiling {
                    uplo,
                    tile_r: rng.gen_range(1..70),
                    tile_c: rng.gen_range(1..70),
                };
                check_cover(t, rng.gen_range(1..150));
            }
        }
    }

    #[test]
    fn tiling_follows_the_configuration() {
        let t = Tiling::of(Uplo::Lower, &atomic(128, 2, 4, 16, 8)).unwrap();
        assert_eq!((t.tile_r, t.tile_c), (1024, 128));
        // n = 4096: 32 column tiles; column tile j starts at row tile j / 8.
        assert_eq!(t.column_tiles(4096), 32);
        assert_eq!(t.first(9), 1);
        assert_eq!(t.count(9, 4096), 3);
        assert!(Tiling::of(Uplo::Lower, &config([("BLOCK_SIZE", 128)])).is_err());
    }

    #[test]
    fn almost_all_of_a_large_triangle_is_read_unchecked() {
        let t = Tiling::of(Uplo::Upper, &atomic(128, 2, 2, 16, 8)).unwrap();
        let n = 32768;
        let full = t
            .tiles(n)
            .into_iter()
            .filter(|&(i, j)| t.is_full(i, j, n))
            .count();
        let stored = (n * (n + 1) / 2) as f64;
        let unchecked = (full * t.tile_r * t.tile_c) as f64 / stored;
        assert!(unchecked > 0.95 && unchecked < 1.0, "{unchecked}");
    }

    #[test]
    fn multiplicity_is_enforced_by_the_shared_memory_share() {
        let h100 = DeviceLimits::h100_sxm();
        for m in 1..=8 {
            let s = multiplicity_shared(&h100, m);
            let per_block = s + h100.smem_reserved_per_block;
            assert!(m * per_block <= h100.smem_per_sm, "M={m}");
            assert!(
                (m + 1) * per_block > h100.smem_per_sm,
                "M={m} lets one more in"
            );
            assert!(s <= h100.smem_per_block_optin);
        }
    }

    #[test]
    fn atomic_grid_is_persistent_but_never_larger_than_the_work() {
        let h100 = DeviceLimits::h100_sxm();
        let c = atomic(128, 2, 2, 16, 8);
        let big = atomic_launch(Uplo::Lower, &c, 1024, 32768, &h100).unwrap();
        assert_eq!(big.grid, (264, 1, 1));
        assert_eq!(big.block, (128, 1, 1));
        assert_eq!(big.shared_mem, 233_472 / 2 - 1024);
        let small = atomic_launch(Uplo::Lower, &c, 1024, 300, &h100).unwrap();
        let tiles = Tiling::of(Uplo::Lower, &c).unwrap().total(300);
        assert_eq!(small.grid.0 as u64, tiles);
        let err = atomic_launch(Uplo::Lower, &c, 1 << 20, 300, &h100).unwrap_err();
        assert!(err.to_string().contains("shared memory"), "{err}");
    }

    #[test]
    fn helper_launches_cover_their_ranges() {
        let l = lu_launch(&config([("BLOCK_SIZE", 64), ("NB", 8)]), 1001).unwrap();
        assert_eq!(l.grid.0, 126);
        assert_eq!(scale_launch(257).grid.0, 2);
        let f = fill_launch(1000, 1024).unwrap();
        assert_eq!(f.grid, (4, 1000, 1));
        assert!(fill_launch(70_000, 70_000).is_err());
    }
}
