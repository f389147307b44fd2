# NVIDIA's cuRAND (reference.out) against hone's emulation (hone_expected.txt):
# integers bit for bit, floats within 1e-4 relative (absolute below 1e-3).
import sys
def read(p):
    r = {}
    for line in open(p):
        if "=" in line:
            k, v = line.split("=", 1)
            r[k.strip()] = v.split()
    return r
g, h = read(sys.argv[1]), read(sys.argv[2])
ok = True
for k in ["states", "u", "f", "d", "sobol_u", "sobol_f"]:
    a, b = g.get(k, []), h.get(k, [])
    if len(a) != len(b):
        print(f"{k}: {len(a)} values from the GPU, {len(b)} from hone"); ok = False; continue
    bad = []
    for i, (x, y) in enumerate(zip(a, b)):
        if k in ("states", "u", "sobol_u"):
            if int(x) != int(y): bad.append((i, x, y))
        else:
            x, y = float(x), float(y)
            if abs(x - y) > 1e-4 * max(abs(y), 1e-3): bad.append((i, x, y))
    print(f"{k}: {len(a) - len(bad)}/{len(a)} agree" + ("" if not bad else f"; first differences (index, gpu, hone): {bad[:6]}"))
    ok = ok and not bad
print("summary:", "cuRAND agrees with hone" if ok else "DIFFERENCES")
