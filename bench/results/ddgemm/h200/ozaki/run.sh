#!/bin/bash
# Ozaki emulation with cuBLASLt's timed INT8 algorithm: GPU tests, then the report twice.
cd "$(dirname "$0")"; for f in hone gpu_gemm; do [ -x $f ] || { gunzip -k $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
timeout 100 .devrun/oz/gpu_gemm int8 emulated_dgemm --nocapture > $OUT/tests.txt 2>&1; echo "tests rc $?" >> $OUT/tests.txt
tail -4 $OUT/tests.txt
for run in 1 2; do
(time timeout 150 .devrun/oz/hone ozaki --sizes 4096,8192 --moduli 13,14,15,16 --phi 0.5,4 --reps 10 --out /tmp/oz-run$run) > /tmp/oz-run$run.log 2>&1
done
(time timeout 150 .devrun/oz/hone ozaki --sizes 16384 --moduli 14,15 --phi 0.5,4 --reps 5 --out /tmp/oz-16k) > /tmp/oz-16k.log 2>&1
mkdir -p /tmp/res && cp -r /tmp/oz-run1 /tmp/oz-run2 /tmp/oz-16k /tmp/*.log /tmp/res/ 2>/dev/null
tar czf $OUT/oz.tgz -C /tmp res
for d in run1 run2 16k; do grep -E "^\||^- N" /tmp/oz-$d/ozaki.md; done; tail -n 3 /tmp/oz-*.log
