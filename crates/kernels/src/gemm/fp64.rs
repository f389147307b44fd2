//! The instruction bound of the double-double kernels: how many FP64
//! instructions the compiled main loop spends per double-double
//! multiply-add (read off the SASS that NVRTC makes, through `nvdisasm`),
//! and how many FP64 instructions per second the GPU issues (measured with a
//! kernel of independent FMA chains). Their quotient bounds what a kernel
//! can reach on the CUDA cores; the report states each kernel's rate as a
//! share of it.

use hone_gpu::launch::{DeviceBuffer, KernelArg, LaunchDims, Module};
use hone_gpu::sass::{disassemble, find_nvdisasm, loops};
use hone_gpu::timing::time_runs;
use hone_gpu::{nvrtc, CompileOptions, Gpu, GpuError, Stats, Target, TimingOptions};
use serde::{Deserialize, Serialize};

use super::template::{template, GemmKernel};

/// The FP64 instructions of a kernel's main loop.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Fp64Count {
    pub dfma: usize,
    pub dadd: usize,
    pub dmul: usize,
    /// Double-double multiply-adds one pass of the loop does per thread
    /// (BK TM TN).
    pub madds: usize,
}

impl Fp64Count {
    pub fn total(&self) -> usize {
        self.dfma + self.dadd + self.dmul
    }

    /// FP64 instructions per double-double multiply-add.
    pub fn per_madd(&self) -> f64 {
        self.total() as f64 / self.madds.max(1) as f64
    }

    /// The rate (double-double flops per second, two per multiply-add)
    /// that `fp64_per_second` FP64 instructions allow.
    pub fn bound(&self, fp64_per_second: f64) -> f64 {
        2.0 * fp64_per_second / self.per_madd()
    }
}

/// The FP64 arithmetic (DFMA, DADD, DMUL) of the loop with the most of it:
/// the instructions between a label and the branch back to it.
pub fn count_main_loop(sass: &str) -> Option<(usize, usize, usize)> {
    loops(sass)
        .iter()
        .map(|l| (l.count("DFMA"), l.count("DADD"), l.count("DMUL")))
        .filter(|c| c.0 + c.1 + c.2 > 0)
        .max_by_key(|c| c.0 + c.1 + c.2)
}

/// Compiles `kernel` for `sm_{arch}` and counts its main loop's FP64
/// instructions. Needs NVRTC and `nvdisasm` (no GPU).
pub fn count(kernel: &GemmKernel, arch: u32) -> Result<Fp64Count, GpuError> {
    let nvdisasm = find_nvdisasm().ok_or_else(|| {
        GpuError::Tool(
            "nvdisasm not found (set HONE_NVDISASM, or `pip install nvidia-cuda-nvdisasm`)"
                .to_string(),
        )
    })?;
    let t = template(kernel.flavor);
    let target = Target {
        arch,
        kind: nvrtc::ImageKind::Cubin,
        arch_specific: false,
    };
    let m = nvrtc::compile(
        &t.source(),
        t.file,
        &CompileOptions::with_defines(t.defines(kernel)),
        &target,
    )?;
    let sass = disassemble(&nvdisasm, &m.image)?;
    let (dfma, dadd, dmul) = count_main_loop(&sass).ok_or_else(|| {
        GpuError::Tool(format!(
            "no loop with FP64 arithmetic in the SASS of {}",
            kernel.label()
        ))
    })?;
    let c = |n: &str| kernel.config.get(n).copied().unwrap_or(1).max(1) as usize;
    Ok(Fp64Count {
        dfma,
        dadd,
        dmul,
        madds: c("BK") * c("TM") * c("TN"),
    })
}

const PEAK_SOURCE: &str = r#"
extern "C" __global__ void __launch_bounds__(256) fp64_peak(double* out, double x, int iters) {
  // Eight independent chains per thread hide the FMA latency.
  double a[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) a[i] = x + threadIdx.x + i;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int r = 0; r < 16; ++r) {
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = fma(a[i], 0.999999, 1e-7);
    }
  }
  double s = 0.0;
#pragma unroll
  for (int i = 0; i < 8; ++i) s += a[i];
  if (s == 12345.678) out[0] = s;  // never true; keeps the chains alive
}
"#;

/// The GPU's FP64 instruction rate (thread instructions per second): a grid
/// of 8 blocks per SM running independent FMA chains, timed with events.
pub fn fp64_per_second(gpu: &Gpu, timing: &TimingOptions) -> Result<(f64, Stats), GpuError> {
    let target = nvrtc::target_for(gpu.props().compute_capability)?;
    let m = nvrtc::compile(
        PEAK_SOURCE,
        "fp64_peak.cu",
        &CompileOptions::default(),
        &target,
    )?;
    let module = Module::load(gpu, &m.image, m.kind)?;
    let f = module.function("fp64_peak")?;
    let out = DeviceBuffer::alloc(gpu, 8)?;
    let blocks = gpu.props().sm_count * 8;
    let dims = LaunchDims {
        grid: (blocks, 1, 1),
        block: (256, 1, 1),
        shared_mem: 0,
    };
    let iters = 4096;
    let samples = time_runs(gpu, timing, 1, None, |_| {
        let args = [
            KernelArg::Ptr(out.ptr()),
            KernelArg::F64(1.0),
            KernelArg::I32(iters),
        ];
        // SAFETY: the kernel writes at most out[0], an 8-byte buffer.
        unsafe { f.launch(gpu, &dims, &args) }
    })?;
    let stats = Stats::from_samples(&samples)
        .ok_or_else(|| GpuError::Launch("FP64 peak timings were not finite".to_string()))?;
    let instructions = blocks as f64 * 256.0 * iters as f64 * 16.0 * 8.0;
    Ok((instructions / (stats.median * 1e-3), stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_loop_is_the_back_edge_with_the_most_fp64() {
        let sass = "\
        /*0000*/                   MOV R1, c[0x0][0x28] ;
.L_x_0:
        /*0010*/                   DFMA R4, R6, R8, R4 ;
        /*0020*/              @P0 BRA `(.L_x_0) ;
.L_x_1:
        /*0030*/                   LDS.128 R8, [R2] ;
        /*0040*/                   DFMA R4, R6, R8, R4 ;
        /*0050*/                   DADD R4, R6, -R8 ;
        /*0060*/                   DADD R10, R6, R8 ;
        /*0070*/                   DMUL R12, R6, R8 ;
        /*0080*/              @!P1 BRA `(.L_x_1) ;
        /*0090*/                   DADD R4, R6, R8 ;
        /*00a0*/                   BRA `(.L_x_2) ;
.L_x_2:
        /*00b0*/                   EXIT ;
";
        assert_eq!(count_main_loop(sass), Some((1, 2, 1)));
        assert_eq!(count_main_loop("/*0000*/ EXIT ;"), None);
        let c = Fp64Count {
            dfma: 48,
            dadd: 96,
            dmul: 16,
            madds: 16,
        };
        assert_eq!(c.per_madd(), 10.0);
        assert_eq!(c.bound(10e12), 2e12);
    }
}
