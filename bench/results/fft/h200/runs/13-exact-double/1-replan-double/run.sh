#!/bin/bash
# The GPU plans test on the final corrected powers (TW=4, double-double corrections), then the
# double-precision complex plans made again with TW=4 in the space: the three shapes whose
# error was above cuFFT's first, then the rest of the family.
START=$(date +%s)
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 140 ./gpu_fft --test-threads 1 --nocapture plans_and_cufft_match_the_oracle > $OUT/test.txt 2>&1
echo "test: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
mkdir -p $OUT/plans
s=$(date +%s)
for p in "n=250" "n=512" "nx=512 ny=512 nz=64"; do
  timeout 120 ./hone plan fft --out $OUT/plans --variants zfft3d $p precision=double >> $OUT/plan-zfft3d.txt 2>> $OUT/plan-zfft3d.log
  echo "plan zfft3d $p: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
done
left=$(( 575 - ($(date +%s) - START) ))
timeout $left ./hone plan fft --out $OUT/plans --variants zfft3d >> $OUT/plan-zfft3d.txt 2>> $OUT/plan-zfft3d.log
echo "plan zfft3d family: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
cd $OUT && tar czf plans.tgz plans && rm -rf plans
