#!/usr/bin/env bash
# Builds and runs hone's fuzz targets with libFuzzer on a stable toolchain:
# the coverage instrumentation libFuzzer needs is asked of LLVM directly
# (sancov-module with inline 8-bit counters, a PC table and compare tracing)
# instead of through nightly's -Zsanitizer.
#
#   fuzz/run.sh list                         the targets
#   fuzz/run.sh build [TARGET...]            build (all targets by default)
#   fuzz/run.sh run TARGET [LIBFUZZER-ARG...] fuzz, e.g. -runs=1000000 or -max_total_time=60
#   fuzz/run.sh replay [TARGET...]           run every input of the kept corpus once
#   fuzz/run.sh seed TARGET                  gather the project's inputs of the target's kind into
#                                            fuzz/work/TARGET (then `minimize` keeps what adds coverage)
#   fuzz/run.sh minimize TARGET              shrink the kept corpus to the inputs that add coverage
#
# The kept corpus is fuzz/corpus/TARGET; new inputs found by `run` go to
# fuzz/work/TARGET and crashes, hangs and out-of-memory inputs to
# fuzz/artifacts/TARGET (both ignored by git).
set -euo pipefail
cd "$(dirname "$0")"

targets=(preprocess frontend roundtrip launch tune_job rule tuning_db)
triple="$(rustc -vV | sed -n 's/^host: //p')"
# HONE_FUZZ_PROFILE=ci builds the quicker-to-compile profile CI uses.
profile="${HONE_FUZZ_PROFILE:-release}"
bin_dir="target/$triple/$profile"

export RUSTFLAGS="${RUSTFLAGS:-} -Cpasses=sancov-module \
 -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
 -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares \
 --cfg fuzzing"

# A crash, a hang past 10 s or more than 2 GiB of memory is a finding.
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048)

build() {
    local args=()
    for t in "$@"; do args+=(--bin "$t"); done
    # An explicit --target keeps RUSTFLAGS off build scripts and proc macros.
    cargo build --locked --profile "$profile" --target "$triple" "${args[@]}"
}

check_target() {
    local t
    for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done
    echo "unknown target \`$1\` (targets: ${targets[*]})" >&2
    exit 2
}

cmd="${1:-}"
shift || true
case "$cmd" in
list)
    printf '%s\n' "${targets[@]}"
    ;;
build)
    [ $# -eq 0 ] && set -- "${targets[@]}"
    for t in "$@"; do check_target "$t"; done
    build "$@"
    ;;
run)
    [ $# -ge 1 ] || { echo "usage: fuzz/run.sh run TARGET [LIBFUZZER-ARG...]" >&2; exit 2; }
    t="$1"
    shift
    check_target "$t"
    build "$t"
    mkdir -p "work/$t" "artifacts/$t" "corpus/$t"
    exec "$bin_dir/$t" "${limits[@]}" -artifact_prefix="artifacts/$t/" \
        -print_final_stats=1 "$@" "work/$t" "corpus/$t"
    ;;
replay)
    [ $# -eq 0 ] && set -- "${targets[@]}"
    for t in "$@"; do check_target "$t"; done
    build "$@"
    for t in "$@"; do
        echo "== replay $t ($(find "corpus/$t" -type f | wc -l) inputs)"
        "$bin_dir/$t" "${limits[@]}" -runs=0 "corpus/$t"
    done
    ;;
seed)
    [ $# -eq 1 ] || { echo "usage: fuzz/run.sh seed TARGET" >&2; exit 2; }
    t="$1"
    check_target "$t"
    mkdir -p "work/$t"
    # Files are named by their path, so seeds from different folders never clash.
    copy() { while IFS= read -r f; do cp "$f" "work/$t/seed-$(echo "${f#../}" | tr '/' '_')"; done; }
    case "$t" in
    preprocess | frontend | roundtrip)
        find ../tests/corpus ../examples ../kernels ../crates/*/tests -type f \
            \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) -size -64k | copy
        ;;
    launch)
        find ../tests/corpus ../examples ../crates -path '*/target' -prune -o -type f -name '*.json' -print |
            xargs grep -l '"grid"' | copy
        ;;
    tune_job)
        find ../kernels -type f -name '*.toml' | xargs grep -l 'strategy' | copy
        ;;
    rule)
        find ../kernels ../bench/results -type f -name '*.json' -size -64k | xargs grep -l '"intervals"' | copy
        ;;
    tuning_db)
        find seeds/tuning_db -type f | copy
        build "$t"
        HONE_FUZZ_WRITE_BASE_DB="work/$t/seed-base.sqlite" "$bin_dir/$t" -runs=0 "work/$t"
        ;;
    esac
    echo "work/$t: $(find "work/$t" -type f | wc -l) inputs"
    ;;
minimize)
    [ $# -eq 1 ] || { echo "usage: fuzz/run.sh minimize TARGET" >&2; exit 2; }
    t="$1"
    check_target "$t"
    build "$t"
    fresh="$(mktemp -d)"
    mkdir -p "work/$t"
    # Edges alone, not their hit counts: a smaller corpus that keeps the coverage.
    "$bin_dir/$t" "${limits[@]}" -merge=1 -use_counters=0 "$fresh" "corpus/$t" "work/$t"
    rm -rf "corpus/$t"
    mv "$fresh" "corpus/$t"
    chmod 755 "corpus/$t"
    echo "corpus/$t: $(find "corpus/$t" -type f | wc -l) inputs, $(du -s --apparent-size -h "corpus/$t" | cut -f1)"
    ;;
*)
    sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"
    exit 2
    ;;
esac
