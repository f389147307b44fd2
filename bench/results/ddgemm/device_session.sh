#!/usr/bin/env bash
# One device session of the double-double GEMM's measurements: the GPU tests,
# tuning (`hone tune` + `hone rule`), the report (`hone ddgemm`), and an
# Nsight Compute cross-check of the FP64 instruction counts. Everything lands
# in OUT (raw outputs also in OUT/raw.tar.gz).
#
#   cargo build --release -p hone-cli
#   cargo test --release -p hone-kernels --test gpu_gemm --no-run   # the test binary
#   bench/results/ddgemm/device_session.sh HONE GPU_GEMM_TEST OUT STEP...
#
# Steps: `tests` (the double-double GPU tests and every template at odd
# shapes); `tune:V` (tune variant V into OUT/ddgemm.sqlite, its rule into
# OUT/rules); `report:V,V:N,N:MADD` (the report with OUT/rules, or the
# built-in rules when OUT/rules is empty, into OUT/report);
# `ncu:V:N` (FP64 instructions executed by one call, per multiply-add).
set -uo pipefail
hone="${1:?usage}"; tests="${2:?usage}"; out="${3:?usage}"; shift 3
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
mkdir -p "$out/rules"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >"$out/device.txt" 2>&1
for step in "$@"; do
    IFS=: read -r what variants sizes madd <<<"$step"
    start=$(date +%s)
    rules=(); ls "$out"/rules/*.json >/dev/null 2>&1 && rules=(--rules "$out/rules")
    case "$what" in
        tests) "$tests" --test-threads 1 --nocapture double_double >"$out/tests-dd.txt" 2>&1
               "$tests" --test-threads 1 --nocapture every_measured >"$out/tests-all.txt" 2>&1 ;;
        tune) "$hone" tune "kernels/gemm/tune/$variants.toml" --db "$out/ddgemm.sqlite" \
                  --reps 5 --warmup 1 --check-max 1024 >>"$out/tune.txt" 2>>"$out/tune.log"
              "$hone" rule --db "$out/ddgemm.sqlite" --job "$variants" \
                  --out-json "$out/rules/$variants.json" >>"$out/tune.txt" 2>>"$out/tune.log" ;;
        report) "$hone" ddgemm "${rules[@]}" --variants "$variants" --sizes "$sizes" \
                    ${madd:+--madd "$madd"} --reps 5 --out "$out/report" \
                    >"$out/report.txt" 2>"$out/report.log" ;;
        ncu) ncu --clock-control none --kernel-name gemm_dd --launch-count 1 \
                 --metrics smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed \
                 "$hone" run gemm "m=$sizes" "routine=${variants%_*}" "layout=${variants##*_}" "${rules[@]}" --reps 1 --runs 1 \
                 >"$out/ncu-$variants-$sizes.txt" 2>&1 ;;
    esac
    echo "$step: exit $? in $(( $(date +%s) - start )) s" | tee -a "$out/steps.txt"
done
tar czf "$out/raw.tar.gz" -C "$out" --exclude raw.tar.gz . 2>/dev/null
