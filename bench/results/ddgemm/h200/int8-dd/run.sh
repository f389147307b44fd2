#!/bin/bash
# Double-double GEMM on the INT8 tensor cores: GPU tests, then the DD report with the SIMT kernel beside it.
cd "$(dirname "$0")"; for f in hone gpu_gemm; do [ -x $f ] || { gunzip -k $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
timeout 150 .devrun/oz/gpu_gemm int8 --nocapture > $OUT/tests.txt 2>&1; echo "tests rc $?" >> $OUT/tests.txt
grep -E "^test |rc |panicked|normwise" $OUT/tests.txt | tail -12
(time timeout 330 .devrun/oz/hone ddgemm --variants ddgemm_nn --sizes 2048,4096,8192 --madd 2 --int8-moduli 24,26,28,30 --kinds phi=0.5,phi=4,ill=40 --reps 5 --out /tmp/dd) > /tmp/dd.log 2>&1
mkdir -p /tmp/res && cp -r /tmp/dd /tmp/dd.log /tmp/res/ 2>/dev/null
tar czf $OUT/dd.tgz -C /tmp res
grep "^|" /tmp/dd/ddgemm.md; tail -n 5 /tmp/dd.log
