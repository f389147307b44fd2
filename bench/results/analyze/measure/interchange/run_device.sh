#!/usr/bin/env bash
# Times the loop-interchange fixes of examples/analyze/interchange.cu on the
# GPU, twice each: at launches that fill the GPU (K_large.json) and at
# launches of few blocks (K_few_blocks.json), where the kernels wait on
# latency rather than on memory. On the GPU machine, from the repository root:
#   OUT=DIR bash bench/results/analyze/measure/interchange/run_device.sh target/release/hone
set -uo pipefail
hone=${1:?hone binary}
out=${OUT:?set OUT}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/device.txt" 2>&1
date -u >> "$out/device.txt"
d=bench/results/analyze/measure/interchange
for k in scale_rows add_bias; do
    for size in large few_blocks; do
        for r in 1 2; do
            timeout 120 "$hone" analyze "$d/$k.json" --measure --measure-launch "$d/${k}_$size.json" \
                --reps 50 > "$out/${k}_${size}_run$r.txt" 2>&1
            echo "rc $?" >> "$out/${k}_${size}_run$r.txt"
        done
    done
done
