#!/usr/bin/env bash
# The Nsight Compute comparison of the real kernels (kernels.txt), on the
# GPU machine, from the repository root:
#
#   bash bench/results/analyze/real/run_device.sh HONE EXT
#
#   HONE  the hone binary (cargo build --release -p hone-cli)
#   EXT   the folder where ext.tar.gz (pack.sh) was unpacked: it holds
#         yuhc+gpu-rodinia/ and NVIDIA+cuda-samples/
# Both may be given as the environment's HONE and EXT instead. Writes
# $OUT/real/ (table.md, table.csv, raw/ with every tool's output; OUT
# defaults to ./out). Launches are analysed, emulated and run in parallel,
# then profiled in one ncu process; the whole run is held under 5 minutes
# (each tool run under STEP_TIMEOUT, the profiled process under the time
# left, so the table is always written).
set -uo pipefail
start=$(date +%s)
hone=${1:-${HONE:?hone binary: run_device.sh HONE EXT}}
ext=${2:-${EXT:?folder of the unpacked ext.tar.gz: run_device.sh HONE EXT}}
here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$ext" && pwd)
export RODINIA=$ext/yuhc+gpu-rodinia
export SAMPLES=$ext/NVIDIA+cuda-samples
for d in "$RODINIA" "$SAMPLES"; do
    [ -d "$d" ] || { echo "run_device.sh: no $d (unpack ext.tar.gz into EXT)" >&2; exit 2; }
done
dest=${OUT:-out}/real
mkdir -p "$dest"

budget=${BUDGET_S:-285}
export JOBS=${JOBS:-$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))}
export STEP_TIMEOUT=${STEP_TIMEOUT:-60}
# The profiled process starts after the per-launch runs; ncu_compare.sh
# gives it what is left of the budget by then, less time for the table.
export DEADLINE=$(( start + budget - 15 ))

bash "$here/../ncu_compare.sh" "$hone" "$dest" --no-fmad --list "$here/kernels.txt" \
    > "$dest/run.log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))
echo "run_device.sh: exit $rc after ${elapsed} s (JOBS=$JOBS); $dest/table.md" | tee -a "$dest/run.log"
# The summary line and the counters outside the tolerance.
grep -m1 'compared counters' "$dest/table.md" 2>/dev/null
sed -n '/^## Outside the tolerance/,/^## Instructions/p' "$dest/table.md" 2>/dev/null | head -80
tail -3 "$dest/raw/ncu-run.out" 2>/dev/null
exit $rc
