#!/bin/bash
# Build: cargo build --release -p hone-cli; strip target/release/hone | gzip into .devrun/tol/hone.gz;
# copy bench/results/stencil/h200/templates/himeno to .devrun/tol/hq and this script to .devrun/tol/run.sh;
# on the GPU machine, from the checkout: OUT=DIR bash .devrun/tol/run.sh
# The stencil dev bench (diffusion, two runs of one build) and the Himeno L
# template tuned with every configuration checked on the GPU.
cd "$(dirname "$0")"; [ -x hone ] || { gunzip -k hone.gz; chmod +x hone; }
export HONE_CACHE_DIR=/tmp/hone-cache
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
(cd ../../kernels/stencil/dev && OUT=$OUT/r1 bash run.sh 30 difftiny diff256 diff512 > $OUT/r1.txt 2>&1; mkdir -p $OUT/r2; timeout 200 ./bench $OUT/r2 30 diff256 diff512 > $OUT/r2/log.txt 2>&1)
rm -f $OUT/r1/build.log
tail -12 $OUT/r1.txt; grep -A5 "Best per case" $OUT/r2/results.md
# (the Himeno tuning of this script ran under a check since replaced: see ../run6/)
