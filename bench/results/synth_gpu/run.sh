#!/usr/bin/env bash
# GPU check of the six synthesized kernels (examples/synth/out/) against the
# naive ones, at real sizes: compile each with NVRTC (`hone gpu-run`), compare
# its dumped buffers with the naive kernel's (temporal blocking: with two
# chained naive launches), and time both with CUDA events.
#
#   bench/results/synth_gpu/run.sh [OUTDIR]     (from the repository root)
#
# HONE names the binary (default target/release/hone), REPS the timed runs.
set -euo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
HONE=${HONE:-target/release/hone}
REPS=${REPS:-50}
D=bench/results/synth_gpu
O=${1:-${OUT:-/tmp/synth_gpu}}
REF=$(mktemp -d)
trap 'rm -rf "$REF"' EXIT
mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$O/device.csv" 2>&1 || true

run() { # NAME ARGS...: one gpu-run, its JSON kept as NAME.json
    local name=$1
    shift
    echo "== $name" >&2
    "$HONE" gpu-run --json --no-dump --keep "$O/cuda" "$@" > "$O/$name.json"
}

for case in diffusion himeno; do
    if [ $case = diffusion ]; then in=in out=out; else in=p out=wrk2; fi
    # One naive sweep (timed) and a second one from its output: the
    # references for the one-sweep kernels and for temporal blocking.
    run ${case}_naive $D/${case}_naive.json --time "$REPS" --save "$REF/$case.1"
    run ${case}_naive_step2 $D/${case}_naive.json --input "$in=$REF/$case.1/$out.bin" --save "$REF/$case.2"
    for kind in sha sleeve; do
        run ${case}_$kind $D/${case}_$kind.json --time "$REPS" --compare "$REF/$case.1"
    done
    run ${case}_tb $D/${case}_tb.json --time "$REPS" --compare "$REF/$case.2"
done
python3 $D/table.py "$O" | tee "$O/table.md"
