//! Times d-spline fits on the paper's grid (48 samples, N = 100..10000).
use hone_tuner::dspline::{fit, Grid};
use std::time::Instant;

fn main() {
    let grid = Grid::integers(100, 10_000);
    let samples: Vec<(u64, f64)> = (0..48u64)
        .map(|i| {
            let n = 100 + i * 9900 / 47;
            (
                n,
                (n as f64 / 1500.0).sin() + 0.05 * ((i * 7919) % 13) as f64 / 13.0,
            )
        })
        .collect();
    let t = Instant::now();
    let f = fit(grid, &samples, Some(1e4)).unwrap();
    println!("fixed alpha: {:?}", t.elapsed());
    let t = Instant::now();
    let g = fit(grid, &samples, None).unwrap();
    println!(
        "GCV: {:?} (alpha {:.3e}, dof {:.2}); {}",
        t.elapsed(),
        g.alpha,
        g.dof,
        f.values.len()
    );
}
