//! Synthesis times of the PSySha thesis's six cases (Table 6.3), on one
//! core, from the thesis's profile launches; writes the table to
//! `bench/results/synth/table.md` and the six emitted kernels to
//! `examples/synth/out/`.
//!
//! `cargo run --release -p hone-synthesizer --example synth_bench [runs]`
//!
//! Each case runs `runs` times (default 3) and the run of median total
//! time is reported.

#[path = "../tests/support/mod.rs"]
mod support;

use std::fmt::Write as _;
use std::path::Path;

use hone_synthesizer::{synthesize, Options, Synthesis};

const COMMAND: &str = "cargo run --release -p hone-synthesizer --example synth_bench";

/// Kani-CUDA's seconds per access in Table 6.3 ("> 300" when it gave up).
const KANI: [&str; 6] = ["42.9", "27.5", "> 300", "> 300", "> 300", "> 300"];

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3)
        .max(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out_dir = root.join("examples/synth/out");
    let table_dir = root.join("bench/results/synth");
    std::fs::create_dir_all(&out_dir).expect("create examples/synth/out");
    std::fs::create_dir_all(&table_dir).expect("create bench/results/synth");

    let mut rows = String::new();
    let mut details = String::new();
    let mut all_ok = true;
    for (i, case) in support::CASES.iter().enumerate() {
        let (ak, profile) = support::load_case(case);
        let mut results: Vec<Synthesis> = (0..runs)
            .map(|_| {
                synthesize(&ak, std::slice::from_ref(&profile), &Options::default())
                    .unwrap_or_else(|e| panic!("{}: {e}", case.name))
            })
            .collect();
        results.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let s = results.swap_remove(runs / 2);
        let per: Vec<f64> = s.sites.iter().map(|x| x.seconds).collect();
        let mean = per.iter().sum::<f64>() / per.len() as f64;
        let max = per.iter().copied().fold(0.0, f64::max);
        let ok = s.verified && max < 0.1 && s.seconds < 2.0;
        all_ok &= ok;
        let rounds = s.profile_launches.len();
        writeln!(
            rows,
            "| {} | {} | {:.4} | {:.4} | {} | {} | {:.3} | {:.3} | {} | {} | {} |",
            case.name,
            s.sites.len(),
            mean,
            max,
            case.thesis_seconds,
            KANI[i],
            s.verification.seconds,
            s.seconds,
            rounds,
            if s.verified { "yes" } else { "NO" },
            if ok { "met" } else { "MISSED" }
        )
        .unwrap();
        writeln!(
            details,
            "\n### {} (`examples/synth/{}.cu`, kernel `{}`)\n",
            case.name, case.file, case.kernel
        )
        .unwrap();
        writeln!(
            details,
            "| access | synthesized | cases | s |\n|---|---|---|---|"
        )
        .unwrap();
        for x in &s.sites {
            let loc = x.location.rsplit('/').next().unwrap_or(&x.location);
            writeln!(
                details,
                "| `{}` at {} | `{}` | {} | {:.4} |",
                x.original,
                loc,
                x.synthesized.replace('|', "\\|"),
                x.cases,
                x.seconds
            )
            .unwrap();
        }
        for b in &s.barriers {
            writeln!(details, "\n- {}", strip_paths(b)).unwrap();
        }
        if !s.folded.is_empty() {
            writeln!(
                details,
                "\n- global intermediate folded into the shared copies: `{}`",
                s.folded.join("`, `")
            )
            .unwrap();
        }
        let path = out_dir.join(format!("{}.cu", case.file));
        std::fs::write(&path, strip_paths(&s.source)).expect("write kernel");
        println!(
            "{:22} {:2} accesses  mean {:.4} s  max {:.4} s  kernel {:.3} s  verified {}",
            case.name,
            s.sites.len(),
            mean,
            max,
            s.seconds,
            s.verified
        );
    }
    let mut md = format!(
        "# hone synth: synthesis time of the PSySha thesis's six cases\n\n\
         Command: `{COMMAND}` (release build, one core: the emulator runs blocks one after \
         another; the median of 3 runs per case).\n\n\
         Profile launches are the thesis's: diffusion 9x8x3 with 3x4 blocks in a 3x2 grid, \
         Himeno 17x10x3 with 5x4 blocks in a 3x2 grid (`examples/synth/*.json`); \
         variables chosen by hone's default (no `--vars`).\n\n\
         - *per access*: the access's share of the profile runs plus its search, summed over \
         the rounds (a round is added when verification shows an expression that held only \
         for the profile's sizes; the extra profile launch is then listed in the emitted file's header);\n\
         - *kernel*: the whole synthesis, emission and verification included;\n\
         - *thesis*: Table 6.3, seconds per access (PSySha on a 2.5 GHz Core i7, Kani-CUDA);\n\
         - *targets*: every access under 0.1 s, every kernel under 2 s, verified.\n\n\
         | case | accesses | per access, mean (s) | per access, max (s) | thesis PSySha (s/access) | thesis Kani-CUDA (s/access) | verification (s) | kernel (s) | profile launches | verified | targets |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    md.push_str(&rows);
    md.push_str("\n## Synthesized expressions\n");
    md.push_str(&details);
    md.push_str(
        "\nThe emitted kernels are in `examples/synth/out/` (regenerated by the command above); \
         each file's header gives the dynamic shared memory to launch it with.\n",
    );
    std::fs::write(table_dir.join("table.md"), md).expect("write table");
    println!("wrote bench/results/synth/table.md and examples/synth/out/*.cu");
    if !all_ok {
        eprintln!("some target was missed");
        std::process::exit(1);
    }
}

/// The source with this machine's absolute paths made relative to the repository.
fn strip_paths(s: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../");
    s.replace(&root.display().to_string(), "")
}
