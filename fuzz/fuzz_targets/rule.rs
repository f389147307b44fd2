//! Rule files (JSON): read and validated, then every selection and every
//! emitter works on what was accepted.
#![no_main]

use hone_tuner::{ProblemKey, Rule};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = hone_fuzz::text(data);
    let Ok(rule) = Rule::from_json(&text, "fuzz.json") else {
        return;
    };
    for n in [0, 1, rule.lo, rule.hi, rule.hi.saturating_add(1), u64::MAX] {
        let _ = rule.select(n);
    }
    for iv in &rule.intervals {
        let _ = rule.select(iv.start);
    }
    if let Ok(key) = "n=4096".parse::<ProblemKey>() {
        let _ = rule.select_key(&key);
    }
    let again = Rule::from_json(&rule.to_json(), "fuzz.json").expect("a written rule reads back");
    assert_eq!(again.intervals, rule.intervals);
    let _ = rule.to_table();
    let _ = rule.to_rust();
    let _ = rule.to_c_header();
});
