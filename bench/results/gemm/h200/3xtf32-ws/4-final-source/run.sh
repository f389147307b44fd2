#!/bin/bash
# The final source of the warp-specialized 3xTF32 kernel on a GPU: its focused GPU test, the
# development harness (ws_a3 at 4096 and 8192), and hone bench gemm with the built-in rules,
# with the SM clock, power, temperature and clock-event reasons logged every 50 ms.
R=$(pwd); D=$R/.devrun/a1
cd $D && gunzip -f hone.gz gpu_gemm.gz && chmod +x hone gpu_gemm
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
F=clocks_event_reasons.active
nvidia-smi --query-gpu=$F --format=csv >/dev/null 2>&1 || F=clocks_throttle_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,$F --format=csv -lms 50 > $OUT/clocks.csv 2>&1 &
ck=$!
mark() { echo "$1 $(date -u +%H:%M:%S.%N)" >> $OUT/marks.txt; }
mark test
cd $R && timeout 70 $D/gpu_gemm the_warpgroup --nocapture > $OUT/gpu_test.txt 2>&1; echo "test rc=$?" >> $OUT/marks.txt
mark harness
cd $R/kernels/gemm/dev && grep ws_a3 configs_ws.txt > /tmp/cfg.txt && OUT=$OUT/harness ARCHFLAGS="-gencode arch=compute_90a,code=sm_90a" TIMEOUT=100 bash run.sh /tmp/cfg.txt both 4096 8192 > $OUT/harness.txt 2>&1; echo "harness rc=$?" >> $OUT/marks.txt
mark bench
cd $R && timeout 150 $D/hone bench gemm --variants sgemm_3xtf32_tn,sgemm_3xtf32_nn --sizes 4096,8192 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/marks.txt
mark end
kill $ck
