//! Launch files: read, then checked against the kernel they name (arguments,
//! buffers and their initial contents, symbols, dumps), without running it.
#![no_main]

use hone_launch::Launch;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = hone_fuzz::text(data);
    let Ok(launch) = Launch::from_json(&text, &hone_fuzz::launch_path()) else {
        return;
    };
    let _ = launch.frontend_options();
    let _ = launch.config();
    let parsed = hone_fuzz::launch_source(&launch.source_path);
    let Ok(kernel) = launch.kernel(parsed) else {
        return;
    };
    // Buffers of gigabytes are valid and only slow to fill: the fuzzer
    // looks for panics and hangs in reading and checking, within 64 MiB.
    let Ok(data) = launch.data_within(kernel, 64 << 20) else {
        return;
    };
    let _ = data.symbols(&parsed.module);
    let _ = launch.dumped_symbols(&data.buffers, &parsed.module);
    let _ = launch.dumped(&data.buffers);
});
