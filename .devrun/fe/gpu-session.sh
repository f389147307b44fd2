#!/usr/bin/env bash
# One GPU session, from the repository root: cuRAND against NVIDIA's
# (curand/), grid groups (grid_groups/), inline PTX against nvcc
# (inline_ptx/), gpu-run's end-to-end test, and the whole front-end sweep.
# Beside this script when it runs: hone.gz (target/release/hone, stripped
# and gzipped), gpurun_cli (`cargo test --release -p hone-cli --test
# gpurun_cli --no-run`, stripped), ext.tar.gz and frontend.tar.gz as for
# gpu-carried.sh. OUT=DIR bash gpu-session.sh
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(pwd)"
OUT="${OUT:-$here/out}"
mkdir -p "$OUT" "$root/target/release"
gunzip -c "$here/hone.gz" > "$root/target/release/hone"; chmod +x "$root/target/release/hone"
hone="$root/target/release/hone"
nvidia-smi -L > "$OUT/device.txt" 2>&1; cat "$OUT/device.txt"

echo "== cuRAND against NVIDIA's"
mkdir -p "$OUT/curand"
( cd "$root/bench/results/frontend/curand" && timeout 120 nvcc -arch=sm_90 -o "$OUT/curand/reference" reference.cu > "$OUT/curand/nvcc.log" 2>&1 \
  && timeout 30 "$OUT/curand/reference" > "$OUT/curand/reference.out" 2>&1 \
  && python3 compare.py "$OUT/curand/reference.out" hone_expected.txt | tee "$OUT/curand/compare.txt" ) || { echo "curand check failed"; tail -5 "$OUT/curand/nvcc.log"; }

echo "== inline PTX against nvcc"
mkdir -p "$OUT/inline_ptx"
timeout 120 bash bench/results/frontend/inline_ptx/check.sh "$hone" "$OUT/inline_ptx" 2>&1 | tail -3

echo "== grid groups"
mkdir -p "$OUT/cg"
for k in others_sum tile_ops; do
    timeout 60 "$hone" sim --json "$root/bench/results/frontend/grid_groups/$k.json" > "$OUT/cg/$k.sim.json" 2> "$OUT/cg/$k.sim.err"
    timeout 20 "$hone" gpu-run --no-fmad --json "$root/bench/results/frontend/grid_groups/$k.json" > "$OUT/cg/$k.gpu.json" 2> "$OUT/cg/$k.gpu.err"
    echo "$k gpu-run exit $?"
    python3 - "$OUT/cg/$k.sim.json" "$OUT/cg/$k.gpu.json" <<'PY'
import json, sys
try:
    sim = json.load(open(sys.argv[1])); gpu = json.load(open(sys.argv[2]))
except Exception as e:
    print(f"  cannot compare: {e}"); sys.exit(0)
for name, want in sim["buffers"].items():
    got = gpu["buffers"].get(name, [])
    diff = [i for i, (a, b) in enumerate(zip(want, got)) if a != b]
    print(f"  {name}: {len(want)} elements, {len(diff)} differ")
PY
done
timeout 20 "$hone" gpu-run --no-fmad --no-dump --time 5 "$root/bench/results/frontend/grid_groups/others_sum.json" > "$OUT/cg/others_sum.time.txt" 2>&1
echo "others_sum repeated launches exit $?"

echo "== gpu-run end to end (test binary)"
if [ ! -e /work/main ]; then mkdir -p /work && ln -s "$root" /work/main; fi
ls -la /work/main | head -2
timeout 120 "$here/gpurun_cli" --test-threads 1 > "$OUT/gpurun_cli.txt" 2>&1; echo "gpurun_cli exit $?"; tail -4 "$OUT/gpurun_cli.txt"

echo "== front-end sweep"
work="$(mktemp -d)"; mkdir -p "$work/ext" "$OUT/sweep"
tar xzf "$here/ext.tar.gz" -C "$work/ext"
tar xzf "$here/frontend.tar.gz" -C "$work"
start=$(date +%s)
timeout 300 python3 "$work/frontend/sweep.py" --hone "$hone" \
    --rodinia "$work/ext/gpu-rodinia" --samples "$work/ext/cuda-samples" \
    --gpu --budget 280 --out "$OUT/sweep" > "$OUT/sweep/log.txt" 2>&1
echo "sweep exit $? after $(( $(date +%s) - start )) s"
tail -3 "$OUT/sweep/log.txt"
cp "$OUT/device.txt" "$OUT/sweep/"
python3 - "$OUT/sweep/kernels.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    if r.get("emulates") and r.get("status") != "agree":
        print(f"{r.get('status', 'not run')}: {r['program']} {r['kernel']}: {r.get('reason', '')[:200]}")
PY
rm -rf "$work"
