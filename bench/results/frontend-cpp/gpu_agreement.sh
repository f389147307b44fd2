#!/usr/bin/env bash
# Emulator-versus-GPU agreement of the C++ corpus kernels (structs, classes,
# operators, __constant__/__device__/__shared__ file-scope variables, enums,
# references, volatile warp reductions): each launch file of
# tests/corpus/cpp/launch/ runs on the GPU with `hone gpu-run --json`, and its
# dumped buffers are compared with what `hone sim --json` gave on the CPU
# (recorded in .devrun/sim/ before the run). Writes $OUT/agreement.md and
# $OUT/gpu.tgz (gpu-run outputs, stderr and the printed CUDA sources).
set -u
mkdir -p "$OUT/gpu/src"
nvidia-smi -L > "$OUT/gpu/device.txt" 2>&1
for f in tests/corpus/cpp/launch/*.json; do
    n=$(basename "$f" .json)
    timeout 60 .devrun/hone gpu-run --json --keep "$OUT/gpu/src" "$f" \
        > "$OUT/gpu/$n.json" 2> "$OUT/gpu/$n.err"
    echo "$n $?" >> "$OUT/gpu/rc.txt"
done
python3 - "$OUT" <<'PY'
import json, math, os, sys
out = sys.argv[1]
rows = []
for line in open(os.path.join(out, "gpu", "rc.txt")):
    name, rc = line.split()
    sim = json.load(open(os.path.join(".devrun", "sim", name + ".json")))
    try:
        gpu = json.load(open(os.path.join(out, "gpu", name + ".json")))
    except Exception as e:
        err = open(os.path.join(out, "gpu", name + ".err")).read().strip().splitlines()
        rows.append((name, rc, "no GPU result", err[-1] if err else str(e)))
        continue
    notes, verdict = [], "bit-exact"
    for buf, want in sim["buffers"].items():
        got = gpu["buffers"].get(buf)
        if got is None or len(got) != len(want):
            verdict = "MISMATCH"; notes.append(f"{buf}: missing or length differs"); continue
        diff, worst = 0, 0.0
        for a, b in zip(got, want):
            if a == b:
                continue
            diff += 1
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
                rel = abs(a - b) / max(abs(b), 1e-30)
                worst = max(worst, rel)
            else:
                worst = math.inf
        if diff:
            ints = all(isinstance(x, int) for x in want)
            if ints or worst > 1e-5:
                verdict = "MISMATCH"
            elif verdict == "bit-exact":
                verdict = "within rounding"
            notes.append(f"{buf}: {diff}/{len(want)} differ, max rel {worst:.2e}")
        else:
            notes.append(f"{buf}: {len(want)} equal")
    rows.append((name, rc, verdict, "; ".join(notes)))
with open(os.path.join(out, "agreement.md"), "w") as f:
    f.write("| launch | gpu-run rc | emulator vs GPU | buffers |\n|---|---|---|---|\n")
    for r in rows:
        f.write("| " + " | ".join(str(x) for x in r) + " |\n")
    f.write("\n" + open(os.path.join(out, "gpu", "device.txt")).read())
print(open(os.path.join(out, "agreement.md")).read())
PY
tar czf "$OUT/gpu.tgz" -C "$OUT" gpu && rm -rf "$OUT/gpu"
