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

import json
import os
import tempfile

from ._hone import Context, HoneError, NoDeviceError, analyze_launch, version

__all__ = ["Context", "HoneError", "NoDeviceError", "analyze", "symv", "version", "default_context"]


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
    bufs = []
    try:
        pa, px, py = (ctx.alloc(max(v.nbytes, 1)) for v in (host_a, x, y))
        bufs = [pa, px, py]
        ctx.upload(pa, host_a.tobytes(order="F"))
        ctx.upload(px, np.ascontiguousarray(x).tobytes())
        ctx.upload(py, np.ascontiguousarray(y).tobytes())
        ctx.symv(precision, uplo, n, float(alpha), pa, n, px, float(beta), py, 0)
        return np.frombuffer(ctx.download(py, y.nbytes), dtype=y.dtype).copy()
    finally:
        for p in bufs:
            ctx.free(p)
