#!/usr/bin/env python3
"""hone's counts on the real kernels, computed here, against the Nsight
Compute counters of the device run (results/table.csv).

usage: compare_local.py HONE OUT_DIR

Runs `hone analyze --json --no-fix` on each launch of kernels.txt (the
suites' checkouts in ${RODINIA} and ${SAMPLES}, as fix_coverage.py), writes
each analysis to OUT_DIR/NAME.json, prints every compared counter outside 2%
and the number within. Needs no GPU; with NVRTC and nvdisasm the counts are
the compiled code's, for this machine's NVRTC (the device run used the
device's).
"""

import csv
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import compare  # noqa: E402
from fix_coverage import launches, materialize, name_of  # noqa: E402


def measured():
    out = {}
    with open(os.path.join(HERE, "results", "table.csv"), encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["held_to_2pct"] == "yes" and r["measured"] != "":
                out.setdefault(r["launch"], {})[r["metric"]] = float(r["measured"])
    return out


def analyse(hone, out, path):
    name = name_of(path)
    launch = materialize(path, out)
    p = subprocess.run([hone, "analyze", launch, "--json", "--no-fix"],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return name, None, p.stderr[:300]
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        f.write(p.stdout)
    return name, json.loads(p.stdout), ""


def main(hone, out):
    os.environ.setdefault("RODINIA", "/work/ext/gpu-rodinia")
    os.environ.setdefault("SAMPLES", "/work/ext/cuda-samples")
    os.makedirs(out, exist_ok=True)
    table = measured()
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda p: analyse(hone, out, p), launches()))
    checked = agreed = 0
    for name, a, err in results:
        if a is None:
            print(f"{name}: analysis failed: {err}")
            continue
        counters = table.get(name, {})
        for column, metric, predict in compare.COMPARED:
            if metric not in counters:
                continue
            p = predict(a["totals"])
            ok = compare.within(p, counters[metric])
            checked += 1
            agreed += bool(ok)
            if not ok:
                print(f"  {name:60s} {column:22s} {p} / {counters[metric]:.0f}")
    print(f"{agreed} of {checked} counters within 2% (hone here / Nsight Compute on the device)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
