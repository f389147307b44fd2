#!/bin/bash
# The epilogue that loads C before storing it (beta != 0) and the packing kernels with the
# rules shipped: hone bench gemm with the built-in rules for sgemm_3xtf32 (four layouts),
# SGEMM and DGEMM (NN and TN) against cuBLAS; then the GPU tests of the odd shapes (every
# measured kernel, packing ones among them) and of the rules' kernels at their bounds.
R=$(pwd); D=$R/.devrun/a5
cd $D && gunzip -f hone.gz gpu_gemm.gz && chmod +x hone gpu_gemm && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
mark() { echo "$1 $(date -u +%H:%M:%S)" >> $OUT/marks.txt; }
mark bench3
timeout 150 $D/hone bench gemm --variants sgemm_3xtf32_nn,sgemm_3xtf32_nt,sgemm_3xtf32_tn,sgemm_3xtf32_tt --sizes 1024,2048,4096,8192 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench-3xtf32 > $OUT/bench-3xtf32.log 2>&1; echo "bench3 rc=$?" >> $OUT/marks.txt
mark benchs
timeout 90 $D/hone bench gemm --variants sgemm_nn,sgemm_tn,dgemm_nn,dgemm_tn --sizes 2048,4096 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench-sd > $OUT/bench-sd.log 2>&1; echo "benchs rc=$?" >> $OUT/marks.txt
mark tests
timeout 170 $D/gpu_gemm every_measured_kernel_is_right_in_every_layout_at_odd_shapes --nocapture > $OUT/test_odd.txt 2>&1; echo "odd rc=$?" >> $OUT/marks.txt
timeout 80 $D/gpu_gemm every_kernel_the_rules_pick --nocapture > $OUT/test_rules.txt 2>&1; echo "rules rc=$?" >> $OUT/marks.txt
mark end
cd $OUT && tar czf all.tgz --exclude=all.tgz . && ls
