#!/bin/bash
# As run2/run.sh, from .devrun/fit/ (before the fit shared its statistics with the emulation, with 32 moduli at most).
# The fitted moduli: GPU tests, hone ozaki with fit rows, the double-double report with a fit row, the routines with moduli=fit.
cd "$(dirname "$0")"
for f in hone gpu_gemm; do [ -x $f ] || { gunzip -kf $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
mkdir -p /tmp/res
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
(time timeout 150 .devrun/fit/gpu_gemm --test-threads 1 --nocapture fitted int8 emulated) > /tmp/res/tests.log 2>&1
tail -n 30 /tmp/res/tests.log
(time timeout 180 .devrun/fit/hone ozaki --sizes 4096,8192 --moduli 14,16,fit --phi 0.5,2,4 --reps 5 --out /tmp/res/ozaki) > /tmp/res/ozaki.log 2>&1
grep -h "^|" /tmp/res/ozaki/ozaki.md; tail -n 3 /tmp/res/ozaki.log
(time timeout 120 .devrun/fit/hone ddgemm --variants ddgemm_nn --sizes 4096 --madd 2 --int8-moduli 30,fit --kinds phi=0.5,phi=4,ill=40 --reps 5 --out /tmp/res/dd) > /tmp/res/dd.log 2>&1
grep -h "^|" /tmp/res/dd/ddgemm.md; tail -n 3 /tmp/res/dd.log
(time timeout 60 .devrun/fit/hone run dgemm_int8 m=8192 moduli=fit) > /tmp/res/run-dgemm.log 2>&1
(time timeout 60 .devrun/fit/hone run ddgemm_int8 m=4096 moduli=fit) > /tmp/res/run-ddgemm.log 2>&1
tail -n 12 /tmp/res/run-*.log
tar czf $OUT/fit.tgz -C /tmp res
