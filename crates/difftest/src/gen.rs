//! Random kernels and their inputs from a seed. Barriers, shuffles and votes
//! are placed only where every thread of the block is converged: at the top
//! level and in loops with a constant trip count and no `break`/`continue`.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ast::*;
use hone_ir::Arith;

/// What the generator may use.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// `expf`, `logf`, `sinf`, `cosf` and their double forms, whose last bits
    /// are not specified exactly by CUDA.
    pub transcendental: bool,
    /// Deepest expression nesting.
    pub max_expr_depth: u32,
    /// Statements at the top level of a kernel (at most).
    pub max_top_stmts: usize,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            transcendental: false,
            max_expr_depth: 4,
            max_top_stmts: 14,
        }
    }
}

/// The buffers a kernel reads and accumulates into, before the launch.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub i32s: Vec<i32>,
    pub u64s: Vec<u64>,
    pub f32s: Vec<f32>,
    pub f64s: Vec<f64>,
    pub acc_u: Vec<u32>,
    pub acc_q: Vec<u64>,
}

/// One generated test: the kernel and its inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The run's seed and this case's number in the run.
    pub seed: u64,
    pub index: u64,
    pub kernel: Kernel,
    pub inputs: Inputs,
}

/// The `index`-th case of the run seeded with `seed`: the same pair always
/// gives the same case.
pub fn case(seed: u64, index: u64, opts: &GenOptions) -> Case {
    let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
        ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let mut rng = ChaCha8Rng::seed_from_u64(mixed);
    let kernel = kernel(&mut rng, &format!("dt_{seed}_{index}"), opts);
    let inputs = inputs(&mut rng);
    Case {
        seed,
        index,
        kernel,
        inputs,
    }
}

fn inputs(rng: &mut ChaCha8Rng) -> Inputs {
    Inputs {
        i32s: (0..INPUT_LEN)
            .map(|_| int_bits(rng, Arith::I32) as u32 as i32)
            .collect(),
        u64s: (0..INPUT_LEN).map(|_| int_bits(rng, Arith::U64)).collect(),
        f32s: (0..INPUT_LEN)
            .map(|_| f32::from_bits(float_bits(rng, Arith::F32) as u32))
            .collect(),
        f64s: (0..INPUT_LEN)
            .map(|_| f64::from_bits(float_bits(rng, Arith::F64)))
            .collect(),
        acc_u: (0..ACC_SLOTS)
            .map(|_| int_bits(rng, Arith::U32) as u32)
            .collect(),
        acc_q: (0..ACC_SLOTS).map(|_| int_bits(rng, Arith::U64)).collect(),
    }
}

/// Integer bits biased towards the values where arithmetic goes wrong:
/// zero, one, all ones, powers of two and the extremes.
fn int_bits(rng: &mut ChaCha8Rng, t: Arith) -> u64 {
    let width = t.size() as usize * 8;
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let v: u64 = match rng.gen_range(0..10) {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => 1u64 << rng.gen_range(0..width),
        4 => (1u64 << (width - 1)).wrapping_sub(rng.gen_range(0..2)),
        5 | 6 => rng.gen_range(0..200u64),
        7 => (rng.gen_range(0..200u64)).wrapping_neg(),
        _ => rng.gen(),
    };
    v & mask
}

/// Finite float bits: small integers, halves, ordinary values over a wide
/// range of exponents, subnormals, signed zeros and the largest finite value.
fn float_bits(rng: &mut ChaCha8Rng, t: Arith) -> u64 {
    let v: f64 = match rng.gen_range(0..12) {
        0 => 0.0,
        1 => -0.0,
        2 | 3 => rng.gen_range(-16i32..=16) as f64,
        4 => rng.gen_range(-64i32..=64) as f64 * 0.5,
        5..=7 => rng.gen_range(-1.0..1.0) * 10f64.powi(rng.gen_range(-6..=6)),
        8 => rng.gen_range(-1.0..1.0) * 10f64.powi(rng.gen_range(-30..=30)),
        9 => {
            // Subnormal: no exponent bits.
            return if t == Arith::F32 {
                (rng.gen_range(1u32..0x0080_0000) | (rng.gen::<u32>() & 0x8000_0000)) as u64
            } else {
                rng.gen_range(1u64..0x000F_FFFF_FFFF_FFFF) | (rng.gen::<u64>() & (1 << 63))
            };
        }
        10 => {
            // Any finite value.
            return loop {
                let bits = if t == Arith::F32 {
                    rng.gen::<u32>() as u64
                } else {
                    rng.gen::<u64>()
                };
                let finite = if t == Arith::F32 {
                    f32::from_bits(bits as u32).is_finite()
                } else {
                    f64::from_bits(bits).is_finite()
                };
                if finite {
                    break bits;
                }
            };
        }
        _ => {
            return if t == Arith::F32 {
                f32::MAX.to_bits() as u64
            } else {
                f64::MAX.to_bits()
            }
        }
    };
    if t == Arith::F32 {
        (v as f32).to_bits() as u64
    } else {
        v.to_bits()
    }
}

/// Where a statement is generated.
#[derive(Clone, Copy)]
struct Place {
    depth: u32,
    /// Every thread of the block runs it together.
    converged: bool,
    /// Inside a loop that may `break` or `continue`.
    breakable: bool,
}

struct Gen<'r> {
    rng: &'r mut ChaCha8Rng,
    opts: &'r GenOptions,
    loops: Vec<usize>,
    next_loop: usize,
    /// Statements still to make, so that nesting cannot blow up.
    budget: usize,
}

fn kernel(rng: &mut ChaCha8Rng, name: &str, opts: &GenOptions) -> Kernel {
    let block = *[32u32, 64, 96, 128, 256].choose(rng).expect("non-empty");
    let grid = rng.gen_range(1..=4);
    let top = rng.gen_range(3..=opts.max_top_stmts.max(3));
    let mut g = Gen {
        rng,
        opts,
        loops: Vec::new(),
        next_loop: 0,
        budget: top * 3,
    };
    let place = Place {
        depth: 0,
        converged: true,
        breakable: false,
    };
    let body = (0..top).map(|_| g.stmt(place)).collect();
    Kernel {
        name: name.to_string(),
        grid,
        block,
        body,
    }
}

impl Gen<'_> {
    fn ty(&mut self) -> Arith {
        *Arith::ALL.choose(self.rng).expect("non-empty")
    }

    fn local(&mut self) -> usize {
        self.rng.gen_range(0..LOCALS)
    }

    fn body(&mut self, place: Place) -> Vec<Stmt> {
        let n = self.rng.gen_range(1..=3);
        (0..n).map(|_| self.stmt(place)).collect()
    }

    fn stmt(&mut self, place: Place) -> Stmt {
        self.budget = self.budget.saturating_sub(1);
        let nest = place.depth < 3 && self.budget > 0;
        let mut choices: Vec<(u32, u8)> = vec![(50, 0), (5, 8)];
        if nest {
            choices.push((12, 1));
            choices.push((9, 2));
        }
        if place.breakable {
            choices.push((6, 3));
        }
        if place.converged {
            choices.extend([(8, 4), (5, 5), (5, 6), (3, 7)]);
        }
        let total: u32 = choices.iter().map(|c| c.0).sum();
        let mut pick = self.rng.gen_range(0..total);
        let mut kind = 0;
        for (w, k) in choices {
            if pick < w {
                kind = k;
                break;
            }
            pick -= w;
        }
        match kind {
            1 => {
                let c = self.cond(0);
                let inner = Place {
                    depth: place.depth + 1,
                    converged: false,
                    ..place
                };
                let then = self.body(inner);
                let els = if self.rng.gen_bool(0.4) {
                    self.body(inner)
                } else {
                    Vec::new()
                };
                Stmt::If(c, then, els)
            }
            2 => self.loop_stmt(place),
            3 => {
                let c = self.cond(1);
                if self.rng.gen_bool(0.5) {
                    Stmt::Break(c)
                } else {
                    Stmt::Continue(c)
                }
            }
            4 => {
                let ty = self.ty();
                let kind = *[ShflKind::Idx, ShflKind::Up, ShflKind::Down, ShflKind::Xor]
                    .choose(self.rng)
                    .expect("non-empty");
                let value = self.expr(ty, 1);
                let lane = if kind == ShflKind::Idx && self.rng.gen_bool(0.5) {
                    self.expr(Arith::U32, 2)
                } else {
                    let e = self.expr(Arith::U32, 2);
                    Expr::Bin(
                        BinOp::And,
                        Arith::U32,
                        Box::new(e),
                        Box::new(Expr::Const(Arith::U32, 31)),
                    )
                };
                let width = if self.rng.gen_bool(0.7) {
                    32
                } else {
                    *[16u32, 8, 4, 2].choose(self.rng).expect("non-empty")
                };
                Stmt::Shuffle {
                    ty,
                    dst: self.local(),
                    kind,
                    value,
                    lane,
                    width,
                }
            }
            5 => {
                let kind = *[VoteKind::Ballot, VoteKind::Any, VoteKind::All]
                    .choose(self.rng)
                    .expect("non-empty");
                Stmt::Vote {
                    dst: self.local(),
                    kind,
                    cond: self.cond(1),
                }
            }
            6 => {
                let ty = self.ty();
                Stmt::Exchange {
                    ty,
                    dst: self.local(),
                    value: self.expr(ty, 1),
                    offset: self.expr(Arith::U32, 2),
                }
            }
            7 => {
                let ty = if self.rng.gen_bool(0.5) {
                    Arith::U32
                } else {
                    Arith::U64
                };
                let op = *AtomicOp::ALL.choose(self.rng).expect("non-empty");
                Stmt::SharedAtomic {
                    ty,
                    dst: self.local(),
                    op,
                    init: int_bits(self.rng, ty),
                    value: self.expr(ty, 1),
                }
            }
            8 => {
                let ty = if self.rng.gen_bool(0.5) {
                    Arith::U32
                } else {
                    Arith::U64
                };
                // One operation per slot: mixed operations on one slot
                // (`atomicAnd` then `atomicMax`) depend on the threads' order.
                let slot = self.rng.gen_range(0..ACC_SLOTS);
                Stmt::GlobalAtomic {
                    ty,
                    op: AtomicOp::ALL[slot],
                    slot,
                    value: self.expr(ty, 1),
                }
            }
            _ => {
                let ty = self.ty();
                let dst = self.local();
                Stmt::Assign(ty, dst, self.expr(ty, 0))
            }
        }
    }

    fn loop_stmt(&mut self, place: Place) -> Stmt {
        let k = self.next_loop;
        self.next_loop += 1;
        // A loop in converged code stays converged when every thread runs it
        // the same number of times and none leaves it early.
        let uniform = place.converged && self.rng.gen_bool(0.6);
        let trips = if uniform || self.rng.gen_bool(0.5) {
            Trips::Const(self.rng.gen_range(0..=4))
        } else {
            Trips::Varying(self.expr(Arith::U32, 2))
        };
        let inner = Place {
            depth: place.depth + 1,
            converged: uniform,
            breakable: !uniform,
        };
        self.loops.push(k);
        let body = self.body(inner);
        self.loops.pop();
        Stmt::Loop(k, trips, body)
    }

    fn cond(&mut self, depth: u32) -> Cond {
        if depth < 2 && self.rng.gen_bool(0.25) {
            return match self.rng.gen_range(0..3) {
                0 => Cond::Not(Box::new(self.cond(depth + 1))),
                1 => Cond::And(
                    Box::new(self.cond(depth + 1)),
                    Box::new(self.cond(depth + 1)),
                ),
                _ => Cond::Or(
                    Box::new(self.cond(depth + 1)),
                    Box::new(self.cond(depth + 1)),
                ),
            };
        }
        let t = self.ty();
        let op = *CmpOp::ALL.choose(self.rng).expect("non-empty");
        let a = self.expr(t, depth + 1);
        let b = self.expr(t, depth + 1);
        Cond::Cmp(op, Box::new(a), Box::new(b))
    }

    fn leaf(&mut self, t: Arith) -> Expr {
        match self.rng.gen_range(0..10) {
            0..=4 => Expr::Var(t, self.local()),
            5 | 6 => Expr::Const(
                t,
                if t.is_float() {
                    float_bits(self.rng, t)
                } else {
                    int_bits(self.rng, t)
                },
            ),
            7 | 8 if t == Arith::U32 => {
                Expr::Special(*Special::ALL.choose(self.rng).expect("non-empty"))
            }
            7 | 8 if t == Arith::I32 && !self.loops.is_empty() => {
                Expr::LoopVar(*self.loops.choose(self.rng).expect("non-empty"))
            }
            _ => Expr::Var(t, self.local()),
        }
    }

    fn expr(&mut self, t: Arith, depth: u32) -> Expr {
        if depth >= self.opts.max_expr_depth || self.rng.gen_bool(0.3) {
            return self.leaf(t);
        }
        let d = depth + 1;
        match self.rng.gen_range(0..20) {
            0 | 1 => {
                let op = if t.is_float() || self.rng.gen_bool(0.5) {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                Expr::Un(op, t, Box::new(self.expr(t, d)))
            }
            2..=9 => {
                let ops: &[BinOp] = if t.is_float() {
                    &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]
                } else {
                    &[
                        BinOp::Add,
                        BinOp::Sub,
                        BinOp::Mul,
                        BinOp::Div,
                        BinOp::Rem,
                        BinOp::And,
                        BinOp::Or,
                        BinOp::Xor,
                        BinOp::Shl,
                        BinOp::Shr,
                    ]
                };
                let op = *ops.choose(self.rng).expect("non-empty");
                Expr::Bin(op, t, Box::new(self.expr(t, d)), Box::new(self.expr(t, d)))
            }
            10 | 11 => {
                let from = self.ty();
                if from == t {
                    return self.expr(t, d);
                }
                Expr::Cast(t, Box::new(self.expr(from, d)))
            }
            12 if t == Arith::I32 => {
                let n = *Narrow::ALL.choose(self.rng).expect("non-empty");
                Expr::Narrow(n, Box::new(self.expr(Arith::I32, d)))
            }
            13 => Expr::Select(
                t,
                Box::new(self.cond(d)),
                Box::new(self.expr(t, d)),
                Box::new(self.expr(t, d)),
            ),
            14..=16 => {
                let mut funcs: Vec<Math> = if t.is_float() {
                    vec![
                        Math::Sqrt,
                        Math::Fabs,
                        Math::Fmin,
                        Math::Fmax,
                        Math::Floor,
                        Math::Ceil,
                        Math::Trunc,
                        Math::Round,
                        Math::Fma,
                        Math::Fmod,
                    ]
                } else {
                    vec![Math::Min, Math::Max]
                };
                if t.is_float() && self.opts.transcendental {
                    funcs.extend([Math::Exp, Math::Log, Math::Sin, Math::Cos]);
                }
                let m = *funcs.choose(self.rng).expect("non-empty");
                let args = (0..m.arity()).map(|_| self.expr(t, d)).collect();
                Expr::Math(m, t, args)
            }
            17 => Expr::Input(t, Box::new(self.expr(Arith::U32, d))),
            _ => self.leaf(t),
        }
    }
}
