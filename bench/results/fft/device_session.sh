#!/usr/bin/env bash
# One device session of the FFT's measurements: the GPU tests, planning by
# measurement (`hone plan fft`), and the benchmark against cuFFT with the
# plans (`hone bench fft`). Everything lands in OUT and OUT/raw.tar.gz.
#
#   cargo build --release -p hone-cli
#   cargo test --release -p hone-kernels --test gpu_fft --no-run   # the test binary
#   bench/results/fft/device_session.sh HONE GPU_FFT_TEST OUT STEP...
#
# Steps: `tests`; `plan:V:N,N` (plan variant V at cube sizes N into OUT/plans,
# resuming); `replan:V:N,N` (the same, planning again); `bench:V:N,N` (benchmark with OUT/plans into OUT/bench-V);
# `default:V:N,N` (benchmark with the built-in plans into OUT/default-V);
# `ncu:P:N` (Nsight Compute on the passes of one N^3 transform, P = `ps` or
# `pd` for single or double, with the plans in OUT/plans).
set -uo pipefail
hone="${1:?usage}"; tests="${2:?usage}"; out="${3:?usage}"; shift 3
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
mkdir -p "$out/plans"
# Plans of an earlier session to start from (and keep unless replanned).
if [ -n "${SEED_PLANS:-}" ]; then cp "$SEED_PLANS"/*.json "$out/plans/"; fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >"$out/device.txt" 2>&1
for step in "$@"; do
    IFS=: read -r what variant sizes <<<"$step"
    # No sizes: the routine's table sizes (and, for plans, its other shapes).
    sz=(); [ -n "$sizes" ] && sz=(--sizes "$sizes")
    start=$(date +%s)
    case "$what" in
        tests) "$tests" --test-threads 1 --nocapture >"$out/tests.txt" 2>&1 ;;
        plan) "$hone" plan fft --out "$out/plans" --variants "$variant" "${sz[@]}" \
                  >>"$out/plan.txt" 2>>"$out/plan.log" ;;
        replan) "$hone" plan fft --force --out "$out/plans" --variants "$variant" "${sz[@]}" \
                  >>"$out/plan.txt" 2>>"$out/plan.log" ;;
        bench) "$hone" bench fft --rules "$out/plans" --variants "$variant" "${sz[@]}" \
                   --plot-sizes 0 --reps 20 --out "$out/bench-$variant" >"$out/bench-$variant.txt" 2>&1 ;;
        ncu) ncu --clock-control none --kernel-name fft_pass --launch-count 3 \
                 --section SpeedOfLight --section Occupancy --section LaunchStats \
                 --section MemoryWorkloadAnalysis --section WarpStateStats \
                 "$hone" run fft "n=$sizes" "precision=${variant#?}" --rules "$out/plans" --reps 1 --runs 1 \
                 >"$out/ncu-$variant-$sizes.txt" 2>&1 ;;
        default) "$hone" bench fft --variants "$variant" "${sz[@]}" --plot-sizes 0 \
                     --reps 20 --out "$out/default-$variant" >"$out/default-$variant.txt" 2>&1 ;;
    esac
    echo "== $step: exit $?, $(( $(date +%s) - start )) s" | tee -a "$out/steps.txt"
done
tar czf "$out/raw.tar.gz" -C "$out" --exclude raw.tar.gz . 2>/dev/null
