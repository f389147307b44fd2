//! Device discovery: opening a GPU and reading its properties.

use std::fmt;

use cudarc::driver::result as cu;
use cudarc::driver::sys::{self, CUdevice_attribute as Attr};
use serde::{Deserialize, Serialize};

use crate::error::{GpuError, Result};
use crate::libs::{self, DriverResultExt};
use crate::nvrtc;

/// What the tuner and the reports need to know about a device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceProps {
    pub ordinal: u32,
    pub name: String,
    /// `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, as nvidia-smi prints it.
    pub uuid: String,
    pub compute_capability: (u32, u32),
    pub sm_count: u32,
    /// Peak SM clock in kHz; `None` where the driver no longer reports it.
    pub clock_khz: Option<u32>,
    /// Peak memory clock in kHz.
    pub memory_clock_khz: Option<u32>,
    pub memory_bus_width_bits: Option<u32>,
    /// 2 transfers per clock × bus width; a datasheet figure, not a measurement.
    pub theoretical_bandwidth_gbps: Option<f64>,
    pub total_memory_bytes: u64,
    pub l2_cache_bytes: u64,
    pub shared_mem_per_block: u32,
    /// The most dynamic shared memory a block can get after raising the
    /// function's attribute.
    pub shared_mem_per_block_optin: u32,
    pub shared_mem_per_sm: u32,
    pub registers_per_sm: u32,
    pub registers_per_block: u32,
    pub max_threads_per_block: u32,
    pub max_threads_per_sm: u32,
    pub warp_size: u32,
    /// e.g. `(13, 0)` for a CUDA 13.0 driver.
    pub driver_version: (u32, u32),
    /// `None` when NVRTC cannot be loaded.
    pub nvrtc_version: Option<(u32, u32)>,
}

impl DeviceProps {
    /// `NAME (132 SMs, sm_90), driver 13.0`: the device a report's numbers
    /// were measured on.
    pub fn identity(&self) -> String {
        format!(
            "{} ({} SMs, sm_{}{}), driver {}.{}",
            self.name,
            self.sm_count,
            self.compute_capability.0,
            self.compute_capability.1,
            self.driver_version.0,
            self.driver_version.1,
        )
    }

    /// The properties by the names constraints use (`smem_per_sm`,
    /// `regs_per_sm`, ...): the one place that names them.
    pub fn constraint_props(&self) -> hone_tuner::DeviceProps {
        let mut p = hone_tuner::DeviceProps::new();
        let mut set = |name: &str, v: u64| p.set(name, i64::try_from(v).unwrap_or(i64::MAX));
        set("cc_major", self.compute_capability.0.into());
        set("cc_minor", self.compute_capability.1.into());
        set("sm_count", self.sm_count.into());
        set("warp_size", self.warp_size.into());
        set("max_threads_per_block", self.max_threads_per_block.into());
        set("max_threads_per_sm", self.max_threads_per_sm.into());
        set("regs_per_block", self.registers_per_block.into());
        set("regs_per_sm", self.registers_per_sm.into());
        set("smem_per_block", self.shared_mem_per_block.into());
        set(
            "smem_per_block_optin",
            self.shared_mem_per_block_optin.into(),
        );
        set("smem_per_sm", self.shared_mem_per_sm.into());
        set(
            "smem_reserved_per_block",
            self.smem_reserved_per_block().into(),
        );
        set("max_blocks_per_sm", self.max_blocks_per_sm().into());
        set("l2_bytes", self.l2_cache_bytes);
        set("global_mem_mib", self.total_memory_bytes >> 20);
        p
    }

    /// Resident blocks per SM, which the driver does not report: from the
    /// compute capability (CUDA C Programming Guide, technical specifications).
    pub fn max_blocks_per_sm(&self) -> u32 {
        match self.compute_capability {
            (7, 5) | (8, 6) | (8, 7) | (12, _) => 16,
            (8, 9) => 24,
            _ => 32,
        }
    }

    /// Shared memory the system keeps per resident block (1 KiB since sm_80).
    pub fn smem_reserved_per_block(&self) -> u32 {
        if self.compute_capability.0 >= 8 {
            1024
        } else {
            0
        }
    }

    /// `sm_90` for compute capability 9.0.
    pub fn sm_arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }
}

impl fmt::Display for DeviceProps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<u32>, unit: &str| match v {
            Some(v) => format!("{v} {unit}"),
            None => "unknown".to_string(),
        };
        writeln!(f, "device {}: {} ({})", self.ordinal, self.name, self.uuid)?;
        writeln!(
            f,
            "  compute capability {}.{} ({}), {} SMs, SM clock {}",
            self.compute_capability.0,
            self.compute_capability.1,
            self.sm_arch(),
            self.sm_count,
            opt(self.clock_khz, "kHz")
        )?;
        writeln!(
            f,
            "  memory {:.1} GiB, memory clock {}, bus {}, theoretical {}",
            self.total_memory_bytes as f64 / (1u64 << 30) as f64,
            opt(self.memory_clock_khz, "kHz"),
            opt(self.memory_bus_width_bits, "bits"),
            self.theoretical_bandwidth_gbps
                .map(|g| format!("{g:.0} GB/s"))
                .unwrap_or_else(|| "unknown".to_string())
        )?;
        writeln!(
            f,
            "  L2 {:.1} MiB; shared memory {} B/block ({} B opt-in), {} B/SM; {} registers/SM, {} /block",
            self.l2_cache_bytes as f64 / (1u64 << 20) as f64,
            self.shared_mem_per_block,
            self.shared_mem_per_block_optin,
            self.shared_mem_per_sm,
            self.registers_per_sm,
            self.registers_per_block
        )?;
        writeln!(
            f,
            "  max threads {} /block, {} /SM, warp {}",
            self.max_threads_per_block, self.max_threads_per_sm, self.warp_size
        )?;
        write!(
            f,
            "  driver {}.{}, NVRTC {}",
            self.driver_version.0,
            self.driver_version.1,
            self.nvrtc_version
                .map(|(a, b)| format!("{a}.{b}"))
                .unwrap_or_else(|| "not found".to_string())
        )
    }
}

/// An opened device: its primary context (current on the opening thread) and
/// one stream that all work of this crate goes through.
/// How many devices the driver sees. Fails with [`GpuError::NoDevice`] when
/// the driver library is missing or sees none; never panics.
pub fn device_count() -> Result<u32> {
    libs::require_driver()?;
    let no_device = |m: String| GpuError::NoDevice(format!("loading the CUDA driver: {m}"));
    libs::guard(no_device, || {
        if let Err(e) = cu::init() {
            let err = libs::driver_error("cuInit", e);
            return Err(GpuError::NoDevice(err.to_string()));
        }
        let count = cu::device::get_count().during("cuDeviceGetCount")?;
        if count <= 0 {
            return Err(GpuError::NoDevice(
                "the driver reports 0 devices".to_string(),
            ));
        }
        Ok(count as u32)
    })?
}

impl DeviceProps {
    /// A device that does not exist, for workers that act out evaluations
    /// ([`crate::protocol::Simulate`]): an H100's limits under another name
    /// and clock, so that tests can stand up several devices, alike or not.
    pub fn simulated(ordinal: u32, name: &str, clock_mhz: u32) -> DeviceProps {
        DeviceProps {
            ordinal,
            name: name.to_string(),
            uuid: format!("GPU-simulated-{ordinal}-{name}"),
            compute_capability: (9, 0),
            sm_count: 132,
            clock_khz: Some(clock_mhz * 1000),
            memory_clock_khz: Some(2_619_000),
            memory_bus_width_bits: Some(5120),
            theoretical_bandwidth_gbps: Some(3352.3),
            total_memory_bytes: 80 << 30,
            l2_cache_bytes: 50 << 20,
            shared_mem_per_block: 49152,
            shared_mem_per_block_optin: 232448,
            shared_mem_per_sm: 233472,
            registers_per_sm: 65536,
            registers_per_block: 65536,
            max_threads_per_block: 1024,
            max_threads_per_sm: 2048,
            warp_size: 32,
            driver_version: (13, 0),
            nvrtc_version: None,
        }
    }
}

pub struct Gpu {
    device: sys::CUdevice,
    stream: sys::CUstream,
    props: DeviceProps,
}

impl Gpu {
    /// Opens device `ordinal`. Fails with [`GpuError::NoDevice`] when the
    /// driver library is missing, the driver sees no device, or the ordinal is
    /// out of range; never panics.
    pub fn open(ordinal: u32) -> Result<Gpu> {
        libs::require_driver()?;
        let no_device = |m: String| GpuError::NoDevice(format!("loading the CUDA driver: {m}"));
        libs::guard(no_device, || Self::open_loaded(ordinal))?
    }

    fn open_loaded(ordinal: u32) -> Result<Gpu> {
        if let Err(e) = cu::init() {
            let err = libs::driver_error("cuInit", e);
            return Err(GpuError::NoDevice(err.to_string()));
        }
        let count = cu::device::get_count().during("cuDeviceGetCount")?;
        if count <= 0 {
            return Err(GpuError::NoDevice(
                "the driver reports 0 devices".to_string(),
            ));
        }
        if ordinal >= count as u32 {
            return Err(GpuError::NoDevice(format!(
                "device ordinal {ordinal} is out of range ({count} device(s))"
            )));
        }
        let device = cu::device::get(ordinal as i32).during("cuDeviceGet")?;
        // SAFETY: `device` came from cuDeviceGet.
        let ctx = unsafe { cu::primary_ctx::retain(device) }.during("cuDevicePrimaryCtxRetain")?;
        // SAFETY: the context was just retained and stays alive until Drop.
        unsafe { cu::ctx::set_current(ctx) }.during("cuCtxSetCurrent")?;
        let stream =
            cu::stream::create(cu::stream::StreamKind::NonBlocking).during("cuStreamCreate")?;
        let props = read_props(ordinal, device)?;
        Ok(Gpu {
            device,
            stream,
            props,
        })
    }

    pub fn props(&self) -> &DeviceProps {
        &self.props
    }

    pub(crate) fn stream(&self) -> sys::CUstream {
        self.stream
    }

    /// The stream hone's launches go to, for libraries that order their own
    /// copies and events against them (overlapping transfers with kernels).
    pub fn raw_stream(&self) -> sys::CUstream {
        self.stream
    }

    /// Waits for all work on the stream; a kernel fault surfaces here.
    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: the stream belongs to this Gpu.
        unsafe { cu::stream::synchronize(self.stream) }.during("cuStreamSynchronize")
    }

    /// (free, total) device memory in bytes.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        cu::mem_get_info().during("cuMemGetInfo")
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // Errors are ignored: after a fault the context refuses everything, and
        // the process is about to be replaced anyway.
        // SAFETY: the stream and the retained context belong to this Gpu.
        unsafe {
            let _ = cu::stream::destroy(self.stream);
            let _ = cu::primary_ctx::release(self.device);
        }
    }
}

fn read_props(ordinal: u32, device: sys::CUdevice) -> Result<DeviceProps> {
    // SAFETY: `device` came from cuDeviceGet.
    let attr =
        |a: Attr| unsafe { cu::device::get_attribute(device, a) }.during("cuDeviceGetAttribute");
    let opt_attr = |a: Attr| attr(a).ok().filter(|v| *v > 0).map(|v| v as u32);
    let uint = |a: Attr| attr(a).map(|v| v.max(0) as u32);

    let name = cu::device::get_name(device).during("cuDeviceGetName")?;
    let uuid = cu::device::get_uuid(device).during("cuDeviceGetUuid")?;
    // SAFETY: `device` came from cuDeviceGet.
    let total_memory_bytes =
        unsafe { cu::device::total_mem(device) }.during("cuDeviceTotalMem")? as u64;
    let mut driver = 0i32;
    // SAFETY: writes one int.
    unsafe { sys::cuDriverGetVersion(&mut driver) }
        .result()
        .during("cuDriverGetVersion")?;

    let memory_clock_khz = opt_attr(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    let memory_bus_width_bits = opt_attr(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    let theoretical_bandwidth_gbps = match (memory_clock_khz, memory_bus_width_bits) {
        (Some(khz), Some(bits)) => Some(2.0 * khz as f64 * 1e3 * bits as f64 / 8.0 / 1e9),
        _ => None,
    };
    Ok(DeviceProps {
        ordinal,
        name,
        uuid: format_uuid(&uuid.bytes.map(|b| b as u8)),
        compute_capability: (
            uint(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            uint(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        sm_count: uint(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        clock_khz: opt_attr(Attr::CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
        memory_clock_khz,
        memory_bus_width_bits,
        theoretical_bandwidth_gbps,
        total_memory_bytes,
        l2_cache_bytes: uint(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as u64,
        shared_mem_per_block: uint(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        shared_mem_per_block_optin: uint(
            Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        )?,
        shared_mem_per_sm: uint(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
        registers_per_sm: uint(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?,
        registers_per_block: uint(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
        max_threads_per_block: uint(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_threads_per_sm: uint(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
        warp_size: uint(Attr::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
        driver_version: split_version(driver),
        nvrtc_version: nvrtc::version().ok(),
    })
}

/// `13000` → `(13, 0)`, the encoding of `cuDriverGetVersion`.
fn split_version(v: i32) -> (u32, u32) {
    let v = v.max(0) as u32;
    (v / 1000, (v % 1000) / 10)
}

fn format_uuid(b: &[u8; 16]) -> String {
    let hex =
        |r: std::ops::Range<usize>| b[r].iter().map(|x| format!("{x:02x}")).collect::<String>();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        hex(0..4),
        hex(4..6),
        hex(6..8),
        hex(8..10),
        hex(10..16)
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn driver_versions_split_into_major_and_minor() {
        assert_eq!(split_version(13000), (13, 0));
        assert_eq!(split_version(12080), (12, 8));
        assert_eq!(split_version(-1), (0, 0));
    }

    #[test]
    fn uuid_is_grouped_8_4_4_4_12() {
        let bytes: [u8; 16] = std::array::from_fn(|i| (i as u8) * 17);
        let s = format_uuid(&bytes);
        let groups: Vec<usize> = s
            .trim_start_matches("GPU-")
            .split('-')
            .map(str::len)
            .collect();
        assert_eq!(groups, vec![8, 4, 4, 4, 12]);
        assert!(s.starts_with("GPU-00112233-"), "{s}");
    }

    #[test]
    fn open_without_a_device_is_an_error_not_a_panic() {
        match Gpu::open(0) {
            Ok(gpu) => assert!(gpu.props().sm_count > 0),
            Err(e) => assert!(
                matches!(e, GpuError::NoDevice(_)),
                "expected NoDevice, got {e:?}"
            ),
        }
    }

    /// An H100 as the driver describes it.
    pub(crate) fn h100() -> DeviceProps {
        DeviceProps {
            ordinal: 0,
            name: "Test GPU".into(),
            uuid: "GPU-0".into(),
            compute_capability: (9, 0),
            sm_count: 132,
            clock_khz: Some(1_980_000),
            memory_clock_khz: Some(2_619_000),
            memory_bus_width_bits: Some(5120),
            theoretical_bandwidth_gbps: Some(3352.3),
            total_memory_bytes: 80 << 30,
            l2_cache_bytes: 50 << 20,
            shared_mem_per_block: 49152,
            shared_mem_per_block_optin: 232448,
            shared_mem_per_sm: 233472,
            registers_per_sm: 65536,
            registers_per_block: 65536,
            max_threads_per_block: 1024,
            max_threads_per_sm: 2048,
            warp_size: 32,
            driver_version: (13, 0),
            nvrtc_version: None,
        }
    }

    #[test]
    fn props_round_trip_through_json() {
        let props = h100();
        let json = serde_json::to_string(&props).unwrap();
        let back: DeviceProps = serde_json::from_str(&json).unwrap();
        assert_eq!(back, props);
        assert_eq!(back.sm_arch(), "sm_90");
        assert!(props.to_string().contains("NVRTC not found"));
    }
}
