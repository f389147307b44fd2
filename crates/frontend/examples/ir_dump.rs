//! Prints the lowered IR of a `.cu` file in the golden-test format, then the
//! diagnostics: `cargo run -p hone-frontend --example ir_dump -- file.cu [-DNAME[=V]]...`
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: ir_dump FILE.cu [-DNAME[=VALUE]]...");
        std::process::exit(2);
    };
    let defines = args
        .filter_map(|a| a.strip_prefix("-D").map(str::to_string))
        .map(|d| match d.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (d, None),
        })
        .collect();
    let opts = hone_frontend::FrontendOptions {
        include_dirs: Vec::new(),
        defines,
        ..Default::default()
    };
    match hone_frontend::parse_file(Path::new(&path), &opts) {
        Ok(p) => {
            print!("{}", hone_frontend::dump(&p.module));
            for d in &p.diagnostics {
                println!("{d}");
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
