#!/usr/bin/env python3
"""Compares `hone analyze` predictions with Nsight Compute counters, and the
emulator's dumped buffers with the GPU's, for the launches that
ncu_compare.sh ran.

usage: compare.py RAW_DIR OUT_DIR

RAW_DIR holds, for each launch NAME listed in RAW_DIR/launches.tsv (lines
"NAME<TAB>LAUNCH_FILE<TAB>STATUS", in the order the profiled process launched
them; STATUS is "ran" or the reason it did not):
  NAME.analyze.json  hone analyze --json --no-fix
  NAME.sim.json      hone sim --json
  NAME.gpu.json      hone gpu-run --json
  NAME.sass          cuobjdump -sass of the compiled module (optional)
and ncu.csv, the `ncu --csv` log of one process that ran every launch whose
STATUS is "ran", in order. Writes OUT_DIR/table.md and OUT_DIR/table.csv.
"""

import csv
import json
import math
import os
import re
import sys

TOLERANCE = 0.02

# (column, ncu metric, prediction from the analyzer's totals)
COMPARED = [
    ("global ld requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     lambda t: t["global_load"]["requests"]),
    ("global ld sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     lambda t: t["global_load"]["sectors"]),
    ("global st requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     lambda t: t["global_store"]["requests"]),
    ("global st sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     lambda t: t["global_store"]["sectors"]),
    ("shared ld wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     lambda t: t["shared_load"]["wavefronts"]),
    ("shared st wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     lambda t: t["shared_store"]["wavefronts"]),
    ("shared ld conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     lambda t: t["shared_load"]["wavefronts"] - t["shared_load"]["ideal_wavefronts"]),
    ("shared st conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     lambda t: t["shared_store"]["wavefronts"] - t["shared_store"]["ideal_wavefronts"]),
]

# Shown beside the comparison to explain differences, not held to the 2%:
# warp-level instructions executed, against the analyzer's request counts.
CONTEXT = [
    ("shared ld instructions", "smsp__inst_executed_op_shared_ld.sum",
     lambda t: t["shared_load"]["requests"]),
    ("shared st instructions", "smsp__inst_executed_op_shared_st.sum",
     lambda t: t["shared_store"]["requests"]),
]

CORE_METRICS = [m for _, m, _ in COMPARED]
CONTEXT_METRICS = [m for _, m, _ in CONTEXT]


def parse_number(text):
    """ncu prints counts with thousands separators in some locales."""
    text = text.strip().replace(",", "")
    if text in ("", "n/a", "N/A"):
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def read_ncu_csv(path):
    """Per profiled kernel launch, in launch order: (kernel name, {metric: value})."""
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return []
    rows = csv.DictReader(l for l in lines[start:] if not l.startswith("=="))
    launches = {}
    order = []
    for row in rows:
        key = row.get("ID")
        if key is None or row.get("Metric Name") is None:
            continue
        if key not in launches:
            launches[key] = (row.get("Kernel Name", ""), {})
            order.append(key)
        launches[key][1][row["Metric Name"]] = parse_number(row.get("Metric Value", ""))
    return [launches[k] for k in sorted(order, key=lambda k: int(k) if k.isdigit() else k)]


def profiled_as(ncu_kernel, kernel):
    """Whether ncu's (demangled) kernel name is hone's `kernel`."""
    return re.sub(r"^void\s+", "", ncu_kernel).startswith(kernel)


def match_by_name(expected, profiled):
    """For each expected kernel in launch order, the index of the profiled
    launch of that name, in order (None where none is left): a launch that
    profiled no kernel, or more than one, does not shift the others."""
    slots, cursor = [], 0
    for kernel in expected:
        j = next((j for j in range(cursor, len(profiled)) if profiled_as(profiled[j], kernel)), None)
        slots.append(j)
        if j is not None:
            cursor = j + 1
    return slots


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rel_diff(predicted, measured):
    if predicted == measured:
        return 0.0
    if measured in (None, 0):
        return math.inf
    return (predicted - measured) / measured


def within(predicted, measured):
    if measured is None or predicted is None:
        return None
    return abs(rel_diff(predicted, measured)) <= TOLERANCE


def as_float(v):
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return math.nan
    return math.nan


def compare_buffers(emu, gpu):
    """'same', or what differs. Integers must match exactly; floats to a
    relative 1e-5 (the GPU contracts a*b+c into one rounding)."""
    if emu is None or gpu is None:
        return "missing output"
    eb, gb = emu.get("buffers", {}), gpu.get("buffers", {})
    if not eb and not gb:
        return "nothing dumped"
    problems = []
    for name in sorted(set(eb) | set(gb)):
        a, b = eb.get(name), gb.get(name)
        if a is None or b is None or len(a) != len(b):
            problems.append(f"{name}: shape differs")
            continue
        bad, worst = 0, 0.0
        for x, y in zip(a, b):
            if isinstance(x, int) and isinstance(y, int):
                if x != y:
                    bad += 1
                    worst = max(worst, abs(x - y))
                continue
            fx, fy = as_float(x), as_float(y)
            if math.isnan(fx) and math.isnan(fy):
                continue
            err = abs(fx - fy)
            if not err <= 1e-5 * max(abs(fx), abs(fy), 1e-30) + 1e-30:
                bad += 1
                worst = max(worst, err)
        if bad:
            problems.append(f"{name}: {bad} of {len(a)} differ (max {worst:.3g})")
    return "; ".join(problems) if problems else "same"


def sass_summary(path, kernel):
    """Memory instructions of `kernel` in a cuobjdump/nvdisasm listing, by opcode."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    counts = {}
    current = None
    for line in text.splitlines():
        header = re.search(r"Function : (\S+)", line) or re.match(r"\s*\.text\.(\S+):", line)
        if header:
            current = header.group(1)
            continue
        if current != kernel:
            continue
        code = re.sub(r"/\*.*?\*/", " ", line)
        m = re.match(r"\s*(?:@!?U?P\w+\s+)?((?:LDG|STG|LDS|STS|ATOMG|ATOMS|RED|LDL|STL)(?:\.[\w]+)*)\b", code)
        if m:
            op = re.sub(r"\.(E|CONSTANT|EF|EL|LU|STRONG\.\w+|GPU|SYS)\b", "", m.group(1))
            counts[op] = counts.get(op, 0) + 1
    return " ".join(f"{op}x{n}" for op, n in sorted(counts.items()))


def count_source(analysis):
    """Where the analyzer's counts came from, where its JSON says so (a
    `count_source` on the report, its totals or its sites); `source model`,
    the counting of the source's accesses, otherwise."""
    if not analysis:
        return "-"
    found = {analysis.get("count_source"), (analysis.get("totals") or {}).get("count_source")}
    found |= {s.get("count_source") for s in analysis.get("sites") or [] if isinstance(s, dict)}
    found = sorted(str(s) for s in found if s)
    return ", ".join(found) if found else "source model"


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.1f}"
    return str(int(v))


# Which of hone's analyses to compare: `analyze` (the default, counting the
# compiled code where NVRTC and nvdisasm are found) or `source` (the same
# launches with --source-model), chosen by HONE_ANALYSIS.
ANALYSIS = os.environ.get("HONE_ANALYSIS", "analyze")


def main(raw, out):
    entries = []
    with open(os.path.join(raw, "launches.tsv"), encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                entries.append(parts[:3])
    ncu_path = os.path.join(raw, "ncu.csv")
    profiled = read_ncu_csv(ncu_path) if os.path.exists(ncu_path) else []
    ran = [e for e in entries if e[2] == "ran"]
    kernels = {}
    for name, _, _ in entries:
        analysis = load_json(os.path.join(raw, f"{name}.{ANALYSIS}.json"))
        kernels[name] = analysis.get("kernel", "?") if analysis else "?"
    if profiled and len(profiled) != len(ran):
        print(f"warning: ncu profiled {len(profiled)} launches for {len(ran)} run; "
              "matched by kernel name", file=sys.stderr)
        slots = match_by_name([kernels[e[0]] for e in ran], [k for k, _ in profiled])
    else:
        slots = list(range(len(ran)))

    csv_rows = []
    md_rows = []
    misses = []
    checked = agreed = 0
    differential = []
    for name, launch, status in entries:
        analysis = load_json(os.path.join(raw, f"{name}.{ANALYSIS}.json"))
        kernel = analysis.get("kernel", "?") if analysis else "?"
        totals = analysis.get("totals") if analysis else None
        source = count_source(analysis)
        if status == "ran":
            index = slots[ran.index([name, launch, status])]
            found = index is not None and index < len(profiled)
            counters = profiled[index][1] if found else {}
            ncu_kernel = profiled[index][0] if found else ""
            if ncu_kernel and kernel != "?" and not profiled_as(ncu_kernel, kernel):
                print(f"warning: {name}: ncu profiled {ncu_kernel}, expected {kernel}",
                      file=sys.stderr)
        else:
            counters = {}
        same = compare_buffers(load_json(os.path.join(raw, f"{name}.sim.json")),
                               load_json(os.path.join(raw, f"{name}.gpu.json"))) \
            if status == "ran" else f"not run: {status}"
        differential.append((name, kernel, same))
        cells = []
        for column, metric, predict in COMPARED + CONTEXT:
            predicted = predict(totals) if totals else None
            measured = counters.get(metric)
            ok = within(predicted, measured)
            held = metric in CORE_METRICS
            if held and ok is not None:
                checked += 1
                agreed += ok
                if not ok:
                    misses.append((name, column, predicted, measured))
            diff = rel_diff(predicted, measured) if ok is not None else None
            csv_rows.append({
                "launch": name, "kernel": kernel, "quantity": column, "metric": metric,
                "predicted": fmt(predicted), "measured": fmt(measured),
                "rel_diff": "" if diff is None else ("inf" if math.isinf(diff) else f"{diff:.4f}"),
                "within_2pct": "" if ok is None else ("yes" if ok else "no"),
                "held_to_2pct": "yes" if held else "no",
                # Last, so that the columns before keep their places.
                "counts_from": source,
            })
            if held:
                mark = "" if ok in (None, True) else " ✗"
                cells.append(f"{fmt(predicted)} / {fmt(measured)}{mark}")
        sass = sass_summary(os.path.join(raw, f"{name}.sass"), kernel)
        shown = (source if len(source) <= 60 else source[:57] + "...").replace("|", "/")
        md_rows.append([name, kernel, shown] + cells + [same, sass])

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "table.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(csv_rows[0]) if csv_rows else ["launch"])
        w.writeheader()
        w.writerows(csv_rows)

    header = ["launch", "kernel", "counts from"] + [c for c, _, _ in COMPARED] + ["emulator vs GPU", "SASS memory instructions"]
    lines = [
        "# hone analyze vs Nsight Compute",
        "",
        "Each cell: hone's prediction / ncu's counter for the same launch; ✗ marks a",
        f"difference over {TOLERANCE:.0%}. Conflicts are wavefronts beyond the ideal.",
        "",
        f"{agreed} of {checked} compared counters within {TOLERANCE:.0%}, over "
        f"{sum(1 for e in entries if e[2] == 'ran')} launches run on the GPU "
        f"({len(entries)} listed).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in md_rows]
    lines += ["", "## Outside the tolerance", ""]
    if misses:
        lines += ["| launch | quantity | predicted | measured | difference |", "|---|---|---|---|---|"]
        for name, column, p, m in misses:
            d = rel_diff(p, m)
            lines.append(f"| {name} | {column} | {fmt(p)} | {fmt(m)} | "
                         f"{'n/a' if math.isinf(d) else f'{d:+.1%}'} |")
    else:
        lines.append("none")
    lines += ["", "## Instructions executed (context for the request counts)", "",
              "| launch | shared ld requests / instructions | shared st requests / instructions |",
              "|---|---|---|"]
    by_launch = {}
    for r in csv_rows:
        if r["held_to_2pct"] == "no":
            by_launch.setdefault(r["launch"], []).append(f"{r['predicted']} / {r['measured']}")
    for name, _, _ in entries:
        cols = by_launch.get(name, ["-", "-"])
        lines.append(f"| {name} | " + " | ".join(cols) + " |")
    bad = [d for d in differential if d[2] not in ("same", "nothing dumped")]
    lines += ["", f"Emulator vs GPU: {sum(1 for d in differential if d[2] == 'same')} launches "
              f"with identical dumped buffers, {len(bad)} with differences or not run."]
    with open(os.path.join(out, "table.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
