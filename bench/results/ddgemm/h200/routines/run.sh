#!/bin/bash
# The emulated routines through the library layer: GPU tests, ddgemm_int8's benchmark and one auto run.
cd "$(dirname "$0")"; for f in hone gpu_gemm; do [ -x $f ] || { gunzip -k $f.gz; chmod +x $f; }; done
cd ../..
export HONE_CACHE_DIR=/tmp/hc
mkdir -p /tmp/res2
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > /tmp/res2/device.txt
timeout 120 .devrun/fin/gpu_gemm emulated int8 --nocapture > /tmp/res2/tests.txt 2>&1; echo "tests rc $?" >> /tmp/res2/tests.txt
grep -E "^test |rc " /tmp/res2/tests.txt
(time timeout 200 .devrun/fin/hone bench ddgemm_int8 --sizes 2048,4096,8192 --plot-sizes 0 --reps 5 --out /tmp/res2/bench-ddgemm-int8) > /tmp/res2/bench.log 2>&1
(timeout 100 .devrun/fin/hone run ddgemm_int8 m=8192 moduli=auto; timeout 100 .devrun/fin/hone run dgemm_int8 m=8192 moduli=auto) > /tmp/res2/run-auto.txt 2>&1
tar czf $OUT/fin2.tgz -C /tmp res2
grep -h "^|" /tmp/res2/bench-ddgemm-int8/*.md | head; tail -n 3 /tmp/res2/bench.log; cat /tmp/res2/run-auto.txt | tail -30
