#!/usr/bin/env bash
# Runs the GPU smoke check on a CUDA machine and keeps its outputs.
#
# Usage: scripts/gpu_smoke.sh BINARY OUTDIR
#   BINARY  the gpu_smoke example, built with
#           `cargo build --release -p hone-gpu --examples`
#   OUTDIR  where smoke.log, smoke.json, quick.log and sass.txt go
#
# NVRTC is loaded at run time; the toolkit's library directory is added to
# LD_LIBRARY_PATH in case the loader does not know it.
set -uo pipefail
bin=${1:?binary}
out=${2:?output directory}
mkdir -p "$out"
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
export HONE_CACHE_DIR=${HONE_CACHE_DIR:-/tmp/hone-cache}
rm -rf "$HONE_CACHE_DIR"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu --format=csv
ls /usr/local/cuda/lib64 2>/dev/null | grep -E '^libnvrtc' | head -3

echo '== worker alone =='
printf '%s\n' '{"id":1,"op":"hello"}' '{"id":2,"op":"device"}' '{"id":3,"op":"shutdown"}' | "$bin" gpu-worker
echo "worker exit $?"

echo '== full smoke =='
start=$SECONDS
"$bin" --json "$out/smoke.json" 2>&1 | tee "$out/smoke.log"
echo "smoke exit ${PIPESTATUS[0]} after $((SECONDS - start)) s"

echo '== quick rerun: modules come from the cache =='
"$bin" --quick --no-faults > "$out/quick.log" 2>&1
echo "quick exit $?"
grep -E 'cache hit|compiled in' "$out/quick.log" | head -4

echo '== SASS of the cached modules: global loads and stores =='
if command -v cuobjdump >/dev/null; then
    for f in "$HONE_CACHE_DIR"/*.cubin; do
        echo "--- $f"
        cuobjdump -sass "$f" | grep -oE '(LDG|STG)[.A-Z0-9]*' | sort | uniq -c
    done > "$out/sass.txt" 2>&1
    head -40 "$out/sass.txt"
fi
