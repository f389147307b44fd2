#!/usr/bin/env bash
# One long run per target: a million executions from the kept corpus and the
# project's seeds, findings stopping the run. Logs go to /tmp/fuzz-long-TARGET.log;
# the summary lines are kept in bench/results/fuzz/TARGET.txt.
#
#   bench/results/fuzz/long_run.sh TARGET [LIBFUZZER-ARG...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
t="$1"
shift
log="/tmp/fuzz-long-$t.log"
start=$(date +%s)
set +e
fuzz/run.sh run "$t" -runs=1000000 "$@" >"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
{
    echo "command: fuzz/run.sh run $t -runs=1000000 $*"
    echo "exit status: $rc; wall time: $((end - start)) s; finished $(date -u +%FT%TZ)"
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::|^Done [0-9]+ runs|==[0-9]+== ERROR|panicked|SUMMARY|Test unit written|^INFO: (fuzzed for|exiting)|^INFO: log from the inner process' "$log" | head -40
    # In -fork mode, the last progress line holds the totals.
    grep -E '^#[0-9]+: cov:' "$log" | tail -n 1
} >"bench/results/fuzz/$t.txt"
cat "bench/results/fuzz/$t.txt"
