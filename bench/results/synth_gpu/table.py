#!/usr/bin/env python3
"""The results table of run.sh: table.py OUTDIR (the JSON of each gpu-run)."""
import json
import os
import sys

out = sys.argv[1]


def load(name):
    with open(os.path.join(out, name + ".json")) as f:
        return json.load(f)


print("| case | naive ms | synthesized ms | speedup | max abs diff | max rel diff | differing elements |")
print("|---|---|---|---|---|---|---|")
for case in ["diffusion", "himeno"]:
    naive = load(f"{case}_naive")["time_ms"]["median"]
    for kind in ["sha", "sleeve", "tb"]:
        run = load(f"{case}_{kind}")
        ms = run["time_ms"]["median"]
        # Temporal blocking makes two sweeps per launch: against two naive launches.
        base = 2 * naive if kind == "tb" else naive
        cmp = run["compare"]
        abs_ = max(float(c["max_abs"]) for c in cmp.values())
        rel = max(float(c["max_rel"]) for c in cmp.values())
        diff = ", ".join(f"{n}: {c['differing']}/{c['elements']}" for n, c in cmp.items())
        label = f"{case} {kind}" + (" (2 sweeps)" if kind == "tb" else "")
        print(f"| {label} | {base:.4f} | {ms:.4f} | {base / ms:.2f}x | {abs_:.3g} | {rel:.3g} | {diff} |")
