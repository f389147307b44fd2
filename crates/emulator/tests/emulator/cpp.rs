//! C++ and file-scope constructs from the corpus (`tests/corpus/cpp/`):
//! file-scope variables, structs and classes, references, `volatile`.

use hone_emulator::*;
use hone_ir::Module;

use crate::{cuda, launch};

fn corpus(name: &str) -> Module {
    let path = hone_testkit::corpus(&format!("cpp/{name}"));
    let src = std::fs::read_to_string(&path).expect("corpus file");
    cuda(&src)
}

#[test]
fn constant_tables_and_device_variables() {
    let m = corpus("globals.cu");
    let n = 64;
    let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::from_f32("out", &vec![0.0; n]),
    ];
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(n as i64),
    ];
    let r = launch(&m, "weigh", LaunchConfig::linear(2, 32), &args, &mut bufs);
    assert!(r.is_clean(), "{r:?}");
    let want: Vec<f32> = input.iter().map(|x| 0.9375 * x * 2.0).collect();
    assert_eq!(bufs[1].to_f32_vec(), want);

    // `offsets` has no initializer: zero until the host sets it.
    let mut symbols = Symbols::new(&m).expect("symbols");
    assert_eq!(symbols.get("offsets").unwrap().to_i32_vec(), vec![0; 8]);
    let offs: Vec<i32> = (0..8).map(|k| 10 * k).collect();
    let bytes: Vec<u8> = offs.iter().flat_map(|v| v.to_le_bytes()).collect();
    symbols.set("offsets", &bytes).unwrap();
    assert!(symbols.set("offsets", &[0; 33]).is_err());
    assert!(symbols.set("nothing", &[]).is_err());
    let r = run_with_symbols(
        &m,
        "gather",
        &LaunchConfig::linear(2, 32),
        &args,
        &mut bufs,
        &mut symbols,
        &Options::default(),
        None,
    )
    .unwrap();
    assert!(r.is_clean(), "{r:?}");
    let want: Vec<f32> = (0..n).map(|i| i as f32 + (10 * (i % 8)) as f32).collect();
    assert_eq!(bufs[1].to_f32_vec(), want);
}

#[test]
fn device_variables_keep_their_values_across_launches() {
    let m = corpus("globals.cu");
    let mut symbols = Symbols::new(&m).expect("symbols");
    assert_eq!(
        symbols.get("history").unwrap().to_f32_vec(),
        vec![1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
    let mut bufs = vec![Buffer::from_f32("out", &[0.0; 64])];
    for launch_no in 1..=2 {
        let r = run_with_symbols(
            &m,
            "count",
            &LaunchConfig::linear(1, 64),
            &[KernelArg::Buffer(0)],
            &mut bufs,
            &mut symbols,
            &Options::default(),
            None,
        )
        .unwrap();
        assert!(r.is_clean(), "{r:?}");
        assert_eq!(
            symbols.get("counter").unwrap().to_i32_vec(),
            vec![launch_no]
        );
    }
    let out = bufs[0].to_f32_vec();
    // The second launch reads history[7] == 42 written by the first.
    assert_eq!(out[0], 63.0 + 1.0);
    assert_eq!(out[7], 56.0 + 42.0);
}
