#!/bin/bash
# Build: cargo build --release -p hone-cli; strip target/release/hone | gzip into .devrun/tol2/hone.gz;
# .devrun/tol2/hq: the template of bench/results/stencil/h200/run.sh (hone synth ... himeno ...),
# .devrun/tol2/hq0: the same with "rounding_ulps" removed from its JSON; then on the GPU machine,
# from the checkout: OUT=DIR bash .devrun/tol2/run.sh
# The Himeno L template as hone synth writes it now (rounding_ulps 16), tuned with every
# configuration checked on the GPU; then the same template with rounding_ulps removed.
cd "$(dirname "$0")"; [ -x hone ] || { gunzip -k hone.gz; chmod +x hone; }
export HONE_CACHE_DIR=/tmp/hone-cache
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > $OUT/device.txt
for t in hq hq0; do
  (cd $t && time timeout 200 ../hone tune jacobi_sleeve_tuned.tune.toml --db $OUT/$t.sqlite --check-max 256 --json > $OUT/$t.json) 2> $OUT/$t.err
  tail -4 $OUT/$t.err
done
