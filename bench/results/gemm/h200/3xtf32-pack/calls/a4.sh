#!/bin/bash
# PACK = 1, continued: NT and TT tuned with packing in their space (the NN run's database
# carried and extended), the four rules (TN the shipped one: packing is not in its space)
# benchmarked against cuBLAS SGEMM; the harness timing the TN kernel also back to back as the
# benchmark does (B2B), with and without L2 flushes; hone's NVRTC cubins beside nvcc's.
R=$(pwd); D=$R/.devrun/a4
cd $D && gunzip -f hone.gz && chmod +x hone && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
F=clocks_event_reasons.active
nvidia-smi --query-gpu=$F --format=csv >/dev/null 2>&1 || F=clocks_throttle_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,$F --format=csv -lms 50 > $OUT/clocks.csv 2>&1 &
ck=$!
mark() { echo "$1 $(date -u +%H:%M:%S.%N)" >> $OUT/marks.txt; }
cp $D/gemm.sqlite $OUT/gemm.sqlite
mkdir -p $OUT/rules
for l in nt tt; do
  mark tune-$l
  timeout 220 $D/hone tune kernels/gemm/tune/sgemm_3xtf32_$l.toml --db $OUT/gemm.sqlite --reps 10 --warmup 2 --check-max 1024 --json > $OUT/tune_$l.json 2>> $OUT/tune.log; echo "tune $l rc=$?" >> $OUT/marks.txt
done
for l in nn nt tt; do $D/hone rule --db $OUT/gemm.sqlite --job sgemm_3xtf32_$l --out-json $OUT/rules/sgemm_3xtf32_$l.json > $OUT/rule_$l.log 2>&1; done
cp kernels/gemm/rules/nvidia-h200/sgemm_3xtf32_tn.json $OUT/rules/
mark bench
timeout 200 $D/hone bench gemm --rules $OUT/rules --variants sgemm_3xtf32_nn,sgemm_3xtf32_nt,sgemm_3xtf32_tn,sgemm_3xtf32_tt --sizes 256,1024,2048,4096,8192 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/marks.txt
mark harness
cd $R/kernels/gemm/dev && mkdir -p build && nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -DALG=4 -DBM=128 -DBN=128 -DSTAGES=3 -DFLUSH=4 -DWS=1 bench.cu -lcublas -o build/ws_b2b > $OUT/harness_build.log 2>&1
B2B=1 timeout 60 ./build/ws_b2b time 4096 8192 > $OUT/harness_b2b.txt 2>&1
B2B=1 B2B_FLUSH=1 timeout 60 ./build/ws_b2b time 4096 8192 > $OUT/harness_b2b_flush.txt 2>&1
mark sass
cd $R/kernels/gemm && nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -DWGMMA=1 -DBM=128 -DBN=128 -DSTAGES=3 -DFLUSH=4 -DWS=1 -DTRANS_A=1 -DTRANS_B=0 -cubin -o /tmp/h.cubin gemm_3xtf32_wg.cu > $OUT/nvcc.log 2>&1
mkdir -p $OUT/sass && cuobjdump -sass /tmp/h.cubin > $OUT/sass/nvcc_tn_ws.sass 2>&1
n=0; for f in $(find /tmp/hc -type f); do cuobjdump -sass $f > /tmp/x.sass 2>/dev/null || continue; grep -q "HGMMA.64x128x8" /tmp/x.sass && grep -q gemm_pack /tmp/x.sass && { n=$((n+1)); cp /tmp/x.sass $OUT/sass/hone_$n.sass; }; [ $n -ge 3 ] && break; done
mark end
kill $ck
cd $OUT && tar czf all.tgz --exclude=all.tgz . && ls
