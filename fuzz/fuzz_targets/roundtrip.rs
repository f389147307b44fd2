//! Whatever lowers prints back to CUDA C that lowers without errors to an
//! equal module.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hone_fuzz::check_roundtrip(&hone_fuzz::text(data));
});
