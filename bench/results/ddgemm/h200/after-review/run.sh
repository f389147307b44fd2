#!/bin/bash
# After review: the emulation's GPU tests (alpha = 0, NaN rows, row tiles on grid.x) and one timing at 8192.
cd "$(dirname "$0")"; for f in hone gpu_gemm; do [ -x $f ] || { gunzip -k $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
mkdir -p /tmp/res3
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > /tmp/res3/device.txt
timeout 120 .devrun/fin/gpu_gemm emulated int8 --nocapture > /tmp/res3/tests.txt 2>&1; echo "tests rc $?" >> /tmp/res3/tests.txt
grep -E "^test |rc |panicked" /tmp/res3/tests.txt
(time timeout 120 .devrun/fin/hone ozaki --sizes 8192 --moduli 14,16 --phi 0.5 --reps 10 --out /tmp/res3/oz) > /tmp/res3/oz.log 2>&1
tar czf $OUT/fin3.tgz -C /tmp res3
grep -h "^|" /tmp/res3/oz/ozaki.md; tail -n 3 /tmp/res3/oz.log
