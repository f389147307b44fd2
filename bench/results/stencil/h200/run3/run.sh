#!/bin/bash
# Next device session (about 4 minutes): diff_xco against diff_zvec (dev bench, diffusion 256/512);
# Himeno L template tuned with every configuration checked on the GPU (the parallel host check);
# analyze --measure with the comparison compiled without FMA contraction.
cd "$(dirname "$0")"; [ -x hone ] || { gunzip -k hone.gz; chmod +x hone; }
export HONE_CACHE_DIR=/tmp/hone-cache
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
OUT=/tmp/hw timeout 150 bash ../../kernels/stencil/dev/run.sh 30 diff256 diff512 > /tmp/hw.txt 2>&1
tar czf $OUT/hw.tgz -C /tmp hw hw.txt
mkdir -p /tmp/st
(cd hq && time timeout 150 ../hone tune jacobi_sleeve_tuned.tune.toml --db /tmp/st/hq.sqlite --check-max 256 --json > /tmp/st/hq.json) 2> /tmp/st/hq.err
(cd ../.. && timeout 60 .devrun/next/hone analyze examples/analyze/accumulate.json --measure --measure-launch bench/results/analyze/measure/accumulate_large.json > /tmp/st/measure-accumulate.txt 2>&1)
tar czf $OUT/st.tgz -C /tmp st
grep -E "xco|zvec" /tmp/hw.txt | head; tail -3 /tmp/st/hq.err; grep -E "speedup" /tmp/st/measure-accumulate.txt
nvcc -O3 -arch=sm_90 tf32probe.cu -lcublas -o /tmp/tf32probe 2>&1 | tail -3
timeout 120 /tmp/tf32probe > $OUT/tf32probe.txt 2>&1; cat $OUT/tf32probe.txt
