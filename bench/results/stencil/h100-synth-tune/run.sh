#!/bin/bash
# Writes the diffusion and Himeno tuning templates with hone synth, tunes them
# on the GPU, then runs the hand-written stencil kernels (kernels/stencil/dev)
# in the same session.
# usage (from the repository root): bench/results/stencil/h100-synth-tune/run.sh HONE OUT
set -eu
H=$(realpath "$1"); OUT=$(realpath -m "$2"); mkdir -p "$OUT"
HERE=$(dirname "$0")
$H synth examples/synth/diffusion_sleeve.cu --launch examples/synth/diffusion_sleeve.json -o "$OUT/diffusion_sleeve.cu" \
  --template "$OUT/diffusion" --naive examples/synth/diffusion.cu --problem nx=N,ny=N,nz=N --sizes 256,512 \
  --block-x 16,32,64,128 --chunks 0,8,16,32,64 > "$OUT/synth-diffusion.txt" 2>&1
$H synth examples/synth/himeno_sleeve.cu --launch examples/synth/himeno_sleeve.json -o "$OUT/himeno_sleeve.cu" \
  --template "$OUT/himeno" --naive examples/synth/himeno.cu --problem "nx=N+2,ny=N+2,nz=2*N+2" --sizes 128,256,512 \
  --block-x 32,64,128 --block-y 1,2,4,8 --chunks 0,16,32,64,128 > "$OUT/synth-himeno.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
(cd "$OUT/diffusion" && time $H tune diffusion_sleeve_tuned.tune.toml --db diffusion_sleeve_tuned.sqlite --check-max 256 --json > diffusion_sleeve_tuned.tune.json) 2> "$OUT/tune-diffusion.txt"
(cd "$OUT/himeno" && time $H tune jacobi_sleeve_tuned.tune.toml --db jacobi_sleeve_tuned.sqlite --check-max 128 --json > jacobi_sleeve_tuned.tune.json) 2> "$OUT/tune-himeno.txt"
OUT=$OUT/handwritten bash kernels/stencil/dev/run.sh 30 diff256 diff512 himM himL himXL > "$OUT/handwritten.txt" 2>&1
if command -v python3 > /dev/null; then
  python3 "$HERE/summary.py" "$OUT/diffusion/diffusion_sleeve_tuned.sqlite" "$OUT/himeno/jacobi_sleeve_tuned.sqlite" > "$OUT/summary.txt"
fi
