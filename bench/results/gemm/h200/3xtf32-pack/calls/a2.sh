#!/bin/bash
# PACK = 1 on a GPU: the warpgroup kernels' GPU test (a packing WS kernel in every layout),
# the NN layout tuned with packing in its space, its rule benchmarked; and hone's NVRTC
# cubin of the TN WS kernel beside the harness's nvcc build of it.
R=$(pwd); D=$R/.devrun/a2
cd $D && gunzip -f hone.gz gpu_gemm.gz && chmod +x hone gpu_gemm
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
mark() { echo "$1 $(date -u +%H:%M:%S)" >> $OUT/marks.txt; }
mark test
cd $R && timeout 80 $D/gpu_gemm the_warpgroup --nocapture > $OUT/gpu_test.txt 2>&1; echo "test rc=$?" >> $OUT/marks.txt
grep -c "^ok .*PACK=1" $OUT/gpu_test.txt >> $OUT/marks.txt
mark tune
mkdir -p $OUT/rules
timeout 220 $D/hone tune kernels/gemm/tune/sgemm_3xtf32_nn.toml --db $OUT/gemm.sqlite --reps 10 --warmup 2 --check-max 1024 --json > $OUT/tune_nn.json 2> $OUT/tune.log; echo "tune rc=$?" >> $OUT/marks.txt
$D/hone rule --db $OUT/gemm.sqlite --job sgemm_3xtf32_nn --out-json $OUT/rules/sgemm_3xtf32_nn.json > $OUT/rule.log 2>&1; echo "rule rc=$?" >> $OUT/marks.txt
mark bench
timeout 120 $D/hone bench gemm --rules $OUT/rules --variants sgemm_3xtf32_nn --sizes 1024,2048,4096,8192 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/marks.txt
mark sass
cd $R/kernels/gemm/dev && mkdir -p build && nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -DALG=4 -DBM=128 -DBN=128 -DSTAGES=3 -DFLUSH=4 -DWS=1 -DTRANS_A=1 -DTRANS_B=0 -cubin -o /tmp/h.cubin ../gemm_3xtf32_wg.cu > $OUT/nvcc.log 2>&1
cuobjdump -sass /tmp/h.cubin > $OUT/harness_tn.sass 2>&1
for f in $(grep -rl "gemm_3xtf32" /tmp/hc 2>/dev/null | head -20); do cuobjdump -sass $f > /tmp/x.sass 2>/dev/null && grep -q HGMMA /tmp/x.sass && cp /tmp/x.sass $OUT/hone_$(basename $f).sass; done
ls /tmp/hc | head > $OUT/cache_ls.txt
mark end
cd $OUT && tar czf sass.tgz *.sass && rm -f *.sass
