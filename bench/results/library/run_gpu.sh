#!/usr/bin/env bash
# The kernel library layer on a GPU, through each way in: `hone run` and
# `hone bench` (SYMV against cuBLAS), the SYMV GPU tests, libhone.so from C
# and C++ (the examples' test, then dsymv.c timed against `hone run` at the
# same size), and the Python package on NumPy, CuPy and PyTorch arrays.
#
# Build on the development machine, then run on the GPU machine:
#   cargo build --release -p hone-cli -p hone-capi
#   cargo test --release -p hone-kernels -p hone-capi --no-run
#   mkdir -p .devrun && cp target/release/hone target/release/libhone.so .devrun/
#   cp target/release/deps/gpu_symv-HASH .devrun/gpu_symv
#   cp target/release/deps/examples-HASH .devrun/capi_examples
#   pip wheel --no-deps ./crates/python -w .devrun
#   bench/results/library/run_gpu.sh .devrun OUTDIR
set -uo pipefail
bin="${1:?usage: run_gpu.sh BIN_DIR OUT_DIR}"
out="${2:?usage: run_gpu.sh BIN_DIR OUT_DIR}"
mkdir -p "$out"
log="$out/run.log"
say() { echo "== $*" | tee -a "$log"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; } >"$out/gpu.txt" 2>&1

say "hone routines"; "$bin/hone" routines >>"$log" 2>&1
say "hone bench symv"
"$bin/hone" bench symv --out "$out/bench" >>"$log" 2>"$out/bench.stderr" || say "bench exit $?"
for args in "n=16384" "n=16384 precision=s uplo=upper" "n=1000 uplo=upper"; do
    say "hone run symv $args"; "$bin/hone" run symv $args >>"$log" 2>&1 || say "exit $?"
done
"$bin/hone" run symv n=16384 --json >"$out/run_dsymv_16384.json" 2>>"$log"

say "gpu_symv tests"
"$bin/gpu_symv" --test-threads=1 >"$out/gpu_symv.log" 2>&1; say "gpu_symv exit $?"
tail -3 "$out/gpu_symv.log" | tee -a "$log"

say "C and C++ examples (libhone.so)"
HONE_GPU_TESTS=1 "$bin/capi_examples" the_c_and_cpp_examples_build_and_run --nocapture >>"$log" 2>&1; say "capi examples exit $?"
cc examples/capi/dsymv.c -O2 -I crates/capi/include -L "$bin" -lhone -Wl,-rpath,"$(cd "$bin" && pwd)" -lm -o /tmp/dsymv_c
for rep in 1 2; do
    say "dsymv.c n=16384, 500 calls (pass $rep)"; /tmp/dsymv_c 16384 500 >>"$log" 2>&1 || say "exit $?"
done

say "Python package"
python3 -m pip install -q --no-deps --no-index --target /tmp/hone-site "$bin"/hone-*.whl >>"$log" 2>&1
PYTHONPATH=/tmp/hone-site HONE_GPU_TESTS=1 python3 -m pytest -q -rs crates/python/tests >>"$log" 2>&1; say "pytest exit $?"
PYTHONPATH=/tmp/hone-site python3 - >>"$log" 2>&1 <<'PY'
import cupy as cp, hone
n, calls = 16384, 500
a = cp.random.rand(n, n); a = a + a.T
x, y = cp.random.rand(n), cp.zeros(n)
s = cp.cuda.get_current_stream()
for _ in range(10):
    hone.symv(a, x, y, stream=s.ptr)
for rep in (1, 2):
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record(s)
    for _ in range(calls):
        hone.symv(a, x, y, stream=s.ptr)
    end.record(s); end.synchronize()
    ms = cp.cuda.get_elapsed_time(start, end) / calls
    print(f"python cupy dsymv n={n}: {ms:.4f} ms per call (pass {rep}), "
          f"{8 * (n * (n + 1) / 2 + 3 * n) / (ms * 1e-3) / 1e9:.0f} GB/s")
PY
tar -C "$out" -czf "$out/bench.tar.gz" bench && rm -rf "$out/bench"
say done
