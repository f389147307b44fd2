//! The analyzer on C++ data layouts and file-scope variables from the corpus
//! (`tests/corpus/cpp/`): a member of an array of structs is a strided
//! access, and constant memory is costed as broadcasts and serialization.

use hone_analyzer::{analyze, report, LaunchData, LaunchSpec, Model, Options};
use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::Type;

fn module(name: &str) -> hone_ir::Module {
    let path = hone_testkit::corpus(&format!("cpp/{name}"));
    let p = hone_frontend::parse_file(&path, &Default::default()).expect("corpus parses");
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    p.module
}

fn spec(
    m: hone_ir::Module,
    kernel: &str,
    blocks: u32,
    args: Vec<KernelArg>,
    buffers: Vec<Buffer>,
) -> LaunchSpec {
    LaunchSpec {
        module: m,
        kernel: kernel.into(),
        launch: LaunchData {
            name: String::new(),
            config: LaunchConfig::linear(blocks, 32),
            args,
            buffers,
            symbols: Vec::new(),
        },
    }
}

fn site<'a>(a: &'a hone_analyzer::Analysis, expr: &str) -> &'a hone_analyzer::Site {
    a.sites
        .iter()
        .find(|s| s.expression.as_deref() == Some(expr))
        .unwrap_or_else(|| {
            let all: Vec<_> = a.sites.iter().map(|s| s.expression.clone()).collect();
            panic!("no site `{expr}`: {all:?}")
        })
}

#[test]
fn a_member_of_an_array_of_structs_is_a_strided_access() {
    let m = module("structs.cu");
    let particle = m.structs.iter().find(|s| s.name == "Particle").unwrap();
    let n = 64;
    let elem = Type::Struct(particle.clone());
    let s = spec(
        m.clone(),
        "positions_x",
        2,
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        vec![
            Buffer::zeros("p", elem, n),
            Buffer::from_f32("out", &vec![0.0; n]),
        ],
    );
    let a = analyze(&s, &Options::default()).expect("analysis runs");
    let read = site(&a, "p[i].pos.x");
    // 32 lanes, 4 bytes each, 32 bytes apart: one sector per lane.
    assert_eq!(read.stats.size, 4);
    assert_eq!(read.stats.requests, 2);
    assert_eq!(read.stats.sectors, 64);
    assert_eq!(read.stats.ideal_sectors, 8);
    assert_eq!(
        read.stats.lane_stride,
        hone_analyzer::collect::LaneStride::Uniform(32)
    );
    let write = site(&a, "out[i]");
    assert_eq!(write.stats.sectors, write.stats.ideal_sectors);
    assert!(read.rank < write.rank);
}

#[test]
fn constant_memory_broadcasts_and_serializes() {
    let m = module("globals.cu");
    let n = 64;
    let args = vec![
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(n as i64),
    ];
    let bufs = || {
        vec![
            Buffer::from_f32("in", &vec![1.0; n]),
            Buffer::from_f32("out", &vec![0.0; n]),
        ]
    };
    let opts = Options::default();

    // Every lane reads coeff[k]: one broadcast per request.
    let a = analyze(&spec(m.clone(), "weigh", 2, args.clone(), bufs()), &opts).unwrap();
    let coeff = site(&a, "coeff[k]");
    assert_eq!(coeff.stats.space, hone_ir::AddressSpace::Constant);
    assert_eq!(coeff.stats.requests, 8);
    assert_eq!(coeff.stats.constant_broadcasts, 8);
    assert_eq!(coeff.stats.constant_replays, 8);
    assert_eq!(coeff.stats.excess(Model::Sm90), 0);
    assert!(!coeff.flagged(Model::Sm90));

    // Lanes read offsets[i % 8]: eight distinct addresses, eight accesses.
    let a = analyze(&spec(m, "gather", 2, args, bufs()), &opts).unwrap();
    let offs = site(&a, "offsets[i % 8]");
    assert_eq!(offs.stats.requests, 2);
    assert_eq!(offs.stats.constant_broadcasts, 0);
    assert_eq!(offs.stats.constant_replays, 16);
    assert_eq!(offs.stats.excess(Model::Sm90), 14);
    assert_eq!(offs.rank, 1, "the serialized constant read ranks first");
    assert_eq!(a.totals.constant_load.constant_replays, 16);

    let text = report::human(&a);
    assert!(
        text.contains("0 broadcast (one address), 2 serialized over distinct addresses into 16 accesses (14 excess)"),
        "{text}"
    );
    let json = report::json(&a, &Default::default());
    let c = &json["sites"][0]["constant"];
    assert_eq!(c["serialized_requests"], 2);
    assert_eq!(c["excess_accesses"], 14);
    assert!(json["sites"][0]["sectors"].is_null());
}
