#!/bin/bash
# The two stencils added to the thesis's (star13: 13-point fourth-order
# Laplacian; box27: 27-point box) and the thesis's SHA and temporal-blocking
# cases, each written as a template by one hone synth command and tuned by one
# hone tune command.
# usage (from the repository root): bench/results/stencil/h100-synth-tune/more.sh HONE OUT
set -u
H=$(realpath "$1"); OUT=$(realpath -m "$2"); mkdir -p "$OUT"
E=examples/synth
DIFF="--problem nx=N,ny=N,nz=N"
HIM="--problem nx=N+2,ny=N+2,nz=2*N+2"
case_() {  # name annotated naive problem sizes check-max synth-options...
  local name=$1 ann=$2 naive=$3 problem=$4 sizes=$5 check=$6; shift 6
  local nv=(); [ "$naive" != - ] && nv=(--naive $E/$naive.cu)
  $H synth $E/$ann.cu --launch $E/$ann.json -o "$OUT/$name.cu" --template "$OUT/$name" "${nv[@]}" \
    $problem --sizes $sizes "$@" > "$OUT/synth-$name.txt" 2>&1 || { echo "$name: synth failed"; return; }
  local job=$(ls "$OUT/$name"/*.tune.toml)
  local s=$(date +%s)
  (cd "$OUT/$name" && $H tune $(basename $job) --db $name.sqlite --check-max $check --json > $name.tune.json 2> $name.tune.err)
  echo "$name: tune rc=$? $(( $(date +%s) - s )) s"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
case_ star13 star13_sleeve star13 "--problem nx=N+4,ny=N+4,nz=N+4" 256,512 256 --block-x 32,64,128 --block-y 1,2,4,8 --chunks 0,8,16,32
case_ box27 box27_sleeve box27 "--problem nx=N+2,ny=N+2,nz=N+2" 256,512 256 --block-x 32,64,128 --block-y 1,2,4,8 --chunks 0,8,16,32
case_ diffusion_sha diffusion_sha diffusion "$DIFF" 256 256 --block-x 32,64,128 --block-y 1,2,4 --chunks 0,8,32
case_ himeno_sha himeno_sha himeno "$HIM" 128,256 128 --block-x 32,64,128 --block-y 1,2,4 --chunks 0,16,32
case_ himeno_tb himeno_tb - "$HIM" 128,256 128 --block-x 32,64,128 --block-y 1,2,4 --chunks 0,16,32
if command -v python3 > /dev/null; then
  python3 "$(dirname "$0")/summary.py" "$OUT"/*/*.sqlite > "$OUT/summary.txt" 2>&1
fi
