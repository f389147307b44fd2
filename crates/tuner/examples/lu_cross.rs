use hone_tuner::config::Config;
use hone_tuner::space::{DeviceProps, Space};
use hone_tuner::synthetic::{SyntheticEvaluator, SyntheticModel};
fn main() {
    let spec = hone_tuner::space::SpaceSpec::new()
        .param(hone_tuner::space::Param::range("BLOCK_SIZE", 32, 256, 32))
        .param(hone_tuner::space::Param::range("UX", 8, 32, 1))
        .param(hone_tuner::space::Param::range("MULTIPLICITY", 1, 8, 1))
        .param(hone_tuner::space::Param::range("MX", 0, 9, 1))
        .constraint("MULTIPLICITY * 8 * (UX + max(BLOCK_SIZE * UX, UX * UX)) <= unified_l1_smem_per_sm");
    let valid = Space::new(spec, DeviceProps::tesla_k20()).unwrap().enumerate();
    let ev = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 0);
    let lu = Config::parse_key("ALGO=lu").unwrap();
    for n in [200u64, 500, 1000, 1500, 2000, 2500, 3000, 4000, 6000, 8000, 10000] {
        let mut best = (f64::INFINITY, 0);
        for i in 0..valid.len() {
            if let Ok(t) = ev.true_time(&valid.config(i), n) { if t < best.0 { best = (t, i); } }
        }
        let tl = ev.true_time(&lu, n).unwrap();
        let gbps = 8.0 * (n as f64).powi(2) / 2.0 / best.0 / 1e9;
        println!("n={n}: best atomic {:.3e} ({:.0} GB/s) {}  lu {:.3e} ratio {:.3}", best.0, gbps, valid.key(best.1), tl, tl / best.0);
    }
}
