#!/usr/bin/env bash
# Front-end sweep on the GPU: every kernel with a launch file is lowered,
# emulated and run with hone gpu-run; outputs compared. Runs in the root of
# the fe-suites worktree copy. Needs carried: target/fe-sweep/hone (a copy of target/release/hone),
# target/fe-sweep/ext.tar.gz (the suites' sources, outside the repo).
set -u
mkdir -p /tmp/ext "$OUT/sweep"
tar xzf target/fe-sweep/ext.tar.gz -C /tmp/ext
nvidia-smi -L > "$OUT/sweep/device.txt" 2>&1
timeout 230 bench/results/frontend/run.sh --hone "$PWD/target/fe-sweep/hone" \
    --rodinia /tmp/ext/gpu-rodinia --samples /tmp/ext/cuda-samples \
    --gpu --budget 170 --out "$OUT/sweep" > "$OUT/sweep/log.txt" 2>&1
echo "exit $?" >> "$OUT/sweep/log.txt"
