//! The library example does what `hone sim` and `hone analyze` do: the same
//! dumped buffers and the same report, through the crates' public APIs.

#[path = "../examples/library_use.rs"]
mod library_use;
mod support;

use std::path::Path;

#[test]
fn the_library_gives_what_the_commands_print() {
    // Reports name files as the launch path spells them; the commands'
    // expected reports were made from the repository root. This is the only
    // test of this binary, so changing the directory disturbs no other.
    std::env::set_current_dir(support::root()).unwrap();
    for stem in ["copy", "aos"] {
        let launch = format!("examples/analyze/{stem}.json");
        let report = library_use::analyze_report(Path::new(&launch)).unwrap();
        let expected =
            std::fs::read_to_string(format!("examples/analyze/expected/{stem}.sm90.txt")).unwrap();
        assert_eq!(
            report, expected,
            "{stem}: the report differs from `hone analyze`"
        );

        let simulated = library_use::simulate(Path::new(&launch)).unwrap();
        let out = support::hone_with(&["sim", &launch], &[]);
        assert_eq!(out.code, 0, "{stem}: hone sim failed: {}", out.stderr);
        let cli = out.stdout;
        let buffers: Vec<&str> = cli.lines().filter(|l| l.contains(" = ")).collect();
        assert!(!buffers.is_empty(), "{stem}: `hone sim` dumped nothing");
        assert_eq!(
            simulated.lines().collect::<Vec<_>>(),
            buffers,
            "{stem}: the buffers differ from `hone sim`"
        );
    }
}
