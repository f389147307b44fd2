//! The GPU worker: the process that owns the CUDA context and evaluates
//! variants on request ([`crate::protocol`]). It exits after a fault that
//! poisons its context; the supervisor ([`crate::isolated`]) starts another.
//!
//! A binary exposes it by handing its stdin and stdout to [`worker_main`] and
//! exiting with the code it returns (`hone gpu-worker`, or this crate's
//! `hone-gpu-worker`).

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use crate::cache::ModuleCache;
use crate::error::GpuError;
use crate::evaluate::{EvalRequest, GpuSession, Measurement, Outcome, Phase};
use crate::launch::{FunctionInfo, LaunchDims};
use crate::protocol::{
    Request, RequestBody, Response, ResponseBody, Simulate, DEVICE_ENV, PROTOCOL_VERSION,
};
use crate::stats::Stats;
use crate::timing;
use hone_tuner::InvalidKind;

/// Exit codes of [`worker_main`].
pub mod exit {
    /// Shut down on request or at the end of input.
    pub const OK: i32 = 0;
    /// Stdout closed or unreadable stdin: the supervisor is gone.
    pub const IO: i32 = 2;
    /// The CUDA context was poisoned by a fault (or the worker panicked).
    pub const FATAL: i32 = 3;
}

/// A handler for `extension` requests, registered by the binary that runs
/// the worker. It owns whatever device state it needs (it opens the device
/// itself, on first use) and answers one JSON payload with another.
pub trait WorkerExtension {
    /// The name requests address it by.
    fn name(&self) -> &str;

    /// Serves one request. `progress(phase, launches)` starts a new deadline
    /// in the supervisor, as the built-in evaluations' phases do (0 launches:
    /// host work). `Ok((answer, fatal))`; `fatal` (or an `Err` that
    /// [`GpuError::is_sticky`]) ends the worker after the answer.
    fn handle(
        &mut self,
        payload: serde_json::Value,
        progress: &mut dyn FnMut(&str, u32),
    ) -> Result<(serde_json::Value, bool), GpuError>;
}

struct Worker<W: Write> {
    out: W,
    session: Option<GpuSession>,
    extensions: Vec<Box<dyn WorkerExtension>>,
}

/// Serves requests from `input` until `shutdown`, end of input, or a fatal
/// fault; returns the process exit code ([`exit`]).
pub fn worker_main(input: impl BufRead, output: impl Write) -> i32 {
    worker_main_with(input, output, Vec::new())
}

/// [`worker_main`] with `extensions` answering `extension` requests.
pub fn worker_main_with(
    input: impl BufRead,
    output: impl Write,
    extensions: Vec<Box<dyn WorkerExtension>>,
) -> i32 {
    let mut w = Worker {
        out: output,
        session: None,
        extensions,
    };
    for line in input.lines() {
        let Ok(line) = line else { return exit::IO };
        if line.trim().is_empty() {
            continue;
        }
        let request: Request = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                let body = ResponseBody::Error {
                    no_device: false,
                    message: format!("unreadable request: {e}"),
                };
                if w.send(0, body).is_err() {
                    return exit::IO;
                }
                continue;
            }
        };
        match w.serve(request) {
            Ok(Continue::Yes) => {}
            Ok(Continue::Shutdown) => return exit::OK,
            Ok(Continue::Fatal) => return exit::FATAL,
            Err(_) => return exit::IO,
        }
    }
    exit::OK
}

enum Continue {
    Yes,
    Shutdown,
    Fatal,
}

/// Writes a progress line while a request is served; the first write error
/// is kept for after the request (the supervisor is gone).
fn send_progress(
    out: &mut impl Write,
    id: u64,
    phase: &str,
    launches: u32,
    io_error: &mut Option<std::io::Error>,
) {
    let line = serde_json::to_string(&Response {
        id,
        body: ResponseBody::Progress {
            phase: phase.to_string(),
            launches,
        },
    });
    if let Ok(line) = line {
        if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
            io_error.get_or_insert(e);
        }
    }
}

/// The text a panic was raised with, if it was text.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

fn error_body(e: &GpuError) -> ResponseBody {
    match e {
        GpuError::NoDevice(reason) => ResponseBody::Error {
            no_device: true,
            message: reason.clone(),
        },
        other => ResponseBody::Error {
            no_device: false,
            message: other.to_string(),
        },
    }
}

impl<W: Write> Worker<W> {
    /// Sends a request's answer; a `fatal` one ends the worker after it.
    fn answer(&mut self, id: u64, body: ResponseBody, fatal: bool) -> std::io::Result<Continue> {
        self.send(id, body)?;
        Ok(if fatal {
            Continue::Fatal
        } else {
            Continue::Yes
        })
    }

    fn send(&mut self, id: u64, body: ResponseBody) -> std::io::Result<()> {
        let line = serde_json::to_string(&Response { id, body }).map_err(std::io::Error::other)?;
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn session(&mut self) -> Result<&mut GpuSession, GpuError> {
        if self.session.is_none() {
            let ordinal = std::env::var(DEVICE_ENV)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            self.session = Some(GpuSession::open(ordinal, ModuleCache::open_default())?);
        }
        Ok(self.session.as_mut().expect("opened above"))
    }

    fn serve(&mut self, request: Request) -> std::io::Result<Continue> {
        let id = request.id;
        match request.body {
            RequestBody::Hello => {
                self.send(
                    id,
                    ResponseBody::Hello {
                        protocol: PROTOCOL_VERSION,
                        pid: std::process::id(),
                    },
                )?;
            }
            RequestBody::Shutdown => return Ok(Continue::Shutdown),
            RequestBody::Device {
                simulate: Some(props),
            } => self.send(id, ResponseBody::Device { props })?,
            RequestBody::Device { simulate: None } => {
                let body = match self.session() {
                    Ok(s) => ResponseBody::Device {
                        props: Box::new(s.props().clone()),
                    },
                    Err(e) => error_body(&e),
                };
                self.send(id, body)?;
            }
            RequestBody::Memcpy { bytes, timing } => {
                let body = match self
                    .session()
                    .and_then(|s| s.memcpy_bandwidth(bytes, &timing))
                {
                    Ok(bandwidth) => ResponseBody::Bandwidth { bandwidth },
                    Err(e) => {
                        return self.answer(id, error_body(&e), e.is_sticky());
                    }
                };
                self.send(id, body)?;
            }
            RequestBody::Extension {
                payload,
                simulate: Some(sim),
                ..
            } => return self.simulate_extension(id, payload, sim),
            RequestBody::Extension {
                name,
                payload,
                simulate: None,
            } => return self.extension(id, &name, payload),
            RequestBody::Evaluate {
                request,
                simulate: Some(sim),
            } => return self.simulate(id, &request, sim),
            RequestBody::Evaluate {
                request,
                simulate: None,
            } => return self.evaluate(id, &request),
        }
        Ok(Continue::Yes)
    }

    fn evaluate(&mut self, id: u64, request: &EvalRequest) -> std::io::Result<Continue> {
        if let Err(e) = self.session() {
            self.send(id, error_body(&e))?;
            return Ok(Continue::Yes);
        }
        let Worker { out, session, .. } = self;
        let session = session.as_mut().expect("opened above");
        let mut io_error = None;
        let mut progress =
            |phase: Phase| send_progress(out, id, phase.name, phase.launches, &mut io_error);
        let result = catch_unwind(AssertUnwindSafe(|| {
            session.evaluate(request, &mut progress)
        }));
        if let Some(e) = io_error {
            return Err(e);
        }
        let (body, fatal) = match result {
            Ok(Ok((outcome, fatal))) => (ResponseBody::Outcome { outcome, fatal }, fatal),
            Ok(Err(e)) => (error_body(&e), e.is_sticky()),
            Err(panic) => {
                let message = panic_message(panic.as_ref());
                let outcome =
                    Outcome::invalid(InvalidKind::Runtime, format!("worker panicked: {message}"));
                (
                    ResponseBody::Outcome {
                        outcome,
                        fatal: true,
                    },
                    true,
                )
            }
        };
        self.answer(id, body, fatal)
    }

    fn extension(
        &mut self,
        id: u64,
        name: &str,
        payload: serde_json::Value,
    ) -> std::io::Result<Continue> {
        let Worker {
            out, extensions, ..
        } = self;
        let Some(ext) = extensions.iter_mut().find(|e| e.name() == name) else {
            let known: Vec<&str> = extensions.iter().map(|e| e.name()).collect();
            let body = ResponseBody::Error {
                no_device: false,
                message: format!(
                    "this worker has no extension `{name}` (it has: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            };
            self.send(id, body)?;
            return Ok(Continue::Yes);
        };
        let mut io_error = None;
        let mut progress =
            |phase: &str, launches: u32| send_progress(out, id, phase, launches, &mut io_error);
        let result = catch_unwind(AssertUnwindSafe(|| ext.handle(payload, &mut progress)));
        if let Some(e) = io_error {
            return Err(e);
        }
        let (body, fatal) = match result {
            Ok(Ok((payload, fatal))) => (ResponseBody::Extension { payload, fatal }, fatal),
            // No device is the machinery's failure, not the request's.
            Ok(Err(e @ GpuError::NoDevice(_))) => (error_body(&e), false),
            Ok(Err(e)) => {
                let fatal = e.is_sticky();
                (
                    ResponseBody::ExtensionFailed {
                        message: e.to_string(),
                        fatal,
                    },
                    fatal,
                )
            }
            // A panic may have left the extension's state half-updated: start
            // afresh.
            Err(panic) => (
                ResponseBody::ExtensionFailed {
                    message: format!(
                        "extension `{name}` panicked: {}",
                        panic_message(panic.as_ref())
                    ),
                    fatal: true,
                },
                true,
            ),
        };
        self.answer(id, body, fatal)
    }

    fn simulate_extension(
        &mut self,
        id: u64,
        payload: serde_json::Value,
        sim: Simulate,
    ) -> std::io::Result<Continue> {
        self.send(
            id,
            ResponseBody::Progress {
                phase: "run".to_string(),
                launches: 1,
            },
        )?;
        match sim {
            Simulate::Crash => std::process::abort(),
            Simulate::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Simulate::Fault | Simulate::Succeed => {
                let fatal = sim == Simulate::Fault;
                self.answer(id, ResponseBody::Extension { payload, fatal }, fatal)
            }
        }
    }

    fn simulate(
        &mut self,
        id: u64,
        request: &EvalRequest,
        sim: Simulate,
    ) -> std::io::Result<Continue> {
        let progress = |phase: &str, launches| ResponseBody::Progress {
            phase: phase.to_string(),
            launches,
        };
        match sim {
            Simulate::Crash => {
                self.send(id, progress("check", 1))?;
                std::process::abort();
            }
            Simulate::Hang => {
                self.send(id, progress("check", 1))?;
                loop {
                    std::thread::sleep(Duration::from_secs(3600));
                }
            }
            Simulate::Fault => {
                self.send(id, progress("check", 1))?;
                let outcome = Outcome::invalid(
                    InvalidKind::Runtime,
                    "fault: cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS: simulated",
                );
                self.send(
                    id,
                    ResponseBody::Outcome {
                        outcome,
                        fatal: true,
                    },
                )?;
                Ok(Continue::Fatal)
            }
            Simulate::Succeed => {
                let outcome = match simulated_measurement(request) {
                    Ok(m) => Outcome::Valid(m),
                    Err(reason) => Outcome::invalid(InvalidKind::Runtime, reason),
                };
                self.send(id, progress("check", 1))?;
                let t = &request.options.timing;
                self.send(id, progress("time", t.warmup + t.reps))?;
                self.send(
                    id,
                    ResponseBody::Outcome {
                        outcome,
                        fatal: false,
                    },
                )?;
                Ok(Continue::Yes)
            }
        }
    }
}

/// A measurement with the request's real geometry and work counts, as if the
/// kernel moved its bytes at 1000 GB/s.
fn simulated_measurement(request: &EvalRequest) -> Result<Measurement, String> {
    let r = request.template.resolve(&request.config, request.n)?;
    let ms = (r.bytes / 1e12 * 1e3).max(1e-3);
    let samples: Vec<f64> = (0..request.options.timing.reps.max(1))
        .map(|i| ms * (1.0 + 0.01 * (i % 5) as f64))
        .collect();
    let time_ms = Stats::from_samples(&samples).ok_or("no samples")?;
    Ok(Measurement {
        gbps: timing::gbps(r.bytes, time_ms.median),
        gflops: timing::gbps(r.flops, time_ms.median),
        time_ms,
        bytes: r.bytes,
        flops: r.flops,
        dims: LaunchDims {
            grid: r.grid,
            block: r.block,
            shared_mem: r.shared_mem,
        },
        function: FunctionInfo {
            registers: 0,
            local_bytes: 0,
            static_shared_bytes: 0,
            max_threads_per_block: 1024,
        },
        copies: 1,
        flushed_l2: request.options.timing.flush_l2,
        max_rel_err: Some(0.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::{EvalOptions, ModuleSource};
    use crate::template::bundled_vcopy;

    fn eval_request() -> EvalRequest {
        let t = bundled_vcopy();
        let config = t.configs().remove(0);
        EvalRequest {
            template: t,
            config,
            n: 4096,
            module: ModuleSource::Compile,
            options: EvalOptions::default(),
        }
    }

    fn run(lines: &[String]) -> (i32, Vec<Response>) {
        let input = lines.join("\n");
        let mut out = Vec::new();
        let code = worker_main(input.as_bytes(), &mut out);
        let replies = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (code, replies)
    }

    fn line(id: u64, body: RequestBody) -> String {
        serde_json::to_string(&Request { id, body }).unwrap()
    }

    #[test]
    fn hello_then_shutdown() {
        let (code, replies) = run(&[
            line(1, RequestBody::Hello),
            line(2, RequestBody::Shutdown),
            line(3, RequestBody::Hello),
        ]);
        assert_eq!(code, exit::OK);
        assert_eq!(replies.len(), 1, "nothing is served after shutdown");
        assert_eq!(replies[0].id, 1);
        assert!(matches!(
            replies[0].body,
            ResponseBody::Hello {
                protocol: PROTOCOL_VERSION,
                ..
            }
        ));
    }

    #[test]
    fn a_bad_line_gets_an_error_and_the_worker_goes_on() {
        let (code, replies) = run(&["{not json".to_string(), line(5, RequestBody::Hello)]);
        assert_eq!(code, exit::OK);
        assert!(
            matches!(&replies[0].body, ResponseBody::Error { message, .. } if message.contains("unreadable"))
        );
        assert_eq!(replies[1].id, 5);
    }

    #[test]
    fn simulated_success_reports_progress_then_the_template_geometry() {
        let req = eval_request();
        let body = RequestBody::Evaluate {
            request: Box::new(req.clone()),
            simulate: Some(Simulate::Succeed),
        };
        let (code, replies) = run(&[line(9, body)]);
        assert_eq!(code, exit::OK);
        assert!(replies.iter().all(|r| r.id == 9));
        assert!(
            matches!(&replies[0].body, ResponseBody::Progress { phase, launches: 1 } if phase == "check")
        );
        let ResponseBody::Outcome {
            outcome: Outcome::Valid(m),
            fatal: false,
        } = &replies.last().unwrap().body
        else {
            panic!("{replies:?}");
        };
        let want = req.template.resolve(&req.config, req.n).unwrap();
        assert_eq!(m.dims.grid, want.grid);
        assert_eq!(m.bytes, 8.0 * 4096.0);
        assert!(m.gbps > 0.0);
    }

    #[test]
    fn a_fault_is_answered_then_the_worker_exits_fatally() {
        let body = RequestBody::Evaluate {
            request: Box::new(eval_request()),
            simulate: Some(Simulate::Fault),
        };
        let (code, replies) = run(&[line(1, body), line(2, RequestBody::Hello)]);
        assert_eq!(code, exit::FATAL);
        let last = replies.last().unwrap();
        assert_eq!(last.id, 1);
        assert!(
            matches!(&last.body, ResponseBody::Outcome { fatal: true, outcome: Outcome::Invalid { kind: InvalidKind::Runtime, reason } } if reason.contains("ILLEGAL_ADDRESS"))
        );
    }

    #[test]
    fn without_a_device_requests_get_no_device_errors() {
        if crate::libs::driver_library_present() {
            return;
        }
        let body = RequestBody::Evaluate {
            request: Box::new(eval_request()),
            simulate: None,
        };
        let (code, replies) = run(&[
            line(1, RequestBody::Device { simulate: None }),
            line(2, body),
        ]);
        assert_eq!(code, exit::OK);
        assert_eq!(replies.len(), 2);
        for r in replies {
            assert!(
                matches!(
                    r.body,
                    ResponseBody::Error {
                        no_device: true,
                        ..
                    }
                ),
                "{r:?}"
            );
        }
    }

    /// Doubles `x`; `{"fault": true}` answers as a poisoned context would.
    struct Doubler;

    impl WorkerExtension for Doubler {
        fn name(&self) -> &str {
            "double"
        }

        fn handle(
            &mut self,
            payload: serde_json::Value,
            progress: &mut dyn FnMut(&str, u32),
        ) -> Result<(serde_json::Value, bool), GpuError> {
            progress("compute", 0);
            if payload["panic"].as_bool() == Some(true) {
                panic!("asked to");
            }
            if payload["fail"].as_bool() == Some(true) {
                return Err(GpuError::Launch("refused".into()));
            }
            let fatal = payload["fault"].as_bool().unwrap_or(false);
            let x = payload["x"].as_i64().unwrap_or(0);
            Ok((serde_json::json!({ "y": 2 * x }), fatal))
        }
    }

    /// Serves `input` with the doubling extension registered.
    fn run_with_doubler(input: &str) -> (i32, Vec<Response>) {
        let mut out = Vec::new();
        let code = worker_main_with(input.as_bytes(), &mut out, vec![Box::new(Doubler)]);
        let replies = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (code, replies)
    }

    fn ext(id: u64, name: &str, payload: serde_json::Value) -> String {
        line(
            id,
            RequestBody::Extension {
                name: name.to_string(),
                payload,
                simulate: None,
            },
        )
    }

    #[test]
    fn extension_failures_are_the_requests_and_a_panic_ends_the_worker() {
        let input = [
            ext(1, "double", serde_json::json!({"fail": true})),
            ext(2, "double", serde_json::json!({"panic": true})),
            ext(3, "double", serde_json::json!({"x": 5})),
        ]
        .join("\n");
        let (code, replies) = run_with_doubler(&input);
        let replies: Vec<Response> = replies
            .into_iter()
            .filter(|r| !matches!(r.body, ResponseBody::Progress { .. }))
            .collect();
        assert_eq!(code, exit::FATAL);
        assert_eq!(replies.len(), 2, "{replies:?}");
        assert!(matches!(
            &replies[0].body,
            ResponseBody::ExtensionFailed { message, fatal: false } if message.contains("refused")
        ));
        assert!(matches!(
            &replies[1].body,
            ResponseBody::ExtensionFailed { message, fatal: true } if message.contains("panicked: asked to")
        ));
    }

    #[test]
    fn extensions_answer_by_name_and_a_fatal_answer_ends_the_worker() {
        let input = [
            ext(1, "double", serde_json::json!({"x": 21})),
            ext(2, "triple", serde_json::json!({"x": 1})),
            ext(3, "double", serde_json::json!({"x": 1, "fault": true})),
            ext(4, "double", serde_json::json!({"x": 5})),
        ]
        .join("\n");
        let (code, replies) = run_with_doubler(&input);
        assert_eq!(code, exit::FATAL);
        let bodies: Vec<(u64, &ResponseBody)> = replies.iter().map(|r| (r.id, &r.body)).collect();
        assert!(matches!(
            bodies[0],
            (1, ResponseBody::Progress { launches: 0, .. })
        ));
        assert_eq!(
            bodies[1],
            (
                1,
                &ResponseBody::Extension {
                    payload: serde_json::json!({"y": 42}),
                    fatal: false
                }
            )
        );
        match bodies[2] {
            (2, ResponseBody::Error { message, .. }) => {
                assert!(message.contains("no extension `triple`") && message.contains("double"))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            bodies[4],
            (3, ResponseBody::Extension { fatal: true, .. })
        ));
        // Request 4 is never served: the worker exited after the fatal answer.
        assert_eq!(replies.len(), 5);
    }
}
