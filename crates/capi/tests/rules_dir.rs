//! `HONE_RULES_DIR` naming a folder of SYMV's rules alone: GEMM takes its
//! built-in rules, so `hone_create` gets as far as the device (its own
//! process: the test sets the environment variable).

use std::ffi::CStr;

use hone::*;

#[test]
fn a_folder_of_symv_rules_alone_leaves_gemm_its_built_in_rules() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels/symv/rules");
    let dir = std::env::temp_dir().join(format!("hone-capi-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for v in ["dsymv_lower", "dsymv_upper", "ssymv_lower", "ssymv_upper"] {
        std::fs::copy(
            root.join(format!("{v}.json")),
            dir.join(format!("{v}.json")),
        )
        .unwrap();
    }
    // SAFETY: this test is the only one in its process that reads or sets
    // the environment.
    unsafe { std::env::set_var("HONE_RULES_DIR", &dir) };
    let mut handle: hone_handle_t = std::ptr::null_mut();
    // SAFETY: a valid pointer to write the handle to.
    let status = unsafe { hone_create(&mut handle, 0) };
    // SAFETY: a NUL-terminated string owned by this thread.
    let error = unsafe { CStr::from_ptr(hone_get_last_error()) }
        .to_string_lossy()
        .into_owned();
    if status == hone_status_t::HONE_STATUS_SUCCESS {
        // SAFETY: created just above.
        unsafe { hone_destroy(handle) };
    } else {
        // Without a GPU the device is what fails, not the folder.
        assert_eq!(status, hone_status_t::HONE_STATUS_NO_DEVICE, "{error}");
        assert!(!error.contains("no rule file"), "{error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
