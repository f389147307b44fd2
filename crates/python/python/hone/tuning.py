"""``hone.tune``: auto-tuning a CUDA kernel from Python with the interface of
Kernel Tuner's ``tune_kernel``, so that a Kernel Tuner script ports by
renaming the call and its module::

    results, env = hone.tune("vector_add", source, n, [c, a, b, n], tune_params,
                             answer=[a + b, None, None, None])

The kernel is compiled with NVRTC (through hone's on-disk module cache) for
each configuration, with every tunable parameter (and ``kernel_tuner``,
``block_size_x`` ... and ``problem_size_x`` ...) as a ``#define``, exactly as
Kernel Tuner passes them; the configuration's first run is checked against
``answer`` (or ``verify``), and it is then timed with CUDA events
(``iterations`` runs after a warm-up, the mean reported as ``time`` in ms, as
Kernel Tuner does, every run in ``times``). A configuration that does not
compile, that the device refuses to launch (too many threads or too much
shared memory for the compiled kernel), or that gives a wrong answer is
recorded as invalid with its reason instead of stopping the run.

Every measurement is stored in ``cache`` (a JSON file) as it is taken, and a
run given the same ``cache`` resumes: configurations already measured are
not measured again. ``store_output_file`` writes the results in the T4
format (the same as ``hone report --export t4``).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import tempfile
import time
from typing import Any, Callable, Optional, Sequence, Union

from ._hone import CompileError, HoneError, KernelRunner, LaunchRefused, version

__all__ = ["tune", "store_output_file", "store_metadata_file"]

_DEFAULT_BLOCK_NAMES = ["block_size_x", "block_size_y", "block_size_z"]

# Kernel Tuner options that hone does not implement; passing one is an error
# naming it, not a silent difference.
_UNSUPPORTED = ("texmem_args", "observers", "simulation_mode", "platform", "compiler",
                "metrics", "objective_higher_is_better")

_SCALARS = {"int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
            "float32": "float32", "float64": "float64"}


def _product(values) -> int:
    out = 1
    for v in values:
        out *= int(v)
    return out


def _eval(expr: Union[str, int, float], params: dict) -> float:
    """A grid divisor or restriction: a number, a parameter's name, or a
    Python expression over the parameters (Kernel Tuner's convention)."""
    if isinstance(expr, (int, float)):
        return expr
    if expr in params:
        return params[expr]
    return eval(expr, {"__builtins__": {}}, dict(params))


def _problem_size(problem_size: Any, params: dict) -> tuple[int, int, int]:
    if callable(problem_size):
        problem_size = problem_size(params)
    if isinstance(problem_size, (int,)) or hasattr(problem_size, "__index__"):
        dims = [int(problem_size)]
    else:
        dims = [int(_eval(p, params)) for p in problem_size]
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise ValueError(f"problem_size must be 1 to 3 positive sizes, got {problem_size!r}")
    return tuple(dims + [1] * (3 - len(dims)))  # type: ignore[return-value]


def _size_record(problem_size: Any) -> Any:
    """The problem size as JSON can hold it (NumPy integers included)."""
    if callable(problem_size):
        return "callable"
    if hasattr(problem_size, "__index__"):
        return int(problem_size)
    return [p if isinstance(p, str) else int(p) for p in problem_size]


def _grid(problem: tuple, params: dict, divs: list, block: tuple) -> tuple[int, int, int]:
    out = []
    for axis in range(3):
        div = divs[axis]
        if callable(div):
            out.append(int(div(params)))
            continue
        if div is None:
            d = block[axis]
        else:
            d = _product(_eval(x, params) for x in (div if isinstance(div, (list, tuple)) else [div]))
        out.append(int(math.ceil(problem[axis] / d)) if d else 0)
    return tuple(out)  # type: ignore[return-value]


def _restricted(restrictions: Any, params: dict) -> bool:
    """True when the configuration passes every restriction."""
    if restrictions is None:
        return True
    if callable(restrictions):
        return bool(restrictions(params))
    for r in restrictions:
        ok = r(params) if callable(r) else _eval(r, params)
        if not ok:
            return False
    return True


def _key(params: dict, names: Sequence[str]) -> str:
    return ",".join(str(params[n]) for n in names)


def _source(kernel_source: Any) -> tuple[str, str]:
    """The source text and a name for messages: a file's path or the code."""
    if isinstance(kernel_source, (list, tuple)):
        kernel_source = kernel_source[0]
    if callable(kernel_source):
        raise NotImplementedError("a kernel source generator function is not supported; pass the code")
    text = os.fspath(kernel_source)
    if "\n" not in text and len(text) < 4096 and os.path.isfile(text):
        with open(text) as f:
            return f.read(), text
    return text, "kernel.cu"


def _prepared(source: str, params: dict, problem: tuple, grid: tuple, block_names: list,
              block: tuple, defines: Optional[dict], extern_c: bool) -> str:
    lines = ["#define kernel_tuner 1"]
    for axis, suffix in enumerate("xyz"):
        lines.append(f"#define problem_size_{suffix} {problem[axis]}")
        lines.append(f"#define grid_size_{suffix} {grid[axis]}")
    for name, value in params.items():
        lines.append(f"#define {name} {value}")
    for axis, name in enumerate(block_names):
        if name not in params:
            lines.append(f"#define {name} {block[axis]}")
    for name, value in (defines or {}).items():
        v = value(params) if callable(value) else value
        lines.append(f"#define {name} {v}")
    # `#line 1` keeps the compiler's line numbers those of the user's file.
    body = "#line 1\n" + source
    if extern_c and 'extern "C"' not in source:
        # As pycuda and Kernel Tuner's CUDA backends do, so that kernels are
        # found by their plain names.
        body = 'extern "C" {\n' + body + "\n}\n"
    return "\n".join(lines) + "\n" + body


class _Args:
    """The user's arguments on the GPU: arrays as buffers (restored before
    each checked run), scalars by their NumPy type."""

    def __init__(self, runner: KernelRunner, arguments: Sequence[Any]):
        import numpy as np

        self.runner = runner
        self.host = []
        self.spec = []
        self.buffers = []
        for i, a in enumerate(arguments):
            if isinstance(a, np.ndarray):
                data = np.ascontiguousarray(a)
                idx = runner.alloc(data.nbytes, data.tobytes())
                self.buffers.append(idx)
                self.host.append(data)
                self.spec.append(("buffer", idx))
            elif isinstance(a, np.generic):
                kind = _SCALARS.get(a.dtype.name)
                if kind is None:
                    raise TypeError(f"argument {i}: scalar type {a.dtype.name} is not supported")
                self.host.append(a)
                self.spec.append((kind, a.item()))
            else:
                raise TypeError(f"argument {i}: {type(a).__name__}; pass NumPy arrays and NumPy scalars "
                                "(np.int32(n), np.float32(x)) as Kernel Tuner does")

    def restore(self) -> None:
        for a, (kind, idx) in zip(self.host, self.spec):
            if kind == "buffer":
                self.runner.upload(idx, a.tobytes())

    def result(self, i: int):
        import numpy as np

        a = self.host[i]
        if self.spec[i][0] != "buffer":
            return a
        raw = self.runner.download(self.spec[i][1], a.nbytes)
        return np.frombuffer(raw, dtype=a.dtype).reshape(a.shape)

    def free(self) -> None:
        for idx in self.buffers:
            self.runner.free(idx)


def _check(args: _Args, answer: Optional[Sequence[Any]], verify: Optional[Callable], atol: float) -> Optional[str]:
    """None when the outputs match the answer; otherwise why not."""
    import numpy as np

    if answer is None:
        return None
    if len(answer) != len(args.host):
        raise ValueError(f"answer has {len(answer)} entries for {len(args.host)} arguments")
    results = [args.result(i) if want is not None else None for i, want in enumerate(answer)]
    if verify is not None:
        ok = verify(answer, results, atol=atol)
        return None if ok else "verify() returned False"
    for i, want in enumerate(answer):
        if want is None:
            continue
        got = results[i]
        want = np.asarray(want)
        if got.size != want.size:
            raise ValueError(f"answer[{i}] has {want.size} elements, argument {i} has {got.size}")
        got = got.reshape(want.shape)
        if not np.allclose(got, want, atol=atol, rtol=0.0, equal_nan=False):
            bad = int(np.count_nonzero(~np.isclose(got, want, atol=atol, rtol=0.0)))
            return f"argument {i}: {bad} of {want.size} elements differ by more than atol={atol}"
    return None


def _load_cache(path: str, kernel_name: str, names: list) -> dict:
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a readable tuning cache: {e}") from e
    if data.get("kernel_name") != kernel_name or data.get("tune_params_keys") != names:
        raise ValueError(f"{path}: a cache of kernel {data.get('kernel_name')!r} with parameters "
                         f"{data.get('tune_params_keys')}, not {kernel_name!r} with {names}")
    return dict(data.get("cache", {}))


def _write_json(path: str, data: Any) -> None:
    """Writes by renaming a finished file, so a crash leaves the old one."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".hone-cache-")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def tune(kernel_name: str, kernel_source: Any, problem_size: Any, arguments: Sequence[Any],
         tune_params: dict, grid_div_x: Any = None, grid_div_y: Any = None, grid_div_z: Any = None,
         restrictions: Any = None, answer: Optional[Sequence[Any]] = None, atol: float = 1e-6,
         verify: Optional[Callable] = None, verbose: bool = False, lang: Optional[str] = None,
         device: int = 0, smem_args: Optional[dict] = None, cmem_args: Optional[dict] = None,
         compiler_options: Optional[Sequence[str]] = None, defines: Optional[dict] = None,
         iterations: int = 7, block_size_names: Optional[Sequence[str]] = None, quiet: bool = False,
         strategy: Optional[str] = None, strategy_options: Optional[dict] = None,
         cache: Optional[str] = None, objective: Optional[str] = None, extern_c: bool = True,
         output_file: Optional[str] = None, **unsupported: Any) -> tuple[list, dict]:
    """Tunes ``kernel_name`` over ``tune_params`` and returns
    ``(results, env)`` as Kernel Tuner's ``tune_kernel`` does: one dict per
    valid configuration with its parameters, ``time`` (mean ms), ``times``
    and ``compile_time``; ``env`` describes the device and the run.

    The arguments mean what they mean to Kernel Tuner (grid divisors,
    restrictions as expressions or callables, ``answer``/``verify``/``atol``,
    ``iterations``, ``block_size_names``, ``smem_args`` with ``size``,
    ``compiler_options``, ``defines``, ``cache``, ``strategy`` =
    ``"brute_force"`` or ``"random_sample"`` with ``strategy_options``
    ``fraction`` or ``max_fevals``). hone's own: ``extern_c`` (wrap the source
    in ``extern "C"`` unless it has one, as Kernel Tuner's CUDA backends do),
    ``output_file`` (write the T4 results there as well). Options hone does
    not implement raise ``NotImplementedError`` naming them.
    """
    for name in list(unsupported):
        if name in _UNSUPPORTED:
            raise NotImplementedError(f"hone.tune does not support {name}=")
        raise TypeError(f"tune() got an unexpected keyword argument {name!r}")
    if lang not in (None, "CUDA", "cuda", "CUPY", "cupy", "NVCUDA", "nvcuda"):
        raise NotImplementedError(f"lang={lang!r}: hone tunes CUDA kernels")
    if cmem_args:
        raise NotImplementedError("cmem_args: declare the constants as kernel arguments or #defines")
    if objective not in (None, "time"):
        raise NotImplementedError(f"objective={objective!r}: hone.tune minimises time")
    if not tune_params:
        raise ValueError("tune_params is empty")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    block_names = list(block_size_names or _DEFAULT_BLOCK_NAMES)
    names = list(tune_params)
    source, source_name = _source(kernel_source)
    options = list(compiler_options or [])

    configs = [dict(zip(names, values)) for values in itertools.product(*tune_params.values())]
    configs = [c for c in configs if _restricted(restrictions, c)]
    strategy = strategy or "brute_force"
    strategy_options = dict(strategy_options or {})
    if strategy == "random_sample":
        rng = random.Random(strategy_options.get("seed", 0))
        count = strategy_options.get("max_fevals")
        if count is None:
            count = max(1, int(round(len(configs) * strategy_options.get("fraction", 0.1))))
        configs = rng.sample(configs, min(int(count), len(configs)))
    elif strategy != "brute_force":
        raise NotImplementedError(f"strategy={strategy!r}: hone.tune offers brute_force and random_sample "
                                  "(hone tune on a job file offers the champion sieve and Bayesian optimisation)")

    runner = KernelRunner(device)
    env = dict(runner.environment())
    env.update({"kernel_name": kernel_name, "problem_size": _size_record(problem_size),
                "iterations": iterations, "compiler_options": options, "hone_version": version(),
                "strategy": strategy})
    measured = _load_cache(cache, kernel_name, names) if cache else {}
    cache_doc = {"device_name": env["device_name"], "kernel_name": kernel_name, "problem_size": env["problem_size"],
                 "tune_params_keys": names, "tune_params": {k: list(v) for k, v in tune_params.items()},
                 "objective": "time", "cache": measured}
    args = _Args(runner, arguments)
    results: list = []
    try:
        for n, params in enumerate(configs):
            key = _key(params, names)
            if key in measured:
                record = measured[key]
            else:
                record = _measure(runner, args, source, source_name, kernel_name, params, problem_size,
                                  (grid_div_x, grid_div_y, grid_div_z), block_names, smem_args, defines,
                                  options, extern_c, answer, verify, atol, iterations)
                measured[key] = record
                if cache:
                    _write_json(cache, cache_doc)
            if verbose and not quiet:
                shown = ", ".join(f"{k}={params[k]}" for k in names)
                what = f"{record['time']:.4f} ms" if "time" in record else record.get("invalidity", "invalid")
                print(f"[{n + 1}/{len(configs)}] {shown}: {what}")
            if "time" in record:
                results.append(record)
    finally:
        args.free()
    if results and not quiet:
        best = min(results, key=lambda r: r["time"])
        shown = ", ".join(f"{k}={best[k]}" for k in names)
        print(f"best of {len(results)} valid configurations: {shown}: {best['time']:.4f} ms")
    if output_file:
        store_output_file(output_file, list(measured.values()), tune_params)
    return results, env


def _measure(runner, args, source, source_name, kernel_name, params, problem_size, divs, block_names,
             smem_args, defines, options, extern_c, answer, verify, atol, iterations) -> dict:
    record: dict = dict(params)
    record["timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    problem = _problem_size(problem_size, params)
    block = tuple(int(params.get(name, 256 if axis == 0 else 1)) for axis, name in enumerate(block_names))
    grid = _grid(problem, params, list(divs), block)
    smem = 0
    if smem_args and "size" in smem_args:
        s = smem_args["size"]
        smem = int(s(params) if callable(s) else _eval(s, params))
    code = _prepared(source, params, problem, grid, block_names, block, defines, extern_c)
    try:
        module, compile_ms = runner.compile(code, source_name, kernel_name, options)
    except CompileError as e:
        record.update({"invalidity": "compile", "error": str(e)})
        return record
    record["compile_time"] = compile_ms
    try:
        if answer is not None or verify is not None:
            args.restore()
            runner.run(module, grid, block, smem, args.spec, 0, 0)
            wrong = _check(args, answer, verify, atol)
            if wrong:
                record.update({"invalidity": "correctness", "error": wrong})
                return record
        times = runner.run(module, grid, block, smem, args.spec, 1, iterations)
    except LaunchRefused as e:
        record.update({"invalidity": "constraints", "error": str(e)})
        return record
    except HoneError as e:
        # A fault leaves the context unusable: stop, with what was measured
        # kept in the cache.
        raise HoneError(f"{kernel_name} with {params}: {e}") from e
    finally:
        runner.release(module)
    record.update({"time": sum(times) / len(times), "times": list(times),
                   "block": list(block), "grid": list(grid)})
    return record


def store_output_file(output_filename: str, results: Sequence[dict], tune_params: dict,
                      objective: str = "time") -> None:
    """Writes ``results`` (from ``tune``, valid or not) in the T4 format that
    Kernel Tuner's ``store_output_file`` and ``hone report --export t4``
    write."""
    names = list(tune_params)
    out = []
    for r in results:
        valid = "time" in r
        invalidity = "correct" if valid else r.get("invalidity", "runtime")
        times = {"runtimes": list(r.get("times", []))}
        if valid:
            times["benchmark"] = sum(times["runtimes"])
        if "compile_time" in r:
            times["compilation"] = r["compile_time"]
        out.append({
            "timestamp": r.get("timestamp"),
            "configuration": {k: r[k] for k in names},
            "times": times,
            "invalidity": invalidity,
            "correctness": 0 if invalidity == "correctness" else 1,
            "measurements": [{"name": "time", "value": r["time"], "unit": "ms"}] if valid else [],
            "objectives": [objective],
        })
    _write_json(output_filename, {"schema_version": "1.0.0", "results": out})


def store_metadata_file(metadata_filename: str, device: int = 0) -> None:
    """Writes the device and toolchain the results were measured with."""
    env = dict(KernelRunner(device).environment())
    env["hone_version"] = version()
    _write_json(metadata_filename, {"schema_version": "1.0.0", "environment": env})
