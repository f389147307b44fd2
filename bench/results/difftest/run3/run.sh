#!/usr/bin/env bash
# Beside a release hone (cargo build --release -p hone-cli); OUT=DIR bash run.sh on the GPU machine.
# The third differential run: the 200-kernel smoke test (seed 1), the 10,000
# kernels of seed 2 again (the second run's eight open mismatches among
# them), 10,000 kernels no earlier run has seen (seed 4), and 2,000 with
# transcendental functions (seed 3, counted, not reduced). A kernel whose
# GPU result differs is built again without the GPU compiler's
# optimisations; where that build agrees with the emulator the case is
# `compiler`, not `mismatch`.
set -u
cd "$(dirname "$0")"
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
start=$SECONDS
[ -x hone ] || { gzip -dc hone.gz > hone && chmod +x hone; }
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/lib64; do
    if ls "$d"/libnvrtc.so* >/dev/null 2>&1; then
        export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        break
    fi
done
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    echo "cpus: $(nproc)"
} > "$OUT/device.txt"
cat "$OUT/device.txt"
run() {
    local name=$1 limit=$2
    shift 2
    echo "== $name"
    timeout $((limit + 30)) ./hone difftest "$@" --out "$OUT/$name" --case-timeout-s $((limit + 15)) \
        --time-limit-s "$limit" 2>&1 | tail -25 | tee "$OUT/$name.log"
    echo "$name: exit ${PIPESTATUS[0]} at $((SECONDS - start)) s"
}
run smoke 30 --seed 1 gpu --count 200 --reduce-budget-s 0
run main 110 --seed 2 gpu --count 10000 --reduce-budget-s 40
run fresh 110 --seed 4 gpu --count 10000 --reduce-budget-s 40
run transcendental 30 --seed 3 --transcendental gpu --count 2000 --reduce-budget-s 0
echo "difftest: done in $((SECONDS - start)) s"
