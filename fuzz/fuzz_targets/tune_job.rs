//! Tuning job files (`*.tune.toml`): read and checked, their sizes listed
//! and their search space solved on a known device, as `hone tune` does
//! before it measures anything.
#![no_main]

use hone_tuner::{DeviceInfo, DeviceProps, JobSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = hone_fuzz::text(data);
    let Ok(spec) = JobSpec::from_toml(&text, "fuzz.tune.toml") else {
        return;
    };
    if let Some(sizes) = &spec.sizes {
        let _ = sizes.sizes();
    }
    let device = DeviceInfo::synthetic("fuzz", DeviceProps::tesla_k20());
    for shard in [(0, 1), (1, 3)] {
        let _ = spec.planned_search(&device, shard);
    }
});
