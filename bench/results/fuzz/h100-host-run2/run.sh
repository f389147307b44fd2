#!/usr/bin/env bash
# On the GPU machine's 16-core host (no GPU used), beside the release fuzz
# binaries (fuzz/run.sh build; gzipped): OUT=DIR bash run.sh SECONDS TARGET...
# Each target runs as 16 libFuzzer jobs of 62,500 runs (a million in all),
# seeded with the repository's corpus, for at most SECONDS; what each job
# did is kept (the first job's whole log, every job's summary lines), and
# every crash, hang or out-of-memory input.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=${REPO:-$(cd "$here/../../../.." && pwd)}
seconds=$1
shift
for t in "$@"; do
    [ -x "$here/$t" ] || { gzip -dc "$here/$t.gz" > "$here/$t" && chmod +x "$here/$t"; }
    work=/tmp/fuzz-$t; rm -rf "$work"; mkdir -p "$work/corpus" "$OUT/$t"
    cp "$repo/fuzz/corpus/$t"/* "$work/corpus/" 2>/dev/null
    cd "$work"
    start=$SECONDS
    timeout $((seconds + 20)) "$here/$t" -jobs=16 -workers=16 -runs=62500 -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$OUT/$t/" corpus > /dev/null 2>&1
    rc=$?
    execs=$(grep -h "stat::number_of_executed_units" fuzz-*.log | awk '{s+=$2} END {print s+0}')
    crashes=$(ls "$OUT/$t" | grep -c -E "^(crash|timeout|oom|leak|slow-unit)-")
    echo "$t: rc=$rc jobs=$(ls fuzz-*.log | wc -l) executions=$execs seconds=$((SECONDS-start)) findings=$crashes corpus=$(ls corpus | wc -l)" | tee -a "$OUT/fuzz-summary.txt"
    grep -h -E "ERROR|SUMMARY|Done|stat::" fuzz-*.log | sed 's/==[0-9]*==/==PID==/' | sort | uniq -c | sort -rn | head -12 | tee -a "$OUT/fuzz-summary.txt"
    cp fuzz-0.log "$OUT/$t/fuzz-0.log"
    for f in fuzz-*.log; do grep -q -E "ERROR|panicked" "$f" && cp "$f" "$OUT/$t/"; done
    cd "$here"
done
