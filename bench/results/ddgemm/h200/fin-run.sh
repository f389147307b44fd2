#!/bin/bash
# Gaps of the INT8 emulation tables: 16384 at phi = 4 with 16 moduli, double-double TN, and the dgemm_int8 routine's benchmark.
cd "$(dirname "$0")"; [ -x hone ] || { gunzip -k hone.gz; chmod +x hone; }
cd ../..
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
(time timeout 100 .devrun/fin/hone ozaki --sizes 16384 --moduli 16 --phi 4 --reps 5 --out /tmp/res/oz-16k-phi4) > /tmp/res-oz.log 2>&1
(time timeout 200 .devrun/fin/hone ddgemm --variants ddgemm_tn --sizes 4096,8192 --madd 2 --int8-moduli 28,30 --kinds phi=0.5,phi=4,ill=40 --reps 5 --out /tmp/res/dd-tn) > /tmp/res-dd.log 2>&1
(time timeout 150 .devrun/fin/hone bench dgemm_int8 --sizes 2048,4096,8192 --plot-sizes 0 --reps 10 --out /tmp/res/bench-dgemm-int8) > /tmp/res-bench.log 2>&1
mkdir -p /tmp/res && cp /tmp/res-*.log /tmp/res/
tar czf $OUT/fin.tgz -C /tmp res
grep -h "^|" /tmp/res/oz-16k-phi4/ozaki.md /tmp/res/dd-tn/ddgemm.md; grep -h "^|" /tmp/res/bench-dgemm-int8/*.md | head -20; tail -n 4 /tmp/res-*.log
