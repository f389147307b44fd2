#!/bin/bash
# Build as in ../run2/run.sh, into .devrun/fit4/.
# After review: the fit fixes (underflowing magnitudes, overflowing norms, one rounding of FP64 results, one scratch at a time, alpha = 0), GPU tests, the routines and hone ozaki. The emulated routines with their default (fitted) moduli: GPU tests and benchmarks against cuBLAS DGEMM and the CUDA-core double-double kernel.
cd "$(dirname "$0")"
for f in hone gpu_gemm; do [ -x $f ] || { gunzip -kf $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
mkdir -p /tmp/res
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
(time timeout 120 .devrun/fit4/gpu_gemm --test-threads 1 --nocapture fitted int8 emulated) > /tmp/res/tests.log 2>&1
grep -E "^test |fit |largest|test result" /tmp/res/tests.log
(time timeout 200 .devrun/fit4/hone bench dgemm_int8 --sizes 4096,8192 --plot-sizes 0 --reps 10 --out /tmp/res/bench-dgemm-int8) > /tmp/res/bench-d.log 2>&1
grep -h "^|" /tmp/res/bench-dgemm-int8/*.md | head -20; tail -n 3 /tmp/res/bench-d.log
(time timeout 200 .devrun/fit4/hone bench ddgemm_int8 --sizes 4096 --plot-sizes 0 --reps 5 --out /tmp/res/bench-ddgemm-int8) > /tmp/res/bench-dd.log 2>&1
grep -h "^|" /tmp/res/bench-ddgemm-int8/*.md | head -20; tail -n 3 /tmp/res/bench-dd.log
tar czf $OUT/fit4.tgz -C /tmp res
(time timeout 150 .devrun/fit4/hone ozaki --sizes 8192 --moduli 16,fit --phi 0.5,6 --reps 5 --out /tmp/res/ozaki) > /tmp/res/ozaki.log 2>&1
grep -h "^|" /tmp/res/ozaki/ozaki.md; tail -n 3 /tmp/res/ozaki.log
tar czf $OUT/fit4.tgz -C /tmp res
