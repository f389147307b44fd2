#!/usr/bin/env python3
"""Launch files that run a kernel as its program's host code does.

The sweep's first launch files (`sweep.py --write-launches`) give every
kernel a 4 x 128 grid and buffers of seeded random numbers. For the kernels
below that is not a use of the kernel at all: threads past the program's data
write other threads' elements, random numbers stand where the program has a
graph, a sorted hash table, a B+ tree or physical state, and `__constant__`
variables the host code sets with `cudaMemcpyToSymbol` stay zero. Each
function here builds the launch the way the program's host code does (block
and grid shapes, sizes, the contents of inputs and symbols, named in its
docstring) and this script writes them under `launches/`.

    python3 bench/results/frontend/host_launches.py [--only TEXT]

Sizes are smaller than the programs' defaults so that the emulator runs them
in seconds; the data are generated with fixed seeds, so the files are the
same on every run.
"""

import argparse
import json
import math
import os
import random
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
R, S = "${RODINIA}", "${SAMPLES}"


def f32(x):
    """`x` rounded to single precision, as the host code's floats hold it."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def buf(ty, values, scalars=1):
    """A buffer of `ty` holding `values`, `scalars` of them per element (a
    struct's members in memory order)."""
    return {"type": ty, "len": len(values) // scalars, "init": {"values": list(values)}}


def rand_buf(ty, n, seed):
    return {"type": ty, "len": n, "init": {"random": seed}}


def zeros(ty, n):
    return {"type": ty, "len": n, "init": "zeros"}


def rodinia(prog, unit, kernel, *, include=(), **rest):
    d = f"{R}/cuda/{prog}"
    inc = [os.path.dirname(f"{d}/{unit}"), d, f"{R}/common", f"{R}/cuda/util", *include]
    return {"source": f"{d}/{unit}", "include": inc, "kernel": kernel, **rest}


def sample(folder, prog, unit, kernel, **rest):
    d = f"{S}/Samples/{folder}/{prog}"
    return {"source": f"{d}/{unit}", "include": [d, f"{S}/Common"], "kernel": kernel, **rest}


# ---------------------------------------------------------------- Rodinia


def backprop(kernel):
    """backprop_cuda.cu: `grid(1, in / 16)`, `threads(16, 16)`, `hid` = 16
    hidden units (the program's fixed size); the layers' sizes follow `in`
    and `hid` (`(in + 1) * (hid + 1)` weights)."""
    n_in, hid = 1024, 16
    blocks = n_in // 16
    launch = dict(grid=[1, blocks], block=[16, 16])
    if kernel == "bpnn_layerforward_CUDA":
        args = {
            "input_cuda": rand_buf("float", n_in + 1, 1),
            "output_hidden_cuda": zeros("float", hid + 1),
            "input_hidden_cuda": rand_buf("float", (n_in + 1) * (hid + 1), 3),
            "hidden_partial_sum": zeros("float", blocks * 16),
            "in": n_in,
            "hid": hid,
        }
        dump = ["input_hidden_cuda", "hidden_partial_sum"]
    else:
        args = {
            "delta": rand_buf("float", hid + 1, 1),
            "hid": hid,
            "ly": rand_buf("float", n_in + 1, 3),
            "in": n_in,
            "w": rand_buf("float", (n_in + 1) * (hid + 1), 5),
            "oldw": rand_buf("float", (n_in + 1) * (hid + 1), 6),
        }
        dump = ["w", "oldw"]
    return rodinia("backprop", "backprop_cuda.cu", kernel, **launch, args=args, dump=dump)


def bfs():
    """bfs.cu: one thread per node in blocks of MAX_THREADS_PER_BLOCK (512,
    which the kernel's index uses), on a graph read from a file: each node's
    edges are a range of the edge list. The state is that of the program's
    loop after two levels from node 0: the mask holds the frontier (level 2),
    visited and cost the levels found so far (cost -1 elsewhere)."""
    rng = random.Random(11)
    n = 1024
    adj = [sorted(rng.sample([v for v in range(n) if v != u], rng.randint(1, 6))) for u in range(n)]
    level = [-1] * n
    level[0] = 0
    front = [0]
    for lv in range(1, 3):
        nxt = []
        for u in front:
            for v in adj[u]:
                if level[v] < 0:
                    level[v] = lv
                    nxt.append(v)
        front = nxt
    nodes, edges = [], []
    for u in range(n):
        nodes += [len(edges), len(adj[u])]
        edges += adj[u]
    at_front = [1 if level[u] == 2 else 0 for u in range(n)]
    args = {
        "g_graph_nodes": buf("Node", nodes, 2),
        "g_graph_edges": buf("int", edges),
        "g_graph_mask": buf("bool", at_front),
        "g_updating_graph_mask": zeros("bool", n),
        "g_graph_visited": buf("bool", [1 if 0 <= lv <= 2 else 0 for lv in level]),
        "g_cost": buf("int", [lv if 0 <= lv <= 2 else -1 for lv in level]),
        "no_of_nodes": n,
    }
    return rodinia("bfs", "bfs.cu", "Kernel", grid=[n // 512], block=[512], args=args,
                   dump=["g_graph_mask", "g_updating_graph_mask", "g_cost"])


CFD_NNB, CFD_NDIM, CFD_NVAR, GAMMA = 4, 3, 5, 1.4


def cfd_far_field():
    """The free-stream state main() computes (mach 1.2, angle of attack 0)
    and copies to `ff_variable`: density, momentum, density * energy."""
    density, pressure = f32(1.4), 1.0
    sound = math.sqrt(GAMMA * pressure / density)
    speed = f32(1.2 * sound)
    energy = f32(density * (0.5 * speed * speed) + pressure / (GAMMA - 1.0))
    return [density, f32(density * speed), 0.0, 0.0, energy]


def cfd_far_field_symbols():
    """`ff_variable` and the free stream's flux contributions, as main()
    computes them with compute_flux_contribution() and copies them."""
    density, mx, my, mz, energy = cfd_far_field()
    pressure = 1.0
    vx, vy, vz = f32(mx / density), 0.0, 0.0
    de_p = f32(energy + pressure)
    fx = [f32(vx * mx + pressure), f32(vx * my), f32(vx * mz)]
    fy = [fx[1], f32(vy * my + pressure), f32(vy * mz)]
    fz = [fx[2], fy[2], f32(vz * mz + pressure)]
    fe = [f32(vx * de_p), f32(vy * de_p), f32(vz * de_p)]
    values = {
        "ff_variable": [density, mx, my, mz, energy],
        "ff_flux_contribution_momentum_x": fx,
        "ff_flux_contribution_momentum_y": fy,
        "ff_flux_contribution_momentum_z": fz,
        "ff_flux_contribution_density_energy": fe,
    }
    return {name: {"init": {"values": v}} for name, v in values.items()}


def cfd_state(nelr, seed):
    """Flow variables near the free stream (each within 10%), laid out as
    the program keeps them: variable j of element i at `i + j * nelr`."""
    rng = random.Random(seed)
    ff = cfd_far_field()
    out = []
    for j in range(CFD_NVAR):
        base = ff[j] if ff[j] != 0 else 0.05
        out += [f32(base * (1 + 0.1 * (2 * rng.random() - 1))) for _ in range(nelr)]
    return out


def cfd(kernel):
    """euler3d.cu (and pre_euler3d.cu for the flux contributions): one thread
    per element in blocks of 192 (BLOCK_SIZE_*), `nelr` a multiple of it;
    the mesh as main() reads it (each element's four neighbours, -1 for a
    wing face and -2 for a far-field face, and a face normal per neighbour).
    main() copies the free stream into the `ff_*` constants with
    cudaMemcpyToSymbol; the launch files set them as `symbols`."""
    nelr, block = 768, 192
    rng = random.Random(21)
    launch = dict(grid=[nelr // block], block=[block])
    unit = "euler3d.cu"
    if kernel == "cuda_initialize_variables":
        args = {"nelr": nelr, "variables": zeros("float", nelr * CFD_NVAR)}
        dump = ["variables"]
    elif kernel == "cuda_compute_step_factor":
        args = {
            "nelr": nelr,
            "variables": buf("float", cfd_state(nelr, 22)),
            "areas": buf("float", [f32(0.5 + rng.random()) for _ in range(nelr)]),
            "step_factors": zeros("float", nelr),
        }
        dump = ["step_factors"]
    elif kernel == "cuda_compute_flux":
        esse = []
        for j in range(CFD_NNB):
            for i in range(nelr):
                r = rng.random()
                other = rng.randrange(nelr - 1)
                esse.append(-1 if r < 0.05 else -2 if r < 0.1 else other + (other >= i))
        normals = [f32(rng.uniform(-0.5, 0.5)) for _ in range(nelr * CFD_NDIM * CFD_NNB)]
        args = {
            "nelr": nelr,
            "elements_surrounding_elements": buf("int", esse),
            "normals": buf("float", normals),
            "variables": buf("float", cfd_state(nelr, 23)),
            "fluxes": zeros("float", nelr * CFD_NVAR),
        }
        dump = ["fluxes"]
    elif kernel == "cuda_time_step":
        args = {
            "j": 1,
            "nelr": nelr,
            "old_variables": buf("float", cfd_state(nelr, 24)),
            "variables": buf("float", cfd_state(nelr, 25)),
            "step_factors": buf("float", [f32(1e-3 * (0.5 + rng.random())) for _ in range(nelr)]),
            "fluxes": buf("float", [f32(rng.uniform(-1, 1)) for _ in range(nelr * CFD_NVAR)]),
        }
        dump = ["variables"]
    else:  # cuda_compute_flux_contributions, pre_euler3d.cu only
        unit = "pre_euler3d.cu"
        args = {"nelr": nelr, "variables": buf("float", cfd_state(nelr, 26))}
        for name in ("fc_momentum_x", "fc_momentum_y", "fc_momentum_z", "fc_density_energy"):
            args[name] = zeros("float", nelr * CFD_NDIM)
        dump = ["fc_momentum_x", "fc_momentum_y", "fc_momentum_z", "fc_density_energy"]
    if unit == "euler3d.cu":
        launch["symbols"] = cfd_far_field_symbols()
    return rodinia("cfd", unit, kernel, **launch, args=args, dump=dump)


def myocyte():
    """master.cu: `kernel<<<2, NUMBER_THREADS>>>` (32): block 0 runs the ECC
    model, block 1 the three CAM models, one thread each, on EQUATIONS (91)
    state values and PARAMETERS (18) parameters."""
    args = {
        "timeinst": 0,
        "d_initvalu": rand_buf("float", 91, 2),
        "d_finavalu": zeros("float", 91),
        "d_params": rand_buf("float", 18, 4),
        "d_com": zeros("float", 3),
    }
    return rodinia("myocyte", "main.cu", "kernel", grid=[2], block=[32], args=args,
                   dump=["d_finavalu", "d_com"])


def srad2():
    """srad.cu: `dimGrid(cols / 16, rows / 16)`, `dimBlock(16, 16)` over a
    `rows x cols` image; the diffusion coefficients `C_cuda` lie in [0, 1]
    as srad_cuda_1 leaves them. The last block row loads its south
    neighbours one block row past the image before replacing them, so
    `C_cuda` has that row of padding (the program reads past its allocation
    there)."""
    rows = cols = 64
    args = {
        "E_C": rand_buf("float", rows * cols, 1),
        "W_C": rand_buf("float", rows * cols, 2),
        "N_C": rand_buf("float", rows * cols, 3),
        "S_C": rand_buf("float", rows * cols, 4),
        "J_cuda": rand_buf("float", rows * cols, 5),
        "C_cuda": rand_buf("float", rows * cols + 16 * cols, 6),
        "cols": cols,
        "rows": rows,
        "lambda": 0.5,
        "q0sqr": 0.05,
    }
    return rodinia("srad/srad_v2", "srad.cu", "srad_cuda_2", grid=[cols // 16, rows // 16],
                   block=[16, 16], args=args, dump=["J_cuda"])


def pack2():
    """main_test_cu.cu: `pack2<<<num_scan_elements / 16, 16>>>` after the
    encoder: each thread's block of `original_num_block_elements` words
    holds `cindex[t]` code bits, most significant first (the rest zero),
    `cindex2` is the exclusive prefix sum of `cindex` (prescanArray), and
    the packed output starts zeroed (cudaMemset)."""
    rng = random.Random(31)
    blocks, words = 256, 8
    sizes = [rng.randint(1, 32 * words) for _ in range(blocks)]
    src = []
    for bits in sizes:
        stream = [rng.getrandbits(1) for _ in range(bits)] + [0] * (32 * words - bits)
        src += [int("".join(map(str, stream[32 * k:32 * k + 32])), 2) for k in range(words)]
    starts, total = [], 0
    for bits in sizes:
        starts.append(total)
        total += bits
    args = {
        "srcData": buf("unsigned int", src),
        "cindex": buf("unsigned int", sizes),
        "cindex2": buf("unsigned int", starts),
        "dstData": zeros("unsigned int", total // 32 + 2),
        "original_num_block_elements": words,
    }
    return rodinia("huffman", "main_test_cu.cu", "pack2", grid=[blocks // 16], block=[16],
                   args=args, dump=["dstData"])


BTREE_ORDER = 256  # DEFAULT_ORDER without RD_WG_SIZE


def btree(n_keys, seed):
    """A B+ tree of `n_keys` records (key k holds value k), transformed as
    transform_to_cuda() does: nodes in breadth-first order, each with keys
    [INT_MIN, k1 .. km, INT_MAX, INT_MAX ...] and the indices of its children
    (or, in a leaf, of its records). Returns (knode values, records, height)."""
    rng = random.Random(seed)
    INT_MIN, INT_MAX = -(2**31), 2**31 - 1
    fill = BTREE_ORDER // 2
    keys = sorted(rng.sample(range(10 * n_keys), n_keys))
    # Leaves of `fill` keys, then levels above until one node remains.
    level = [keys[i:i + fill] for i in range(0, len(keys), fill)]
    firsts = [leaf[0] for leaf in level]
    levels = [[{"leaf": True, "keys": leaf} for leaf in level]]
    while len(levels[-1]) > 1:
        kids = list(range(len(levels[-1])))
        groups = [kids[i:i + fill] for i in range(0, len(kids), fill)]
        levels.append([{"leaf": False, "children": g, "keys": [firsts[c] for c in g[1:]]} for g in groups])
        firsts = [firsts[g[0]] for g in groups]
    levels.reverse()
    # Breadth-first numbering: level by level, in order.
    base, offset = [], 0
    for lv in levels:
        base.append(offset)
        offset += len(lv)
    values, record = [], 0
    for depth, lv in enumerate(levels):
        for idx, node in enumerate(lv):
            loc = base[depth] + idx
            nk = len(node["keys"]) + 2
            k = [INT_MIN] + node["keys"] + [INT_MAX] * (BTREE_ORDER + 1 - nk + 1)
            ind = [0] * (BTREE_ORDER + 1)
            if node["leaf"]:
                for i in range(1, nk - 1):
                    ind[i] = record
                    record += 1
            else:
                for i, c in enumerate(node["children"]):
                    ind[i] = base[depth + 1] + c
            ind[nk - 1] = loc + 1
            values += [loc] + ind + k[:BTREE_ORDER + 1] + [1 if node["leaf"] else 0, nk]
    return values, keys, len(levels) - 1, offset


def btree_launch(kernel):
    """kernel_gpu_cuda_wrapper*.cu: one block per query, `order` (256)
    threads, the tree from transform_to_cuda(), the queries' current and
    offset nodes starting at the root (0); findK's keys and findRangeK's
    ranges drawn as main() draws them (from the key range, `end = start +
    rSize`); answers start at -1 and 0 as main() sets them."""
    rng = random.Random(41)
    knodes, keys, height, n_nodes = btree(4096, 42)
    count = 64
    common = {
        "height": height,
        "knodesD": buf("knode", knodes, 2 * BTREE_ORDER + 5),
        "knodes_elem": n_nodes,
        "currKnodeD": zeros("long long", count),
        "offsetD": zeros("long long", count),
    }
    if kernel == "findK":
        queries = [rng.choice(keys) if rng.random() < 0.8 else rng.randrange(10 * len(keys)) for _ in range(count)]
        args = dict(common, recordsD=buf("record", keys), keysD=buf("int", queries),
                    ansD=buf("record", [-1] * count))
        return rodinia("b+tree", "kernel/kernel_gpu_cuda_wrapper.cu", "findK", grid=[count],
                       block=[BTREE_ORDER], args=args, dump=["currKnodeD", "offsetD", "ansD"])
    starts, ends = [], []
    for _ in range(count):
        i = rng.randrange(len(keys) - 10)
        starts.append(keys[i])
        ends.append(keys[i + rng.randint(0, 9)])
    args = dict(common, lastKnodeD=zeros("long long", count), offset_2D=zeros("long long", count),
                startD=buf("int", starts), endD=buf("int", ends),
                RecstartD=zeros("int", count), ReclenD=zeros("int", count))
    return rodinia("b+tree", "kernel/kernel_gpu_cuda_wrapper_2.cu", "findRangeK", grid=[count],
                   block=[BTREE_ORDER], args=args,
                   dump=["currKnodeD", "lastKnodeD", "RecstartD", "ReclenD"])


# ---------------------------------------------------------------- CUDA samples


def atomics(prog, unit, kernel, name):
    """simpleAtomicIntrinsics(.cu/_nvrtc) and systemWideAtomics: 64 blocks of
    256 threads on an output array that is zero except the two entries the
    AND and XOR tests start from 0xff."""
    n = 11 if prog.startswith("simpleAtomic") else 10
    init = [0] * n
    if prog.startswith("simpleAtomic"):
        init[8] = init[10] = 0xFF
    else:
        init[7] = init[9] = 0xFF
    return sample("0_Introduction", prog, unit, kernel, grid=[64], block=[256],
                  args={name: buf("int", init)}, dump=[name])


def clock_sample(prog, unit):
    """clock.cu: `timedReduction<<<NUM_BLOCKS, NUM_THREADS, 2 * NUM_THREADS
    floats>>>` (64, 256) on `input[i] = i` of 2 * NUM_THREADS elements,
    one output and two timer values per block."""
    args = {
        "input": buf("float", list(range(512))),
        "output": zeros("float", 64),
        "timer": zeros("long long", 128),
    }
    return sample("0_Introduction", prog, unit, "timedReduction", grid=[64], block=[256],
                  dynamic_shared_bytes=4 * 512, args=args, dump=["output", "timer"])


def hyperq(kernel):
    """simpleHyperQ.cu: `kernel_A<<<1, 1>>>(&d_a[2 * i], time_clocks)`: one
    thread spins for `clock_count` clocks and stores the clocks it counted."""
    args = {"d_o": zeros("long long", 2), "clock_count": 20000}
    return sample("0_Introduction", "simpleHyperQ", "simpleHyperQ.cu", kernel, grid=[1],
                  block=[1], args=args, dump=["d_o"])


def attributes():
    """simpleAttributes.cu: `threads(32, 32)` over `blocks(maxGridSize[1], 1)`
    (here 4) with data arrays a fraction of and four times the L2 size (here
    1024 and 16384 ints) and a hit count of 0xAFFFF (here 4096): threads add
    pseudo-randomly chosen elements into others, racing by design."""
    args = {
        "data": rand_buf("int", 1024, 1),
        "dataSize": 1024,
        "trash": rand_buf("int", 16384, 3),
        "bigDataSize": 16384,
        "hitCount": 4096,
    }
    return sample("0_Introduction", "simpleAttributes", "simpleAttributes.cu", "kernCacheSegmentTest",
                  grid=[4, 1], block=[32, 32], args=args, dump=["data", "trash"])


def particles():
    """particleSystem_cuda.cu: `computeGridSize(numParticles, 256)` blocks of
    256 threads and `(256 + 1)` words of shared memory, after the hashes are
    sorted (thrust::sort_by_key): the hashes ascend, the indices are the
    permutation that sorted them, and cellStart is set to 0xffffffff."""
    rng = random.Random(51)
    n, cells = 1024, 4096
    hashes = [rng.randrange(cells) for _ in range(n)]
    order = sorted(range(n), key=lambda i: (hashes[i], i))
    args = {
        "cellStart": buf("unsigned int", [0xFFFFFFFF] * cells),
        "cellEnd": zeros("unsigned int", cells),
        "sortedPos": zeros("float4", n),
        "sortedVel": zeros("float4", n),
        "gridParticleHash": buf("unsigned int", [hashes[i] for i in order]),
        "gridParticleIndex": buf("unsigned int", order),
        "oldPos": rand_buf("float4", n, 7),
        "oldVel": rand_buf("float4", n, 8),
        "numParticles": n,
    }
    return sample("2_Concepts_and_Techniques", "particles", "particleSystem_cuda.cu",
                  "reorderDataAndFindCellStartD", grid=[n // 256], block=[256],
                  dynamic_shared_bytes=4 * 257, args=args,
                  dump=["cellStart", "cellEnd", "sortedPos", "sortedVel"])


def vertices_mapping():
    """segmentationTree.cu: one thread per vertex; `clusteredVerticesIDs`
    lists the vertices sorted by cluster (a permutation) and
    `newVerticesIDs` is the scan of the cluster flags (non-decreasing)."""
    rng = random.Random(61)
    n = 512
    perm = list(range(n))
    rng.shuffle(perm)
    new_ids, cur = [], 0
    for i in range(n):
        if i > 0 and rng.random() < 0.2:
            cur += 1
        new_ids.append(cur)
    args = {
        "clusteredVerticesIDs": buf("unsigned int", perm),
        "newVerticesIDs": buf("unsigned int", new_ids),
        "verticesMapping": zeros("unsigned int", n),
        "verticesCount": n,
    }
    return sample("2_Concepts_and_Techniques", "segmentationTreeThrust", "segmentationTree.cu",
                  "getVerticesMapping", grid=[n // 128], block=[128], args=args,
                  dump=["verticesMapping"])


def hyperq_sum():
    """simpleHyperQ.cu: `sum<<<1, 32>>>(d_a, 2 * nstreams)` (nstreams 32):
    one warp adds the clock counts the kernel_A/kernel_B launches left in
    `d_a` into `d_a[0]` (32 shared words, one per thread)."""
    n = 2 * 32
    rng = random.Random(71)
    args = {"d_clocks": buf("long long", [rng.randrange(900000, 1100000) for _ in range(n)]), "N": n}
    return sample("0_Introduction", "simpleHyperQ", "simpleHyperQ.cu", "sum", grid=[1], block=[32],
                  args=args, dump=["d_clocks"])


def boxfilter_y():
    """boxFilter_kernel.cu: `d_boxfilter_rgba_y<<<width / nthreads, nthreads>>>`
    (nthreads 64, radius 14) over the `width x height` RGBA image the x pass
    left in `d_temp`; one thread per column walks all rows."""
    w, h, r = 128, 64, 14
    args = {"id": rand_buf("unsigned int", w * h, 1), "od": zeros("unsigned int", w * h),
            "w": w, "h": h, "r": r}
    return sample("2_Concepts_and_Techniques", "boxFilter", "boxFilter_kernel.cu",
                  "d_boxfilter_rgba_y", grid=[w // 64], block=[64], args=args, dump=["od"])


def scan_shared2():
    """scan.cu, scanExclusiveLarge: after scanExclusiveShared has scanned each
    chunk of 4 * THREADBLOCK_SIZE (1024) elements of `d_Src` into `d_Dst`,
    `scanExclusiveShared2<<<iDivUp(N, 256), 256>>>` scans the chunks' totals,
    N = batchSize * arrayLength / 1024 and `arrayLength / 1024` the length of
    one array's scan; `d_Buf` is the program's buffer of
    MAX_BATCH_ELEMENTS / 1024 words. One array of 8192 elements."""
    length, chunk = 8192, 1024
    rng = random.Random(81)
    src = [rng.randrange(16) for _ in range(length)]
    dst = []
    for c in range(0, length, chunk):
        acc = 0
        for v in src[c:c + chunk]:
            dst.append(acc)
            acc += v
    n = length // chunk
    args = {
        "d_Buf": zeros("unsigned int", 64 * 1048576 // chunk),
        "d_Dst": buf("unsigned int", dst),
        "d_Src": buf("unsigned int", src),
        "N": n,
        "arrayLength": length // chunk,
    }
    return sample("2_Concepts_and_Techniques", "scan", "scan.cu", "scanExclusiveShared2",
                  grid=[(n + 255) // 256], block=[256], args=args, dump=["d_Buf"])


def shfl_vertical():
    """shfl_scan.cu: `shfl_vertical_shfl<<<dim3(w / 32, 1), dim3(32, 8)>>>` on
    the row sums shfl_intimage_rows left in `d_integral_image`; the kernel's
    loop is fixed at 135 steps of 8 rows, the program's 1080 rows, so the
    image has 1080 rows (32 columns here instead of 1920). The rows hold the
    row prefix sums of an image of ones (x + 1)."""
    w, h = 32, 1080
    img = [x + 1 for _ in range(h) for x in range(w)]
    args = {"img": buf("unsigned int", img), "width": w, "height": h}
    return sample("2_Concepts_and_Techniques", "shfl_scan", "shfl_scan.cu", "shfl_vertical_shfl",
                  grid=[w // 32, 1], block=[32, 8], args=args, dump=["img"])


def uniform_add():
    """shfl_scan.cu: `uniform_add<<<gridSize - 1, 256>>>(d_data + 256,
    d_partial_sums, n_elements)` after the two scans: `data` starts one block
    into the scanned data (so it holds n - 256 elements) and block b adds the
    scanned partial sum b; `len` is the whole n (the kernel's bound check
    never cuts)."""
    n, block = 1024, 256
    grid = n // block
    rng = random.Random(91)
    sums = [rng.randrange(1, 256 * 4) for _ in range(grid)]
    scanned = [sum(sums[:i + 1]) for i in range(grid)]
    args = {"data": rand_buf("int", n - block, 1), "partial_sums": buf("int", scanned), "len": n}
    return sample("2_Concepts_and_Techniques", "shfl_scan", "shfl_scan.cu", "uniform_add",
                  grid=[grid - 1], block=[block], args=args, dump=["data"])


def collide():
    """particleSystem.cpp/particleSystem_cuda.cu: `collideD<<<numBlocks,
    numThreads>>>` (computeGridSize(numParticles, 256)) after
    reorderDataAndFindCellStartD: positions and velocities in hash order,
    the permutation, and each cell's start (0xffffffff when empty) and end.
    `cudaParams` is the program's SimParams (particle radius 1/64, cell size
    twice that, world origin -1) with a 16^3 grid instead of 64^3; the
    particles lie in that grid's cube."""
    rng = random.Random(101)
    n, g = 1024, 16
    radius = f32(1.0 / 64.0)
    cell = 2 * radius
    pos = [[rng.uniform(-1.0, -1.0 + g * cell) for _ in range(3)] for _ in range(n)]
    vel = [[rng.uniform(-0.01, 0.01) for _ in range(3)] for _ in range(n)]

    def cell_hash(p):
        x, y, z = (int(math.floor((c + 1.0) / cell)) & (g - 1) for c in p)
        return (z * g + y) * g + x

    hashes = [cell_hash(p) for p in pos]
    order = sorted(range(n), key=lambda i: (hashes[i], i))
    start, end = [0xFFFFFFFF] * g ** 3, [0] * g ** 3
    for k, i in enumerate(order):
        h = hashes[i]
        if start[h] == 0xFFFFFFFF:
            start[h] = k
        end[h] = k + 1
    params = [-1.2, -0.8, 0.8, 0.2,  # colliderPos, colliderRadius
              0.0, -0.0003, 0.0, 1.0,  # gravity, globalDamping
              radius, g, g, g, g ** 3,  # particleRadius, gridSize, numCells
              -1.0, -1.0, -1.0, cell, cell, cell,  # worldOrigin, cellSize
              n, 64,  # numBodies, maxParticlesPerCell
              0.5, 0.02, 0.1, 0.0, -0.5]  # spring, damping, shear, attraction, boundaryDamping
    args = {
        "newVel": zeros("float4", n),
        "oldPos": buf("float4", [c for i in order for c in pos[i] + [1.0]], 4),
        "oldVel": buf("float4", [c for i in order for c in vel[i] + [0.0]], 4),
        "gridParticleIndex": buf("unsigned int", order),
        "cellStart": buf("unsigned int", start),
        "cellEnd": buf("unsigned int", end),
        "numParticles": n,
    }
    return sample("2_Concepts_and_Techniques", "particles", "particleSystem_cuda.cu", "collideD",
                  grid=[n // 256], block=[256], args=args,
                  symbols={"cudaParams": {"init": {"values": params}}}, dump=["newVel"])


HS_DIV, HS_WARP, HS_BAND = 1024, 32, 128


def hybridsort_state(n):
    """bucketsort.cu's bucket pass on `n` floats in [0, 1): the pivots
    (`texPivot`, DIVISIONS of them, ascending, as calcPivotPoints leaves
    them), each element's division and rank as bucketcount leaves them in
    `indice` (rank << LOG_DIVISIONS | division; ranks in element order within
    a block, one of the orders the warp's addOffset may give), the
    per-block counts, and the division starts the host code computes
    (`l_offsets`, each division padded to a multiple of 4)."""
    rng = random.Random(111)
    data = [f32(rng.random()) for _ in range(n)]
    pivots = [f32((i + 1) / HS_DIV) for i in range(HS_DIV)]
    blocks = (n - 1) // (HS_WARP * HS_BAND) + 1
    threads = blocks * HS_WARP
    counts = [[0] * HS_DIV for _ in range(blocks)]
    indice = [0] * n
    for tid, x in enumerate(data):
        # The kernel's binary search over the pivots.
        idx, jump = HS_DIV // 2 - 1, HS_DIV // 4
        while jump >= 1:
            idx = idx - jump if x < pivots[idx] else idx + jump
            jump //= 2
        idx = idx if x < pivots[idx] else idx + 1
        b = (tid % threads) // HS_WARP
        indice[tid] = (counts[b][idx] << 10) + idx
        counts[b][idx] += 1
    scanned, totals = [0] * (blocks * HS_DIV), [0] * HS_DIV
    for d in range(HS_DIV):
        acc = 0
        for b in range(blocks):
            scanned[b * HS_DIV + d] = acc
            acc += counts[b][d]
        totals[d] = acc
    starts, acc = [], 0
    for t in totals:
        starts.append(acc)
        acc += (t + 3) & ~3
    return dict(data=data, pivots=pivots, blocks=blocks, indice=indice,
                counts=[c for row in counts for c in row], scanned=scanned, starts=starts)


def hybridsort(kernel):
    """bucketsort.cu: bucketcount and bucketsort run `((listsize - 1) /
    (BUCKET_THREAD_N * BUCKET_BAND)) + 1` blocks of one warp
    (BUCKET_THREAD_N 32, BUCKET_BAND 128), bucketprefixoffset DIVISIONS / 128
    blocks of 128; `d_prefixoffsets` holds blocks * DIVISIONS counts and
    `d_output` the program's `listsize + DIVISIONS * 4` floats. 8192
    elements (2 blocks)."""
    n = 8192
    st = hybridsort_state(n)
    rod = lambda **kw: rodinia("hybridsort", "bucketsort.cu", kernel, **kw)
    if kernel == "bucketcount":
        args = {
            "input": buf("float", st["data"]),
            "indice": zeros("int", n),
            "d_prefixoffsets": zeros("unsigned int", st["blocks"] * HS_DIV),
            "size": n,
            "texPivot": buf("float", st["pivots"]),
        }
        return rod(grid=[st["blocks"]], block=[HS_WARP], args=args,
                   dump=["indice", "d_prefixoffsets"])
    if kernel == "bucketprefixoffset":
        args = {
            "d_prefixoffsets": buf("unsigned int", st["counts"]),
            "d_offsets": zeros("unsigned int", HS_DIV),
            "blocks": st["blocks"],
        }
        return rod(grid=[HS_DIV // 128], block=[128], args=args,
                   dump=["d_prefixoffsets", "d_offsets"])
    args = {
        "input": buf("float", st["data"]),
        "indice": buf("int", st["indice"]),
        "output": zeros("float", n + HS_DIV * 4),
        "size": n,
        "d_prefixoffsets": buf("unsigned int", st["scanned"]),
        "l_offsets": buf("unsigned int", st["starts"]),
    }
    return rod(grid=[st["blocks"]], block=[HS_WARP], args=args, dump=["output"])


def merge_limits(keys, stride, n):
    """mergeSort.cu's generateSampleRanks + mergeRanksAndIndices for
    ascending order: for each pair of sorted segments (A, B) of `stride`
    elements, every SAMPLE_STRIDE-th element of either is placed in the
    merged order (A's before equal B's); the limits are, in that order, how
    many elements of A and of B come before each sample."""
    limits_a, limits_b = [], []
    for base in range(0, n, 2 * stride):
        a = keys[base:base + stride]
        b = keys[base + stride:min(base + 2 * stride, n)]
        cuts = [(i + sum(1 for y in b if y < a[i]), i, sum(1 for y in b if y < a[i]))
                for i in range(0, len(a), 128)]
        cuts += [(j + sum(1 for x in a if x <= b[j]), sum(1 for x in a if x <= b[j]), j)
                 for j in range(0, len(b), 128)]
        for _, la, lb in sorted(cuts):
            limits_a.append(la)
            limits_b.append(lb)
    return limits_a, limits_b


def merge_sort(kernel, unit):
    """mergeSort.cu, mergeElementaryIntervals (and bitonic.cu's variant that
    mergeSort runs for the first merges): after the shared-memory sort has
    sorted each SHARED_SIZE_LIMIT (1024) chunk ascending, `stride` 1024,
    `mergePairs` = N / SAMPLE_STRIDE blocks of SAMPLE_STRIDE (128), with the
    sample limits the two rank kernels leave. 4096 keys (two pairs), values
    the keys' original positions."""
    rng = random.Random(121)
    n, stride = 4096, 1024
    keys = [rng.randrange(1 << 16) for _ in range(n)]
    vals = list(range(n))
    src_k, src_v = [], []
    for c in range(0, n, stride):
        chunk = sorted(zip(keys[c:c + stride], vals[c:c + stride]))
        src_k += [k for k, _ in chunk]
        src_v += [v for _, v in chunk]
    la, lb = merge_limits(src_k, stride, n)
    args = {
        "d_DstKey": zeros("unsigned int", n),
        "d_DstVal": zeros("unsigned int", n),
        "d_SrcKey": buf("unsigned int", src_k),
        "d_SrcVal": buf("unsigned int", src_v),
        "d_LimitsA": buf("unsigned int", la),
        "d_LimitsB": buf("unsigned int", lb),
        "stride": stride,
        "N": n,
    }
    return sample("0_Introduction", "mergeSort", unit, kernel, grid=[n // 128], block=[128],
                  args=args, dump=["d_DstKey", "d_DstVal"])


def representatives():
    """segmentationTree.cu: one thread per vertex, after removeCycles has
    broken the cycles of minimum-edge successors: `successors` is a forest
    whose roots are their own successors, so every chain ends."""
    rng = random.Random(131)
    n = 512
    succ = [i if i == 0 or rng.random() < 0.1 else rng.randrange(i) for i in range(n)]
    args = {
        "successors": buf("unsigned int", succ),
        "representatives": zeros("unsigned int", n),
        "verticesCount": n,
    }
    return sample("2_Concepts_and_Techniques", "segmentationTreeThrust", "segmentationTree.cu",
                  "getRepresentatives", grid=[n // 128], block=[128], args=args,
                  dump=["representatives"])


def lavamd():
    """main.c and kernel_gpu_cuda_wrapper.cu: `boxes1d` = 2 (8 boxes of
    NUMBER_PAR_PER_BOX = 100 particles), one block of NUMBER_THREADS (128)
    per box; each box lists its in-range neighbours (up to 26) as main.c
    builds them; `par_cpu.alpha` = 0.5; charges and positions in 0.1..1.0
    as main.c draws them. The by-value structs `par_str` and `dim_str` are
    given as one-element buffers of their members."""
    rng = random.Random(141)
    b1, per = 2, 100
    nb = b1 ** 3
    boxes = []
    for i in range(b1):
        for j in range(b1):
            for k in range(b1):
                nh = (i * b1 + j) * b1 + k
                nei = []
                for dl in (-1, 0, 1):
                    for dm in (-1, 0, 1):
                        for dn in (-1, 0, 1):
                            z, y, x = i + dl, j + dm, k + dn
                            if (dl, dm, dn) != (0, 0, 0) and all(0 <= c < b1 for c in (x, y, z)):
                                num = (z * b1 + y) * b1 + x
                                nei.append([x, y, z, num, num * per])
                nn = len(nei)
                nei += [[0, 0, 0, 0, 0]] * (26 - nn)
                boxes += [k, j, i, nh, nh * per, nn] + [c for n in nei for c in n]
    n = nb * per
    tenth = lambda: (rng.randrange(10) + 1) / 10.0
    dim = [1, 0, 1, b1, nb, nb * 656, n, n * 32, n * 8]  # sizeof(box_str) 656
    args = {
        "d_par_gpu": buf("par_str", [0.5]),
        "d_dim_gpu": buf("dim_str", dim, 9),
        "d_box_gpu": buf("box_str", boxes, 136),
        "d_rv_gpu": buf("FOUR_VECTOR", [tenth() for _ in range(4 * n)], 4),
        "d_qv_gpu": buf("double", [tenth() for _ in range(n)]),
        "d_fv_gpu": zeros("FOUR_VECTOR", n),
    }
    return rodinia("lavaMD", "kernel/kernel_gpu_cuda_wrapper.cu", "kernel_gpu_cuda", grid=[nb],
                   block=[128], args=args, dump=["d_fv_gpu"])


LAUNCHES = {
    "rodinia/backprop/bpnn_layerforward_CUDA": lambda: backprop("bpnn_layerforward_CUDA"),
    "rodinia/backprop/bpnn_adjust_weights_cuda": lambda: backprop("bpnn_adjust_weights_cuda"),
    "rodinia/bfs/Kernel": bfs,
    "rodinia/b+tree/findK": lambda: btree_launch("findK"),
    "rodinia/b+tree/findRangeK": lambda: btree_launch("findRangeK"),
    "rodinia/cfd/cuda_initialize_variables": lambda: cfd("cuda_initialize_variables"),
    "rodinia/cfd/cuda_compute_step_factor": lambda: cfd("cuda_compute_step_factor"),
    "rodinia/cfd/cuda_compute_flux": lambda: cfd("cuda_compute_flux"),
    "rodinia/cfd/cuda_time_step": lambda: cfd("cuda_time_step"),
    "rodinia/cfd/cuda_compute_flux_contributions": lambda: cfd("cuda_compute_flux_contributions"),
    "rodinia/huffman/pack2": pack2,
    "rodinia/myocyte/kernel": myocyte,
    "rodinia/srad/srad_cuda_2": srad2,
    "rodinia/lavaMD/kernel_gpu_cuda": lavamd,
    "samples/clock/timedReduction": lambda: clock_sample("clock", "clock.cu"),
    "samples/clock_nvrtc/timedReduction": lambda: clock_sample("clock_nvrtc", "clock_kernel.cu"),
    "samples/simpleAtomicIntrinsics/testKernel": lambda: atomics(
        "simpleAtomicIntrinsics", "simpleAtomicIntrinsics.cu", "testKernel", "g_odata"),
    "samples/simpleAtomicIntrinsics_nvrtc/testKernel": lambda: atomics(
        "simpleAtomicIntrinsics_nvrtc", "simpleAtomicIntrinsics_kernel.cuh", "testKernel", "g_odata"),
    "samples/systemWideAtomics/atomicKernel": lambda: atomics(
        "systemWideAtomics", "systemWideAtomics.cu", "atomicKernel", "atom_arr"),
    "samples/simpleHyperQ/kernel_A": lambda: hyperq("kernel_A"),
    "samples/simpleHyperQ/kernel_B": lambda: hyperq("kernel_B"),
    "samples/simpleAttributes/kernCacheSegmentTest": attributes,
    "samples/particles/reorderDataAndFindCellStartD": particles,
    "samples/segmentationTreeThrust/getVerticesMapping": vertices_mapping,
    "samples/segmentationTreeThrust/getRepresentatives": representatives,
    "samples/simpleHyperQ/sum": hyperq_sum,
    "samples/boxFilter/d_boxfilter_rgba_y": boxfilter_y,
    "samples/scan/scanExclusiveShared2": scan_shared2,
    "samples/shfl_scan/shfl_vertical_shfl": shfl_vertical,
    "samples/shfl_scan/uniform_add": uniform_add,
    "samples/particles/collideD": collide,
    "rodinia/hybridsort/bucketcount": lambda: hybridsort("bucketcount"),
    "rodinia/hybridsort/bucketprefixoffset": lambda: hybridsort("bucketprefixoffset"),
    "rodinia/hybridsort/bucketsort": lambda: hybridsort("bucketsort"),
    "samples/mergeSort/mergeElementaryIntervalsKernel": lambda: merge_sort(
        "mergeElementaryIntervalsKernel<1U>", "mergeSort.cu"),
    "samples/mergeSort/bitonicMergeElementaryIntervalsKernel": lambda: merge_sort(
        "bitonicMergeElementaryIntervalsKernel<1U>", "bitonic.cu"),
}


def compact(text):
    """JSON with each list of numbers on one line."""
    return re.sub(
        r"\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]",
        lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]",
        text,
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="write only the launch files whose path contains this text")
    a = ap.parse_args()
    for rel, make in LAUNCHES.items():
        if a.only and a.only not in rel:
            continue
        path = os.path.join(HERE, "launches", rel + ".json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(compact(json.dumps(make(), indent=1)) + "\n")
        print(path)


if __name__ == "__main__":
    main()
