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


class RecordingContext:
    """Stands in for a Context: records the BLAS call that gemm makes."""

    def __init__(self):
        self.calls = []

    def gemm(self, *args):
        self.calls.append(args)


def test_gemm_maps_any_memory_order_to_one_blas_call():
    ctx = RecordingContext()
    # a: 6x4 C order (row stride 4), b: 4x5 Fortran order, c: 6x5 Fortran order.
    a = FakeDevice((6, 4), "<f4", ptr=0xA000)
    b = FakeDevice((4, 5), "<f4", strides=(4, 16), ptr=0xB000)
    c = FakeDevice((6, 5), "<f4", strides=(4, 24), ptr=0xC000)
    hone.gemm(a, b, c, alpha=2.0, beta=0.5, context=ctx)
    # Column-major c: op(a) = T of its storage (lda = 4), b as stored.
    assert ctx.calls[-1] == ("sgemm", "T", "N", 6, 5, 4, 2.0, 0xA000, 4, 0xB000, 4, 0.5, 0xC000, 6, 0)
    # A C-order c is c^T in column-major: c^T = b^T a^T, operands swapped.
    c_rows = FakeDevice((6, 5), "<f4", ptr=0xC000)
    hone.gemm(a, b, c_rows, algorithm="3xtf32", context=ctx)
    assert ctx.calls[-1] == ("sgemm_3xtf32", "T", "N", 5, 6, 4, 1.0, 0xB000, 4, 0xA000, 4, 0.0, 0xC000, 5, 0)
    d = FakeDevice((6, 4), "<f8", ptr=0xA000)
    e = FakeDevice((4, 5), "<f8", ptr=0xB000)
    f = FakeDevice((6, 5), "<f8", strides=(8, 64), ptr=0xC000)  # Fortran order, ldc 8
    hone.gemm(d, e, f, context=ctx)
    assert ctx.calls[-1] == ("dgemm", "T", "T", 6, 5, 4, 1.0, 0xA000, 4, 0xB000, 5, 0.0, 0xC000, 8, 0)


def test_gemm_refuses_bad_shapes_and_dtypes():
    ctx = RecordingContext()
    a, b = FakeDevice((6, 4), "<f4"), FakeDevice((5, 5), "<f4")
    with pytest.raises(ValueError, match="needs shapes"):
        hone.gemm(a, b, FakeDevice((6, 5), "<f4"), context=ctx)
    with pytest.raises(ValueError, match="c must have shape"):
        hone.gemm(a, FakeDevice((4, 5), "<f4"), FakeDevice((6, 6), "<f4"), context=ctx)
    with pytest.raises(TypeError, match="same dtype"):
        hone.gemm(a, FakeDevice((4, 5), "<f8"), FakeDevice((6, 5), "<f4"), context=ctx)
    with pytest.raises(TypeError, match="3xtf32"):
        hone.gemm(FakeDevice((6, 4)), FakeDevice((4, 5)), FakeDevice((6, 5)), algorithm="3xtf32", context=ctx)
    with pytest.raises(TypeError, match="c is needed"):
        hone.gemm(a, FakeDevice((4, 5), "<f4"), context=ctx)
    with pytest.raises(ValueError, match="unit stride"):
        hone.gemm(FakeDevice((6, 4), "<f4", strides=(32, 8)), FakeDevice((4, 5), "<f4"),
                  FakeDevice((6, 5), "<f4"), context=ctx)
    assert ctx.calls == []


@pytest.mark.parametrize("dtype, algorithm", [("float32", "fma"), ("float64", "fma"), ("float32", "3xtf32")])
def test_gemm_numpy_arrays_match_numpy(dtype, algorithm):
    np = pytest.importorskip("numpy")
    ctx = gpu_context()
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (300, 177)).astype(dtype)
    b = rng.uniform(-1, 1, (177, 211)).astype(dtype)
    c = rng.uniform(-1, 1, (300, 211)).astype(dtype)
    got = hone.gemm(a, b, c, alpha=1.5, beta=-0.5, algorithm=algorithm, context=ctx)
    a64, b64 = a.astype("float64"), b.astype("float64")
    want = 1.5 * a64 @ b64 - 0.5 * c.astype("float64")
    eps = np.finfo(dtype).eps
    bound = 4 * 177 * eps * (1.5 * np.abs(a64) @ np.abs(b64) + 0.5 * np.abs(c))
    assert np.all(np.abs(got - want) <= bound)


def test_gemm_cupy_arrays_in_place_and_transposed_views():
    cp = pytest.importorskip("cupy")
    gpu_context()
    a = cp.random.rand(512, 300, dtype=cp.float32)
    b = cp.random.rand(200, 512, dtype=cp.float32)
    c = cp.zeros((300, 200), dtype=cp.float32)
    out = hone.gemm(a.T, b.T, c, stream=cp.cuda.get_current_stream().ptr)
    assert out is c
    want = a.T.astype(cp.float64) @ b.T.astype(cp.float64)
    assert float(cp.abs(c - want).max()) <= 1e-4 * float(cp.abs(want).max())
    fresh = hone.gemm(a.T, b.T)
    assert fresh.shape == (300, 200) and float(cp.abs(fresh - c).max()) == 0.0


from hone import tuning  # noqa: E402


def test_tune_defines_and_grid_follow_kernel_tuners_conventions():
    params = {"block_size_x": 128, "tile": 4}
    grid = tuning._grid((1000, 1, 1), params, [["block_size_x", "tile"], None, None], (128, 1, 1))
    assert grid == (2, 1, 1)
    assert tuning._grid((1000, 10, 1), params, [None, None, None], (128, 1, 1)) == (8, 10, 1)
    assert tuning._grid((1000, 1, 1), params, ["block_size_x*tile*2", None, None], (128, 1, 1)) == (1, 1, 1)
    code = tuning._prepared("__global__ void k() {}", params, (1000, 1, 1), grid, tuning._DEFAULT_BLOCK_NAMES,
                            (128, 1, 1), {"EXTRA": 3}, True)
    for line in ["#define kernel_tuner 1", "#define problem_size_x 1000", "#define grid_size_x 2",
                 "#define block_size_x 128", "#define tile 4", "#define block_size_y 1", "#define EXTRA 3"]:
        assert line in code.splitlines()
    assert 'extern "C" {\n#line 1\n__global__ void k() {}' in code
    assert tuning._problem_size((64, 32), params) == (64, 32, 1)
    np = pytest.importorskip("numpy")
    assert tuning._problem_size(np.int32(1000), params) == (1000, 1, 1)
    assert tuning._size_record(np.int32(1000)) == 1000 and type(tuning._size_record(np.int64(7))) is int
    assert tuning._size_record((np.int64(64), "n")) == [64, "n"]
    with pytest.raises(ValueError, match="problem_size"):
        tuning._problem_size(0, params)


def test_tune_restrictions_take_expressions_and_callables():
    p = {"block_size_x": 256, "tile": 8}
    assert tuning._restricted(["block_size_x * tile <= 2048"], p)
    assert not tuning._restricted(["block_size_x * tile < 2048"], p)
    assert not tuning._restricted(lambda q: q["tile"] == 4, p)
    assert tuning._restricted([lambda q: q["tile"] == 8, "tile > 1"], p)


def test_tune_refuses_options_it_does_not_implement_before_any_device_work():
    with pytest.raises(NotImplementedError, match="observers"):
        hone.tune("k", "__global__ void k() {}", 10, [], {"block_size_x": [32]}, observers=[1])
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        hone.tune("k", "__global__ void k() {}", 10, [], {"block_size_x": [32]}, bogus=1)
    with pytest.raises(NotImplementedError, match="strategy"):
        hone.tune("k", "__global__ void k() {}", 10, [], {"block_size_x": [32]}, strategy="genetic_algorithm")


def test_store_output_file_writes_t4(tmp_path):
    results = [{"block_size_x": 64, "time": 0.5, "times": [0.4, 0.6], "compile_time": 12.0, "timestamp": "t"},
               {"block_size_x": 2048, "invalidity": "constraints", "timestamp": "t"}]
    path = tmp_path / "out.json"
    hone.store_output_file(str(path), results, {"block_size_x": [64, 2048]})
    import json

    doc = json.loads(path.read_text())
    assert doc["schema_version"] == "1.0.0"
    ok, bad = doc["results"]
    assert ok["configuration"] == {"block_size_x": 64} and ok["invalidity"] == "correct"
    assert ok["measurements"] == [{"name": "time", "value": 0.5, "unit": "ms"}]
    assert ok["times"]["runtimes"] == [0.4, 0.6] and ok["times"]["benchmark"] == 1.0
    assert bad["invalidity"] == "constraints" and bad["measurements"] == []


VECTOR_ADD = """
__global__ void vector_add(float *c, const float *a, const float *b, int n) {
    int i = blockIdx.x * block_size_x * tile + threadIdx.x;
    for (int t = 0; t < tile; t++, i += block_size_x)
        if (i < n) c[i] = a[i] + b[i];
}
"""


def test_tune_a_kernel_tuner_script_on_the_gpu(tmp_path):
    np = pytest.importorskip("numpy")
    gpu_context()
    n = np.int32(1_000_003)
    a = np.random.rand(n).astype(np.float32)
    b = np.random.rand(n).astype(np.float32)
    c = np.zeros_like(a)
    tune_params = {"block_size_x": [64, 256, 2048], "tile": [1, 2, 4]}
    cache = str(tmp_path / "cache.json")
    results, env = hone.tune("vector_add", VECTOR_ADD, n, [c, a, b, n], tune_params,
                             grid_div_x=["block_size_x", "tile"], answer=[a + b, None, None, None],
                             restrictions=["tile * block_size_x <= 4096"], cache=cache,
                             output_file=str(tmp_path / "t4.json"), iterations=9)
    # 2048 threads per block is over the device's limit: refused, not run.
    assert sorted((r["block_size_x"], r["tile"]) for r in results) == [
        (64, 1), (64, 2), (64, 4), (256, 1), (256, 2), (256, 4)]
    import json

    stored = json.loads(open(cache).read())["cache"]
    assert stored["2048,1"]["invalidity"] == "constraints" and "2048,4" not in stored
    assert all(len(r["times"]) == 9 and r["time"] > 0 for r in results)
    assert env["device_name"] and env["iterations"] == 9
    # Resumed from the cache: nothing is measured again.
    again, _ = hone.tune("vector_add", VECTOR_ADD, n, [c, a, b, n], tune_params,
                         grid_div_x=["block_size_x", "tile"], answer=[a + b, None, None, None],
                         restrictions=["tile * block_size_x <= 4096"], cache=cache)
    assert [r["timestamp"] for r in again] == [r["timestamp"] for r in results]
    assert [r["time"] for r in again] == [r["time"] for r in results]
    # A wrong answer and a compile error are recorded, not raised.
    bad, _ = hone.tune("vector_add", VECTOR_ADD.replace("a[i] + b[i]", "a[i] - b[i]"), n, [c, a, b, n],
                       {"block_size_x": [128], "tile": [1]}, grid_div_x=["block_size_x", "tile"],
                       answer=[a + b, None, None, None], cache=str(tmp_path / "bad.json"))
    assert bad == []
    stored = json.loads((tmp_path / "bad.json").read_text())["cache"]["128,1"]
    assert stored["invalidity"] == "correctness"
    broken, _ = hone.tune("vector_add", VECTOR_ADD.replace("tile;", "tile"), n, [c, a, b, n],
                          {"block_size_x": [128], "tile": [1]}, grid_div_x=["block_size_x", "tile"])
    assert broken == []


class FakeRunner:
    """Stands in for the GPU: compiles unless the source has #error, refuses
    blocks over 1024 threads, and times every run as 1 ms plus the tile."""

    compiled = 0

    def __init__(self, device=0):
        self.buffers = {}

    def environment(self):
        return [("device_name", "fake"), ("nvrtc", "0.0")]

    def compile(self, source, name, kernel, options):
        if "#error" in source:
            raise hone.tuning.CompileError("kernel.cu(3): error: #error directive")
        FakeRunner.compiled += 1
        self.source = source
        return 7, 0.5

    def release(self, module):
        assert module == 7

    def alloc(self, nbytes, data):
        self.buffers[len(self.buffers)] = bytearray(data)
        return len(self.buffers) - 1

    def upload(self, index, data):
        self.buffers[index][: len(data)] = data

    def download(self, index, nbytes):
        return bytes(self.buffers[index][:nbytes])

    def free(self, index):
        del self.buffers[index]

    def run(self, module, grid, block, smem, args, warmup, reps):
        if block[0] > 1024:
            raise hone.tuning.LaunchRefused(f"{block[0]} threads per block")
        tile = int(self.source.split("#define tile ")[1].split()[0])
        return [1.0 + tile] * reps


def test_tune_measures_records_and_resumes_without_a_gpu(tmp_path, monkeypatch):
    np = pytest.importorskip("numpy")
    monkeypatch.setattr(hone.tuning, "KernelRunner", FakeRunner)
    FakeRunner.compiled = 0
    n = np.int32(1000)
    c = np.zeros(1000, dtype=np.float32)
    params = {"block_size_x": [64, 2048], "tile": [1, 2]}
    cache = str(tmp_path / "cache.json")
    results, env = hone.tune("k", "__global__ void k(float *c, int n) {}", n, [c, n], params,
                             answer=[np.zeros(1000, dtype=np.float32), None], cache=cache,
                             output_file=str(tmp_path / "t4.json"), quiet=True)
    assert [(r["block_size_x"], r["tile"], r["time"]) for r in results] == [(64, 1, 2.0), (64, 2, 3.0)]
    assert env["problem_size"] == 1000 and env["device_name"] == "fake"
    assert results[0]["grid"] == [16, 1, 1] and results[0]["block"] == [64, 1, 1]
    import json

    stored = json.loads(open(cache).read())["cache"]
    assert stored["2048,1"]["invalidity"] == "constraints"
    t4 = json.loads((tmp_path / "t4.json").read_text())["results"]
    assert sorted(r["invalidity"] for r in t4) == ["constraints", "constraints", "correct", "correct"]
    again, _ = hone.tune("k", "__global__ void k(float *c, int n) {}", n, [c, n], params,
                         answer=[np.zeros(1000, dtype=np.float32), None], cache=cache, quiet=True)
    assert again == results and FakeRunner.compiled == 4
    wrong, _ = hone.tune("k", "__global__ void k(float *c, int n) {}", n, [c, n], {"tile": [1]},
                         answer=[np.ones(1000, dtype=np.float32), None], quiet=True)
    assert wrong == []
    broken, _ = hone.tune("k", "#error no\n", n, [c, n], {"tile": [1]}, quiet=True)
    assert broken == []
    with pytest.raises(ValueError, match="a cache of kernel 'k'"):
        hone.tune("other", "x", n, [c, n], params, cache=cache, quiet=True)
