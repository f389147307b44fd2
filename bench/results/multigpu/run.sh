#!/usr/bin/env bash
# hone tune on every GPU of the machine against one GPU (needs 2 GPUs):
#   (a) the job (job.toml: 59 vcopy variants at two sizes, four champions at
#       eight sizes) with --devices 0, timed;
#   (b) the same job with --devices all, timed;
#   (c) check.py: both GPUs got work, the rules agree, the speedup.
# Each run compiles from an empty module cache of its own, so neither is
# helped by the other's compilations. Results in $OUT: one.json, all.json
# (hone tune --json), the databases, summary.json, log.txt.
# From the repository: HONE=target/release/hone bash bench/results/multigpu/run.sh
set -u
if [ -n "${HONE:-}" ]; then HONE=$(realpath "$HONE"); fi
cd "$(dirname "$0")"
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"

# The binary loads the driver and NVRTC at run time.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
    /usr/local/cuda-13.0/lib64 /usr/local/cuda-13/lib64; do
    if ls "$d"/libnvrtc.so* >/dev/null 2>&1; then
        export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        break
    fi
done
# The hone binary: $HONE (e.g. target/release/hone from the repository),
# or the one beside this script.
HONE="${HONE:-$PWD/hone}"
if [ ! -x "$HONE" ] && [ -f hone.gz ]; then
    gzip -dc hone.gz > hone && chmod +x hone
fi
nvidia-smi --query-gpu=index,name,uuid,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee "$OUT/gpus.csv"

run() { # name devices
    local name=$1 devices=$2 t0 t1
    export HONE_CACHE_DIR="$OUT/cache-$name"
    t0=$(date +%s.%N)
    timeout 40 "$HONE" tune job.toml --db "$OUT/$name.sqlite" --devices "$devices" \
        --reps 50 --warmup 3 --check-max 1048576 --json > "$OUT/$name.json" 2> "$OUT/$name.err"
    local rc=$?
    t1=$(date +%s.%N)
    echo "$name: exit $rc" >&2
    tail -5 "$OUT/$name.err" >&2
    python3 -c "print(round($t1 - $t0, 2))" > "$OUT/$name.time"
    rm -rf "$OUT/cache-$name"
    return $rc
}

{
    run one 0 || echo "run (a) failed"
    run all all || echo "run (b) failed"
    python3 check.py "$OUT/one.json" "$OUT/all.json" "$OUT/one.sqlite" \
        "$(cat "$OUT/one.time")" "$(cat "$OUT/all.time")" "$OUT/summary.json"
} 2>&1 | tee "$OUT/log.txt"
