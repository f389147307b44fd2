#!/bin/bash
# Build here: cargo build --release -p hone-cli; cargo test --release -p hone-kernels --test gpu_gemm --no-run;
# copy target/release/hone and the gpu_gemm test binary, stripped and gzipped, to .devrun/fit2/ with this script; run it on the GPU machine (outputs under $OUT).
# The fitted moduli after sharing the statistics and scaling the magnitudes to 2^50, with up to 34 moduli.
cd "$(dirname "$0")"
for f in hone gpu_gemm; do [ -x $f ] || { gunzip -kf $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
mkdir -p /tmp/res
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
(time timeout 120 .devrun/fit2/gpu_gemm --test-threads 1 --nocapture fitted int8 emulated) > /tmp/res/tests.log 2>&1
grep -E "^test |fit |largest|test result" /tmp/res/tests.log
(time timeout 200 .devrun/fit2/hone ozaki --sizes 4096,8192 --moduli 16,fit --phi 0.5,4,6 --reps 5 --out /tmp/res/ozaki) > /tmp/res/ozaki.log 2>&1
grep -h "^|" /tmp/res/ozaki/ozaki.md; tail -n 3 /tmp/res/ozaki.log
(time timeout 150 .devrun/fit2/hone ddgemm --variants ddgemm_nn --sizes 4096 --madd 2 --int8-moduli 30,34,fit --kinds phi=0.5,phi=4,ill=40 --reps 5 --out /tmp/res/dd) > /tmp/res/dd.log 2>&1
grep -h "^|" /tmp/res/dd/ddgemm.md; tail -n 3 /tmp/res/dd.log
(time timeout 60 .devrun/fit2/hone run dgemm_int8 m=8192 moduli=fit) > /tmp/res/run-dgemm.log 2>&1
(time timeout 60 .devrun/fit2/hone run ddgemm_int8 m=4096 moduli=fit) > /tmp/res/run-ddgemm.log 2>&1
tail -n 12 /tmp/res/run-*.log
tar czf $OUT/fit2.tgz -C /tmp res
