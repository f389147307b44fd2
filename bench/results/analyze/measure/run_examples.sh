#!/usr/bin/env bash
# Times the fixes of bundled example kernels on the GPU, twice each: for
# every timed launch DIR/K_SIZE.json, `hone analyze DIR/K.json --measure
# --measure-launch DIR/K_SIZE.json`, into OUT/K_SIZE_runN.txt. On the GPU
# machine, from the repository root:
#   OUT=OUT bash bench/results/analyze/measure/run_examples.sh target/release/hone DIR [REPS]
# DIR: bench/results/analyze/measure/interchange (REPS 50) or .../stencil (30).
set -uo pipefail
hone=${1:?hone binary}
dir=${2:?folder of launch files}
reps=${3:-30}
out=${OUT:?set OUT}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/device.txt" 2>&1
date -u >> "$out/device.txt"
for analysed in "$dir"/*.json; do
    k=$(basename "$analysed" .json)
    for timed in "$dir/${k}"_*.json; do
        [ -e "$timed" ] || continue
        name=$(basename "$timed" .json)
        for r in 1 2; do
            timeout 120 "$hone" analyze "$analysed" --measure --measure-launch "$timed" \
                --reps "$reps" > "$out/${name}_run$r.txt" 2>&1
            echo "rc $?" >> "$out/${name}_run$r.txt"
        done
    done
done
