//! The corpus's operator templates (`tests/corpus/cpp/operator_templates.cu`)
//! run in the emulator: interval sums and products whose ends are rounded
//! down and up bracket the exact value within one unit, and the other
//! directed operations land on the right side of theirs.

use hone_emulator::{Buffer, KernelArg};
mod common;

use hone_frontend::FrontendOptions;

/// Where `got` lies against the exact value whose sign of `exact - got`
/// is `side` (computed exactly in `f64`): at or below for `down`.
fn check(name: &str, down: bool, side: f64, got: f32, other: f32) {
    if down {
        assert!(side >= 0.0, "{name}: {got} is above the exact value");
    } else {
        assert!(side <= 0.0, "{name}: {got} is below the exact value");
    }
    // The other direction's result is the same float or the adjacent one.
    let adjacent = if down { got.next_up() } else { got.next_down() };
    assert!(
        other == got || other == adjacent,
        "{name}: {got} and {other} are not adjacent"
    );
}

#[test]
fn interval_operators_round_outward_and_named_modes_hold() {
    let p = common::parse_corpus("cpp/operator_templates.cu", &FrontendOptions::default());
    let n = 64;
    // Positive values in [1, 8), so that the f64 checks below are exact.
    let a: Vec<f32> = (0..n)
        .map(|i| 1.0 + (i as f32 * 0.7361).fract() * 7.0)
        .collect();
    let b: Vec<f32> = (0..n)
        .map(|i| 1.0 + (i as f32 * 0.3819 + 0.1).fract() * 7.0)
        .collect();
    let mut buffers = vec![
        Buffer::from_f32("a", &a),
        Buffer::from_f32("b", &b),
        Buffer::from_f32("out", &vec![0.0; 16 * n]),
        Buffer::from_f64("wide", &vec![0.0; 2 * n]),
    ];
    common::run_clean(
        &p,
        "intervals",
        "operator_templates.cu",
        (1, n as u32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            KernelArg::Buffer(3),
        ],
        &mut buffers,
    );
    let out = buffers[2].to_f32_vec();
    let wide = buffers[3].to_f64_vec();
    let first4: f32 = a[..4].iter().sum();
    for i in 0..n {
        let o = &out[16 * i..16 * i + 16];
        let (x, y) = (a[i] as f64, b[i] as f64);
        check("sum lower", true, x + y - o[0] as f64, o[0], o[1]);
        check("sum upper", false, x + y - o[1] as f64, o[1], o[0]);
        check("product lower", true, x * y - o[2] as f64, o[2], o[3]);
        check("product upper", false, x * y - o[3] as f64, o[3], o[2]);
        assert_eq!(o[4], -o[1], "negation swaps the ends");
        assert!(o[5] >= o[1] - o[0], "width rounds up");
        assert_eq!(o[6], 1.0, "iv::Side::High");
        assert_eq!(o[7], first4, "sum_first<K>");
        assert_eq!(o[8], 1.0, "nanf is a NaN");
        // sqrt(x) vs r  <=>  x vs r^2; x / y vs r  <=>  x vs r y (exact in f64).
        let r = o[9] as f64;
        check("sqrt down", true, x - r * r, o[9], o[10]);
        let r = o[11] as f64;
        check("div down", true, x - r * y, o[11], o[12]);
        // 1 / y rounded toward zero is at or below it (y > 0).
        let r = o[13] as f64;
        assert!(
            1.0 - r * y >= 0.0 && 1.0 - (o[13].next_up() as f64) * y < 0.0,
            "rcp_rz"
        );
        let exact = x * y - 1.0;
        check("fma down", true, exact - o[14] as f64, o[14], o[15]);
        // x + 1e-20 rounded down is x; x y rounded up is at or above it.
        assert_eq!(wide[2 * i], x);
        assert!(wide[2 * i + 1] >= x * y);
    }
}

#[test]
fn an_operator_template_of_two_type_parameters_builds_its_result_in_braces() {
    let p = common::parse_corpus("cpp/operator_templates.cu", &FrontendOptions::default());
    let a: Vec<f32> = (0..32).map(|i| 1.0 + i as f32 * 0.1234567).collect();
    let mut buffers = vec![
        Buffer::from_f32("a", &a),
        Buffer::from_f32("out", &[0.0; 32]),
    ];
    common::run_clean(
        &p,
        "scaled",
        "operator_templates.cu",
        (1, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut buffers,
    );
    // 3 a rounded up: exact in f64, then the float at or above it.
    let want: Vec<f32> = a
        .iter()
        .map(|&x| {
            let exact = x as f64 * 3.0;
            let r = exact as f32;
            if (r as f64) < exact {
                r.next_up()
            } else {
                r
            }
        })
        .collect();
    assert_eq!(buffers[1].to_f32_vec(), want);
}
