#!/usr/bin/env bash
# On a GPU machine: the corpus's inline PTX compiled by nvcc against hone's
# emulation of it, value by value. Usage: check.sh HONE OUT
set -euo pipefail
hone=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../../../..
nvcc -arch=sm_90 -o "$out/inline_ptx" "$here/driver.cu"
"$out/inline_ptx" > "$out/gpu.json"
"$hone" sim "$root/tests/corpus/cpp/launch/inline_ptx.json" --json > "$out/hone.json"
python3 - "$out/gpu.json" "$out/hone.json" <<'PY'
import json, sys
gpu = json.load(open(sys.argv[1]))
hone = json.load(open(sys.argv[2]))["buffers"]["o"]
bad = [k for k, (g, h) in enumerate(zip(gpu, hone)) if g != h]
print(f"inline PTX: {len(gpu) - len(bad)} of {len(gpu)} values equal nvcc's" + (f"; first differences at {bad[:8]}" if bad else ""))
sys.exit(1 if bad or len(gpu) != len(hone) else 0)
PY
