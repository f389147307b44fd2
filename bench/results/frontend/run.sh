#!/usr/bin/env bash
# The front-end sweep: every __global__ kernel of Rodinia 3.1's CUDA
# benchmarks and of the CUDA samples' introductory and concepts folders,
# lowered by hone's front end, run in the emulator on its launch file and,
# with --gpu, on the GPU with the outputs compared.
#
#   bench/results/frontend/run.sh --rodinia PATH --samples PATH [--gpu] [--lower-only]
#                                 [--hone BIN] [--out DIR] [--only TEXT]
#
# PATH are checkouts of yuhc/gpu-rodinia (its cuda/ folder) and of
# NVIDIA/cuda-samples (Samples/ and Common/). Launch files under launches/
# name sources as ${RODINIA}/... and ${SAMPLES}/...; this script fills those in.
# Writes kernels.md (the table) and kernels.json beside itself, or in --out.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
hone="${HONE:-$repo/target/release/hone}"
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --hone) hone="$2"; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
if [ ! -x "$hone" ]; then
    echo "no hone binary at $hone: build it with cargo build --release -p hone-cli, or pass --hone BIN" >&2
    exit 2
fi
exec python3 "$here/sweep.py" --hone "$hone" "${args[@]}"
