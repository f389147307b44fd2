#!/usr/bin/env bash
# Checks `hone analyze` against the hardware: for every launch file, hone's
# predicted global requests and sectors, shared wavefronts and bank conflicts
# against Nsight Compute's counters for the same launch on the GPU, and the
# emulator's dumped buffers against the GPU's (`hone sim` vs `hone gpu-run`).
#
# Usage: bench/results/analyze/ncu_compare.sh HONE OUTDIR [--list FILE] [--no-fmad] [LAUNCH.json ...]
#   HONE       the hone binary (cargo build --release -p hone-cli)
#   OUTDIR     gets table.md, table.csv and raw/ (every tool's output)
#   --list F   launch files named in F, one per line; blank lines and
#              `#` comments are ignored; repeatable, and may be mixed with
#              LAUNCH arguments (all run in the order given)
#   --no-fmad  compile for the GPU without contracting a*b+c (gpu-run
#              --no-fmad), so that floating-point control flow takes the
#              emulator's path
#   LAUNCH     default (no LAUNCH and no --list): examples/analyze/*.json
#              and examples/stencil/*.json
# Environment:
#   RODINIA, SAMPLES  the checkouts that launch files name as ${RODINIA}/...
#              and ${SAMPLES}/... (bench/results/frontend/launches): they
#              must be set when such a file is listed. Each such file is
#              run from a copy with the variables filled in, raw/launches/NAME.json.
#   JOBS       launches analysed, emulated and run on the GPU at once (default 1)
#   STEP_TIMEOUT, NCU_TIMEOUT  seconds allowed to each per-launch tool run
#              and to the profiled process (default: no limit)
#   DEADLINE   epoch second by which the profiled process must have ended
#              (it gets the time left then, if less than NCU_TIMEOUT)
# Run from the repository root on a machine with a GPU, ncu and cuobjdump.
# A launch is named after its path below `launches/` or `examples/`, with
# dots for slashes (rodinia.hotspot.calculate_temp, analyze.copy).
set -uo pipefail
export LC_ALL=C  # the default launch list in a fixed order
hone=${1:?hone binary}
out=${2:?output directory}
shift 2
launches=()
gpu_flags=()
while [ $# -gt 0 ]; do
    case $1 in
        --list)
            list=${2:?--list needs a file}
            [ -f "$list" ] || { echo "ncu_compare.sh: no list file $list" >&2; exit 2; }
            while IFS= read -r line || [ -n "$line" ]; do
                line=${line%%#*}
                line=${line#"${line%%[![:space:]]*}"}
                line=${line%"${line##*[![:space:]]}"}
                [ -n "$line" ] && launches+=("$line")
            done < "$list"
            shift 2
            ;;
        --no-fmad)
            gpu_flags+=(--no-fmad)
            shift
            ;;
        *)
            launches+=("$1")
            shift
            ;;
    esac
done
if [ ${#launches[@]} -eq 0 ]; then
    launches=(examples/analyze/*.json examples/stencil/*.json)
fi
jobs=${JOBS:-1}
here=$(cd "$(dirname "$0")" && pwd)
for d in /usr/local/cuda/bin; do
    [ -d "$d" ] && export PATH="$d:$PATH"
done
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

# Every file must exist and every ${VAR} it names must be set before any
# device time is spent.
for launch in "${launches[@]}"; do
    [ -f "$launch" ] || { echo "ncu_compare.sh: no launch file $launch" >&2; exit 2; }
    for var in $(grep -o '\${[A-Za-z_][A-Za-z0-9_]*}' "$launch" | sort -u | tr -d '${}'); do
        if [ -z "${!var:-}" ]; then
            echo "ncu_compare.sh: $launch names \${$var}: set $var to its checkout" >&2
            exit 2
        fi
    done
done

raw="$out/raw"
rm -rf "$raw"
mkdir -p "$raw/keep" "$raw/launches" "$raw/status"

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

limited() {
    if [ -n "${STEP_TIMEOUT:-}" ]; then
        timeout "$STEP_TIMEOUT" "$@"
    else
        "$@"
    fi
}

# Names unique across suites: the path below launches/ or examples/.
names=()
declare -A taken=()
for launch in "${launches[@]}"; do
    rel=${launch#examples/}
    case $rel in */launches/*) rel=${rel##*/launches/} ;; esac
    name=${rel%.json}
    name=${name//\//.}
    base=$name
    n=2
    while [ -n "${taken[$name]:-}" ]; do
        name=$base.$n
        n=$((n + 1))
    done
    taken[$name]=1
    names+=("$name")
done

# The file each tool reads: the launch itself, or a copy with ${RODINIA} and
# ${SAMPLES} filled in (relative paths made absolute against the original's
# folder, so the copy reads the same sources).
materialize() {
    local launch=$1 name=$2
    if grep -q '\${' "$launch"; then
        python3 "$here/materialize.py" "$launch" "$raw/launches/$name.json"
        echo "$raw/launches/$name.json"
    else
        echo "$launch"
    fi
}

# Each launch alone first: analysis, emulator, GPU. A launch that fails on
# the GPU is left out of the profiled process, which must run them all.
run_one() {
    local i=$1 launch=$2 name=$3 file=$4 status image
    limited "$hone" analyze "$file" --json --no-fix > "$raw/$name.analyze.json" 2> "$raw/$name.analyze.err"
    limited "$hone" analyze "$file" --json --no-fix --source-model > "$raw/$name.source.json" 2> "$raw/$name.source.err"
    limited "$hone" sim "$file" --json --no-race-check > "$raw/$name.sim.json" 2> "$raw/$name.sim.err"
    mkdir -p "$raw/keep/$name"
    if limited "$hone" gpu-run "$file" --json ${gpu_flags[@]+"${gpu_flags[@]}"} --keep "$raw/keep/$name" \
        > "$raw/$name.gpu.json" 2> "$raw/$name.gpu.err"; then
        status=ran
        image=$(ls "$raw/keep/$name"/*.cubin 2>/dev/null | head -1)
        [ -n "$image" ] && cuobjdump -sass "$image" > "$raw/$name.sass" 2>&1
    else
        status="gpu-run failed: $(head -c 200 "$raw/$name.gpu.err" | tr '\t\n' '  ')"
    fi
    printf '%s\t%s\t%s\t%s\n' "$name" "$launch" "$status" "$file" > "$raw/status/$(printf %05d "$i")"
}

for i in "${!launches[@]}"; do
    file=$(materialize "${launches[$i]}" "${names[$i]}") || exit 2
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
    done
    run_one "$i" "${launches[$i]}" "${names[$i]}" "$file" &
done
wait

: > "$raw/launches.tsv"
ok=()
for f in "$raw"/status/*; do
    IFS=$'\t' read -r name launch status file < "$f"
    printf '%s\t%s\t%s\n' "$name" "$launch" "$status" >> "$raw/launches.tsv"
    [ "$status" = ran ] && ok+=("$file")
done
rm -rf "$raw/status"

# One profiled process for all of them: ncu's start-up is paid once, and its
# IDs follow the launch order.
ncu_timeout=${NCU_TIMEOUT:-}
if [ -n "${DEADLINE:-}" ]; then
    left=$(( DEADLINE - $(date +%s) ))
    [ "$left" -lt 1 ] && left=1
    if [ -z "$ncu_timeout" ] || [ "$left" -lt "$ncu_timeout" ]; then
        ncu_timeout=$left
    fi
fi
if [ ${#ok[@]} -gt 0 ]; then
    ${ncu_timeout:+timeout "$ncu_timeout"} \
        ncu --clock-control none --print-units base --csv --metrics "$metric_list" \
        --log-file "$raw/ncu.csv" "$hone" gpu-run ${gpu_flags[@]+"${gpu_flags[@]}"} "${ok[@]}" \
        > "$raw/ncu-run.out" 2>&1
    echo "ncu exit $?${ncu_timeout:+ (limit $ncu_timeout s)}" >> "$raw/ncu-run.out"
fi

python3 "$here/compare.py" "$raw" "$out"
# The same launches counted from the source alone, for comparison.
mkdir -p "$out/source-model"
HONE_ANALYSIS=source python3 "$here/compare.py" "$raw" "$out/source-model"
