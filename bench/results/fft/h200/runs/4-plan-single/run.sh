#!/bin/bash
# Planning of the single-precision complex transforms on the H200 with skewed rows allowed,
# from the repository root on the GPU machine (hone built as below and stripped into HONE_DIR):
#   cargo build --release -p hone-cli
#   cargo test --release -p hone-kernels --test gpu_fft --no-run
HONE_DIR=${HONE_DIR:-.devrun/fft4}
timeout 520 env SEED_PLANS=kernels/fft/plans bash bench/results/fft/device_session.sh \
    $HONE_DIR/hone $HONE_DIR/gpu_fft $OUT/s replan:cfft3d:
