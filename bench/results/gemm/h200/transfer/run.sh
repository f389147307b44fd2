#!/usr/bin/env bash
# Host-to-host DGEMM on the GPU machine, twice (the second run shows the
# noise). Build here first and carry the binary:
#   cargo build --release -p hone-kernels --example gemm_transfer
# then, from the repository root on the GPU machine:
#   OUT=DIR bash bench/results/gemm/h200/transfer/run.sh target/release/examples/gemm_transfer
set -euo pipefail
bin=${1:-target/release/examples/gemm_transfer}
out=${OUT:?set OUT to the folder for the logs}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > "$out/device.txt" 2>&1 || true
date -u >> "$out/device.txt"
timeout 230 "$bin" --sizes 4096,8192,12288,16384 --reps 3 > "$out/run1.txt" 2>&1
timeout 230 "$bin" --sizes 8192,12288,16384 --reps 3 > "$out/run2.txt" 2>&1
