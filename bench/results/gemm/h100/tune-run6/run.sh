#!/usr/bin/env bash
# tune-run5's procedure with 32 x 32 tiles (BK 32, 2 x 2 warps: cuBLAS's
# tile at N = 256) in the DGEMM space and split-K through a workspace summed
# by the last block of each tile; each job given 110 s, the benchmark at four
# sizes. This folder is its output on an H100; kernels/gemm/rules/dgemm_*.json
# ship its rules.
#
#   cargo build --release -p hone-cli
#   bench/results/gemm/h100/tune-run6/run.sh target/release/hone OUT
TUNE_TIMEOUT="${TUNE_TIMEOUT:-110}" BENCH_SIZES="${BENCH_SIZES:-256,1024,4096,8192}" \
    BENCH_TIMEOUT="${BENCH_TIMEOUT:-110}" exec "$(dirname "$0")/../tune-run5/run.sh" "$@"
