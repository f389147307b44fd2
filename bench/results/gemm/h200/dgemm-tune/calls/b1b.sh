#!/bin/bash
# DGEMM on the H200, continued: the four tuning jobs resumed from call b1's database (its sieve
# ran with the CPU check up to N = 4096 and ran out of time), now checking up to N = 1024 as the
# shipped jobs were tuned; the four rules; hone bench gemm with them against cuBLAS DGEMM.
R=$(pwd); D=$R/.devrun/b1b
cd $D && gunzip -f hone.gz && chmod +x hone && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
mark() { echo "$1 $(date -u +%H:%M:%S)" >> $OUT/marks.txt; }
cp $D/gemm.sqlite $OUT/gemm.sqlite
mkdir -p $OUT/rules
for l in nn nt tn tt; do
  mark tune-$l
  timeout 110 $D/hone tune kernels/gemm/tune/dgemm_$l.toml --db $OUT/gemm.sqlite --reps 10 --warmup 2 --check-max 1024 --json > $OUT/tune_$l.json 2>> $OUT/tune_$l.log; echo "tune $l rc=$?" >> $OUT/marks.txt
  $D/hone rule --db $OUT/gemm.sqlite --job dgemm_$l --out-json $OUT/rules/dgemm_$l.json > $OUT/rule_$l.log 2>&1
done
mark bench
timeout 150 $D/hone bench gemm --rules $OUT/rules --variants dgemm_nn,dgemm_nt,dgemm_tn,dgemm_tt --sizes 256,1024,2048,4096,8192 --plot-sizes 0 --reps 10 --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/marks.txt
mark end
cd /tmp && tar czf /tmp/all.tgz -C $OUT . && mv /tmp/all.tgz $OUT/ && ls $OUT
