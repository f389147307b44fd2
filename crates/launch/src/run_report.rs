//! A run's results in the two forms `hone sim` prints: JSON whose spans
//! carry their `file:line:col`, and lines for people.

use hone_emulator::{Buffer, Report};
use hone_ir::{AddressSpace, Module};
use serde_json::{json, Value};

use crate::json::buffer_to_json;

/// `{"kernel", "completed", "buffers", "races", "faults", "warnings", "order_dependent", "stats"}`.
pub fn json(kernel: &str, module: &Module, report: &Report, dumped: &[&Buffer]) -> Value {
    let mut bufs = serde_json::Map::new();
    for b in dumped {
        bufs.insert(b.name.clone(), buffer_to_json(b));
    }
    json!({
        "kernel": kernel,
        "completed": report.completed,
        "buffers": bufs,
        "races": located(module, &report.races),
        "faults": located(module, &report.faults),
        "warnings": located(module, &report.warnings),
        "order_dependent": report.order_dependent,
        "printed": report.printed,
        "stats": report.stats,
    })
}

/// Serializes report entries and adds a `location` ("file:line:col") next to
/// every span, so JSON readers need not know the module's file table.
fn located<T: serde::Serialize>(module: &Module, items: &[T]) -> Value {
    let mut v = serde_json::to_value(items).unwrap_or_default();
    add_locations(module, &mut v);
    v
}

fn add_locations(module: &Module, v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(span) = map
                .get("span")
                .and_then(|s| serde_json::from_value::<hone_ir::Span>(s.clone()).ok())
            {
                map.insert("location".into(), module.location(span).into());
            }
            for (_, child) in map.iter_mut() {
                add_locations(module, child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|c| add_locations(module, c)),
        _ => {}
    }
}

/// Faults, races, warnings, the dumped buffers and the run's statistics, a
/// line each.
pub fn human(module: &Module, report: &Report, dumped: &[&Buffer]) -> String {
    let mut out = String::new();
    // Device `printf` output first, as a program's own output comes.
    out.push_str(&report.printed);
    if !report.printed.is_empty() && !report.printed.ends_with('\n') {
        out.push('\n');
    }
    if report.stats.printf_dropped > 0 {
        out.push_str(&format!(
            "warning: {} printf calls dropped: the launch printed more than the GPU's 1 MiB printf buffer holds\n",
            report.stats.printf_dropped
        ));
    }
    for f in &report.faults {
        // The emulator's messages already carry the location, block and thread.
        out.push_str(&format!("fault: {}\n", f.message));
    }
    for r in &report.races {
        out.push_str(&format!(
            "race on {} `{}` (byte {}): {:?} at {} by block {:?} thread {:?}, and {:?} at {} by block {:?} thread {:?} ({} times)\n",
            if r.space == AddressSpace::Shared { "shared" } else { "global" },
            r.array,
            r.offset,
            r.first.kind,
            module.location(r.first.span),
            r.first.block,
            r.first.thread,
            r.second.kind,
            module.location(r.second.span),
            r.second.block,
            r.second.thread,
            r.count
        ));
    }
    for w in &report.warnings {
        out.push_str(&format!("warning: {}\n", w.message));
    }
    for d in &report.order_dependent {
        out.push_str(&format!("order-dependent: {}\n", d.describe()));
    }
    for b in dumped {
        out.push_str(&format!("{} = {}\n", b.name, buffer_to_json(b)));
    }
    let s = &report.stats;
    out.push_str(&format!(
        "{} blocks, {} threads, {} thread operations in {:.3} s ({:.3e} ops/s){}\n",
        s.blocks,
        s.threads,
        s.thread_operations,
        s.seconds,
        s.operations_per_second,
        if report.completed {
            ""
        } else {
            ", stopped early"
        }
    ));
    out
}
