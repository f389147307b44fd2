//! hone's `curand_kernel.h` against a reference written here from the
//! XORWOW generator's definition: the seed's scrambling, the xorshift step
//! and Weyl sequence, and jumps made by powers of the step's 160x160 matrix
//! over GF(2) (repeated squaring), independent of the header's polynomials.

mod common;

use std::path::PathBuf;

use hone_launch::Launch;

type State = [u32; 5];

fn step(v: State) -> State {
    let t = v[0] ^ (v[0] >> 2);
    [
        v[1],
        v[2],
        v[3],
        v[4],
        (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1)),
    ]
}

/// A linear map on the 160 bits, by the images of its unit vectors.
#[derive(Clone)]
struct Matrix(Vec<State>);

impl Matrix {
    fn apply(&self, v: State) -> State {
        let mut out = [0u32; 5];
        for (j, col) in self.0.iter().enumerate() {
            if (v[j / 32] >> (j % 32)) & 1 == 1 {
                for k in 0..5 {
                    out[k] ^= col[k];
                }
            }
        }
        out
    }
    fn square(&self) -> Matrix {
        Matrix(self.0.iter().map(|c| self.apply(*c)).collect())
    }
}

/// The step's matrix to the powers 2^0 .. 2^131 (a jump's count is below 2^128).
fn powers() -> Vec<Matrix> {
    let unit = |j: usize| {
        let mut v = [0u32; 5];
        v[j / 32] = 1 << (j % 32);
        v
    };
    let mut m = Matrix((0..160).map(|j| step(unit(j))).collect());
    let mut out = Vec::new();
    for _ in 0..132 {
        let next = m.square();
        out.push(m);
        m = next;
    }
    out
}

fn jump(p: &[Matrix], mut v: State, k: u128) -> State {
    for (i, m) in p.iter().enumerate().take(128) {
        if (k >> i) & 1 == 1 {
            v = m.apply(v);
        }
    }
    v
}

struct Gen {
    d: u32,
    v: State,
}

impl Gen {
    fn new(p: &[Matrix], seed: u64, sub: u64, off: u64) -> Gen {
        let s0 = (seed as u32) ^ 0xaad2_6b49;
        let s1 = ((seed >> 32) as u32) ^ 0xf7dc_efdd;
        let t0 = 1_099_087_573u32.wrapping_mul(s0);
        let t1 = 2_591_861_531u32.wrapping_mul(s1);
        let v = [
            123_456_789u32.wrapping_add(t0),
            362_436_069 ^ t0,
            521_288_629u32.wrapping_add(t1),
            88_675_123 ^ t1,
            5_783_321u32.wrapping_add(t0),
        ];
        let mut g = Gen {
            d: 6_615_241u32.wrapping_add(t1).wrapping_add(t0),
            v: jump(p, v, ((sub as u128) << 67) + off as u128),
        };
        g.d = g.d.wrapping_add(362_437u32.wrapping_mul(off as u32));
        g
    }
    fn next(&mut self) -> u32 {
        self.v = step(self.v);
        self.d = self.d.wrapping_add(362_437);
        self.v[4].wrapping_add(self.d)
    }
    fn uniform(&mut self) -> f32 {
        self.next() as f32 * 2.328_306_4e-10 + 2.328_306_4e-10 / 2.0
    }
    fn normal2(&mut self) -> (f32, f32) {
        let u = self.next() as f32 * 2.328_306_4e-10 + 2.328_306_4e-10 / 2.0;
        let c = 2.328_306_4e-10f32 * 6.283_185_5;
        let w = self.next() as f32 * c + c / 2.0;
        let s = (-2.0 * u.ln()).sqrt();
        (w.sin() * s, w.cos() * s)
    }
    fn unit53(&mut self) -> f64 {
        let x = self.next() as u64;
        let y = self.next() as u64;
        (x ^ (y << 21)) as f64
    }
    fn uniform_double(&mut self) -> f64 {
        self.unit53() * 2f64.powi(-53) + 2f64.powi(-54)
    }
    fn normal2_double(&mut self) -> (f64, f64) {
        let u = self.unit53() * 2f64.powi(-53) + 2f64.powi(-54);
        let w = self.unit53() * 2f64.powi(-52) + 2f64.powi(-53);
        let s = (-2.0 * u.ln()).sqrt();
        let a = w * std::f64::consts::PI;
        (a.sin() * s, a.cos() * s)
    }
}

const SUBS: [u64; 8] = [0, 1, 2, 3, 1000, 65_535, (1 << 20) + 3, 1 << 33];
const OFFS: [u64; 8] = [0, 1, 7, 1000, 123_456_789, 0, (1 << 40) + 5, 2];
const SEED: u64 = 0x1234_5678_9abc;

fn run_draws() -> Vec<Vec<u8>> {
    let n = SUBS.len();
    let dir = std::env::temp_dir().join(format!("hone-curand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = |v: &[u64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/cpp/curand.cu");
    let mut datas = Vec::new();
    for (kernel, args) in [
        (
            "init_states",
            format!(
                r#""states": {{"type": "curandState", "len": {n}}},
                "sub": {{"type": "unsigned long long", "len": {n}, "init": {{"values": [{}]}}}},
                "off": {{"type": "unsigned long long", "len": {n}, "init": {{"values": [{}]}}}},
                "seed": {SEED}, "n": {n}"#,
                list(&SUBS),
                list(&OFFS)
            ),
        ),
        (
            "draws",
            format!(
                r#""states": {{"type": "curandState", "len": {n}}},
                "u": {{"type": "unsigned int", "len": {}}},
                "f": {{"type": "float", "len": {}}},
                "d": {{"type": "double", "len": {}}}, "n": {n}"#,
                4 * n,
                8 * n,
                4 * n
            ),
        ),
    ] {
        let launch = format!(
            r#"{{"source": {:?}, "kernel": "{kernel}", "grid": 1, "block": 32, "args": {{{args}}}}}"#,
            source.to_str().unwrap()
        );
        let path = dir.join("launch.json");
        std::fs::write(&path, launch).unwrap();
        let launch = Launch::read(&path).unwrap();
        let parsed = launch.parse().unwrap();
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        let kernel = launch.kernel(&parsed).unwrap();
        let mut data = launch.data(kernel).unwrap();
        if kernel.name == "draws" {
            // The states init_states left.
            data.buffers[0].data = std::mem::take(&mut datas[0]);
        }
        let r = common::run(&parsed, kernel.name.as_str(), &mut data);
        assert!(r.is_clean(), "{r:?}");
        datas = data.buffers.into_iter().map(|b| b.data).collect();
    }
    let _ = std::fs::remove_dir_all(dir);
    datas
}

fn words<const N: usize>(b: &[u8]) -> Vec<[u8; N]> {
    b.chunks(N).map(|c| c.try_into().unwrap()).collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-3)
}

#[test]
fn device_api_matches_the_reference() {
    let p = powers();
    let out = run_draws();
    let u: Vec<u32> = words::<4>(&out[1])
        .into_iter()
        .map(u32::from_le_bytes)
        .collect();
    let f: Vec<f32> = words::<4>(&out[2])
        .into_iter()
        .map(f32::from_le_bytes)
        .collect();
    let d: Vec<f64> = words::<8>(&out[3])
        .into_iter()
        .map(f64::from_le_bytes)
        .collect();
    for i in 0..SUBS.len() {
        let mut g = Gen::new(&p, SEED, SUBS[i], OFFS[i]);
        assert_eq!(u[i * 4], g.next(), "thread {i}");
        assert_eq!(u[i * 4 + 1], g.next(), "thread {i}");
        assert_eq!(f[i * 8], g.uniform(), "thread {i}");
        // The second normal is the first pair's cached second value; the
        // third starts a pair whose second waits in vain, for the
        // log-normal starts its own (the flag says which kind is cached),
        // and the second log-normal is that pair's cached second value.
        let (a, b) = g.normal2();
        let (c, _) = g.normal2();
        let (l0, l1) = g.normal2();
        let (n0, n1) = g.normal2();
        let want = [
            a,
            b,
            c,
            (0.5 + 0.25 * l0).exp(),
            n0,
            n1,
            (0.5 + 0.25 * l1).exp(),
        ];
        for (k, w) in want.iter().enumerate() {
            let got = f[i * 8 + 1 + k];
            assert!(
                close(got as f64, *w as f64, 1e-5),
                "thread {i} float {k}: {got} vs {w}"
            );
        }
        assert_eq!(d[i * 4], g.uniform_double(), "thread {i}");
        let (a, b) = g.normal2_double();
        let (c, _) = g.normal2_double();
        for (k, w) in [a, b, c].iter().enumerate() {
            let got = d[i * 4 + 1 + k];
            assert!(close(got, *w, 1e-12), "thread {i} double {k}: {got} vs {w}");
        }
        g.v = jump(&p, g.v, 1000);
        g.d = g.d.wrapping_add(362_437 * 1000);
        assert_eq!(u[i * 4 + 2], g.next(), "thread {i} after skipahead");
        g.v = jump(&p, g.v, 3u128 << 67);
        assert_eq!(
            u[i * 4 + 3],
            g.next(),
            "thread {i} after skipahead_sequence"
        );
    }
}

/// The header's jump tables: row b of each applied by stepping (the
/// polynomial's terms) is the matrix power it stands for.
#[test]
fn jump_tables_are_powers_of_the_step() {
    let header = include_str!("../../frontend/src/headers/curand_kernel.h");
    let p = powers();
    let table = |name: &str| -> Vec<u32> {
        let start = header.find(&format!("{name}[320] = {{")).unwrap();
        let body = &header[start..];
        let body = &body[body.find('{').unwrap() + 1..body.find("};").unwrap()];
        body.split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(|w| {
                u32::from_str_radix(w.trim_start_matches("0x").trim_end_matches('u'), 16).unwrap()
            })
            .collect()
    };
    let v: State = [
        0x0123_4567,
        0x89ab_cdef,
        0xdead_beef,
        0x0bad_f00d,
        0x1357_9bdf,
    ];
    for (name, base) in [
        ("hone_xorwow_jump_offset", 0),
        ("hone_xorwow_jump_sequence", 67),
    ] {
        let t = table(name);
        assert_eq!(t.len(), 320, "{name}");
        for b in 0..64 {
            let mut acc = [0u32; 5];
            let mut s = v;
            for k in 0..160 {
                if (t[b * 5 + k / 32] >> (k % 32)) & 1 == 1 {
                    for w in 0..5 {
                        acc[w] ^= s[w];
                    }
                }
                s = step(s);
            }
            assert_eq!(acc, p[base + b].apply(v), "{name} row {b}");
        }
    }
}

/// Sobol32: element i is the xor of the direction vectors of the bits of
/// i's Gray code (dimension 2 of Sobol's sequence: v_k = v_(k-1) ^ (v_(k-1) >> 1)).
#[test]
fn sobol_points_are_gray_code_sums() {
    let mut dv = vec![1u32 << 31];
    for k in 1..32 {
        let p = dv[k - 1];
        dv.push(p ^ (p >> 1));
    }
    let point = |i: u32| {
        let g = i ^ (i >> 1);
        (0..32)
            .filter(|k| (g >> k) & 1 == 1)
            .fold(0u32, |x, k| x ^ dv[k])
    };
    let dir = std::env::temp_dir().join(format!("hone-sobol-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/cpp/curand.cu");
    let values: Vec<String> = dv.iter().map(|v| v.to_string()).collect();
    let launch = format!(
        r#"{{"source": {:?}, "kernel": "sobol", "grid": 1, "block": 32, "args": {{
            "dirs": {{"type": "unsigned int[32]", "len": 1, "init": {{"values": [{}]}}}},
            "u": {{"type": "unsigned int", "len": 64}}, "f": {{"type": "float", "len": 32}},
            "offset": 1000}}}}"#,
        source.to_str().unwrap(),
        values.join(", ")
    );
    let path = dir.join("launch.json");
    std::fs::write(&path, launch).unwrap();
    let launch = Launch::read(&path).unwrap();
    let parsed = launch.parse().unwrap();
    let kernel = launch.kernel(&parsed).unwrap();
    let mut data = launch.data(kernel).unwrap();
    let r = common::run(&parsed, "sobol", &mut data);
    assert!(r.is_clean(), "{r:?}");
    let _ = std::fs::remove_dir_all(dir);
    let u: Vec<u32> = words::<4>(&data.buffers[1].data)
        .into_iter()
        .map(u32::from_le_bytes)
        .collect();
    let f: Vec<f32> = words::<4>(&data.buffers[2].data)
        .into_iter()
        .map(f32::from_le_bytes)
        .collect();
    for i in 0..32u32 {
        let first = 1000 + 3 * i;
        assert_eq!(u[2 * i as usize], point(first), "thread {i}");
        assert_eq!(u[2 * i as usize + 1], point(first + 1), "thread {i}");
        let want = point(first + 2) as f32 * 2.328_306_4e-10 + 2.328_306_4e-10 / 2.0;
        assert_eq!(f[i as usize], want, "thread {i}");
    }
}
