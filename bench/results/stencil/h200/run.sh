#!/bin/bash
# The stencil templates with unrolling, __restrict__ and the register queue in the race, tuned on
# this GPU, beside the copy bandwidth by size and the hand-written diffusion kernels.
# usage (from the repository root, on the GPU machine): bench/results/stencil/h200/run.sh HONE OUT
set -u
H=$(realpath "$1"); OUT=$(realpath -m "$2"); mkdir -p "$OUT"
HERE=$(dirname "$0")
$H synth examples/synth/diffusion_sleeve.cu --launch examples/synth/diffusion_sleeve.json -o "$OUT/dq_sleeve.cu" \
  --template "$OUT/diffusion" --naive examples/synth/diffusion.cu --problem nx=N,ny=N,nz=N --sizes 256,512 \
  --block-x 64,128 --block-y 1,2,4 --chunks 0,8,32,64 --queue --unroll 1,4 --restrict > "$OUT/synth-diffusion.txt" 2>&1
$H synth examples/synth/himeno_sleeve.cu --launch examples/synth/himeno_sleeve.json -o "$OUT/hq_sleeve.cu" \
  --template "$OUT/himeno" --naive examples/synth/himeno.cu --problem "nx=N+2,ny=N+2,nz=2*N+2" --sizes 256 \
  --block-x 128 --block-y 1,2 --chunks 16,32 --queue --unroll 1,4 --restrict > "$OUT/synth-himeno.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > "$OUT/device.txt"
nvcc -O3 -arch=sm_90 "$HERE/copyroof.cu" -o "$OUT/copyroof" && "$OUT/copyroof" > "$OUT/copyroof.csv"
(cd "$OUT/diffusion" && time $H tune diffusion_sleeve_tuned.tune.toml --db diffusion.sqlite --check-max 256 --json > tune.json) 2> "$OUT/tune-diffusion.txt"
# --check-max 256 compares every configuration with the naive kernel at Himeno L (slow: 14 arrays of 137 MB each)
(cd "$OUT/himeno" && time $H tune jacobi_sleeve_tuned.tune.toml --db himeno.sqlite --check-max 256 --json > tune.json) 2> "$OUT/tune-himeno.txt"
OUT=$OUT/handwritten bash kernels/stencil/dev/run.sh 30 diff256 diff512 > "$OUT/handwritten.txt" 2>&1
python3 bench/results/stencil/h100-synth-tune/summary.py "$OUT/diffusion/diffusion.sqlite" "$OUT/himeno/himeno.sqlite" > "$OUT/summary.txt"
