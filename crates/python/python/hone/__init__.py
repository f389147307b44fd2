"""hone's tuned GPU routines from Python.

Device arrays are anything with ``__cuda_array_interface__`` (CuPy arrays,
PyTorch CUDA tensors, Numba device arrays): hone reads and writes them in
place, without copies, ordered on the stream you pass (or the legacy default
stream). NumPy arrays are accepted for convenience: they are copied to the GPU
and the result comes back as a new NumPy array.

>>> import cupy as cp, hone
>>> a = cp.random.rand(4096, 4096); a = a + a.T          # symmetric
>>> x = cp.random.rand(4096); y = cp.zeros(4096)
>>> hone.symv(a, x, y, alpha=2.0, stream=cp.cuda.get_current_stream().ptr)
"""

from __future__ import annotations

from typing import Any, Optional

import contextlib
import json
import os
import tempfile

from ._hone import Context, HoneError, NoDeviceError, analyze_launch, version
from .tuning import store_metadata_file, store_output_file, tune

__all__ = ["Context", "HoneError", "NoDeviceError", "analyze", "gemm", "symv", "tune", "version",
           "default_context", "store_output_file", "store_metadata_file"]


def analyze(launch, *, model: str = "sm90", fixes: bool = True) -> dict:
    """Memory-access analysis of one kernel launch, run in hone's emulator (no
    GPU): each global and shared access site with its requests, 32-byte
    sectors against the ideal (or, with ``model="cc11"``, the half-warp
    coalescing conditions), bank-conflict wavefronts, and verified fixes.

    ``launch`` is the path of a launch file, or the same as a dict:
    ``{"source": "kernel.cu", "kernel": "name", "grid": [...], "block": [...],
    "args": {"a": {"type": "float", "len": 1024, "init": {"random": 1}}, "n": 1024}}``
    (``source`` relative to the current directory). Returns what
    ``hone analyze --json`` prints, as a dict; raises ``ValueError`` naming the
    problem on a bad launch or source.
    """
    if isinstance(launch, (str, os.PathLike)):
        return json.loads(analyze_launch(os.fspath(launch), model, fixes))
    spec = dict(launch)
    if "source" in spec:
        spec["source"] = os.path.abspath(spec["source"])
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "launch.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        return json.loads(analyze_launch(path, model, fixes))

_contexts: dict = {}


def default_context(device: int = 0) -> Context:
    """The process-wide context of a device, created on first use (it
    compiles kernels on first use and keeps them)."""
    if device not in _contexts:
        _contexts[device] = Context(device)
    return _contexts[device]


_PRECISION = {"<f8": ("d", 8), "<f4": ("s", 4)}


@contextlib.contextmanager
def _on_device(ctx: Context, *arrays: Any):
    """Device copies of host arrays, column-major (Fortran order; a vector is
    the same either way), freed on leaving, whatever happens."""
    ptrs: list = []
    try:
        for v in arrays:
            ptrs.append(ctx.alloc(max(v.nbytes, 1)))
            ctx.upload(ptrs[-1], v.tobytes(order="F"))
        yield ptrs
    finally:
        for p in ptrs:
            ctx.free(p)


class _Device:
    """What hone needs of a device array: address, shape, element size,
    strides in elements."""

    def __init__(self, obj: Any, name: str):
        cai = obj.__cuda_array_interface__
        typestr = cai["typestr"]
        if typestr not in _PRECISION:
            raise TypeError(f"{name}: dtype {typestr} is not float32 or float64")
        self.precision, self.itemsize = _PRECISION[typestr]
        self.ptr = int(cai["data"][0])
        self.shape = tuple(int(s) for s in cai["shape"])
        strides = cai.get("strides")
        if strides is None:
            # C-contiguous.
            strides, acc = [], self.itemsize
            for s in reversed(self.shape):
                strides.insert(0, acc)
                acc *= max(s, 1)
        for s in strides:
            if s % self.itemsize:
                raise ValueError(f"{name}: a stride of {s} bytes is not a whole number of elements")
        self.strides = tuple(int(s) // self.itemsize for s in strides)


def _matrix_layout(a: _Device, uplo: str) -> tuple[int, str]:
    """Leading dimension and the BLAS (column-major) triangle of a square
    matrix given as rows or columns with a stride."""
    n = a.shape[0]
    if len(a.shape) != 2 or a.shape[1] != n:
        raise ValueError(f"A must be square, got shape {a.shape}")
    rs, cs = a.strides
    if rs == 1 and cs >= n:  # column-major (Fortran order), maybe padded
        return cs, uplo
    if cs == 1 and rs >= n:  # row-major: the transpose in column-major
        return rs, {"lower": "upper", "upper": "lower"}[uplo]
    if n == 1:
        return 1, uplo
    raise ValueError(f"A must have unit stride along one dimension, got strides {a.strides}")


def _vector(v: _Device, n: int, name: str) -> None:
    if v.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {v.shape}")
    if n > 1 and v.strides != (1,):
        raise ValueError(f"{name} must be contiguous (stride 1), got stride {v.strides[0]}")


def symv(a: Any, x: Any, y: Any, *, alpha: float = 1.0, beta: float = 0.0,
         uplo: str = "lower", stream: int = 0, context: Optional[Context] = None) -> Any:
    """y = alpha A x + beta y for a symmetric A of which only the ``uplo``
    triangle is read (``"lower"`` or ``"upper"``, in the array's own
    indexing: ``a[i, j]`` with i >= j for lower, whatever the memory order).

    With device arrays, y is updated in place on ``stream`` (a CUstream as an
    int; 0: the legacy default stream) and returned. With NumPy arrays, the
    result is returned as a new array and y is left as it was.
    beta = 0 never reads y. Raises ``ValueError`` on mismatched shapes,
    dtypes or layouts, ``NoDeviceError`` without a GPU, ``HoneError`` when
    the GPU fails.
    """
    if uplo not in ("lower", "upper"):
        raise ValueError(f"uplo must be 'lower' or 'upper', got {uplo!r}")
    if all(hasattr(o, "__cuda_array_interface__") for o in (a, x, y)):
        da, dx, dy = _Device(a, "A"), _Device(x, "x"), _Device(y, "y")
        if not (da.precision == dx.precision == dy.precision):
            raise TypeError("A, x and y must have the same dtype")
        lda, blas_uplo = _matrix_layout(da, uplo)
        n = da.shape[0]
        _vector(dx, n, "x")
        _vector(dy, n, "y")
        ctx = context or default_context()
        ctx.symv(da.precision, blas_uplo, n, float(alpha), da.ptr, lda, dx.ptr, float(beta), dy.ptr, stream)
        return y
    if any(hasattr(o, "__cuda_array_interface__") for o in (a, x, y)):
        raise TypeError("A, x and y must all be device arrays or all be host arrays")
    return _symv_host(a, x, y, alpha, beta, uplo, context)


def _symv_host(a, x, y, alpha, beta, uplo, context):
    import numpy as np

    a, x, y = np.asarray(a), np.asarray(x), np.asarray(y)
    if a.dtype not in (np.float32, np.float64) or not (a.dtype == x.dtype == y.dtype):
        raise TypeError("A, x and y must all be float32 or all float64")
    n = a.shape[0] if a.ndim == 2 else -1
    if a.ndim != 2 or a.shape != (n, n):
        raise ValueError(f"A must be square, got shape {a.shape}")
    if x.shape != (n,) or y.shape != (n,):
        raise ValueError(f"x and y must have shape ({n},), got {x.shape} and {y.shape}")
    precision = "d" if a.dtype == np.float64 else "s"
    # Column-major copies: the triangle keeps its meaning.
    host_a = np.asfortranarray(a)
    ctx = context or default_context()
    with _on_device(ctx, host_a, x, y) as (pa, px, py):
        ctx.symv(precision, uplo, n, float(alpha), pa, n, px, float(beta), py, 0)
        return np.frombuffer(ctx.download(py, y.nbytes), dtype=y.dtype).copy()


def _stored(x: _Device, name: str) -> tuple[int, str]:
    """How BLAS sees a 2-D array: the leading dimension of its column-major
    storage and the op that gives the array itself from it."""
    if len(x.shape) != 2:
        raise ValueError(f"{name} must be 2-D, got shape {x.shape}")
    rows, cols = x.shape
    rs, cs = x.strides
    if (rs == 1 or rows == 1) and cs >= max(rows, 1):  # column-major (Fortran order)
        return max(cs, rows, 1), "N"
    if (cs == 1 or cols == 1) and rs >= max(cols, 1):  # row-major: the transpose is column-major
        return max(rs, cols, 1), "T"
    raise ValueError(f"{name} must have unit stride along one dimension, got strides {x.strides}")


_FLIP = {"N": "T", "T": "N"}

_GEMM_ROUTINES = {("d", "fma"): "dgemm", ("s", "fma"): "sgemm", ("s", "3xtf32"): "sgemm_3xtf32"}


def _new_like(a: Any, shape: tuple[int, int]) -> Any:
    """An uninitialised device array of a's library and dtype, or None."""
    module = type(a).__module__.split(".")[0]
    if module == "cupy":
        import cupy

        return cupy.empty(shape, dtype=a.dtype)
    if module == "torch":
        import torch

        return torch.empty(shape, dtype=a.dtype, device=a.device)
    return None


def gemm(a: Any, b: Any, c: Any = None, *, alpha: float = 1.0, beta: float = 0.0,
         algorithm: str = "fma", stream: int = 0, context: Optional[Context] = None) -> Any:
    """c = alpha a @ b + beta c with hone's tuned GEMM, in the arrays' own
    indexing whatever their memory order (C or Fortran order, or views with
    a leading-dimension stride; transposed views such as ``a.T`` cost
    nothing).

    float64 runs DGEMM on the FP64 tensor cores; float32 runs SGEMM on the
    CUDA cores (``algorithm="fma"``) or, with ``algorithm="3xtf32"``, on the
    TF32 tensor cores with the 3xTF32 split, which keeps single-precision
    accuracy. With device arrays, c is updated in place on ``stream`` and
    returned (c=None: a new CuPy array or PyTorch tensor, as a is, with
    beta ignored). With NumPy arrays the result is a new NumPy array.
    beta = 0 never reads c.
    """
    if algorithm not in ("fma", "3xtf32"):
        raise ValueError(f"algorithm must be 'fma' or '3xtf32', got {algorithm!r}")
    operands = (a, b) if c is None else (a, b, c)
    if all(hasattr(o, "__cuda_array_interface__") for o in operands):
        da, db = _Device(a, "a"), _Device(b, "b")
        if len(da.shape) != 2 or len(db.shape) != 2 or da.shape[1] != db.shape[0]:
            raise ValueError(f"a @ b needs shapes (m, k) and (k, n), got {da.shape} and {db.shape}")
        m, k, n = da.shape[0], da.shape[1], db.shape[1]
        if c is None:
            c = _new_like(a, (m, n))
            if c is None:
                raise TypeError("c is needed for device arrays other than CuPy arrays and PyTorch tensors")
            beta = 0.0
        dc = _Device(c, "c")
        if not (da.precision == db.precision == dc.precision):
            raise TypeError("a, b and c must have the same dtype")
        if dc.shape != (m, n):
            raise ValueError(f"c must have shape ({m}, {n}), got {dc.shape}")
        key = (da.precision, algorithm)
        if key not in _GEMM_ROUTINES:
            raise TypeError("algorithm '3xtf32' takes float32 arrays")
        lda, opa = _stored(da, "a")
        ldb, opb = _stored(db, "b")
        ldc, opc = _stored(dc, "c")
        ctx = context or default_context()
        if opc == "N":
            ctx.gemm(_GEMM_ROUTINES[key], opa, opb, m, n, k, float(alpha), da.ptr, lda, db.ptr, ldb,
                     float(beta), dc.ptr, ldc, stream)
        else:
            # A row-major c is c^T in column-major: c^T = b^T a^T.
            ctx.gemm(_GEMM_ROUTINES[key], _FLIP[opb], _FLIP[opa], n, m, k, float(alpha), db.ptr, ldb,
                     da.ptr, lda, float(beta), dc.ptr, ldc, stream)
        return c
    if any(hasattr(o, "__cuda_array_interface__") for o in operands):
        raise TypeError("a, b and c must all be device arrays or all be host arrays")
    return _gemm_host(a, b, c, alpha, beta, algorithm, context)


def _gemm_host(a, b, c, alpha, beta, algorithm, context):
    import numpy as np

    a, b = np.asarray(a), np.asarray(b)
    if a.dtype not in (np.float32, np.float64) or a.dtype != b.dtype:
        raise TypeError("a and b must both be float32 or both float64")
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"a @ b needs shapes (m, k) and (k, n), got {a.shape} and {b.shape}")
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    c = np.zeros((m, n), dtype=a.dtype) if c is None else np.asarray(c)
    if c.dtype != a.dtype or c.shape != (m, n):
        raise ValueError(f"c must be {a.dtype} of shape ({m}, {n}), got {c.dtype} {c.shape}")
    precision = "d" if a.dtype == np.float64 else "s"
    if (precision, algorithm) not in _GEMM_ROUTINES:
        raise TypeError("algorithm '3xtf32' takes float32 arrays")
    ctx = context or default_context()
    with _on_device(ctx, a, b, c) as (pa, pb, pc):
        ctx.gemm(_GEMM_ROUTINES[(precision, algorithm)], "N", "N", m, n, k, float(alpha), pa, max(m, 1),
                 pb, max(k, 1), float(beta), pc, max(m, 1), 0)
        out = np.frombuffer(ctx.download(pc, c.nbytes), dtype=c.dtype)
        return out.reshape((n, m)).T.copy()
