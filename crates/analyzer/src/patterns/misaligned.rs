//! Misaligned offset (the paper's figures 3 and 4): an access whose lanes are
//! contiguous but whose requests all start the same few bytes past a sector
//! (or, for compute capability 1.1, a 16-word segment) boundary. The fix pads
//! the front of the array so that those requests start on the boundary: every
//! `a[e]` becomes `a[e + p]`, and the caller stores the data `p` elements later.

use hone_ir::ExprKind;

use super::{is_global, relayable, Candidate, Ctx, Layout};
use crate::collect::{LaneStride, SiteStats};
use crate::walk::{add_const, rewrite_block, strip};
use crate::Model;

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if !is_global(site) || site.lane_stride != LaneStride::Uniform(i64::from(site.size)) {
        return None;
    }
    let size = u64::from(site.size);
    let unit = match ctx.model {
        Model::Sm90 => crate::sectors::SECTOR_BYTES,
        Model::Cc11 => crate::cc11::segment_bytes(site.size),
    };
    // The misalignment most requests share.
    let mut by_offset = std::collections::BTreeMap::new();
    for (off, n) in &site.lead_offsets {
        *by_offset.entry(off % unit).or_insert(0u64) += n;
    }
    let (&m, _) = by_offset
        .iter()
        .max_by_key(|(off, n)| (**n, std::cmp::Reverse(**off)))?;
    if m == 0 || m % size != 0 {
        return None;
    }
    let pad = (unit - m) / size;
    let access = ctx.access(site)?;
    if !relayable(ctx, access.array) {
        return None;
    }
    let array = access.array;
    let name = ctx.func.var(array).name.clone();
    let module = ctx.rewrite(|f| {
        rewrite_block(&mut f.body, &mut |e| {
            if let ExprKind::Index(base, index) = &mut e.kind {
                if matches!(strip(base).kind, ExprKind::Var(v) if v == array) {
                    let old = std::mem::replace(index.as_mut(), crate::walk::lit(0, e.span));
                    **index = add_const(old, pad as i64);
                }
            }
        });
        Some(())
    })?;
    let boundary = match ctx.model {
        Model::Sm90 => "32-byte sector".to_string(),
        Model::Cc11 => format!("{unit}-byte segment (condition 3)"),
    };
    Some(Candidate {
        pattern: "misaligned-offset",
        title: format!("shift `{name}` by {pad} element(s) so its requests start on a {boundary} boundary"),
        explanation: format!(
            "The lanes read consecutive elements, but each request starts {m} bytes past a {boundary} \
             boundary, so it touches one sector more than its data fills. Padding the front of `{name}` \
             with {pad} element(s) and indexing it {pad} further moves every request onto the boundary."
        ),
        module,
        layouts: vec![(ctx.param_buffer(array)?, name, Layout::Shift { pad })],
        moved_to: None,
    })
}
