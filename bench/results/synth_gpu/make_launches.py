#!/usr/bin/env python3
"""Writes the launch files of the GPU check of the synthesized kernels.

    make_launches.py [DIR] [--small]

Real sizes by default (diffusion 256x256x128, Himeno 258x130x130, blocks of
32x8); --small writes the same launches at a size the emulator runs in a
moment, to check the files with `hone sim`. Both kernels have no bounds
check, so the grid covers the domain (Himeno: its interior) exactly.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYNTH = os.path.join(HERE, "..", "..", "..", "examples", "synth")


def diffusion(kind, nx, ny, nz, bx, by):
    n = nx * ny * nz
    args = {
        "in": {"type": "float", "len": n, "init": {"random": 1}},
        "out": {"type": "float", "len": n},
    }
    if kind == "tb":
        # Unused by the synthesized kernel: `mid` is folded into shared memory.
        args["mid"] = {"type": "float", "len": 1}
    args.update(nx=nx, ny=ny, nz=nz, ce=0.1, cw=0.1, cn=0.1, cs=0.1, ct=0.1, cb=0.1, cc=0.4)
    smem = {"naive": 0, "sha": bx * by * 4, "sleeve": (bx + 2) * (by + 2) * 4,
            "tb": 3 * (bx + 2) * (by + 2) * 4}[kind]
    return {
        "source": source("diffusion", kind),
        "kernel": "diffusion_kernel" if kind == "naive" else f"diffusion_{kind}",
        "grid": [nx // bx, ny // by],
        "block": [bx, by],
        "dynamic_shared_bytes": smem,
        "args": args,
        "dump": ["out"],
    }


def himeno(kind, nx, ny, nz, bx, by):
    n = nx * ny * nz
    args = {
        "p": {"type": "float", "len": n, "init": {"random": 1}},
        "a": {"type": "float", "len": 4 * n, "init": {"random": 2}},
        "b": {"type": "float", "len": 3 * n, "init": {"random": 3}},
        "c": {"type": "float", "len": 3 * n, "init": {"random": 4}},
        "wrk1": {"type": "float", "len": n, "init": {"random": 5}},
        "bnd": {"type": "float", "len": n, "init": {"random": 6}},
    }
    if kind == "tb":
        args["mid"] = {"type": "float", "len": 1}
    # wrk2 starts as p (same seed): the sweep leaves its boundary alone, so
    # wrk2 after one sweep is the whole p of the next one.
    args["wrk2"] = {"type": "float", "len": n, "init": {"random": 1}}
    args["gosa"] = {"type": "float", "len": nx * ny}
    args.update(nx=nx, ny=ny, nz=nz, omega=0.8)
    smem = {"naive": 0, "sha": bx * by * 4, "sleeve": (bx + 2) * (by + 2) * 4,
            "tb": 3 * (bx + 2) * (by + 2) * 4}[kind]
    return {
        "source": source("himeno", kind),
        "kernel": "jacobi" if kind == "naive" else f"jacobi_{kind}",
        "grid": [(nx - 2) // bx, (ny - 2) // by],
        "block": [bx, by],
        "dynamic_shared_bytes": smem,
        "args": args,
        "dump": ["wrk2", "gosa"],
    }


def source(case, kind):
    path = os.path.join(SYNTH, f"{case}.cu" if kind == "naive" else f"out/{case}_{kind}.cu")
    return os.path.relpath(path, OUT_DIR)


if __name__ == "__main__":
    small = "--small" in sys.argv
    rest = [a for a in sys.argv[1:] if a != "--small"]
    OUT_DIR = os.path.abspath(rest[0] if rest else HERE)
    os.makedirs(OUT_DIR, exist_ok=True)
    d = (16, 16, 4, 8, 4) if small else (256, 256, 128, 32, 8)
    h = (18, 10, 5, 8, 4) if small else (258, 130, 130, 32, 8)
    for kind in ["naive", "sha", "sleeve", "tb"]:
        for name, doc in [(f"diffusion_{kind}", diffusion(kind, *d)), (f"himeno_{kind}", himeno(kind, *h))]:
            with open(os.path.join(OUT_DIR, name + ".json"), "w") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
