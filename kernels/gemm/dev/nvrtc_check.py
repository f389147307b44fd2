# Compiles each kernel template with NVRTC (through CuPy's RawModule, the same
# run-time compiler the Rust side uses), passing parameters as -D options and
# the kernel directory as the include path, then checks one odd-sized product
# per layout against a float64 product. Run on the GPU machine:
#   python3 kernels/gemm/dev/nvrtc_check.py
import os
import cupy as cp
import numpy as np

D = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

def smem_tc(esize, ta, tb, BM, BN, BK, STAGES, PAD_MN, PAD_K):
    a = BM * (BK + PAD_K) if ta else BK * (BM + PAD_MN)
    b = BK * (BN + PAD_MN) if tb else BN * (BK + PAD_K)
    return STAGES * (a + b) * esize

CASES = [
    ("gemm_fma.cu", "gemm_fma", np.float32, dict(BM=128, BN=64, BK=16, TM=8, TN=4, PAD=4)),
    ("gemm_fma.cu", "gemm_fma", np.float32, dict(BM=64, BN=64, BK=8, TM=4, TN=8, PAD=4, VEC=1)),
    ("gemm_3xtf32.cu", "gemm_3xtf32", np.float32,
     dict(BM=64, BN=64, BK=16, WARPS_M=2, WARPS_N=2, STAGES=3, FLUSH=2, PAD_MN=8, PAD_K=4, VEC=1)),
    ("gemm_fma.cu", "gemm_fma", np.float64, dict(PREC="double", BM=64, BN=64, BK=8, TM=4, TN=4, PAD=4)),
    ("gemm_dmma.cu", "gemm_dmma", np.float64,
     dict(BM=128, BN=64, BK=8, WARPS_M=2, WARPS_N=2, MMA_M=16, MMA_K=8, STAGES=4, PAD_MN=4, PAD_K=4)),
    ("gemm_3xtf32.cu", "gemm_3xtf32", np.float32,
     dict(BM=128, BN=128, BK=32, WARPS_M=2, WARPS_N=4, STAGES=3, FLUSH=2, PAD_MN=8, PAD_K=4)),
]
M, N, K = 301, 257, 129
fails = 0
rng = np.random.default_rng(7)
for fname, kname, dt, p in CASES:
    src = open(os.path.join(D, fname)).read()
    for ta in (0, 1):
        for tb in (0, 1):
            opts = ["-I" + D, "--std=c++17", "-DTRANS_A=%d" % ta, "-DTRANS_B=%d" % tb]
            opts += ["-D%s=%s" % (k, v) for k, v in p.items()]
            mod = cp.RawModule(code=src, options=tuple(opts), backend="nvrtc")
            fn = mod.get_function(kname)
            if fname == "gemm_fma.cu":
                nt = (p["BM"] // p["TM"]) * (p["BN"] // p["TN"])
                es = np.dtype(dt).itemsize
                sm = 2 * p["BK"] * (p["BM"] + p["PAD"] + p["BN"] + p["PAD"]) * es
            else:
                nt = p["WARPS_M"] * p["WARPS_N"] * 32
                sm = smem_tc(np.dtype(dt).itemsize, ta, tb, p["BM"], p["BN"], p["BK"], p["STAGES"],
                             p["PAD_MN"], p["PAD_K"])
            fn.max_dynamic_shared_size_bytes = sm
            A = rng.uniform(-1, 1, (K, M) if ta else (M, K))
            B = rng.uniform(-1, 1, (N, K) if tb else (K, N))
            C0 = rng.uniform(-1, 1, (M, N))
            ref = 1.5 * ((A.T if ta else A) @ (B.T if tb else B)) - 0.5 * C0
            # leading dimensions: rows rounded up to a multiple of 4 (the 16-byte
            # fast path needs ld % VEC == 0); rows itself (odd) where VEC = 1
            def dev(X):
                ld = X.shape[0] if p.get("VEC") == 1 else -(-X.shape[0] // 4) * 4 + 4
                buf = cp.full((ld, X.shape[1]), np.nan, dtype=dt, order="F")
                buf[: X.shape[0], :] = cp.asarray(X, dtype=dt)
                return buf, ld
            dA, lda = dev(A)
            dB, ldb = dev(B)
            dC, ldc = dev(C0)
            grid = (-(-M // p["BM"]) * -(-N // p["BN"]),)
            fn(grid, (nt,), (np.int32(M), np.int32(N), np.int32(K), dt(1.5), dA, np.int32(lda), dB,
                             np.int32(ldb), dt(-0.5), dC, np.int32(ldc),
                             # split-K counters and workspace: unused with SPLITK = 1
                             np.uint64(0), np.uint64(0)), shared_mem=sm)
            cp.cuda.runtime.deviceSynchronize()
            err = float(np.abs(cp.asnumpy(dC[:M, :]) - ref).max() / np.abs(ref).max())
            ok = err < (1e-5 if dt == np.float32 else 1e-13)
            fails += not ok
            print("nvrtc %-15s %-10s %s%s err=%.2e %s" % (fname, np.dtype(dt).name, "NT"[ta], "NT"[tb], err,
                                                         "PASS" if ok else "FAIL"))
print("nvrtc failures:", fails)
