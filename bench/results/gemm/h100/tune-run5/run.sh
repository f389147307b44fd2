#!/usr/bin/env bash
# tune-run4's procedure on the kernels with edge blocks kept on the fast
# copies and split-K (SPLITK 2 or 4 with 64 x 64 tiles in the DGEMM jobs),
# each job given 170 s for the larger space. This folder is its output on an
# H100; kernels/gemm/rules/dgemm_*.json ship its rules.
#
#   cargo build --release -p hone-cli
#   bench/results/gemm/h100/tune-run5/run.sh target/release/hone OUT
#
# The GPU tests ran first on the same machine (gpu_gemm_tests.txt):
#   cargo test --release -p hone-kernels --test gpu_gemm -- --test-threads 1 \
#       every_measured_kernel_is_right_in_every_layout_at_odd_shapes
TUNE_TIMEOUT="${TUNE_TIMEOUT:-170}" exec "$(dirname "$0")/../tune-run4/run.sh" "$@"
