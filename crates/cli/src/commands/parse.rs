//! `hone parse`: what the front end makes of a file.

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::Args;
use hone_frontend::{parse_file, FrontendOptions};
use serde_json::json;

use crate::exit;

#[derive(Args)]
pub struct ParseArgs {
    /// The .cu file
    pub file: PathBuf,
    /// Macro definitions, as for nvcc: -D N=64
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Include directories
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Make this instance of a template kernel or function besides those
    /// the host code launches: --instantiate 'scan<256, float>'
    #[arg(long, value_name = "NAME<ARGS>")]
    pub instantiate: Vec<String>,
    /// Print the lowered device code back as CUDA C
    #[arg(long)]
    pub print: bool,
    /// Print kernels and diagnostics as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ParseArgs) -> Result<u8> {
    let mut opts = FrontendOptions::from_flags(&args.define, &args.include);
    opts.instantiate = args.instantiate.clone();
    let parsed = parse_file(&args.file, &opts).map_err(|e| anyhow!("{e}"))?;
    let m = &parsed.module;
    if args.print {
        for d in &parsed.diagnostics {
            eprintln!("{d}");
        }
        print!("{}", hone_ir::print::print_module(m));
    } else if args.json {
        let functions: Vec<_> = m
            .functions
            .iter()
            .map(|f| {
                json!({
                    "name": f.name,
                    "kind": if f.kind == hone_ir::FuncKind::Global { "global" } else { "device" },
                    "location": m.location(f.span),
                    "params": f.params.iter().map(|&p| {
                        let v = f.var(p);
                        json!({"name": v.name, "type": hone_ir::print::print_type(&v.ty)})
                    }).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "functions": functions,
                "diagnostics": parsed.diagnostics,
            }))?
        );
    } else {
        for d in &parsed.diagnostics {
            println!("{d}");
        }
        for f in &m.functions {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|&p| {
                    format!(
                        "{} {}",
                        hone_ir::print::print_type(&f.var(p).ty),
                        f.var(p).name
                    )
                })
                .collect();
            let kind = if f.kind == hone_ir::FuncKind::Global {
                "__global__"
            } else {
                "__device__"
            };
            println!(
                "{}: {kind} {}({})",
                m.location(f.span),
                f.name,
                params.join(", ")
            );
        }
    }
    let errors = parsed
        .diagnostics
        .iter()
        .any(|d| d.severity == hone_frontend::Severity::Error);
    Ok(if errors { exit::BAD_INPUT } else { exit::OK })
}
