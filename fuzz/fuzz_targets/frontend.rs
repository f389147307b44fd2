//! Preprocess, parse and lower any text: a module and diagnostics, never a
//! panic; every diagnostic names a position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = hone_fuzz::text(data);
    let Some(parsed) = hone_fuzz::lower(&hone_fuzz::source_name(), &text) else {
        return;
    };
    for d in &parsed.diagnostics {
        assert!(!d.to_string().is_empty());
    }
    for k in parsed.module.kernels() {
        assert!(parsed.kernel(&k.name, "fuzz.cu").is_ok());
    }
    let _ = parsed.kernel("missing<1, float>", "fuzz.cu");
});
