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

/// A buffer of `n` structs `name` of the module, from little-endian bytes.
fn struct_buffer(m: &Module, name: &str, buf: &str, bytes: Vec<u8>) -> Buffer {
    let st = m
        .structs
        .iter()
        .find(|s| s.name == name)
        .expect("struct in module");
    assert_eq!(bytes.len() as u64 % st.size, 0);
    Buffer {
        name: buf.to_string(),
        elem: hone_ir::Type::Struct(st.clone()),
        data: bytes,
    }
}

/// A `Particle` as the kernel lays it out: pos, vel (3 floats each), mass, id.
fn particle(pos: [f32; 3], vel: [f32; 3], mass: f32, id: i32) -> Vec<u8> {
    let mut b = Vec::new();
    for v in pos.iter().chain(&vel).chain([&mass]) {
        b.extend(v.to_le_bytes());
    }
    b.extend(id.to_le_bytes());
    b
}

fn particles(n: usize) -> Vec<([f32; 3], [f32; 3], f32, i32)> {
    (0..n)
        .map(|i| {
            let f = i as f32;
            ([f, 2.0 * f, -f], [1.0, 0.5 * f, 0.25], 1.0 + f, i as i32)
        })
        .collect()
}

#[test]
fn struct_layout_is_the_c_abi() {
    let m = corpus("structs.cu");
    let p = m.structs.iter().find(|s| s.name == "Particle").unwrap();
    let offsets: Vec<u64> = p.fields.iter().map(|f| f.offset).collect();
    assert_eq!(offsets, vec![0, 12, 24, 28]);
    assert_eq!((p.size, p.align), (32, 4));
}

#[test]
fn array_of_structs_members_methods_and_operators() {
    let m = corpus("structs.cu");
    let n = 40;
    let ps = particles(n);
    let bytes: Vec<u8> = ps
        .iter()
        .flat_map(|(p, v, mass, id)| particle(*p, *v, *mass, *id))
        .collect();
    let mut bufs = vec![struct_buffer(&m, "Particle", "p", bytes)];
    let dt = 0.5f32;
    let r = launch(
        &m,
        "advance",
        LaunchConfig::linear(2, 32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Float(dt as f64),
            KernelArg::Int(n as i64),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    let want: Vec<u8> = ps
        .iter()
        .flat_map(|(p, v, mass, id)| {
            let pos = [p[0] + dt * v[0], p[1] + dt * v[1], p[2] + dt * v[2]];
            let vel = [v[0] * 0.5, v[1] * 0.5, v[2] * 0.5];
            particle(pos, vel, *mass, *id)
        })
        .collect();
    assert_eq!(bufs[0].data, want);

    // energies: a range struct by pointer, a const reference to an element,
    // a unary operator and a const member calling another.
    let mut range = Vec::new();
    range.extend(3i32.to_le_bytes());
    range.extend(37i32.to_le_bytes());
    let mut bufs = vec![
        bufs.remove(0),
        Buffer::from_f32("out", &vec![-1.0; n]),
        struct_buffer(&m, "Range", "r", range),
    ];
    let r = launch(
        &m,
        "energies",
        LaunchConfig::linear(2, 32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    let out = bufs[1].to_f32_vec();
    for (i, (_, v, mass, id)) in ps.iter().enumerate() {
        let want = if (3..37).contains(&i) {
            let vel = [v[0] * 0.5, v[1] * 0.5, v[2] * 0.5];
            let n2 = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
            0.5 * mass * n2 + *id as f32
        } else {
            -1.0
        };
        assert_eq!(out[i], want, "particle {i}");
    }
}

#[test]
fn vector_operators_classes_and_constructors() {
    let m = corpus("structs.cu");
    let n = 32;
    let flat: Vec<f32> = (0..3 * n).map(|x| x as f32 * 0.5).collect();
    let mut a = Buffer::from_f32("a", &flat);
    a.elem = hone_ir::Type::Vector(hone_ir::Scalar::F32, 3);
    let mut out = Buffer::from_f32("out", &vec![0.0; 3 * n]);
    out.elem = a.elem.clone();
    let mut bufs = vec![a, out, Buffer::from_i32("counts", &vec![0; n])];
    let r = launch(
        &m,
        "vectors",
        LaunchConfig::linear(1, n as u32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    let want: Vec<f32> = flat.iter().map(|x| x + x * 2.0).collect();
    assert_eq!(bufs[1].to_f32_vec(), want);
    let counts = bufs[2].to_i32_vec();
    for (i, c) in counts.iter().enumerate() {
        let hits = (0..8).filter(|k| k % (i + 1) == 0).count() as i32;
        let s: Vec<f32> = flat[3 * i..3 * i + 3].iter().map(|x| x + x * 2.0).collect();
        let d = (s[0] * 1.0 + s[1] * 1.0 + s[2] * 1.0) + (1.0f32 * 3.0 + 2.0 * 4.0);
        assert_eq!(*c, 8 * 100 + hits + 14 + 1000 * d as i32, "thread {i}");
    }
}

#[test]
fn namespaces_enums_references_and_auto() {
    let m = corpus("features.cu");
    let n = 64;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
    let run = |mode: i64, op: i64| {
        let mut bufs = vec![
            Buffer::from_f32("in", &input),
            Buffer::from_f32("out", &vec![0.0; n]),
            Buffer::from_i32("idx", &vec![0; n]),
        ];
        let r = launch(
            &m,
            "features",
            LaunchConfig::linear(2, 32),
            &[
                KernelArg::Buffer(0),
                KernelArg::Buffer(1),
                KernelArg::Buffer(2),
                KernelArg::Int(mode),
                KernelArg::Int(op),
            ],
            &mut bufs,
        );
        assert!(r.is_clean(), "{r:?}");
        (bufs[1].to_f32_vec(), bufs[2].to_i32_vec())
    };
    // Mode: MODE_COPY = 0, MODE_SCALE = 4, MODE_SQUARE = 5; Op: Add, Mul, Max.
    for (mode, op) in [(0, 0), (4, 1), (5, 2)] {
        let (out, idx) = run(mode, op);
        for i in 0..n {
            let x = input[i];
            let mut acc = 1.0f32;
            acc = match op {
                0 => acc + x,
                1 => acc * x,
                _ => acc.max(x),
            };
            acc += 2.0 * x;
            let want = match mode {
                0 => acc,
                4 => acc * 0.5,
                _ => acc * acc,
            };
            assert_eq!(out[i], want, "mode {mode} op {op} element {i}");
            let a = (i as i32 - 4).clamp(0, 7);
            // swap_values(a, b) exchanges the clamped index and i.
            assert_eq!(idx[i], i as i32 * 1000 + a);
        }
    }
}

/// Warp-synchronous code: the emulator runs a warp's lanes in step, so the
/// volatile reduction without `__syncwarp` sums as it did before Volta; since
/// CUDA 9 lanes may diverge, and the missing `__syncwarp` is reported as a
/// race between the warp's lanes. With `__syncwarp` the same sum is clean.
#[test]
fn volatile_warp_synchronous_reduction() {
    let m = corpus("warp_reduce.cu");
    let input: Vec<f32> = (0..256).map(|i| (i % 7) as f32).collect();
    let want: Vec<f32> = input.chunks(128).map(|c| c.iter().sum()).collect();
    let mut results = Vec::new();
    for k in ["reduce_volatile", "reduce_syncwarp"] {
        let mut bufs = vec![
            Buffer::from_f32("in", &input),
            Buffer::from_f32("out", &[0.0; 2]),
        ];
        let r = launch(
            &m,
            k,
            LaunchConfig::linear(2, 128),
            &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
            &mut bufs,
        );
        assert!(r.completed && r.faults.is_empty(), "{k}: {r:?}");
        assert_eq!(bufs[1].to_f32_vec(), want, "{k}");
        results.push(r);
    }
    let lockstep = &results[0];
    assert!(!lockstep.races.is_empty());
    assert!(lockstep
        .races
        .iter()
        .all(|r| r.array == "sdata" && r.first.block == r.second.block));
    // The first race is between a lane's store and a lower lane's load of
    // the next step, in the volatile device function.
    let first = &lockstep.races[0];
    assert!((6..=11).contains(&first.first.span.line), "{first:?}");
    assert!(results[1].is_clean(), "{:?}", results[1]);

    // `volatile` is kept on the pointer and on the shared array.
    let (_, f) = m.function("warp_reduce").unwrap();
    let p = f.var(f.params[0]);
    assert!(matches!(&p.ty, hone_ir::Type::Pointer(t) if t.pointee_volatile));
    let (_, k) = m.function("reduce_syncwarp").unwrap();
    assert!(k.vars.iter().any(|v| v.name == "sdata" && v.is_volatile));
}

#[test]
fn constant_struct_with_aggregate_initializer() {
    let m = corpus("globals.cu");
    let mut bufs = vec![
        Buffer::from_f32("in", &[1.0, 2.0, 3.0, 4.0]),
        Buffer::from_f32("out", &[0.0; 4]),
    ];
    let r = launch(
        &m,
        "affine",
        LaunchConfig::linear(1, 4),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    assert_eq!(bufs[1].to_f32_vec(), vec![1.75, 3.5, 4.75, 0.0]);
    let symbols = Symbols::new(&m).unwrap();
    let prm = symbols.get("prm").unwrap();
    assert_eq!(prm.data.len(), 16);
    assert_eq!(&prm.data[..4], &3i32.to_le_bytes());
}

#[test]
fn structs_in_shared_memory_copied_whole() {
    let m = corpus("structs.cu");
    let n = 64;
    let ps = particles(n);
    let bytes: Vec<u8> = ps
        .iter()
        .flat_map(|(p, v, mass, id)| particle(*p, *v, *mass, *id))
        .collect();
    let mut bufs = vec![
        struct_buffer(&m, "Particle", "p", bytes),
        struct_buffer(&m, "Particle", "out", vec![0; 32 * n]),
    ];
    let r = launch(
        &m,
        "neighbours",
        LaunchConfig::linear(2, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    let want: Vec<u8> = (0..n)
        .flat_map(|i| {
            let (b, t) = (i / 32, i % 32);
            let (p, v, mass, id) = ps[b * 32 + (t + 1) % 32];
            particle(p, v, mass, if t > 15 { id } else { -id })
        })
        .collect();
    assert_eq!(bufs[1].data, want);
}

#[test]
fn helper_math_operators_and_aligned_structs() {
    let m = corpus("helper_math.cu");
    let sample = m.structs.iter().find(|s| s.name == "Sample").unwrap();
    assert_eq!((sample.size, sample.align), (16, 16));
    let v: Vec<f32> = (0..128).map(|i| i as f32 * 0.5).collect();
    let mut vb = Buffer::from_f32("v", &v);
    vb.elem = hone_ir::Type::Vector(hone_ir::Scalar::F32, 2);
    let q: Vec<u8> = (0..32i32)
        .flat_map(|i| {
            let mut b = (i as f32 * 2.0).to_le_bytes().to_vec();
            b.extend((i - 5).to_le_bytes());
            b.extend([0u8; 8]);
            b
        })
        .collect();
    let mut bufs = vec![
        vb,
        struct_buffer(&m, "Sample", "q", q),
        Buffer::from_f32("out", &[0.0; 32]),
    ];
    let r = launch(
        &m,
        "helper",
        LaunchConfig::linear(1, 32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    let got = bufs[0].to_f32_vec();
    for i in 0..32 {
        for c in 0..2 {
            let want = -(v[2 * i + c] + v[2 * (i + 32) + c]);
            assert_eq!(got[2 * i + c], want, "v[{i}] component {c}");
        }
    }
    let out = bufs[2].to_f32_vec();
    for (i, o) in out.iter().enumerate() {
        assert_eq!(*o, i as f32 * 2.0 + (i as i32 - 5) as f32 + 16.0);
    }
}

#[test]
fn struct_kernel_parameter_by_value() {
    let m = corpus("structs.cu");
    let mut prm = Vec::new();
    prm.extend(40i32.to_le_bytes());
    prm.extend(2.0f32.to_le_bytes());
    for v in [1.0f32, -1.0, 0.5] {
        prm.extend(v.to_le_bytes());
    }
    prm.extend([0u8; 4]); // padding before the pointer
    prm.extend(0u64.to_le_bytes());
    let pts: Vec<f32> = (0..3 * 64).map(|x| x as f32).collect();
    let mut pb = Buffer::from_f32("pts", &pts);
    pb.elem = hone_ir::Type::Vector(hone_ir::Scalar::F32, 3);
    let mut bufs = vec![struct_buffer(&m, "Params", "prm", prm), pb];
    let r = launch(
        &m,
        "shift",
        LaunchConfig::linear(2, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:?}");
    let got = bufs[1].to_f32_vec();
    let off = [1.0f32, -1.0, 0.5];
    for (k, g) in got.iter().enumerate() {
        let want = if k / 3 < 40 {
            pts[k] * 2.0 + off[k % 3]
        } else {
            pts[k]
        };
        assert_eq!(*g, want, "component {k}");
    }
    // A buffer of the wrong size is refused, naming the parameter.
    let mut bad = vec![Buffer::from_i32("prm", &[1]), bufs.remove(1)];
    let e = hone_emulator::run(
        &m,
        "shift",
        &LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bad,
        &Options::default(),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("prm") && e.contains("Params"), "{e}");
}

#[test]
fn union_members_are_views_of_the_same_bytes() {
    let m = corpus("unions.cu");
    let n = 32usize;
    let input: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let tagged: Vec<i32> = (0..n as i32).flat_map(|i| [i, -1]).collect();
    let mut t = Buffer::from_i32("t", &tagged);
    let st = m
        .structs
        .iter()
        .find(|s| s.name == "Tagged")
        .expect("Tagged");
    t.elem = hone_ir::Type::Struct(st.clone());
    let mut bufs = vec![
        Buffer::from_u32("in", &input),
        Buffer::from_i32("out", &vec![0; 3 * n]),
        t,
    ];
    let args = [0, 1, 2].map(KernelArg::Buffer);
    let r = launch(
        &m,
        "unpack",
        LaunchConfig::linear(1, n as u32),
        &args,
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[1].to_i32_vec();
    let t = bufs[2].to_i32_vec();
    for k in 0..n {
        let v = input[k];
        assert_eq!(out[3 * k], v as u16 as i16 as i32, "lo of {v:#x}");
        assert_eq!(
            out[3 * k + 1],
            (v >> 16) as u16 as i16 as i32,
            "hi of {v:#x}"
        );
        assert_eq!(
            out[3 * k + 2] as u32,
            (v & 0xffff) | (7 << 16),
            "q of {v:#x}"
        );
        assert_eq!(t[2 * k + 1], 1.5f32.to_bits() as i32 + k as i32, "t[{k}].i");
    }
}
