#!/usr/bin/env bash
# Beside a release hone (cargo build --release -p hone-cli); OUT=DIR bash run.sh on the GPU machine.
# Differential testing of hone's front end, printer and emulator against the
# GPU: random well-defined kernels run in the emulator and on the device and
# compared bit for bit; mismatches are reduced to small kernels.
#   1. 200 kernels (seed 1) as a smoke test of the whole path;
#   2. 10,000 kernels (seed 2), the measured run;
#   3. with the time left, kernels with transcendental functions (seed 3),
#      where the last bits are expected to differ, counted only.
# Results: $OUT/{smoke,main,transcendental}/summary.json, cases.jsonl,
# reduced/*.cu (each mismatch's kernel, reduced when time allowed).
set -u
cd "$(dirname "$0")"
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
start=$SECONDS
budget=86

# The binary loads the driver and NVRTC at run time: put the toolkit's
# NVRTC on the library path.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
    /usr/local/cuda-13.0/lib64 /usr/local/cuda-13/lib64; do
    if ls "$d"/libnvrtc.so* >/dev/null 2>&1; then
        export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        break
    fi
done
if [ -z "${LD_LIBRARY_PATH:-}" ]; then
    lib=$(ldconfig -p 2>/dev/null | grep -o '/[^ ]*libnvrtc\.so[^ ]*' | head -1)
    if [ -z "$lib" ] && command -v nvcc >/dev/null 2>&1; then
        lib=$(ls "$(dirname "$(command -v nvcc)")"/../lib64/libnvrtc.so* 2>/dev/null | head -1)
    fi
    [ -n "$lib" ] && export LD_LIBRARY_PATH="$(dirname "$lib")"
fi
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 ||
        echo "nvidia-smi failed"
    echo "cpus: $(nproc)"
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
} > "$OUT/device.txt"
cat "$OUT/device.txt"

left() { echo $((budget - (SECONDS - start))); }

echo "== smoke: 200 kernels"
timeout 40 ./hone difftest --seed 1 gpu --count 200 --out "$OUT/smoke" \
    --reduce-budget-s 0 --case-timeout-s 25 --time-limit-s 20 2>&1 | tee "$OUT/smoke.log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo "difftest: the smoke run failed (exit $status); see $OUT/smoke.log"
    exit "$status"
fi

limit=$(( $(left) - 32 ))
echo "== main: 10000 kernels (new batches until ${limit} s)"
timeout $(( limit + 32 )) ./hone difftest --seed 2 gpu --count 10000 --out "$OUT/main" \
    --reduce-budget-s 20 --case-timeout-s $(( limit + 15 )) --time-limit-s "$limit" 2>&1 | tee "$OUT/main.log"
status=${PIPESTATUS[0]}
echo "main run: exit $status after $((SECONDS - start)) s"

limit=$(( $(left) - 4 ))
if [ "$limit" -ge 8 ]; then
    echo "== transcendental: kernels until ${limit} s (counted, not reduced)"
    timeout $(( limit + 6 )) ./hone difftest --seed 3 --transcendental gpu --count 2000 \
        --out "$OUT/transcendental" --reduce-budget-s 0 --case-timeout-s $(( limit + 10 )) \
        --time-limit-s "$limit" 2>&1 | tail -5 | tee "$OUT/transcendental.log"
fi
echo "difftest: done in $((SECONDS - start)) s"
exit "$status"
