#!/usr/bin/env bash
# Run on the GPU machine's 16-core host with the release fuzz binaries (fuzz/run.sh build,
# stripped, gzipped) beside it: REPO=PATH-TO-CHECKOUT OUT=DIR bash run.sh
# One million executions of each slow fuzz target, spread over 16 libFuzzer
# jobs of 62,500 runs each, seeded with the repository's corpus.
set -u
here=$PWD
for t in preprocess frontend roundtrip tuning_db; do gzip -dc $t.gz > $t && chmod +x $t; done
repo=${REPO:-$(cd ../../.. && pwd)}
for t in preprocess frontend roundtrip tuning_db; do
    work=/tmp/fuzz-$t; rm -rf "$work"; mkdir -p "$work/corpus" "$OUT/$t"
    cp "$repo/fuzz/corpus/$t"/* "$work/corpus/" 2>/dev/null
    cd "$work"
    start=$SECONDS
    timeout 100 "$here/$t" -jobs=16 -workers=16 -runs=62500 -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -max_total_time=85 -print_final_stats=1 \
        -artifact_prefix="$OUT/$t/" corpus > /dev/null 2>&1
    rc=$?
    execs=$(grep -h "stat::number_of_executed_units" fuzz-*.log | awk '{s+=$2} END {print s+0}')
    crashes=$(ls "$OUT/$t" | grep -c -E "^(crash|timeout|oom|leak)-" )
    echo "$t: rc=$rc jobs=$(ls fuzz-*.log | wc -l) executions=$execs seconds=$((SECONDS-start)) findings=$crashes corpus=$(ls corpus | wc -l)" | tee -a "$OUT/fuzz-summary.txt"
    grep -h -E "ERROR|SUMMARY|Done" fuzz-*.log | sort | uniq -c | head -5 | tee -a "$OUT/fuzz-summary.txt"
    tail -3 fuzz-0.log > "$OUT/$t/fuzz-0-tail.log"
    cd "$here"
done
