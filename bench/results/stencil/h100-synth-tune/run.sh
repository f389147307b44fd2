#!/bin/bash
# Writes the two templates with hone synth and tunes them on the GPU; then the
# hand-written diffusion kernels (kernels/stencil/dev) in the same session.
# usage (from the repository root): bench/results/stencil/h100-synth-tune/run.sh HONE OUT
set -eu
H=$1; OUT=$2; mkdir -p "$OUT"
$H synth examples/synth/diffusion_sleeve.cu --launch examples/synth/diffusion_sleeve.json -o "$OUT/diffusion_sleeve.cu" \
  --template "$OUT/diffusion" --naive examples/synth/diffusion.cu --problem nx=N,ny=N,nz=N --sizes 256,512 \
  --block-x 16,32,64,128 --chunks 0,8,16,32,64 > "$OUT/synth-diffusion.txt" 2>&1
$H synth examples/synth/himeno_sleeve.cu --launch examples/synth/himeno_sleeve.json -o "$OUT/himeno_sleeve.cu" \
  --template "$OUT/himeno" --naive examples/synth/himeno.cu --problem "nx=N+2,ny=N+2,nz=2*N+2" --sizes 128,256 \
  > "$OUT/synth-himeno.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
(cd "$OUT/diffusion" && $H tune diffusion_sleeve_tuned.tune.toml --db diffusion_sleeve_tuned.sqlite --check-max 256 --json > diffusion_sleeve_tuned.tune.json)
(cd "$OUT/himeno" && $H tune jacobi_sleeve_tuned.tune.toml --db jacobi_sleeve_tuned.sqlite --check-max 1024 --json > jacobi_sleeve_tuned.tune.json)
python3 "$(dirname "$0")/summary.py" "$OUT/diffusion/diffusion_sleeve_tuned.sqlite" "$OUT/himeno/jacobi_sleeve_tuned.sqlite" > "$OUT/summary.txt"
OUT=$OUT/handwritten bash kernels/stencil/dev/run.sh 30 diff256 diff512 > "$OUT/handwritten.txt" 2>&1
