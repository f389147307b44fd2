#!/bin/bash
# DGEMM's H200 rules with the sieve's measured sizes kept (NN and NT at 256 and 1024), TT at 8192
# (not reached in call b2); then 128^3 double batch of 8 planned as its own problem and run against
# cuFFT with that plan and with the plan of one 128^3 transform (what a batch ran before).
R=$(pwd); D=$R/.devrun/b3
cd $D && gunzip -f hone.gz && chmod +x hone && cd $R
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export HONE_CACHE_DIR=/tmp/hc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/device.txt
mark() { echo "$1 $(date -u +%H:%M:%S)" >> $OUT/marks.txt; }
pack() { cd /tmp && tar czf /tmp/all.tgz -C $OUT --exclude=all.tgz . && mv /tmp/all.tgz $OUT/; cd $R; }
mark bench-small
timeout 45 $D/hone bench gemm --variants dgemm_nn,dgemm_nt --sizes 256,1024 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench-small > $OUT/bench-small.log 2>&1; echo "bench-small rc=$?" >> $OUT/marks.txt
mark bench-tt
timeout 45 $D/hone bench gemm --variants dgemm_tt --sizes 8192 --plot-sizes 0 --reps 10 --no-other-shapes --out $OUT/bench-tt > $OUT/bench-tt.log 2>&1; echo "bench-tt rc=$?" >> $OUT/marks.txt
pack
mark plan
timeout 100 $D/hone plan fft n=128 batch=8 precision=d --out $OUT/plans > $OUT/plan-d.log 2>&1; echo "plan rc=$?" >> $OUT/marks.txt
pack
mark run
timeout 30 $D/hone run fft n=128 batch=8 precision=d --rules $OUT/plans --reps 20 --runs 2 > $OUT/run-batch-plan-d.txt 2>&1; echo "run rc=$?" >> $OUT/marks.txt
timeout 30 $D/hone run fft n=128 batch=8 precision=d --reps 20 --runs 2 > $OUT/run-shape-plan-d.txt 2>&1; echo "run-shape rc=$?" >> $OUT/marks.txt
mark end
pack
ls $OUT
