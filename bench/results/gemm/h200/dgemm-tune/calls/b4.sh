#!/bin/bash
# 3xTF32 SGEMM in the four layouts at N = 4096 and 8192 against cuBLAS SGEMM, every kernel and cuBLAS
# checked on the same operands (the table's error column), with the built-in H200 rules.
R=$(pwd); D=$R/.devrun/b4
cd $D && gunzip -f hone.gz && chmod +x hone && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
timeout 230 $D/hone bench gemm --variants sgemm_3xtf32_nn,sgemm_3xtf32_nt,sgemm_3xtf32_tn,sgemm_3xtf32_tt --sizes 4096,8192 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench-3xtf32 > $OUT/bench-3xtf32.log 2>&1; echo "bench rc=$?" >> $OUT/marks.txt
cd /tmp && tar czf /tmp/all.tgz -C $OUT . && mv /tmp/all.tgz $OUT/
ls $OUT
