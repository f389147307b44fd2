#!/usr/bin/env bash
# One GPU session of the analyzer's checks, from the repository root:
# the bundled launches and the real kernels (real/kernels.txt) against
# Nsight Compute, each counted from the compiled code and from the source,
# and `hone analyze --measure` of the local-accumulator fix at 64 MB.
#
#   OUT=DIR bash bench/results/analyze/device_session.sh HONE EXT
#
# HONE: the hone binary (cargo build --release -p hone-cli); EXT: the folder
# where real/pack.sh's tarball was unpacked.
set -uo pipefail
hone=${1:?hone binary}
ext=${2:?folder of the unpacked suites}
OUT=${OUT:-out}
export OUT
here=$(cd "$(dirname "$0")" && pwd)
for d in /usr/local/cuda/bin; do [ -d "$d" ] && export PATH="$d:$PATH"; done
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/device.txt" 2>&1
echo "== bundled launches"
timeout 150 bash "$here/ncu_compare.sh" "$hone" "$OUT/examples" > "$OUT/examples.log" 2>&1
grep -m1 'compared counters' "$OUT/examples/table.md"
grep -m1 'compared counters' "$OUT/examples/source-model/table.md"
echo "== real kernels"
BUDGET_S=280 bash "$here/real/run_device.sh" "$hone" "$ext" | head -60
grep -m1 'compared counters' "$OUT/real/source-model/table.md"
echo "== measured fix"
for run in 1 2; do
    timeout 120 "$hone" analyze examples/analyze/accumulate.json --measure \
        --measure-launch bench/results/analyze/measure/accumulate_large.json --reps 50 \
        > "$OUT/measure$run.txt" 2>&1
    sed -n '/^measured on/,$p' "$OUT/measure$run.txt"
done
# Tables where they come back; every tool's raw output in one archive.
mkdir -p "$OUT/tables"
for part in examples real; do
    cp "$OUT/$part/table.md" "$OUT/tables/$part.md" 2>/dev/null
    cp "$OUT/$part/table.csv" "$OUT/tables/$part.csv" 2>/dev/null
    cp "$OUT/$part/source-model/table.md" "$OUT/tables/$part.source-model.md" 2>/dev/null
    cp "$OUT/$part/source-model/table.csv" "$OUT/tables/$part.source-model.csv" 2>/dev/null
done
tar czf "$OUT/raw.tar.gz" -C "$OUT" examples real 2>/dev/null && rm -rf "$OUT/examples" "$OUT/real"
