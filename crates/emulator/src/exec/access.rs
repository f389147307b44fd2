//! The path every load, store and atomic takes for one lane: resolve the
//! pointer to an object (cached across the lanes of a warp instruction),
//! check bounds and alignment, move the bytes, update the race shadow and
//! fill the trace record.

use hone_ir::AddressSpace;

use super::block::{BlockCtx, Gmem};
use super::memory::{
    read_le, split_ptr, write_le, LOCAL_BIT, LOCAL_DEPTH_SHIFT, LOCAL_INDEX_MASK, SHARED_BASE,
};
use super::warp::Warp;
use crate::race::{Acc, Me};
use crate::report::{AccessKind, FaultKind, RaceAccess, Warning, WarningKind};
use crate::trace::{LaneAccess, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ViewKind {
    Global(u32),
    Shared(u32),
    Local { frame: u32, index: u32 },
}

/// Race-shadow geometry of an object.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shadowing {
    pub shared: bool,
    pub base: u64,
    pub shift: u32,
}

/// An object a pointer leads to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View {
    pub obj: u32,
    pub kind: ViewKind,
    pub len: u64,
    /// Offset of the object's first byte in its storage (the buffer, the
    /// block's shared memory, or the lane's local stack).
    pub base: u64,
    pub shadow: Option<Shadowing>,
}

/// A checked access: `off` bytes into the object of `view`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Loc<'v> {
    pub view: &'v View,
    pub off: u64,
}

impl View {
    /// A view no pointer matches (object ids have 24 bits).
    pub const NONE: View = View {
        obj: u32::MAX,
        kind: ViewKind::Global(0),
        len: 0,
        base: 0,
        shadow: None,
    };
}

impl<'a, 'b> BlockCtx<'a, 'b> {
    fn view(&self, w: &Warp, obj: u32) -> Option<View> {
        if obj & LOCAL_BIT != 0 {
            let depth = (obj & !LOCAL_BIT) >> LOCAL_DEPTH_SHIFT;
            let index = obj & LOCAL_INDEX_MASK;
            let frame = w.frames.get(depth as usize)?;
            let var = self.l.prog.func(frame.func).locals.get(index as usize)?;
            Some(View {
                obj,
                kind: ViewKind::Local {
                    frame: depth,
                    index,
                },
                len: var.size,
                base: frame.local_base + var.offset,
                shadow: None,
            })
        } else if obj >= SHARED_BASE {
            let i = obj - SHARED_BASE;
            let s = self.l.shared.get(i as usize)?;
            Some(View {
                obj,
                kind: ViewKind::Shared(i),
                len: s.len,
                base: s.offset,
                shadow: self.shadow.is_some().then_some(Shadowing {
                    shared: true,
                    base: s.shadow_base,
                    shift: s.granule_shift,
                }),
            })
        } else {
            let i = obj.checked_sub(1)?;
            let g = self.l.globals.get(i as usize)?;
            Some(View {
                obj,
                kind: ViewKind::Global(i),
                len: g.len,
                base: 0,
                // Global memory needs a shadow only for races (warnings are about shared memory).
                shadow: (self.shadow.is_some() && self.l.opts.detect_races).then_some(Shadowing {
                    shared: false,
                    base: g.shadow_base,
                    shift: g.granule_shift,
                }),
            })
        }
    }

    pub fn view_name(&self, w: &Warp, v: &View) -> &str {
        match v.kind {
            ViewKind::Global(i) => &self.l.globals[i as usize].name,
            ViewKind::Shared(i) => &self.l.shared[i as usize].name,
            ViewKind::Local { frame, index } => {
                let f = &w.frames[frame as usize];
                &self.l.prog.func(f.func).locals[index as usize].name
            }
        }
    }

    /// Resolves pointer `p` for an access of `size` bytes, reusing `cache`
    /// while consecutive lanes point into the same object.
    #[inline(always)]
    pub fn locate<'v>(
        &self,
        w: &Warp,
        cache: &'v mut View,
        p: u64,
        size: u32,
        align: u32,
    ) -> Result<Loc<'v>, FaultKind> {
        let (obj, off) = split_ptr(p);
        if cache.obj != obj {
            *cache = self
                .view(w, obj)
                .ok_or(FaultKind::NullOrInvalidPointer { address: p })?;
        }
        let view = &*cache;
        if off < 0 || off as u64 + size as u64 > view.len {
            return Err(self.oob(w, view, off, size));
        }
        let off = off as u64;
        // Globals start 256-byte aligned; shared and local objects at their offsets.
        if (view.base + off) & (align as u64 - 1) != 0 {
            return Err(FaultKind::MisalignedAccess {
                array: self.view_name(w, view).to_string(),
                offset: off as i64,
                align,
            });
        }
        Ok(Loc { view, off })
    }

    #[cold]
    fn oob(&self, w: &Warp, v: &View, off: i64, size: u32) -> FaultKind {
        let space = match v.kind {
            ViewKind::Global(b) => self.l.globals[b as usize].space,
            ViewKind::Shared(_) => AddressSpace::Shared,
            ViewKind::Local { .. } => AddressSpace::Local,
        };
        FaultKind::OutOfBounds {
            array: self.view_name(w, v).to_string(),
            space,
            index: off.div_euclid(size.max(1) as i64),
            offset: off,
            length: v.len / size.max(1) as u64,
        }
    }

    /// Reads `size` bytes of an access; `mark` says the kernel reads them
    /// (race-shadow peeks at old values do not count as reads).
    #[inline(always)]
    pub fn read_bytes(
        &mut self,
        w: &Warp,
        lane: usize,
        loc: &Loc,
        extra: u64,
        size: usize,
        mark: bool,
    ) -> u64 {
        let o = (loc.view.base + loc.off + extra) as usize;
        match loc.view.kind {
            ViewKind::Global(b) => match &mut self.gmem {
                Gmem::Direct(bufs) => read_le(&bufs[b as usize].data[o..o + size]),
                Gmem::Overlay { base, overlay } => overlay.read(base, b, o, size, mark),
            },
            ViewKind::Shared(_) => read_le(&self.shared[o..o + size]),
            ViewKind::Local { .. } => read_le(&w.local[lane][o..o + size]),
        }
    }

    #[inline(always)]
    pub fn read_raw(&mut self, w: &Warp, lane: usize, loc: &Loc, extra: u64, size: usize) -> u64 {
        self.read_bytes(w, lane, loc, extra, size, true)
    }

    #[inline(always)]
    pub fn write_raw(
        &mut self,
        w: &mut Warp,
        lane: usize,
        loc: &Loc,
        extra: u64,
        size: usize,
        v: u64,
    ) {
        let o = (loc.view.base + loc.off + extra) as usize;
        match loc.view.kind {
            ViewKind::Global(b) => match &mut self.gmem {
                Gmem::Direct(bufs) => write_le(&mut bufs[b as usize].data[o..o + size], v),
                Gmem::Overlay { overlay, .. } => overlay.write(b, o, size, v),
            },
            ViewKind::Shared(_) => write_le(&mut self.shared[o..o + size], v),
            ViewKind::Local { .. } => write_le(&mut w.local[lane][o..o + size], v),
        }
    }

    /// Bytes of the granule that starts `goff` bytes into the object.
    fn granule_bytes(&mut self, w: &Warp, lane: usize, view: &View, goff: u64, gsize: u64) -> u64 {
        let size = gsize.min(view.len.saturating_sub(goff)) as usize;
        if size == 0 {
            return 0;
        }
        self.read_bytes(w, lane, &Loc { view, off: goff }, 0, size, false)
    }

    fn me(&self, w: &Warp, lane: usize, site: u32) -> Me {
        Me {
            tid: w.tid_lin[lane] as u16,
            epoch: self.epoch,
            wepoch: w.wepoch,
            site,
        }
    }

    /// Race bookkeeping of a read by one lane.
    #[inline(always)]
    pub fn note_read(&mut self, w: &Warp, lane: usize, loc: &Loc, size: u32, site: u32) {
        let Some(sh) = loc.view.shadow else {
            return;
        };
        let me = self.me(w, lane, site);
        let Some(shadow) = self.shadow.as_deref_mut() else {
            return;
        };
        let (g0, g1) = (loc.off >> sh.shift, (loc.off + size as u64 - 1) >> sh.shift);
        let mut uninit = false;
        for g in g0..=g1 {
            if sh.shared {
                uninit |= !shadow.shared_read(sh.base + g, &me);
            } else {
                shadow.global_read(sh.base + g, &me);
            }
        }
        if !shadow.hits.is_empty() {
            self.record_hits(w, lane, loc, &me, AccessKind::Load);
        }
        if uninit {
            self.warn_uninit(w, lane, loc, site);
        }
    }

    /// Granule values a write is about to replace (only when the shadow is on).
    #[inline(always)]
    pub fn granule_olds(
        &mut self,
        w: &Warp,
        lane: usize,
        loc: &Loc,
        size: u32,
        out: &mut [u64; 32],
    ) -> bool {
        let Some(sh) = loc.view.shadow else {
            return false;
        };
        let (g0, g1) = (loc.off >> sh.shift, (loc.off + size as u64 - 1) >> sh.shift);
        let gsize = 1u64 << sh.shift;
        if g0 == g1 && gsize == size as u64 {
            out[0] = self.read_bytes(w, lane, loc, 0, size as usize, false);
        } else {
            for (i, g) in (g0..=g1).enumerate().take(32) {
                out[i] = self.granule_bytes(w, lane, loc.view, g << sh.shift, gsize);
            }
        }
        true
    }

    /// Race bookkeeping of a write by one lane, after the bytes were written:
    /// `olds` holds each granule's bytes from before.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn note_write(
        &mut self,
        w: &Warp,
        lane: usize,
        loc: &Loc,
        size: u32,
        site: u32,
        atomic: bool,
        olds: &[u64; 32],
    ) {
        let Some(sh) = loc.view.shadow else {
            return;
        };
        let me = self.me(w, lane, site);
        let (g0, g1) = (loc.off >> sh.shift, (loc.off + size as u64 - 1) >> sh.shift);
        let gsize = 1u64 << sh.shift;
        for (i, g) in (g0..=g1).enumerate().take(32) {
            let new = if g0 == g1 && gsize == size as u64 {
                self.read_bytes(w, lane, loc, 0, size as usize, false)
            } else {
                self.granule_bytes(w, lane, loc.view, g << sh.shift, gsize)
            };
            let shadow = self
                .shadow
                .as_deref_mut()
                .expect("shadowing implies a shadow");
            if sh.shared {
                shadow.shared_write(sh.base + g, &me, atomic, olds[i], new);
            } else {
                shadow.global_write(sh.base + g, &me, atomic, olds[i], new);
            }
        }
        if self.shadow.as_ref().is_some_and(|s| !s.hits.is_empty()) {
            let kind = if atomic {
                AccessKind::Atomic
            } else {
                AccessKind::Store
            };
            self.record_hits(w, lane, loc, &me, kind);
        }
    }

    /// An atomic on shared memory nobody initialized (a histogram whose bins
    /// were never zeroed) deserves the same warning as a plain read, without
    /// counting as a read for race detection.
    pub fn warn_uninit_atomic(&mut self, w: &Warp, lane: usize, loc: &Loc, size: u32, site: u32) {
        let Some(sh) = loc.view.shadow.filter(|s| s.shared) else {
            return;
        };
        let Some(shadow) = self.shadow.as_deref_mut() else {
            return;
        };
        let (g0, g1) = (loc.off >> sh.shift, (loc.off + size as u64 - 1) >> sh.shift);
        let mut uninit = false;
        for g in g0..=g1 {
            uninit |= !shadow.shared_written(sh.base + g);
        }
        if uninit {
            self.warn_uninit(w, lane, loc, site);
        }
    }

    #[cold]
    fn warn_uninit(&mut self, w: &Warp, lane: usize, loc: &Loc, site: u32) {
        if !self.l.opts.warn_uninitialized_shared || !self.warned_sites.insert(site) {
            return;
        }
        let name = self.view_name(w, loc.view).to_string();
        let span = self.site_span(site);
        self.warnings.push(Warning {
            kind: WarningKind::UninitializedShared,
            span,
            site,
            block: self.block,
            thread: w.thread(lane),
            message: format!(
                "{}: read of shared `{name}` at byte offset {}, which no thread of the block has written",
                self.l.module.location(span),
                loc.off
            ),
        });
    }

    /// A shuffle whose lane `lane` read lane `src`, which does not take part
    /// in it; warned once per site.
    #[cold]
    pub fn warn_undefined_shuffle(&mut self, w: &Warp, lane: usize, src: usize, site: u32) {
        if !self.warned_sites.insert(site) {
            return;
        }
        let span = self.site_span(site);
        self.warnings.push(Warning {
            kind: WarningKind::UndefinedShuffle,
            span,
            site,
            block: self.block,
            thread: w.thread(lane),
            message: format!(
                "{}: undefined shuffle: lane {lane} reads lane {src}, which is inactive or not in the mask, so CUDA leaves the value undefined",
                self.l.module.location(span)
            ),
        });
    }

    #[cold]
    fn record_hits(&mut self, w: &Warp, lane: usize, loc: &Loc, me: &Me, kind: AccessKind) {
        let hits = match self.shadow.as_deref_mut() {
            Some(s) => std::mem::take(&mut s.hits),
            None => return,
        };
        if self.l.opts.detect_races {
            self.record_hit_list(w, lane, loc, &hits, me, kind);
        }
        if let Some(s) = self.shadow.as_deref_mut() {
            s.hits = hits;
            s.hits.clear();
        }
    }

    fn record_hit_list(
        &mut self,
        w: &Warp,
        lane: usize,
        loc: &Loc,
        hits: &[Acc],
        me: &Me,
        kind: AccessKind,
    ) {
        let (space, obj, addr) = match loc.view.kind {
            ViewKind::Global(b) => (
                self.l.globals[b as usize].space,
                b,
                self.l.globals[b as usize].base_addr + loc.off,
            ),
            ViewKind::Shared(i) => (AddressSpace::Shared, i, loc.view.base + loc.off),
            ViewKind::Local { .. } => return,
        };
        let name = self.view_name(w, loc.view).to_string();
        let thread = w.thread(lane);
        for other in hits.iter() {
            let first = RaceAccess {
                span: self.site_span(other.site),
                block: self.block,
                thread: self.thread_of(other.tid as u32),
                kind: other.kind(),
            };
            let second = RaceAccess {
                span: self.site_span(me.site),
                block: self.block,
                thread,
                kind,
            };
            self.races.add(
                space,
                obj,
                &name,
                loc.off,
                addr,
                (other.site, first),
                (me.site, second),
            );
        }
    }

    /// Starts the trace record of a warp instruction whose first lane hit `loc`.
    pub fn begin_trace(&mut self, w: &Warp, loc: &Loc, site: u32, kind: AccessKind, size: u32) {
        let (space, base) = match loc.view.kind {
            ViewKind::Global(b) => {
                let g = &self.l.globals[b as usize];
                (g.space, g.base_addr)
            }
            ViewKind::Shared(_) => (AddressSpace::Shared, loc.view.base),
            ViewKind::Local { .. } => (AddressSpace::Local, loc.view.base),
        };
        let span = self.site_span(site);
        let name = self.view_name(w, loc.view).to_string();
        let tb = &mut *self.tbuf;
        tb.span = span;
        tb.site = site;
        tb.space = space;
        tb.kind = kind;
        tb.array = name;
        tb.array_base = base;
        tb.size = size;
        tb.block = self.block;
        tb.warp = w.index;
        tb.lanes.clear();
    }

    pub fn trace_lane(&mut self, w: &Warp, lane: usize, loc: &Loc, value: Value) {
        let address = match loc.view.kind {
            ViewKind::Global(b) => self.l.globals[b as usize].base_addr + loc.off,
            _ => loc.view.base + loc.off,
        };
        self.tbuf.lanes.push(LaneAccess {
            lane: lane as u32,
            thread: w.thread(lane),
            address,
            value,
        });
    }

    /// Sends a filled trace record to the sink.
    pub fn flush_trace(&mut self) {
        if let Some(sink) = self.trace.as_deref_mut() {
            if !self.tbuf.lanes.is_empty() {
                sink.warp_access(self.tbuf);
            }
        }
    }
}
