#!/bin/bash
# DGEMM with the rules tuned on the H200 (call b1b, now built in) against cuBLAS DGEMM, square N and
# the other shapes, and NN/TN with the H100's rules in the same run; 3xTF32 SGEMM, four layouts,
# with every kernel and cuBLAS checked on the same operands (the error column); the GPU tests of
# the 3xTF32 kernels at odd shapes (the mma.sync packing kernel among them) and of the kernels
# this GPU model's rules pick at their interval bounds.
R=$(pwd); D=$R/.devrun/b2
cd $D && gunzip -f hone.gz gpu_gemm.gz && chmod +x hone gpu_gemm && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
mark() { echo "$1 $(date -u +%H:%M:%S)" >> $OUT/marks.txt; }
pack() { cd /tmp && tar czf /tmp/all.tgz -C $OUT --exclude=all.tgz . && mv /tmp/all.tgz $OUT/; cd $R; }
mark bench-dgemm
timeout 180 $D/hone bench gemm --variants dgemm_nn,dgemm_nt,dgemm_tn,dgemm_tt --sizes 256,1024,2048,4096,8192 --plot-sizes 0 --reps 10 --out $OUT/bench-dgemm > $OUT/bench-dgemm.log 2>&1; echo "bench-dgemm rc=$?" >> $OUT/marks.txt
pack
mark bench-dgemm-h100
timeout 50 $D/hone bench gemm --rules kernels/gemm/rules --variants dgemm_nn,dgemm_tn --sizes 256,4096 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench-dgemm-h100 > $OUT/bench-dgemm-h100.log 2>&1; echo "bench-dgemm-h100 rc=$?" >> $OUT/marks.txt
pack
mark bench-3xtf32
timeout 150 $D/hone bench gemm --variants sgemm_3xtf32_nn,sgemm_3xtf32_nt,sgemm_3xtf32_tn,sgemm_3xtf32_tt --sizes 4096,8192 --plot-sizes 0 --reps 10 --out $OUT/bench-3xtf32 > $OUT/bench-3xtf32.log 2>&1; echo "bench-3xtf32 rc=$?" >> $OUT/marks.txt
pack
mark test-odd
timeout 80 $D/gpu_gemm the_3xtf32_kernels_are_right_in_every_layout_at_odd_shapes --nocapture > $OUT/test_odd.txt 2>&1; echo "odd rc=$?" >> $OUT/marks.txt
pack
mark test-rules
timeout 70 $D/gpu_gemm every_kernel_this_gpu_models_rules_pick --nocapture > $OUT/test_rules.txt 2>&1; echo "rules rc=$?" >> $OUT/marks.txt
mark end
pack
ls $OUT
