//! `hone._hone`: the native half of the Python package, a thin layer over
//! libhone's C ABI (the same handle, stream fencing and errors as C
//! callers get). The Python half (`python/hone/`) turns CuPy arrays,
//! PyTorch tensors and NumPy arrays into the pointers and dimensions taken
//! here.

mod runner;

use std::ffi::CStr;

use hone::hone_fill_mode_t::{HONE_FILL_MODE_LOWER, HONE_FILL_MODE_UPPER};
use hone::hone_status_t::{self, *};
use hone::*;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

create_exception!(
    _hone,
    HoneError,
    PyException,
    "A failure in hone's GPU library."
);
create_exception!(_hone, NoDeviceError, HoneError, "No CUDA driver or device.");

/// The status as a Python exception carrying libhone's message.
fn check(status: hone_status_t) -> PyResult<()> {
    if status == HONE_STATUS_SUCCESS {
        return Ok(());
    }
    // SAFETY: libhone keeps a NUL-terminated message per thread.
    let message = unsafe { CStr::from_ptr(hone_get_last_error()) }
        .to_string_lossy()
        .into_owned();
    Err(match status {
        HONE_STATUS_NO_DEVICE => NoDeviceError::new_err(message),
        HONE_STATUS_INVALID_VALUE => PyValueError::new_err(message),
        _ => HoneError::new_err(message),
    })
}

/// A handle on one GPU: the compiled kernels, the selection rules, and the
/// stream calls are ordered on.
#[pyclass(unsendable)]
struct Context {
    handle: hone_handle_t,
}

#[pymethods]
impl Context {
    #[new]
    #[pyo3(signature = (device = 0))]
    fn new(device: i32) -> PyResult<Context> {
        let mut handle: hone_handle_t = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        check(unsafe { hone_create(&mut handle, device) })?;
        Ok(Context { handle })
    }

    /// y = alpha A x + beta y on device pointers (`precision` "d" or "s",
    /// `uplo` "lower" or "upper", A column-major with leading dimension
    /// lda), ordered on `stream` (a CUstream as an int; 0: the legacy
    /// default stream).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (precision, uplo, n, alpha, a, lda, x, beta, y, stream = 0))]
    fn symv(
        &mut self,
        precision: &str,
        uplo: &str,
        n: i32,
        alpha: f64,
        a: usize,
        lda: i32,
        x: usize,
        beta: f64,
        y: usize,
        stream: usize,
    ) -> PyResult<()> {
        let fill = match uplo {
            "lower" | "L" | "l" => HONE_FILL_MODE_LOWER,
            "upper" | "U" | "u" => HONE_FILL_MODE_UPPER,
            other => {
                return Err(PyValueError::new_err(format!(
                    "uplo `{other}`: lower or upper"
                )))
            }
        };
        // SAFETY: the handle is alive; the Python side passes pointers of
        // arrays it holds, sized as BLAS requires.
        unsafe {
            check(hone_set_stream(self.handle, stream as *mut _))?;
            check(match precision {
                "d" => hone_dsymv(
                    self.handle,
                    fill,
                    n,
                    alpha,
                    a as *const f64,
                    lda,
                    x as *const f64,
                    1,
                    beta,
                    y as *mut f64,
                    1,
                ),
                "s" => hone_ssymv(
                    self.handle,
                    fill,
                    n,
                    alpha as f32,
                    a as *const f32,
                    lda,
                    x as *const f32,
                    1,
                    beta as f32,
                    y as *mut f32,
                    1,
                ),
                other => {
                    return Err(PyValueError::new_err(format!(
                        "precision `{other}`: d or s"
                    )))
                }
            })
        }
    }

    /// C = alpha op(A) op(B) + beta C on device pointers, column-major as
    /// BLAS (`routine` "sgemm", "dgemm" or "sgemm_3xtf32"; `transa`,
    /// `transb` "N" or "T"), ordered on `stream`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (routine, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream = 0))]
    fn gemm(
        &mut self,
        routine: &str,
        transa: &str,
        transb: &str,
        m: i32,
        n: i32,
        k: i32,
        alpha: f64,
        a: usize,
        lda: i32,
        b: usize,
        ldb: i32,
        beta: f64,
        c: usize,
        ldc: i32,
        stream: usize,
    ) -> PyResult<()> {
        let op = |t: &str| match t {
            "N" | "n" => Ok(hone_operation_t::HONE_OP_N),
            "T" | "t" => Ok(hone_operation_t::HONE_OP_T),
            other => Err(PyValueError::new_err(format!("op `{other}`: N or T"))),
        };
        let (ta, tb) = (op(transa)?, op(transb)?);
        // SAFETY: the handle is alive; the Python side passes pointers of
        // arrays it holds, sized as BLAS requires.
        unsafe {
            check(hone_set_stream(self.handle, stream as *mut _))?;
            check(match routine {
                "dgemm" => hone_dgemm(
                    self.handle,
                    ta,
                    tb,
                    m,
                    n,
                    k,
                    alpha,
                    a as *const f64,
                    lda,
                    b as *const f64,
                    ldb,
                    beta,
                    c as *mut f64,
                    ldc,
                ),
                "sgemm" | "sgemm_3xtf32" => {
                    let f = if routine == "sgemm" {
                        hone_sgemm
                    } else {
                        hone_sgemm_3xtf32
                    };
                    f(
                        self.handle,
                        ta,
                        tb,
                        m,
                        n,
                        k,
                        alpha as f32,
                        a as *const f32,
                        lda,
                        b as *const f32,
                        ldb,
                        beta as f32,
                        c as *mut f32,
                        ldc,
                    )
                }
                other => {
                    return Err(PyValueError::new_err(format!(
                        "routine `{other}`: sgemm, dgemm or sgemm_3xtf32"
                    )))
                }
            })
        }
    }

    /// Waits for the last stream's work.
    fn synchronize(&mut self) -> PyResult<()> {
        // SAFETY: the handle is alive.
        check(unsafe { hone_synchronize(self.handle) })
    }

    /// Allocates device memory; the address as an int.
    fn alloc(&mut self, bytes: usize) -> PyResult<usize> {
        let mut p = std::ptr::null_mut();
        // SAFETY: the handle is alive; a valid out-pointer.
        check(unsafe { hone_device_alloc(self.handle, bytes, &mut p) })?;
        Ok(p as usize)
    }

    fn free(&mut self, ptr: usize) -> PyResult<()> {
        // SAFETY: the Python side frees only what alloc returned, once.
        check(unsafe { hone_device_free(self.handle, ptr as *mut _) })
    }

    /// Copies `data` to device address `dst`.
    fn upload(&mut self, dst: usize, data: &[u8]) -> PyResult<()> {
        // SAFETY: the Python side passes an allocation of at least len(data).
        check(unsafe {
            hone_copy_to_device(
                self.handle,
                dst as *mut _,
                data.as_ptr() as *const _,
                data.len(),
            )
        })
    }

    /// `bytes` bytes from device address `src`.
    fn download<'py>(
        &mut self,
        py: Python<'py>,
        src: usize,
        bytes: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mut out = vec![0u8; bytes];
        // SAFETY: the Python side passes an allocation of at least `bytes`.
        check(unsafe {
            hone_copy_to_host(
                self.handle,
                out.as_mut_ptr() as *mut _,
                src as *const _,
                bytes,
            )
        })?;
        Ok(PyBytes::new(py, &out))
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: created by hone_create, destroyed once.
        let _ = unsafe { hone_destroy(self.handle) };
    }
}

/// The memory-access analysis of a launch file (JSON, as `hone sim` and
/// `hone analyze` read it), as the JSON text `hone analyze --json` prints.
#[pyfunction]
#[pyo3(signature = (launch_path, model = "sm90", fixes = true))]
fn analyze_launch(launch_path: &str, model: &str, fixes: bool) -> PyResult<String> {
    let path = std::path::Path::new(launch_path);
    let bad = |e: &dyn std::fmt::Display| PyValueError::new_err(format!("{launch_path}: {e}"));
    let launch = hone_launch::Launch::read(path).map_err(|e| bad(&e))?;
    let parsed = launch.parse().map_err(|e| bad(&e))?;
    let kernel = launch.kernel(&parsed).map_err(|e| bad(&e))?;
    let data = launch.data(kernel).map_err(|e| bad(&e))?;
    let model = hone_analyzer::Model::parse(model)
        .ok_or_else(|| PyValueError::new_err(format!("unknown model `{model}` (sm90 or cc11)")))?;
    let kernel_name = parsed.function_name(launch.kernel_name());
    let spec = hone_analyzer::LaunchSpec {
        module: parsed.module,
        kernel: kernel_name,
        launch: data,
    };
    let options = hone_analyzer::Options {
        model,
        suggest: fixes,
        ..hone_analyzer::Options::default()
    };
    let analysis = hone_analyzer::analyze(&spec, &options).map_err(|e| bad(&e))?;
    let json = hone_analyzer::report::json(&analysis, &Default::default());
    serde_json::to_string(&json).map_err(|e| HoneError::new_err(e.to_string()))
}

/// hone's version.
#[pyfunction]
fn version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { CStr::from_ptr(hone_version()) }
        .to_string_lossy()
        .into_owned()
}

#[pymodule]
fn _hone(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Context>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_launch, m)?)?;
    m.add_class::<runner::KernelRunner>()?;
    m.add("CompileError", m.py().get_type::<runner::CompileError>())?;
    m.add("LaunchRefused", m.py().get_type::<runner::LaunchRefused>())?;
    m.add("HoneError", m.py().get_type::<HoneError>())?;
    m.add("NoDeviceError", m.py().get_type::<NoDeviceError>())?;
    Ok(())
}
