#!/usr/bin/env bash
# The front-end sweep on the GPU, self-contained: every kernel of Rodinia 3.1
# and the CUDA samples' 0_Introduction and 2_Concepts_and_Techniques is
# lowered, emulated (with race detection and the order check) and run with
# `hone gpu-run`, and the outputs compared, as gpu.sh does from a checkout.
# Beside this script: hone.gz (target/release/hone, stripped and gzipped),
# ext.tar.gz (the suites' sources: gpu-rodinia at 9c10d3e, cuda-samples at
# c94ff36, as folders gpu-rodinia/ and cuda-samples/), frontend.tar.gz
# (`tar czf frontend.tar.gz -C bench/results frontend`). `OUT=DIR bash
# gpu-carried.sh` writes kernels.md, kernels.json, device.txt and log.txt to
# DIR and prints the summary.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$here/out}"
work="$(mktemp -d)"
mkdir -p "$OUT" "$work/ext"
tar xzf "$here/ext.tar.gz" -C "$work/ext"
tar xzf "$here/frontend.tar.gz" -C "$work"
gunzip -c "$here/hone.gz" > "$work/hone"
chmod +x "$work/hone"
nvidia-smi -L > "$OUT/device.txt" 2>&1
start=$(date +%s)
timeout 230 python3 "$work/frontend/sweep.py" --hone "$work/hone" \
    --rodinia "$work/ext/gpu-rodinia" --samples "$work/ext/cuda-samples" \
    --gpu --budget 200 --out "$OUT" > "$OUT/log.txt" 2>&1
echo "exit $? after $(( $(date +%s) - start )) s" >> "$OUT/log.txt"
tail -3 "$OUT/log.txt"
# The emulated kernels that do not plainly agree, for a quick look.
python3 - "$OUT/kernels.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    if r.get("emulates") and r.get("status") != "agree":
        print(f"{r.get('status', 'not run')}: {r['program']} {r['kernel']}: {r.get('reason', '')[:220]}")
PY
rm -rf "$work"
