# Compiles every kernel instance listed in configs.h (plus the naive kernels)
# with NVRTC to an sm_90 cubin, one instance per compilation, and prints the
# register / shared-memory / spill figures ptxas reports. Needs only libnvrtc:
#   NVRTC_LIB=/path/libnvrtc.so python3 nvrtc_check.py
import ctypes, os, re, sys

D = os.path.dirname(os.path.abspath(__file__))
lib = ctypes.CDLL(os.environ.get("NVRTC_LIB", "libnvrtc.so"))
cfg = open(os.path.join(D, "configs.h")).read()

def configs(name):
    m = re.search(r"#define %s\(X\)(.*)" % name, cfg)
    return [tuple(int(v) for v in t.split(",")) for t in re.findall(r"X\(([^)]*)\)", m.group(1))]

DIFF = "(const float*, float*, int, int, int, DiffCoef)"
inst = [("diff_naive", None), ("himeno_naive", None)]
inst += [("diff_zreg<%d,%d,%d,%d,%d>" % c, DIFF) for c in configs("DIFF_ZREG")]
inst += [("diff_zvec<%d,%d,%d,%d>" % c, DIFF) for c in configs("DIFF_ZVEC")]
inst += [("diff_xco<%d,%d,%d>" % c, DIFF) for c in configs("DIFF_XCO")]
inst += [("diff_smem<%d,%d,%d,%d>" % c, DIFF) for c in configs("DIFF_SMEM")]
inst += [("diff_tb<%d,%d,%d,%d,%d>" % c, DIFF) for c in configs("DIFF_TB")]
DIFFZ = "(const float*, float*, int, int, int, int, DiffCoef)"
inst += [("diff_zr<%d,%d,%d,%d>" % (c[0], c[1], c[2], c[4]), DIFFZ) for c in configs("DIFF_ZR")]
inst += [("diff_zr4<%d,%d,%d>" % (c[0], c[1], c[3]), DIFFZ) for c in configs("DIFF_ZR4")]
inst += [("diff_tb1<%d,%d,%d,%d,%d>" % (c[0], c[1], c[2], c[3], c[5]), DIFFZ) for c in configs("DIFF_TB1")]
inst += [("diff_tbv<%d,%d,%d,%d,%d>" % (c[0], c[1], c[2], c[3], c[5]), DIFFZ) for c in configs("DIFF_TBV")]
inst += [("diff_cx<%d,%d,%d,%s>" % (c[0], c[1], c[2], "true" if c[3] else "false"), DIFFZ) for c in configs("DIFF_CX")]
inst += [("diff_xv<%d,%d,%d,%d>" % c[:4], DIFFZ) for c in configs("DIFF_XV")]
inst += [("himeno_zreg<%d,%d,%d,%d>" % c, "(HimenoArgs)") for c in configs("HIM_ZREG")]
inst += [("himeno_smem<%d,%d,%d>" % c, "(HimenoArgs)") for c in configs("HIM_SMEM")]
inst += [("himeno_tb2<%d,%d,%d>" % c, "(HimenoArgs)") for c in configs("HIM_TB2")]

def check(rc, prog, what):
    if rc != 0:
        n = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value)
        lib.nvrtcGetProgramLog(prog, log)
        print("FAIL", what, log.value.decode())
        return False
    return True

fails = 0
hdr = open(os.path.join(D, "stencils.cuh")).read()
for kname, sig in inst:
    src = hdr + ("\ntemplate __global__ void %s%s;\n" % (kname, sig) if sig else "")
    prog = ctypes.c_void_p()
    lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"stencils.cu", 0, None, None)
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17", b"--ptxas-options=-v", b"-lineinfo"]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
    n = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetProgramLog(prog, log)
    text = log.value.decode()
    if rc != 0:
        fails += 1
        print("FAIL %s\n%s" % (kname, text))
        continue
    cub = ctypes.c_size_t()
    ok = lib.nvrtcGetCUBINSize(prog, ctypes.byref(cub)) == 0 and cub.value > 0
    regs = re.findall(r"Used (\d+) registers", text)
    spill = re.findall(r"(\d+) bytes spill stores", text)
    smem = re.findall(r"(\d+) bytes smem", text)
    warn = [l for l in text.splitlines() if "warning" in l.lower()]
    print("ok   %-28s regs %s smem %s spill %s cubin %d%s" % (kname, ",".join(regs), ",".join(smem),
          ",".join(spill), cub.value, ("  WARN " + " | ".join(warn)) if warn else ""))
    fails += not ok
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
print("nvrtc failures:", fails)
sys.exit(fails != 0)
