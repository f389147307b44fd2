"""The Python package: argument checks without a GPU, the no-device error,
and, where a GPU is present, results against NumPy (and CuPy / PyTorch when
installed)."""

import os

import pytest

import hone
from hone import _Device, _matrix_layout


class FakeDevice:
    """An object with __cuda_array_interface__ and no memory behind it: the
    checks below must refuse it before anything reaches the GPU."""

    def __init__(self, shape, typestr="<f8", strides=None, ptr=0x1000):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (ptr, False),
            "strides": strides, "version": 3,
        }


def gpu_context():
    try:
        return hone.Context(0)
    except hone.NoDeviceError as e:
        pytest.skip(f"skipped: no CUDA device: {e}")


def test_version_is_the_crates():
    assert hone.version().count(".") == 2


def test_layouts_give_lda_and_the_blas_triangle():
    col = _Device(FakeDevice((4, 4), strides=(8, 48)), "A")  # Fortran order, lda 6
    assert _matrix_layout(col, "lower") == (6, "lower")
    row = _Device(FakeDevice((4, 4)), "A")  # C order: the transpose
    assert _matrix_layout(row, "lower") == (4, "upper")
    with pytest.raises(ValueError, match="square"):
        _matrix_layout(_Device(FakeDevice((4, 3)), "A"), "lower")
    with pytest.raises(ValueError, match="unit stride"):
        _matrix_layout(_Device(FakeDevice((4, 4), strides=(16, 64)), "A"), "lower")


@pytest.mark.parametrize("x, y", [(FakeDevice((5,)), FakeDevice((4,))),
                                  (FakeDevice((4,)), FakeDevice((4, 1))),
                                  (FakeDevice((4,), strides=(16,)), FakeDevice((4,)))])
def test_vector_shapes_and_strides_are_checked(x, y):
    with pytest.raises(ValueError, match="must have shape|must be contiguous"):
        hone.symv(FakeDevice((4, 4)), x, y)


def test_dtypes_and_mixing_are_checked():
    with pytest.raises(TypeError, match="float32 or float64"):
        hone.symv(FakeDevice((4, 4), "<i4"), FakeDevice((4,)), FakeDevice((4,)))
    with pytest.raises(TypeError, match="same dtype"):
        hone.symv(FakeDevice((4, 4), "<f4"), FakeDevice((4,)), FakeDevice((4,)))
    with pytest.raises(TypeError, match="all be device arrays"):
        hone.symv(FakeDevice((4, 4)), [1.0] * 4, FakeDevice((4,)))
    with pytest.raises(ValueError, match="uplo"):
        hone.symv(FakeDevice((4, 4)), FakeDevice((4,)), FakeDevice((4,)), uplo="diag")


def test_without_a_device_the_error_says_so():
    if os.environ.get("HONE_GPU_TESTS") == "1":
        pytest.skip("this machine has a GPU")
    with pytest.raises(hone.NoDeviceError, match="no CUDA device|CUDA driver"):
        hone.Context(0)


@pytest.mark.parametrize("dtype, uplo", [("float64", "lower"), ("float32", "upper")])
def test_numpy_arrays_match_numpy(dtype, uplo):
    np = pytest.importorskip("numpy")
    ctx = gpu_context()
    rng = np.random.default_rng(3)
    n = 777
    full = rng.uniform(-1, 1, (n, n)).astype(dtype)
    full = (full + full.T) / 2
    a = np.tril(full) if uplo == "lower" else np.triu(full)
    # The unread triangle holds NaN: it must not be read.
    a = np.where(np.isclose(a, 0) & ~np.eye(n, dtype=bool), np.nan, a).astype(dtype)
    x = rng.uniform(-1, 1, n).astype(dtype)
    y = rng.uniform(-1, 1, n).astype(dtype)
    got = hone.symv(a, x, y, alpha=1.5, beta=-0.5, uplo=uplo, context=ctx)
    want = 1.5 * full.astype("float64") @ x.astype("float64") - 0.5 * y.astype("float64")
    tol = (1e-12 if dtype == "float64" else 1e-4) * np.abs(want).max()
    assert np.abs(got - want).max() <= tol


def test_cupy_arrays_are_updated_in_place():
    cp = pytest.importorskip("cupy")
    gpu_context()
    n = 1024
    a = cp.random.rand(n, n)
    a = a + a.T
    x, y = cp.random.rand(n), cp.zeros(n)
    out = hone.symv(a, x, y, alpha=2.0, stream=cp.cuda.get_current_stream().ptr)
    assert out is y
    assert float(cp.abs(y - 2.0 * a @ x).max()) <= 1e-10 * float(cp.abs(2.0 * a @ x).max())


def test_torch_tensors_are_updated_in_place():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("skipped: PyTorch sees no CUDA device")
    n = 512
    a = torch.rand(n, n, device="cuda", dtype=torch.float32)
    a = a + a.T
    x, y = torch.rand(n, device="cuda"), torch.zeros(n, device="cuda")
    hone.symv(a, x, y, uplo="upper", stream=torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    want = a @ x
    assert float((y - want).abs().max()) <= 1e-4 * float(want.abs().max())


ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def test_analyze_finds_the_papers_figure6_sites_and_fix():
    result = hone.analyze(os.path.join(ROOT, "examples", "analyze", "figure6_plain.json"))
    assert result["kernel"] == "kernel_plain"
    sites = result["sites"]
    assert [s["line"] for s in sites[:3]] == [22, 22, 22]
    assert sites[0]["sectors"] == 32 and sites[0]["ideal_sectors"] == 16
    assert sites[0]["suggestions"][0]["verification"]["verified"] is True


def test_analyze_takes_a_dict_and_reports_bad_launches():
    source = os.path.join(ROOT, "examples", "stencil", "stencil.cu")
    launch = {"source": source, "kernel": "stencil_kernel", "defines": {"N": "64"},
              "grid": [2, 2, 1], "block": [4, 4, 1],
              "args": {"in": {"type": "int", "len": 64, "init": "iota"},
                       "out": {"type": "int", "len": 64, "init": "zeros"}, "nx": 8, "ny": 8}}
    result = hone.analyze(launch, fixes=False)
    assert result["completed"] is True and result["sites"]
    with pytest.raises(ValueError, match="kernel `nope` not found"):
        hone.analyze(dict(launch, kernel="nope"))
    with pytest.raises(ValueError, match="unknown model"):
        hone.analyze(launch, model="sm1")
