# Builds bench.cu for the host emulation (emu_cuda.h): every launch
# K<<<G, B>>>(ARGS); becomes emu_launch(G, B, "K", [&] { K(ARGS); });
#   python3 emu_bench.py && /tmp/stencil_emu_bench OUTDIR 1 difftiny himT
import os, re, subprocess, sys

D = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(D, "bench.cu")).read()
src = src.replace("#include <cuda_runtime.h>", '#include "emu_cuda.h"')
out, i = [], 0
for m in re.finditer(r"([A-Za-z_][\w]*(?:<[^<>;]*>)?)<<<", src):
    if m.start() < i:
        continue
    j = src.index(">>>", m.end())
    cfg = src[m.end():j]
    assert src[j + 3] == "(", src[m.start():j + 10]
    depth, k = 0, j + 3
    while True:
        if src[k] == "(":
            depth += 1
        elif src[k] == ")":
            depth -= 1
            if depth == 0:
                break
        k += 1
    args = src[j + 4:k]
    name = re.match(r"\w+", m.group(1)).group(0)
    out.append(src[i:m.start()])
    out.append('emu_launch(%s, "%s", [&] { %s(%s); })' % (cfg, name, m.group(1), args))
    i = k + 1
out.append(src[i:])
dst = "/tmp/stencil_emu_bench.cpp"
open(dst, "w").write("".join(out))
cmd = ["g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-I" + D, "-DFLUSH_BYTES=(1ull<<20)",
       "-DCOPY_BYTES=(1ull<<20)", "-Wall", "-Wno-unused-function", "-Wno-unknown-pragmas", dst, "-o",
       "/tmp/stencil_emu_bench"]
sys.exit(subprocess.call(cmd))
