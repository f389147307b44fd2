#!/bin/bash
# DGEMM tuned on the H200 (four layouts, hone tune + hone rule), then hone bench gemm with those
# rules against cuBLAS DGEMM over square N and the other shapes.
R=$(pwd); D=$R/.devrun/b1
cd $D && gunzip -f hone.gz gpu_gemm.gz && chmod +x hone gpu_gemm && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
mark() { echo "$1 $(date -u +%H:%M:%S)" >> $OUT/marks.txt; }
mkdir -p $OUT/rules
for l in nn nt tn tt; do
  mark tune-$l
  timeout 100 $D/hone tune kernels/gemm/tune/dgemm_$l.toml --db $OUT/gemm.sqlite --reps 10 --warmup 2 --json > $OUT/tune_$l.json 2>> $OUT/tune_$l.log; echo "tune $l rc=$?" >> $OUT/marks.txt
  $D/hone rule --db $OUT/gemm.sqlite --job dgemm_$l --out-json $OUT/rules/dgemm_$l.json > $OUT/rule_$l.log 2>&1
done
mark bench
timeout 160 $D/hone bench gemm --rules $OUT/rules --variants dgemm_nn,dgemm_nt,dgemm_tn,dgemm_tt --sizes 256,1024,2048,4096,8192 --plot-sizes 0 --reps 10 --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/marks.txt
mark end
cd $OUT && tar czf all.tgz --exclude=all.tgz . && ls
