//! The preprocessor on any text: an answer or an error naming file, line and
//! column, and a line map that covers every output line.
#![no_main]

use hone_frontend::preprocess::{preprocess_str, PreprocessOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = hone_fuzz::text(data);
    let name = hone_fuzz::source_name();
    let opts = PreprocessOptions {
        include_dirs: Vec::new(),
        defines: vec![("FUZZ".into(), Some("1".into()))],
    };
    match preprocess_str(&name, &text, Some(hone_fuzz::empty_dir()), &opts) {
        Ok(pre) => {
            let lines = pre.text.lines().count();
            assert!(
                pre.lines.len() >= lines,
                "{} output lines but {} origins",
                lines,
                pre.lines.len()
            );
            for l in 1..=lines as u32 {
                assert!(pre.origin_of(l).is_some(), "output line {l} has no origin");
            }
        }
        Err(e) => assert!(!e.message.is_empty(), "an error without a message"),
    }
});
