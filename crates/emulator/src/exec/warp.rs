//! State of one warp: everything needed to suspend it at a barrier and resume.

use crate::compile::Program;

pub(crate) type Lanes = [u64; 32];

#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub func: u32,
    pub ret_pc: u32,
    pub reg_base: u32,
    pub slot_base: u32,
    pub local_base: u64,
    /// Lanes that entered the function; they are active again when it ends.
    pub entry: u32,
    /// Call-table entry of the call that made this frame (unused for the kernel frame).
    pub call: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WarpState {
    Runnable,
    /// Waiting at the `__syncthreads()` of this site.
    AtBarrier(u32),
    /// Waiting at the grid barrier of this site.
    AtGridBarrier(u32),
    Done,
}

pub(crate) struct Warp {
    pub index: u32,
    /// Lanes that hold a thread (a partial last warp has fewer).
    pub present: u32,
    /// Lanes whose thread returned from the kernel.
    pub exited: u32,
    pub active: u32,
    pub pc: u32,
    pub frames: Vec<Frame>,
    pub regs: Vec<Lanes>,
    /// Mask slots of the SIMT stack, three per construct.
    pub slots: Vec<[u32; 3]>,
    /// Thread-local memory, one stack per lane.
    pub local: Vec<Vec<u8>>,
    /// threadIdx per lane, and the linear thread index within the block.
    pub tid: [[u32; 32]; 3],
    pub tid_lin: [u32; 32],
    pub steps: u64,
    /// Incremented at `__syncwarp()`: orders this warp's accesses for race detection.
    pub wepoch: u32,
    pub state: WarpState,
}

impl Warp {
    pub fn new() -> Warp {
        Warp {
            index: 0,
            present: 0,
            exited: 0,
            active: 0,
            pc: 0,
            frames: Vec::new(),
            regs: Vec::new(),
            slots: Vec::new(),
            local: (0..32).map(|_| Vec::new()).collect(),
            tid: [[0; 32]; 3],
            tid_lin: [0; 32],
            steps: 0,
            wepoch: 0,
            state: WarpState::Runnable,
        }
    }

    /// Sets the warp up to run the kernel from the start; `params` are
    /// (register, value) pairs broadcast to every lane.
    pub fn reset(&mut self, prog: &Program, index: u32, block: [u32; 3], params: &[(u32, u64)]) {
        let threads = block[0] * block[1] * block[2];
        let first = index * 32;
        let count = threads.saturating_sub(first).min(32);
        self.index = index;
        self.present = if count == 32 {
            u32::MAX
        } else {
            (1u32 << count) - 1
        };
        self.exited = 0;
        self.active = self.present;
        self.pc = 0;
        self.steps = 0;
        self.wepoch = 0;
        self.state = WarpState::Runnable;
        let k = prog.func(prog.kernel);
        self.frames.clear();
        self.frames.push(Frame {
            func: prog.kernel,
            ret_pc: 0,
            reg_base: 0,
            slot_base: 0,
            local_base: 0,
            entry: self.present,
            call: 0,
        });
        self.regs.clear();
        self.regs.resize(k.nregs as usize, [0; 32]);
        self.slots.clear();
        self.slots.resize(k.nslots as usize, [0; 3]);
        for l in self.local.iter_mut() {
            l.clear();
            l.resize(k.local_size as usize, 0);
        }
        for &(r, v) in params {
            self.regs[r as usize] = [v; 32];
        }
        for lane in 0..32u32 {
            let t = first + lane;
            self.tid_lin[lane as usize] = t;
            self.tid[0][lane as usize] = t % block[0];
            self.tid[1][lane as usize] = (t / block[0]) % block[1];
            self.tid[2][lane as usize] = t / (block[0] * block[1]);
        }
    }

    pub fn thread(&self, lane: usize) -> [u32; 3] {
        [self.tid[0][lane], self.tid[1][lane], self.tid[2][lane]]
    }
}

/// Lanes whose value is nonzero.
#[inline(always)]
pub(crate) fn mask_of(v: &Lanes) -> u32 {
    let mut m = 0u32;
    for (l, x) in v.iter().enumerate() {
        m |= ((*x != 0) as u32) << l;
    }
    m
}

/// dst = src on the lanes of `mask`. Callers pass lanes without a thread as
/// set, so whole warps take the plain copy.
#[inline(always)]
pub(crate) fn blend(dst: &mut Lanes, src: &Lanes, mask: u32) {
    if mask == u32::MAX {
        *dst = *src;
    } else {
        for l in Bits(mask) {
            dst[l] = src[l];
        }
    }
}

/// Iterates over the set bits of a mask, lowest first.
pub(crate) struct Bits(pub u32);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let l = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(l as usize)
        }
    }
}

/// The lanes of a mask from the lowest, or from the highest when `reversed`:
/// the order in which the lanes of one store or atomic take effect.
pub(crate) struct LaneOrder {
    mask: u32,
    reversed: bool,
}

impl LaneOrder {
    pub fn new(mask: u32, reversed: bool) -> LaneOrder {
        LaneOrder { mask, reversed }
    }
}

impl Iterator for LaneOrder {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.mask == 0 {
            return None;
        }
        let l = if self.reversed {
            31 - self.mask.leading_zeros()
        } else {
            self.mask.trailing_zeros()
        };
        self.mask &= !(1 << l);
        Some(l as usize)
    }
}
