#!/usr/bin/env python3
"""The front-end sweep over Rodinia 3.1's CUDA benchmarks and the CUDA samples.

Every `__global__` kernel defined in the suites' sources is found by a scan of
the text (comments and strings blanked), so a kernel the front end skips is
still counted. Each program's `.cu` files are lowered with `hone parse --json`;
a kernel lowers when some translation unit yields it. Kernels with a launch
file under `launches/` are run in the emulator (`hone sim --json`, with race
detection and its order check) and, with `--gpu`, on the device (`hone
gpu-run --json`); dumped buffers are compared bit for bit for integer types
and within a relative tolerance for floating point. The table goes to
`kernels.md` and the raw rows to `kernels.json`.

Where hone itself shows that a kernel has no one defined output (the
emulator reports a race whose outcome the order check sees change, values
that change when the launch runs again in reverse order or with another
clock, or a shuffle that reads a lane CUDA leaves undefined), the kernel is
classed `race`, `nondeterministic` or `undefined` rather than agreeing or
disagreeing, and only the values the order check found deterministic are
compared.

Run through `run.sh`, which names the checkouts.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_EXT = (".cu", ".cuh", ".h", ".hpp")

# The suites and the folders of programs in them.
SUITES = {
    "rodinia": ["cuda"],
    "samples": ["Samples/0_Introduction", "Samples/2_Concepts_and_Techniques"],
}


def blank_comments_and_strings(text):
    """Comments and string/char literals replaced by spaces, newlines kept,
    so offsets and line numbers stay those of the file."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def matching(text, i, open_c, close_c):
    """Index of the bracket closing the one at `i`, or -1."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return -1


def kernels_in(path):
    """(name, first line, last line) of each `__global__` definition."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank_comments_and_strings(f.read())
    found = []
    for m in re.finditer(r"\b__global__\b", text):
        # A `#define` line holding `__global__` is a macro, not a definition.
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith("#"):
            continue
        i = m.end()
        name = None
        while i < len(text):
            lb = re.compile(r"\s*__launch_bounds__\s*\(").match(text, i)
            if lb:
                i = matching(text, lb.end() - 1, "(", ")") + 1
                continue
            ident = re.compile(r"\s*([A-Za-z_]\w*)").match(text, i)
            if ident:
                name = ident.group(1)
                i = ident.end()
                continue
            tok = re.compile(r"\s*([*&<(;{])").match(text, i)
            if not tok:
                break
            ch = tok.group(1)
            if ch in "*&":
                i = tok.end()
                continue
            if ch == "<":
                close = matching(text, tok.end() - 1, "<", ">")
                i = close + 1 if close > 0 else tok.end()
                continue
            if ch == "(":
                close = matching(text, tok.end() - 1, "(", ")")
                if close < 0:
                    break
                rest = re.compile(r"\s*\{").match(text, close + 1)
                if rest and name:
                    end = matching(text, rest.end() - 1, "{", "}")
                    first = text.count("\n", 0, m.start()) + 1
                    last = text.count("\n", 0, end) + 1 if end > 0 else first
                    found.append((name, first, last))
            break
    return found


def programs(root, folder):
    base = os.path.join(root, folder)
    if not os.path.isdir(base):
        sys.exit(f"{base}: not a directory (is the checkout path right?)")
    for p in sorted(os.listdir(base)):
        d = os.path.join(base, p)
        if os.path.isdir(d):
            yield p, d


def source_files(d):
    for dp, _, fs in sorted(os.walk(d)):
        for f in sorted(fs):
            if f.endswith(SRC_EXT):
                yield os.path.join(dp, f)


def makefile_includes(d):
    """The `-I` directories the Makefile in `d` passes (variables it sets
    itself expanded), as the program is built with them."""
    mk = os.path.join(d, "Makefile")
    if not os.path.isfile(mk):
        return []
    with open(mk, errors="replace") as f:
        text = f.read()
    var = dict(re.findall(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:?=\s*(\S+)\s*$", text, re.M))
    out = []
    for raw in re.findall(r"-I\s*(\S+)", text):
        path = re.sub(r"\$\((\w+)\)", lambda m: var.get(m.group(1), m.group(0)), raw)
        if "$" in path:
            continue
        path = os.path.normpath(os.path.join(d, path))
        if os.path.isdir(path) and path not in out:
            out.append(path)
    return out


def include_dirs(suite, root, prog_dir, path):
    dirs = [os.path.dirname(path), prog_dir]
    if suite == "samples":
        dirs.append(os.path.join(root, "Common"))
    else:
        dirs += [os.path.join(root, "common"), os.path.join(root, "cuda", "util")]
    for d in makefile_includes(os.path.dirname(path)):
        if d not in dirs:
            dirs.append(d)
    return dirs


def requested_instances(suite, prog):
    """Template instances the launch files of a program name (instances.json)."""
    path = os.path.join(HERE, "instances.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f).get(f"{suite}/{prog}", [])


def lower_unit(hone, suite, root, prog_dir, path, instances=()):
    cmd = [hone, "parse", "--json", path]
    for i in instances:
        cmd += ["--instantiate", i]
    for d in include_dirs(suite, root, prog_dir, path):
        cmd += ["-I", d]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.stdout.strip().startswith("{"):
        return json.loads(r.stdout), None
    return None, (r.stderr.strip().splitlines() or ["hone parse failed"])[-1]


def diag_text(d):
    return f"{d['construct']}: {d['message']} ({os.path.basename(d['file'])}:{d['line']}:{d['col']})"


def sweep_lowering(hone, roots):
    rows = []
    for suite, root in roots.items():
        for folder in SUITES[suite]:
            for prog, pdir in programs(root, folder):
                files = list(source_files(pdir))
                kernels = []
                for path in files:
                    for name, first, last in kernels_in(path):
                        kernels.append((path, name, first, last))
                if not kernels:
                    continue
                units = {}
                # Every .cu file, and the headers that define kernels: some
                # programs' .cu files include them through host-only code the
                # front end reads badly, and a header read alone still counts.
                with_kernels = {k[0] for k in kernels}
                for path in files:
                    if path.endswith(".cu") or path in with_kernels:
                        units[path] = lower_unit(
                            hone, suite, root, pdir, path, requested_instances(suite, prog)
                        )
                for path, name, first, last in kernels:
                    rel = os.path.relpath(path, root)
                    lowered, reasons, instances, unit_of, params = False, [], [], None, None
                    for unit, (out, err) in units.items():
                        if out is None:
                            if err and (unit == path or not reasons):
                                reasons.append(f"front end: {err}")
                            continue
                        for f in out["functions"]:
                            loc = f["location"]
                            lfile, lline = loc.rsplit(":", 2)[0], int(loc.rsplit(":", 2)[1])
                            fname = f["name"]
                            if (
                                f["kind"] == "global"
                                and (fname == name or fname.startswith(name + "_"))
                                and os.path.realpath(lfile) == os.path.realpath(path)
                                and first - 3 <= lline <= last
                            ):
                                lowered = True
                                instances.append(fname)
                                if unit_of is None:
                                    unit_of, params = unit, f["params"]
                        for d in out["diagnostics"]:
                            if d["severity"] != "error":
                                continue
                            if (
                                os.path.realpath(d["file"]) == os.path.realpath(path)
                                and first - 3 <= d["line"] <= last
                            ):
                                t = diag_text(d)
                                if t not in reasons:
                                    reasons.append(t)
                    if not [u for u in units if u] and not reasons:
                        reasons.append("no .cu file in the program")
                    if not lowered and not reasons:
                        reasons.append("no translation unit of the program reaches it")
                    rows.append(
                        {
                            "suite": suite,
                            "program": prog,
                            "file": rel,
                            "kernel": name,
                            "line": first,
                            "lowers": lowered,
                            "instances": sorted(set(instances)),
                            "reason": "" if lowered else "; ".join(reasons[:2]),
                            "unit": unit_of,
                            "include": include_dirs(suite, root, pdir, unit_of or path),
                            "params": params,
                            "extern_shared": "extern" in "".join(
                                open(path, errors="replace").read().splitlines(True)[first - 1 : last]
                            ),
                        }
                    )
    return rows


BUFFER_LEN = 8192


def default_launch(row, roots):
    """A first launch file for a kernel: a 4 x 128 grid, buffers of
    BUFFER_LEN elements (seeded random, integers in 0..100), integer scalars
    64, floating scalars 0.5; every writable buffer dumped. Written once and
    then edited by hand where the kernel needs other sizes."""
    root = roots[row["suite"]]
    var = "${RODINIA}" if row["suite"] == "rodinia" else "${SAMPLES}"
    rel = lambda p: var + "/" + os.path.relpath(p, root)
    args, dump = {}, []
    for i, p in enumerate(row["params"]):
        t = p["type"].replace("__restrict__", "").strip()
        name = p["name"]
        if t.endswith("*"):
            elem = t[:-1].strip()
            const = elem.startswith("const ")
            elem = elem.replace("const ", "").strip()
            args[name] = {"type": elem, "len": BUFFER_LEN, "init": {"random": i + 1}}
            if not const:
                dump.append(name)
        elif t in ("float", "double"):
            args[name] = 0.5
        else:
            args[name] = 64
    launch = {
        "source": rel(os.path.join(root, row["unit"])) if not os.path.isabs(row["unit"]) else rel(row["unit"]),
        "include": [rel(d) for d in row["include"]],
        "kernel": request_for(row) or row["instances"][0],
        "grid": [4],
        "block": [128],
        "args": args,
        "dump": dump,
    }
    if row.get("extern_shared"):
        launch["dynamic_shared_bytes"] = 16384
    return launch


def request_for(row):
    """The instances.json spelling of the kernel's instance, if it names one."""
    for r in requested_instances(row["suite"], row["program"]):
        if r.split("<")[0].strip() == row["kernel"]:
            return r
    return None


def write_default_launches(rows, roots):
    n = 0
    for row in rows:
        if not row["lowers"] or os.path.exists(launch_path(row)):
            continue
        os.makedirs(os.path.dirname(launch_path(row)), exist_ok=True)
        with open(launch_path(row), "w") as f:
            json.dump(default_launch(row, roots), f, indent=1)
            f.write("\n")
        n += 1
    print(f"wrote {n} default launch files")


def launch_path(row):
    return os.path.join(HERE, "launches", row["suite"], row["program"], row["kernel"] + ".json")


def materialize(row, roots, tmp):
    """The launch file with the checkout paths filled in, written to `tmp`."""
    src = launch_path(row)
    with open(src) as f:
        text = f.read()
    text = text.replace("${RODINIA}", roots.get("rodinia", "")).replace(
        "${SAMPLES}", roots.get("samples", "")
    )
    launches = json.loads(text)
    out = []
    for i, launch in enumerate(launches if isinstance(launches, list) else [launches]):
        # Several rows share a launch file (a program's kernel of the same
        # name in several sources) and run at once: each gets its own copy.
        fd, p = tempfile.mkstemp(
            suffix=".json", prefix=f"{row['suite']}-{row['program']}-{row['kernel']}-{i}-", dir=tmp
        )
        with os.fdopen(fd, "w") as f:
            json.dump(launch, f)
        out.append(p)
    return out


def run_json(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    out = None
    if r.stdout.strip():
        try:
            out = json.loads(r.stdout)
        except json.JSONDecodeError:
            pass
    if r.returncode == 0 and out is not None:
        return out, None
    # A run that faulted still prints its report: name the first fault.
    if isinstance(out, dict) and out.get("faults"):
        return None, out["faults"][0].get("message", "fault")[:300]
    if isinstance(out, dict) and out.get("completed") is False:
        return None, "did not complete (deadlock or step limit)"
    # Diagnostics about other functions come first; the failure is last.
    err = (r.stderr.strip() or r.stdout.strip() or f"exit {r.returncode}").splitlines()
    return None, err[-1][:300]


def values_agree(a, b):
    """Integers bit for bit; floating values within a relative 1e-4 (the
    two sides may contract or reorder float operations differently); NaN
    and infinities, which the JSON spells as text, by their text."""
    if isinstance(a, str) or isinstance(b, str):
        return str(a).lower() == str(b).lower()
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    fa, fb = float(a), float(b)
    return abs(fa - fb) <= 1e-4 * max(1.0, abs(fa), abs(fb))


def order_dependent(emu):
    """What hone's order check found: buffer name -> set of element indices
    whose value changed when the launch ran again in another order or with
    another clock, or None where it lists only some of them (then the whole
    buffer is set aside)."""
    out = {}
    for d in emu.get("order_dependent") or []:
        covered = sum(end - start for start, end in d["ranges"])
        if covered < d["elements"] or out.get(d["buffer"], set()) is None:
            out[d["buffer"]] = None
            continue
        idx = out.setdefault(d["buffer"], set())
        for start, end in d["ranges"]:
            idx.update(range(start, end))
    return out


def compare(emu, gpu, skip=None):
    """(None, note) when the dumped buffers agree, else (what differs, note).
    Elements in `skip` (from `order_dependent`) are not compared."""
    skip = skip or {}
    eb, gb = emu.get("buffers") or {}, gpu.get("buffers") or {}
    if set(eb) != set(gb):
        return f"different buffers dumped: {sorted(eb)} vs {sorted(gb)}", ""
    note = ""
    for name in sorted(eb):
        ev, gv = eb[name], gb[name]
        if ev is None or gv is None:
            note = "struct buffers not compared"
            continue
        if len(ev) != len(gv):
            return f"{name}: {len(ev)} values in the emulator, {len(gv)} on the GPU", note
        if name in skip and skip[name] is None:
            continue
        for i, (a, b) in enumerate(zip(ev, gv)):
            if name in skip and i in skip[name]:
                continue
            if not values_agree(a, b):
                return f"{name}[{i}]: emulator {a}, GPU {b}", note
    return None, note


def short_location(loc):
    """`file:line` of a `path/file:line:col` location."""
    parts = loc.rsplit(":", 2)
    return f"{os.path.basename(parts[0])}:{parts[1]}" if len(parts) == 3 else loc


def findings(emu_runs):
    """What hone itself reports that makes a kernel's outputs other than one
    defined result: races, values that depend on the order (atomics whose
    result depends on it, races) or on clock(), and undefined shuffles."""
    races, order, undefined = [], [], []
    for emu in emu_runs:
        for r in emu.get("races") or []:
            a, b = r["first"], r["second"]
            where = "between blocks" if a["block"] != b["block"] else "in a block"
            text = (f"{r['space'].lower()} `{r['array']}` {where}: {a['kind'].lower()} at "
                    f"{short_location(a['location'])} and {b['kind'].lower()} at {short_location(b['location'])}")
            if text not in races:
                races.append(text)
        for d in emu.get("order_dependent") or []:
            shown = [str(s) if e == s + 1 else f"{s}..{e - 1}" for s, e in d["ranges"][:4]]
            if len(d["ranges"]) > 4 or sum(e - s for s, e in d["ranges"]) < d["elements"]:
                shown.append("...")
            why = ("are read from clock()" if d["cause"] == "Clock"
                   else "change when blocks, warps and lanes run in reverse order")
            order.append(f"`{d['buffer']}` ({d['elements']} of its elements: {', '.join(shown)}) {why}")
        for w in emu.get("warnings") or []:
            if w.get("kind") in ("UndefinedShuffle", "OrderCheckStopped"):
                text = w["message"].split(": ", 1)[-1]
                text = f"{short_location(w['location'])}: {text}" if w.get("location") else text
                if text not in undefined:
                    undefined.append(text)
    return {"races": races, "order_dependent": order, "undefined": undefined}


def listed(items, most=2):
    more = len(items) - most
    return "; ".join(items[:most]) + (f"; and {more} more" if more > 0 else "")


def classify(row, found, diff, compared=True):
    """The row's status from hone's findings and the comparison of the
    values hone found deterministic (`diff`: the first that differs, if
    any): `agree`, `disagree`, or, where hone shows the outputs are not one
    defined result, `undefined`, `race` or `nondeterministic`. The GPU
    cannot be expected to agree with one run of the emulator there.
    `compared` is false on the CPU alone, where nothing was compared."""
    rest = "; the other values agree" if compared else ""
    if found["undefined"]:
        return "undefined", "undefined: " + listed(found["undefined"]) + (f" (and {diff})" if diff else "")
    if found["races"] and (diff or found["order_dependent"]):
        text = f"race: {listed(found['races'])}"
        if found["order_dependent"]:
            text += f"; {listed(found['order_dependent'])}"
        return "race", text + (f"; and {diff}" if diff else rest)
    if diff:
        return "disagree", f"outputs differ: {diff}"
    if found["order_dependent"]:
        return "nondeterministic", "nondeterministic: " + listed(found["order_dependent"]) + rest
    note = row.get("reason", "")
    if found["races"]:
        note = (note + "; " if note else "") + "races that do not change the outputs in reverse order: " + listed(found["races"])
    return "agree", note


def sweep_runs(hone, rows, roots, gpu, budget):
    start = time.monotonic()
    def one(row):
        try:
            run_row(hone, row, roots, gpu, budget, start, tmp)
        except Exception as e:  # one kernel's surprise must not end the sweep
            row["reason"] = f"sweep error: {type(e).__name__}: {e}"

    # Kernels are independent processes; several at once (each `hone sim`
    # also uses threads of its own, so not one per core).
    workers = max(1, min(8, (os.cpu_count() or 2) // 2))
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, rows))


def run_row(hone, row, roots, gpu, budget, start, tmp):
    """Emulates one kernel on its launch files and, with `gpu`, compares."""
    row.setdefault("emulates", None)
    row.setdefault("gpu", None)
    if not row["lowers"]:
        return
    if budget and time.monotonic() - start > budget:
        row["reason"] = f"not run: the sweep's time budget ({budget} s) was spent"
        return
    if not os.path.exists(launch_path(row)):
        row["emulates"] = False
        row["reason"] = "no launch file"
        return
    try:
        files = materialize(row, roots, tmp)
    except (OSError, json.JSONDecodeError) as e:
        row["emulates"] = False
        row["reason"] = f"launch file: {e}"
        return
    emu_out = []
    for lf in files:
        # Race detection on: it carries the order check. Writes of the value
        # already there (bfs's frontier marking a node from several parents)
        # are not races whose outcome depends on the order.
        out, err = run_json([hone, "sim", "--json", "--tolerate-same-value-races", lf], 120)
        if out is None:
            row["emulates"] = False
            row["reason"] = f"emulator: {err}"
            break
        emu_out.append(out)
    else:
        row["emulates"] = True
    if not row["emulates"]:
        return
    found = findings(emu_out)
    row["findings"] = found
    # What hone finds on the CPU alone: the GPU may still disagree elsewhere.
    row["emulator_status"], text = classify(row, found, None, compared=False)
    if not gpu:
        row["reason"] = text
        return
    diff = None
    for lf, eo in zip(files, emu_out):
        # Without FMA contraction, as the emulator rounds every operation.
        out, err = run_json([hone, "gpu-run", "--json", "--no-fmad", lf], 60)
        if out is None:
            row["gpu"] = False
            row["status"] = "gpu failed"
            row["reason"] = f"gpu-run: {err}"
            return
        diff, note = compare(eo, out, order_dependent(eo))
        row["device"] = out.get("device")
        if diff:
            break
        if note:
            row["reason"] = note
    row["status"], row["reason"] = classify(row, found, diff)
    row["gpu"] = {"agree": True, "disagree": False}.get(row["status"])


STATUS_MARK = {"agree": "yes", "disagree": "no", "gpu failed": "no"}


def gpu_mark(r):
    if r.get("status"):
        return STATUS_MARK.get(r["status"], r["status"])
    return mark(r.get("gpu"))


def mark(v):
    return {True: "yes", False: "no", None: "-"}[v]


UNDEFINED_KINDS = ("race", "nondeterministic", "undefined")


def tally(rows):
    """A sentence counting the outcomes the GPU comparison (or, without it,
    the emulator alone) gives."""
    gpu = any(r.get("status") for r in rows)
    key = "status" if gpu else "emulator_status"
    n = {k: sum(r.get(key) == k for r in rows) for k in ("agree", "disagree", "gpu failed", *UNDEFINED_KINDS)}
    kinds = ", ".join(f"{n[k]} {k}" for k in UNDEFINED_KINDS)
    odd = sum(n[k] for k in UNDEFINED_KINDS)
    if gpu:
        return (f"{n['agree']} agree with the GPU, {n['disagree']} disagree, {n['gpu failed']} fail in gpu-run, "
                f"and by hone's own evidence "
                f"{odd} have no one defined output ({kinds}); on those the values hone finds "
                "deterministic are compared")
    return f"by hone's own evidence {odd} have no one defined output ({kinds})"


def write_table(rows, path, device):
    total = len(rows)
    low = sum(r["lowers"] for r in rows)
    emu = sum(bool(r.get("emulates")) for r in rows)
    with open(path, "w") as f:
        f.write("# Front-end sweep: every `__global__` kernel of the suites\n\n")
        f.write(f"Device: {device or 'none (CPU only: lowering and emulation)'}\n\n")
        f.write(
            f"{total} kernels; {low} lower ({100 * low / max(total, 1):.1f}%), "
            f"{emu} emulate on their launch file; {tally(rows)}.\n\n"
        )
        f.write("| suite | program | file | kernel | lowers? | emulates? | GPU agrees? | reason if not |\n")
        f.write("|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            reason = r.get("reason", "").replace("|", "\\|").replace("\n", " ")
            f.write(
                f"| {r['suite']} | {r['program']} | {r['file']}:{r['line']} | `{r['kernel']}` | "
                f"{mark(r['lowers'])} | {mark(r.get('emulates'))} | {gpu_mark(r)} | {reason} |\n"
            )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hone", required=True)
    ap.add_argument("--rodinia")
    ap.add_argument("--samples")
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--lower-only", action="store_true")
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--budget", type=float, default=0,
                    help="seconds after which no further kernel is run (0: none)")
    ap.add_argument("--write-launches", action="store_true",
                    help="write a default launch file for each lowered kernel that has none")
    ap.add_argument("--only", help="run only kernels whose program contains this text")
    ap.add_argument("--samples-folders",
                    help="comma-separated folders of the samples checkout to sweep instead of "
                         + " and ".join(SUITES["samples"]))
    a = ap.parse_args()
    if a.samples_folders:
        SUITES["samples"] = [f.strip() for f in a.samples_folders.split(",") if f.strip()]
    roots = {}
    if a.rodinia:
        roots["rodinia"] = os.path.abspath(a.rodinia)
    if a.samples:
        roots["samples"] = os.path.abspath(a.samples)
    if not roots:
        sys.exit("name at least one checkout: --rodinia PATH and/or --samples PATH")
    rows = sweep_lowering(a.hone, roots)
    if a.only:
        rows = [r for r in rows if a.only in r["program"]]
    if a.write_launches:
        write_default_launches(rows, roots)
    if not a.lower_only:
        sweep_runs(a.hone, rows, roots, a.gpu, a.budget)
    # The checkouts' locations are this machine's: name them as the launch files do.
    names = {"rodinia": "${RODINIA}", "samples": "${SAMPLES}"}
    text = json.dumps(rows)
    for suite, root in roots.items():
        text = text.replace(root, names[suite])
    rows = json.loads(text)
    devices = sorted({r["device"] for r in rows if r.get("device")})
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "kernels.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_table(rows, os.path.join(a.out, "kernels.md"), ", ".join(devices))
    low = sum(r["lowers"] for r in rows)
    print(f"{len(rows)} kernels, {low} lower, "
          f"{sum(bool(r.get('emulates')) for r in rows)} emulate; {tally(rows)}")


if __name__ == "__main__":
    main()
