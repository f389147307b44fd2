#!/usr/bin/env python3
"""How many of the wasteful sites of the real kernels get a verified fix.

usage: fix_coverage.py HONE OUT_DIR

Runs `hone analyze --json --fix-sites 1000` (every flagged site searched) on
each launch of kernels.txt, with ${RODINIA} and ${SAMPLES} filled in from the
environment (default /work/ext/gpu-rodinia and /work/ext/cuda-samples), two
at a time, writes each analysis to OUT_DIR/NAME.json and prints, per
kernel and in total, the wasteful sites (excess sectors or wavefronts, or
redundant traffic) and those with at least one verified fix, then the same
by source access (the sites one access makes, as a record's members, count
once), and the fixed accesses by pattern.
Needs no GPU; with NVRTC and nvdisasm the counts are the compiled code's.
"""

import collections
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../../.."))
sys.path.insert(0, os.path.dirname(HERE))
from materialize import materialize as copy_launch  # noqa: E402


def launches():
    with open(os.path.join(HERE, "kernels.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                yield line


def name_of(path):
    return path.split("/launches/")[-1][: -len(".json")].replace("/", ".")


def materialize(path, out):
    dst = os.path.join(out, name_of(path) + ".launch.json")
    copy_launch(os.path.join(ROOT, path), dst)
    return dst


def analyse(hone, out, path):
    name = name_of(path)
    launch = materialize(path, out)
    p = subprocess.run([hone, "analyze", launch, "--json", "--fix-sites", "1000"],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return name, None
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        f.write(p.stdout)
    return name, json.loads(p.stdout)


def wasteful(site):
    excess = site.get("excess_sectors") or 0
    if site.get("wavefronts") is not None and site.get("ideal_wavefronts") is not None:
        excess += site["wavefronts"] - site["ideal_wavefronts"]
    return excess > 0 or site.get("repeated") is not None


def main(hone, out):
    os.environ.setdefault("RODINIA", "/work/ext/gpu-rodinia")
    os.environ.setdefault("SAMPLES", "/work/ext/cuda-samples")
    os.makedirs(out, exist_ok=True)
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda p: analyse(hone, out, p), launches()))
    total = fixed = accesses = accesses_fixed = 0
    patterns = collections.Counter()
    for name, analysis in results:
        if analysis is None:
            print(f"{name}: hone analyze failed")
            continue
        # The sites one source access makes (a record's members) share a
        # group, searched once at its best-ranked site: a fix there is the
        # fix of every site of the group.
        leaders = {s["rank"]: s for s in analysis["sites"]}
        def fixes(s):
            return leaders.get(s.get("group", s["rank"]), s)["suggestions"]
        sites = [s for s in analysis["sites"] if wasteful(s)]
        with_fix = [s for s in sites if fixes(s)]
        groups = {s.get("group", s["rank"]) for s in sites}
        groups_fixed = {g for g in groups if leaders[g]["suggestions"]}
        for g in groups_fixed:
            patterns.update({f["pattern"] for f in leaders[g]["suggestions"]})
        total += len(sites)
        fixed += len(with_fix)
        accesses += len(groups)
        accesses_fixed += len(groups_fixed)
        print(f"{name}: {len(with_fix)} of {len(sites)} wasteful sites fixed "
              f"({len(groups_fixed)} of {len(groups)} source accesses)")
    print(f"total: {fixed} of {total} wasteful sites have a verified fix "
          f"({100 * fixed / max(total, 1):.0f}%)")
    print(f"       {accesses_fixed} of {accesses} wasteful source accesses "
          f"({100 * accesses_fixed / max(accesses, 1):.0f}%)")
    print("fixed source accesses by pattern:")
    for p, n in patterns.most_common():
        print(f"  {p}: {n}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
