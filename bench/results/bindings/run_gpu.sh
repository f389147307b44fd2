#!/usr/bin/env bash
# GEMM and kernel tuning through the C ABI and the Python package on a GPU:
# the C/C++ examples' test (DSYMV, SSYMV and GEMM in every routine), gemm.c
# timed against `hone run gemm` at the same size, the GEMM library tests at
# the rules' interval bounds, and pytest (hone.gemm on NumPy/CuPy/PyTorch,
# hone.tune on a Kernel Tuner script), then hone.gemm on CuPy timed.
#
# Build on the development machine, then run on the GPU machine:
#   cargo build --release -p hone-cli -p hone-capi
#   cargo test --release -p hone-kernels -p hone-capi --no-run
#   mkdir -p .devrun && cp target/release/hone target/release/libhone.so .devrun/
#   cp target/release/deps/gpu_gemm-HASH .devrun/gpu_gemm
#   cp target/release/deps/examples-HASH .devrun/capi_examples
#   pip wheel --no-deps ./crates/python -w .devrun
#   bench/results/bindings/run_gpu.sh .devrun OUTDIR
set -uo pipefail
bin="${1:?usage: run_gpu.sh BIN_DIR OUT_DIR}"
out="${2:?usage: run_gpu.sh BIN_DIR OUT_DIR}"
mkdir -p "$out"
log="$out/run.log"
say() { echo "== $*" | tee -a "$log"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; } >"$out/gpu.txt" 2>&1

say "C and C++ examples (libhone.so)"
HONE_GPU_TESTS=1 timeout 240 "$bin/capi_examples" --test-threads=1 --nocapture >>"$log" 2>&1; say "capi examples exit $?"
say "gpu_gemm tests"
timeout 240 "$bin/gpu_gemm" --test-threads=1 >"$out/gpu_gemm.log" 2>&1; say "gpu_gemm exit $?"
tail -3 "$out/gpu_gemm.log" | tee -a "$log"

say "Python package"
python3 -m pip install -q --no-deps --no-index --target /tmp/hone-site "$bin"/hone-*.whl >>"$log" 2>&1
PYTHONPATH=/tmp/hone-site HONE_GPU_TESTS=1 timeout 240 python3 -m pytest -q -rs crates/python/tests >>"$log" 2>&1; say "pytest exit $?"
PYTHONPATH=/tmp/hone-site timeout 60 python3 - >>"$log" 2>&1 <<'PY'
import cupy as cp, hone
n, calls = 4096, 50
for dtype, algorithm in ((cp.float32, "fma"), (cp.float64, "fma"), (cp.float32, "3xtf32")):
    a = cp.random.rand(n, n, dtype=dtype); b = cp.random.rand(n, n, dtype=dtype)
    c = cp.zeros((n, n), dtype=dtype)
    s = cp.cuda.get_current_stream()
    for _ in range(3):
        hone.gemm(a, b, c, algorithm=algorithm, stream=s.ptr)
    for rep in (1, 2):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(s)
        for _ in range(calls):
            hone.gemm(a, b, c, algorithm=algorithm, stream=s.ptr)
        end.record(s); end.synchronize()
        ms = cp.cuda.get_elapsed_time(start, end) / calls
        print(f"python cupy gemm {cp.dtype(dtype).name} {algorithm} n={n}: {ms:.4f} ms per call "
              f"(pass {rep}), {2 * n**3 / (ms * 1e-3) / 1e12:.1f} TFLOP/s")
PY
cc examples/capi/gemm.c -O2 -I crates/capi/include -L "$bin" -lhone -Wl,-rpath,"$(cd "$bin" && pwd)" -lm -o /tmp/gemm_c
for r in "sgemm 4096" "dgemm 4096" "sgemm_3xtf32 4096"; do
    set -- $r
    for rep in 1 2; do
        say "gemm.c $1 NN n=$2 (pass $rep)"; timeout 60 /tmp/gemm_c "$1" NN "$2" "$2" "$2" 50 >>"$log" 2>&1 || say "exit $?"
    done
    if [ -x "$bin/hone" ]; then
        say "hone run gemm routine=$1 m=$2"; timeout 60 "$bin/hone" run gemm routine="$1" m="$2" >>"$log" 2>&1 || say "exit $?"
    fi
done

say done
