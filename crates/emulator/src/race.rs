//! Shadow memory for race detection.
//!
//! Within a block, accesses are ordered by `__syncthreads()` (the block epoch)
//! and, inside one warp, by `__syncwarp()` (the warp epoch). Each block keeps
//! per-granule state for shared and global memory; at the end of a block its
//! global-memory summary is merged, in block order, into grid-wide state, where
//! every pair of accesses from different blocks counts as concurrent.

use crate::report::AccessKind;

const NONE: u8 = 0;
const LOAD: u8 = 1;
const STORE: u8 = 2;
const ATOMIC: u8 = 3;

fn kind_of(k: u8) -> AccessKind {
    match k {
        STORE => AccessKind::Store,
        ATOMIC => AccessKind::Atomic,
        _ => AccessKind::Load,
    }
}

/// One recorded access inside a block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Acc {
    pub site: u32,
    pub tid: u16,
    kind: u8,
    epoch: u32,
    wepoch: u32,
}

impl Acc {
    pub fn kind(&self) -> AccessKind {
        kind_of(self.kind)
    }
    fn valid(&self) -> bool {
        self.kind != NONE
    }
    fn who(&self) -> Who {
        Who {
            site: self.site,
            tid: self.tid,
            kind: self.kind,
        }
    }
}

/// An access as seen from other blocks: where and by which thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Who {
    pub site: u32,
    pub tid: u16,
    kind: u8,
}

impl Who {
    pub fn kind(&self) -> AccessKind {
        kind_of(self.kind)
    }
}

/// The thread making an access, and where it stands in the block's epochs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Me {
    pub tid: u16,
    pub epoch: u32,
    pub wepoch: u32,
    pub site: u32,
}

impl Me {
    fn acc(&self, kind: u8) -> Acc {
        Acc {
            site: self.site,
            tid: self.tid,
            kind,
            epoch: self.epoch,
            wepoch: self.wepoch,
        }
    }
    /// Whether `a` may happen at the same time as this access.
    #[inline(always)]
    fn concurrent(&self, a: &Acc) -> bool {
        a.valid()
            && a.tid != self.tid
            && a.epoch == self.epoch
            && !(a.tid >> 5 == self.tid >> 5 && a.wepoch != self.wepoch)
    }
}

const WRITTEN: u8 = 1;
/// The last write, and every concurrent write before it, left the value unchanged.
const W_SILENT: u8 = 2;
/// Every write of the block stored the same value.
const UNIFORM: u8 = 4;
const ALL_SILENT: u8 = 8;
const ALL_ATOMIC: u8 = 16;

/// Per-block state of one granule.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cell {
    stamp: u32,
    flags: u8,
    /// First read not preceded by a write of this block (for the grid merge).
    uncovered_read: Who,
    w: Acc,
    r1: Acc,
    /// A reader of the current epoch other than `r1`'s thread.
    r2: Acc,
    w_val: u64,
}

impl Cell {
    #[inline(always)]
    fn reset(&mut self, stamp: u32) {
        // Only the fields later accesses look at need clearing.
        self.stamp = stamp;
        self.flags = 0;
        self.uncovered_read.kind = NONE;
        self.w.kind = NONE;
        self.r1.kind = NONE;
        self.r2.kind = NONE;
    }

    #[inline(always)]
    fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }

    #[inline(always)]
    fn set(&mut self, f: u8, on: bool) {
        if on {
            self.flags |= f;
        } else {
            self.flags &= !f;
        }
    }

    /// Returns whether the granule had been written in this block before.
    #[inline(always)]
    fn read(&mut self, me: &Me, tolerate: bool, hits: &mut Vec<Acc>) -> bool {
        if me.concurrent(&self.w) && !(tolerate && self.has(W_SILENT)) {
            hits.push(self.w);
        }
        if self.r1.valid() && self.r1.tid != me.tid && self.r1.epoch == me.epoch {
            self.r2 = self.r1;
        }
        self.r1 = me.acc(LOAD);
        let written = self.has(WRITTEN);
        if !written && self.uncovered_read.kind == NONE {
            self.uncovered_read = self.r1.who();
        }
        written
    }

    #[inline(always)]
    fn write(
        &mut self,
        me: &Me,
        atomic: bool,
        old: u64,
        new: u64,
        tolerate: bool,
        hits: &mut Vec<Acc>,
    ) {
        let silent = old == new;
        let w_conc = me.concurrent(&self.w);
        if w_conc && !(atomic && self.w.kind == ATOMIC) && !(tolerate && self.w_val == new) {
            hits.push(self.w);
        }
        for r in [self.r1, self.r2] {
            if me.concurrent(&r) && !(tolerate && silent) {
                hits.push(r);
            }
        }
        let loud_before = w_conc && !self.has(W_SILENT);
        self.set(W_SILENT, silent && !loud_before);
        if self.has(WRITTEN) {
            let uniform = self.has(UNIFORM) && new == self.w_val;
            self.set(UNIFORM, uniform);
            self.set(ALL_SILENT, self.has(ALL_SILENT) && silent);
            self.set(ALL_ATOMIC, self.has(ALL_ATOMIC) && atomic);
        } else {
            self.flags |= WRITTEN | UNIFORM;
            self.set(ALL_SILENT, silent);
            self.set(ALL_ATOMIC, atomic);
        }
        self.w = me.acc(if atomic { ATOMIC } else { STORE });
        self.w_val = new;
    }

    fn summary(&self) -> Summary {
        Summary {
            write: self.has(WRITTEN).then_some(WriteSummary {
                last: self.w.who(),
                value: self.w_val,
                uniform: self.has(UNIFORM),
                silent: self.has(ALL_SILENT),
                atomic: self.has(ALL_ATOMIC),
            }),
            read: (self.uncovered_read.kind != NONE).then_some(self.uncovered_read),
        }
    }
}

/// Cells of the global granules one block touches: an open-addressing table
/// whose size follows the block's footprint, so it stays in cache.
struct CellMap {
    keys: Vec<u64>,
    cells: Vec<Cell>,
    /// Slots in first-touch order.
    order: Vec<u32>,
    mask: usize,
}

const EMPTY: u64 = u64::MAX;

impl CellMap {
    fn new() -> CellMap {
        CellMap {
            keys: vec![EMPTY; 1024],
            cells: vec![Cell::default(); 1024],
            order: Vec::new(),
            mask: 1023,
        }
    }

    #[inline(always)]
    fn slot(&self, g: u64) -> usize {
        (g.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// The cell of granule `g`, reset if new in this block.
    #[inline(always)]
    fn get(&mut self, g: u64) -> &mut Cell {
        let mut i = self.slot(g);
        loop {
            let k = self.keys[i];
            if k == g {
                return &mut self.cells[i];
            }
            if k == EMPTY {
                break;
            }
            i = (i + 1) & self.mask;
        }
        if 2 * (self.order.len() + 1) > self.keys.len() {
            self.grow();
            return self.get(g);
        }
        self.keys[i] = g;
        self.order.push(i as u32);
        let c = &mut self.cells[i];
        c.reset(0);
        c
    }

    fn grow(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        let cells = std::mem::take(&mut self.cells);
        let order = std::mem::take(&mut self.order);
        let n = keys.len() * 2;
        self.keys = vec![EMPTY; n];
        self.cells = vec![Cell::default(); n];
        self.mask = n - 1;
        for old in order {
            let g = keys[old as usize];
            let mut i = self.slot(g);
            while self.keys[i] != EMPTY {
                i = (i + 1) & self.mask;
            }
            self.keys[i] = g;
            self.cells[i] = cells[old as usize];
            self.order.push(i as u32);
        }
    }

    fn clear(&mut self) {
        for &i in &self.order {
            self.keys[i as usize] = EMPTY;
        }
        self.order.clear();
    }
}

/// Race state of the block being run; reused from block to block.
pub(crate) struct BlockShadow {
    stamp: u32,
    /// Earlier accesses that conflict with the access just noted.
    pub hits: Vec<Acc>,
    shared: Vec<Cell>,
    global: CellMap,
    pub tolerate: bool,
}

impl BlockShadow {
    pub fn new(tolerate: bool) -> Self {
        BlockShadow {
            stamp: 0,
            hits: Vec::new(),
            shared: Vec::new(),
            global: CellMap::new(),
            tolerate,
        }
    }

    pub fn begin_block(&mut self, shared_cells: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamps wrapped: forget everything explicitly.
            self.shared.iter_mut().for_each(|c| *c = Cell::default());
            self.stamp = 1;
        }
        if self.shared.len() < shared_cells {
            self.shared.resize(shared_cells, Cell::default());
        }
        self.global.clear();
    }

    #[inline(always)]
    fn shared_cell(&mut self, g: u64) -> &mut Cell {
        let stamp = self.stamp;
        let c = &mut self.shared[g as usize];
        if c.stamp != stamp {
            c.reset(stamp);
        }
        c
    }

    /// A grid barrier: the block's global accesses so far are ordered
    /// before everything after it, in every block.
    pub fn grid_barrier(&mut self) {
        self.global.clear();
    }

    /// A shared-memory read; returns whether the granule was written before in this block.
    #[inline(always)]
    pub fn shared_read(&mut self, g: u64, me: &Me) -> bool {
        let tol = self.tolerate;
        let stamp = self.stamp;
        let c = &mut self.shared[g as usize];
        if c.stamp != stamp {
            c.reset(stamp);
        }
        c.read(me, tol, &mut self.hits)
    }

    /// Whether any thread of the block has written the granule (for the
    /// uninitialized-read warning of atomics, which must not count as reads).
    pub fn shared_written(&mut self, g: u64) -> bool {
        self.shared_cell(g).has(WRITTEN)
    }

    #[inline(always)]
    pub fn shared_write(&mut self, g: u64, me: &Me, atomic: bool, old: u64, new: u64) {
        let tol = self.tolerate;
        let stamp = self.stamp;
        let c = &mut self.shared[g as usize];
        if c.stamp != stamp {
            c.reset(stamp);
        }
        c.write(me, atomic, old, new, tol, &mut self.hits)
    }

    #[inline(always)]
    pub fn global_read(&mut self, g: u64, me: &Me) {
        let tol = self.tolerate;
        self.global.get(g).read(me, tol, &mut self.hits);
    }

    #[inline(always)]
    pub fn global_write(&mut self, g: u64, me: &Me, atomic: bool, old: u64, new: u64) {
        let tol = self.tolerate;
        self.global
            .get(g)
            .write(me, atomic, old, new, tol, &mut self.hits)
    }

    /// This block's global-memory accesses, one entry per touched granule in first-touch order.
    pub fn summary(&self) -> impl Iterator<Item = (u64, Summary)> + '_ {
        self.global.order.iter().map(|&i| {
            (
                self.global.keys[i as usize],
                self.global.cells[i as usize].summary(),
            )
        })
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct WriteSummary {
    pub last: Who,
    pub value: u64,
    /// Every write stored `value`.
    pub uniform: bool,
    pub silent: bool,
    pub atomic: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    pub write: Option<WriteSummary>,
    pub read: Option<Who>,
}

const G_W: u8 = 1;
const G_R: u8 = 2;
const G_UNIFORM: u8 = 4;
const G_SILENT: u8 = 8;
const G_ATOMIC: u8 = 16;

#[derive(Clone, Copy, Debug, Default)]
struct GridCell {
    flags: u8,
    w: Who,
    r: Who,
    w_block: u32,
    r_block: u32,
    w_val: u64,
}

/// A conflict between two blocks: (earlier access, its block) and (later access, its block).
pub(crate) struct CrossHit {
    pub granule: u64,
    pub first: (Who, u32),
    pub second: (Who, u32),
}

const PAGE_BITS: u32 = 12;
const PAGE: usize = 1 << PAGE_BITS;

/// Accesses of all blocks merged so far, in lazily allocated pages.
pub(crate) struct GridShadow {
    pages: Vec<Option<Box<[GridCell]>>>,
    tolerate: bool,
}

impl GridShadow {
    pub fn new(tolerate: bool) -> Self {
        GridShadow {
            pages: Vec::new(),
            tolerate,
        }
    }

    fn cell(&mut self, g: u64) -> &mut GridCell {
        let p = (g >> PAGE_BITS) as usize;
        if p >= self.pages.len() {
            self.pages.resize_with(p + 1, || None);
        }
        let page =
            self.pages[p].get_or_insert_with(|| vec![GridCell::default(); PAGE].into_boxed_slice());
        &mut page[(g as usize) & (PAGE - 1)]
    }

    pub fn merge(
        &mut self,
        block: u32,
        summary: impl IntoIterator<Item = (u64, Summary)>,
        hits: &mut Vec<CrossHit>,
    ) {
        let tol = self.tolerate;
        for (g, s) in summary {
            let gc = self.cell(g);
            let has = |f: u8| gc.flags & f != 0;
            if let Some(w) = s.write {
                if has(G_W)
                    && !(has(G_ATOMIC) && w.atomic)
                    && !(tol && has(G_UNIFORM) && w.uniform && gc.w_val == w.value)
                {
                    hits.push(CrossHit {
                        granule: g,
                        first: (gc.w, gc.w_block),
                        second: (w.last, block),
                    });
                }
                if has(G_R) && !(tol && w.silent) {
                    hits.push(CrossHit {
                        granule: g,
                        first: (gc.r, gc.r_block),
                        second: (w.last, block),
                    });
                }
            }
            if let Some(r) = s.read {
                if has(G_W) && !(tol && has(G_SILENT)) {
                    hits.push(CrossHit {
                        granule: g,
                        first: (gc.w, gc.w_block),
                        second: (r, block),
                    });
                }
            }
            if let Some(w) = s.write {
                let mut f = gc.flags;
                if f & G_W != 0 {
                    if !(w.uniform && w.value == gc.w_val) {
                        f &= !G_UNIFORM;
                    }
                    if !w.silent {
                        f &= !G_SILENT;
                    }
                    if !w.atomic {
                        f &= !G_ATOMIC;
                    }
                } else {
                    f |= G_W;
                    gc.w_val = w.value;
                    for (on, bit) in [
                        (w.uniform, G_UNIFORM),
                        (w.silent, G_SILENT),
                        (w.atomic, G_ATOMIC),
                    ] {
                        if on {
                            f |= bit;
                        }
                    }
                }
                gc.flags = f;
                gc.w = w.last;
                gc.w_block = block;
            }
            if let Some(r) = s.read {
                if gc.flags & G_R == 0 {
                    gc.flags |= G_R;
                    gc.r = r;
                    gc.r_block = block;
                }
            }
        }
    }
}
