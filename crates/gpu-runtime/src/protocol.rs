//! The line-delimited JSON protocol between a supervisor and a GPU worker
//! process: one request per line on the worker's stdin, one or more response
//! lines on its stdout (`progress` lines, then the answer), each carrying the
//! request's `id`.
//!
//! ```text
//! > {"id":1,"op":"hello"}
//! < {"id":1,"reply":"hello","protocol":1,"pid":4242}
//! > {"id":2,"op":"evaluate","request":{...}}
//! < {"id":2,"reply":"progress","phase":"check","launches":1}
//! < {"id":2,"reply":"progress","phase":"time","launches":33}
//! < {"id":2,"reply":"outcome","outcome":{"status":"valid",...},"fatal":false}
//! > {"id":3,"op":"shutdown"}
//! ```

use serde::{Deserialize, Serialize};

use crate::device::DeviceProps;
use crate::evaluate::{EvalRequest, Outcome};
use crate::timing::{CopyBandwidth, TimingOptions};

/// Bumped when a message changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 1;

/// Environment variable naming the device ordinal a worker opens (default 0).
pub const DEVICE_ENV: &str = "HONE_GPU_DEVICE";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    #[serde(flatten)]
    pub body: RequestBody,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum RequestBody {
    Hello,
    /// The device's properties (opens the device).
    Device {
        /// Report these instead of opening a device: for testing supervisors
        /// of several devices without one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        simulate: Option<Box<DeviceProps>>,
    },
    Evaluate {
        request: Box<EvalRequest>,
        /// Pretend instead of using the GPU: for testing supervisors.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        simulate: Option<Simulate>,
    },
    /// Device-to-device copy bandwidth.
    Memcpy {
        bytes: usize,
        #[serde(default)]
        timing: TimingOptions,
    },
    /// A request for a handler that the worker's binary registered
    /// ([`crate::worker::WorkerExtension`]): kernels whose checks and launches
    /// a JSON template cannot describe are evaluated in the same supervised
    /// process.
    Extension {
        name: String,
        payload: serde_json::Value,
        /// Pretend instead of calling the extension: for testing supervisors.
        /// `succeed` echoes the payload.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        simulate: Option<Simulate>,
    },
    Shutdown,
}

/// Failure modes a worker can act out without a GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Simulate {
    /// Abort the process, as a segfault in a driver would.
    Crash,
    /// Announce a launch and never answer, as a kernel stuck in a loop would.
    Hang,
    /// Answer with a fatal fault and exit, as after an illegal address.
    Fault,
    /// Answer with a plausible measurement.
    Succeed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub id: u64,
    #[serde(flatten)]
    pub body: ResponseBody,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum ResponseBody {
    Hello {
        protocol: u32,
        pid: u32,
    },
    Device {
        props: Box<DeviceProps>,
    },
    /// A phase is starting: `launches` kernel runs, or host work when 0.
    Progress {
        phase: String,
        launches: u32,
    },
    Outcome {
        outcome: Outcome,
        /// The worker's context is poisoned; it exits after this line.
        fatal: bool,
    },
    Bandwidth {
        bandwidth: CopyBandwidth,
    },
    /// An extension's answer.
    Extension {
        payload: serde_json::Value,
        /// The worker's context is poisoned; it exits after this line.
        fatal: bool,
    },
    /// The extension failed on this request (an error of its own, a panic):
    /// a property of the request, not of the machinery.
    ExtensionFailed {
        message: String,
        /// The worker exits after this line.
        fatal: bool,
    },
    Error {
        /// The reason is the absence of a usable device.
        #[serde(default)]
        no_device: bool,
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::{EvalOptions, ModuleSource};
    use crate::template::bundled_vcopy;

    #[test]
    fn requests_round_trip_as_single_lines() {
        let t = bundled_vcopy();
        let config = t.configs().remove(0);
        let req = Request {
            id: 7,
            body: RequestBody::Evaluate {
                request: Box::new(EvalRequest {
                    template: t,
                    config,
                    n: 1 << 20,
                    module: ModuleSource::Compile,
                    options: EvalOptions::default(),
                }),
                simulate: Some(Simulate::Hang),
            },
        };
        let line = serde_json::to_string(&req).unwrap();
        assert!(!line.contains('\n'));
        assert!(line.contains("\"op\":\"evaluate\""));
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), req);
    }

    #[test]
    fn responses_round_trip() {
        for body in [
            ResponseBody::Hello {
                protocol: PROTOCOL_VERSION,
                pid: 1,
            },
            ResponseBody::Progress {
                phase: "check".into(),
                launches: 1,
            },
            ResponseBody::Outcome {
                outcome: Outcome::invalid(hone_tuner::InvalidKind::Runtime, "fault: x"),
                fatal: true,
            },
            ResponseBody::Error {
                no_device: true,
                message: "none".into(),
            },
        ] {
            let r = Response { id: 3, body };
            let line = serde_json::to_string(&r).unwrap();
            assert_eq!(
                serde_json::from_str::<Response>(&line).unwrap(),
                r,
                "{line}"
            );
        }
    }

    #[test]
    fn hello_is_terse_on_the_wire() {
        let line = serde_json::to_string(&Request {
            id: 1,
            body: RequestBody::Hello,
        })
        .unwrap();
        assert_eq!(line, r#"{"id":1,"op":"hello"}"#);
    }
}
