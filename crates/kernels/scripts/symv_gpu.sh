#!/usr/bin/env bash
# Runs the SYMV GPU tests and the SYMV benchmark on a CUDA machine and keeps
# their outputs.
#
# Usage: crates/kernels/scripts/symv_gpu.sh OUTDIR BENCH TESTS [BENCH_ARGS...]
#   OUTDIR  where tests.log and the benchmark's symv.{md,csv,json,log} go
#   BENCH   the symv_bench example (cargo build --release -p hone-kernels --examples)
#   TESTS   the gpu_symv test binary (cargo test --release -p hone-kernels
#           --no-run prints its path), or - to skip the tests
#
# NVRTC and cuBLAS are loaded at run time; the toolkit's library directory is
# added to LD_LIBRARY_PATH in case the loader does not know it. Each step has a
# time limit so that one slow step cannot cost the others their output.
set -uo pipefail
out=${1:?output directory}
bench=${2:?benchmark binary}
tests=${3:?test binary or -}
shift 3
mkdir -p "$out"
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
export HONE_CACHE_DIR=${HONE_CACHE_DIR:-/tmp/hone-cache}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
if [ "$tests" != "-" ]; then
    start=$SECONDS
    timeout "${TESTS_TIMEOUT:-120}" "$tests" --test-threads=1 --nocapture > "$out/tests.log" 2>&1
    echo "tests exit $? after $((SECONDS - start)) s"
    grep -E "^test |test result|panicked|skipped" "$out/tests.log" | head -40
fi
start=$SECONDS
timeout "${BENCH_TIMEOUT:-400}" "$bench" --out "$out" "$@" > "$out/bench.log" 2>&1
echo "bench exit $? after $((SECONDS - start)) s"
grep -vE "^\[ *[0-9.]+ s\]" "$out/bench.log" | tail -120
