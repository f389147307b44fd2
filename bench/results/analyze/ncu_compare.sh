#!/usr/bin/env bash
# Checks `hone analyze` against the hardware: for every launch file, hone's
# predicted global requests and sectors, shared wavefronts and bank conflicts
# against Nsight Compute's counters for the same launch on the GPU, and the
# emulator's dumped buffers against the GPU's (`hone sim` vs `hone gpu-run`).
#
# Usage: bench/results/analyze/ncu_compare.sh HONE OUTDIR [LAUNCH.json ...]
#   HONE    the hone binary (cargo build --release -p hone-cli)
#   OUTDIR  gets table.md, table.csv and raw/ (every tool's output)
#   LAUNCH  default: examples/analyze/*.json and examples/stencil/*.json
# Run from the repository root on a machine with a GPU, ncu and cuobjdump.
set -uo pipefail
export LC_ALL=C  # the default launch list in a fixed order
hone=${1:?hone binary}
out=${2:?output directory}
shift 2
if [ $# -gt 0 ]; then
    launches=("$@")
else
    launches=(examples/analyze/*.json examples/stencil/*.json)
fi
here=$(cd "$(dirname "$0")" && pwd)
for d in /usr/local/cuda/bin; do
    [ -d "$d" ] && export PATH="$d:$PATH"
done
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
raw="$out/raw"
rm -rf "$raw"
mkdir -p "$raw/keep"

core=(
    l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
)
context=(
    smsp__inst_executed_op_shared_ld.sum
    smsp__inst_executed_op_shared_st.sum
)
# A metric ncu does not know makes it profile nothing: keep the context
# metrics only where this ncu lists them.
ncu --query-metrics > "$raw/query-metrics.txt" 2>&1
metrics=("${core[@]}")
for m in "${context[@]}"; do
    if ! [ -s "$raw/query-metrics.txt" ] || grep -q "^${m%.sum} " "$raw/query-metrics.txt"; then
        metrics+=("$m")
    fi
done
metric_list=$(IFS=,; echo "${metrics[*]}")

{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
    ncu --version | tail -1
} > "$raw/device.txt" 2>&1

# Each launch alone first: analysis, emulator, GPU. A launch that fails on
# the GPU is left out of the profiled process, which must run them all.
: > "$raw/launches.tsv"
ok=()
for launch in "${launches[@]}"; do
    rel=${launch#examples/}
    name=${rel%.json}
    name=${name//\//.}
    "$hone" analyze "$launch" --json --no-fix > "$raw/$name.analyze.json" 2> "$raw/$name.analyze.err"
    "$hone" sim "$launch" --json --no-race-check > "$raw/$name.sim.json" 2> "$raw/$name.sim.err"
    mkdir -p "$raw/keep/$name"
    if "$hone" gpu-run "$launch" --json --keep "$raw/keep/$name" > "$raw/$name.gpu.json" 2> "$raw/$name.gpu.err"; then
        status=ran
        ok+=("$launch")
        image=$(ls "$raw/keep/$name"/*.cubin 2>/dev/null | head -1)
        [ -n "$image" ] && cuobjdump -sass "$image" > "$raw/$name.sass" 2>&1
    else
        status="gpu-run failed: $(head -c 200 "$raw/$name.gpu.err" | tr '\t\n' '  ')"
    fi
    printf '%s\t%s\t%s\n' "$name" "$launch" "$status" >> "$raw/launches.tsv"
done

# One profiled process for all of them: ncu's start-up is paid once, and its
# IDs follow the launch order.
if [ ${#ok[@]} -gt 0 ]; then
    ncu --clock-control none --print-units base --csv --metrics "$metric_list" \
        --log-file "$raw/ncu.csv" "$hone" gpu-run "${ok[@]}" > "$raw/ncu-run.out" 2>&1
    echo "ncu exit $?" >> "$raw/ncu-run.out"
fi

python3 "$here/compare.py" "$raw" "$out"
