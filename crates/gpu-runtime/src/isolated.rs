//! The supervisor side of the worker protocol: runs evaluations in a child
//! process, gives each phase a deadline, and replaces the child when it
//! faults, hangs or dies, so one bad variant costs one `Invalid` outcome and
//! tuning goes on.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::device::DeviceProps;
use crate::error::{GpuError, Result};
use crate::evaluate::{EvalRequest, Outcome};
use crate::protocol::{Request, RequestBody, Response, ResponseBody, Simulate, PROTOCOL_VERSION};
use crate::timing::{CopyBandwidth, TimingOptions};
use hone_tuner::InvalidKind;

/// How to start a worker: a program and its arguments, e.g. the running
/// `hone` binary with `gpu-worker`.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
}

impl WorkerCommand {
    pub fn new(program: impl Into<PathBuf>) -> Self {
        WorkerCommand {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
        }
    }

    /// The running executable, re-executed with `args` (its hidden worker subcommand).
    pub fn current_exe<S: Into<OsString>>(args: impl IntoIterator<Item = S>) -> Result<Self> {
        let exe = std::env::current_exe()
            .map_err(|e| GpuError::Worker(format!("cannot locate the running executable: {e}")))?;
        Ok(WorkerCommand::new(exe).args(args))
    }

    pub fn args<S: Into<OsString>>(mut self, args: impl IntoIterator<Item = S>) -> Self {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
}

/// Deadlines. Each progress line from the worker starts a new one: `host`
/// for host-side phases (compiling, allocating, generating and comparing
/// data), `per_launch` times the announced launches for device phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From spawning to the worker's hello.
    pub startup: Duration,
    pub host: Duration,
    pub per_launch: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            startup: Duration::from_secs(30),
            host: Duration::from_secs(300),
            per_launch: Duration::from_secs(5),
        }
    }
}

/// Lines of the worker's stderr kept for failure reports.
const STDERR_TAIL: usize = 12;

struct WorkerProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl WorkerProcess {
    fn stderr_tail(&self) -> String {
        self.stderr
            .lock()
            .map(|q| q.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default()
    }

    /// Waits up to `grace` for the process to exit, then kills it.
    fn reap(mut self, grace: Duration) -> (Option<ExitStatus>, String) {
        drop(self.stdin);
        let deadline = Instant::now() + grace;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => {
                    let _ = self.child.kill();
                    break self.child.wait().ok();
                }
            }
        };
        // Give the stderr reader a moment to collect the last lines.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self
            .stderr
            .lock()
            .map(|q| q.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default();
        (status, tail)
    }
}

/// How an extension request ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtensionReply {
    Answer {
        payload: serde_json::Value,
        /// The worker exited after answering (its context was poisoned).
        fatal: bool,
    },
    /// No answer in time: the worker was killed (a new one starts on the
    /// next request).
    TimedOut { phase: String, seconds: f64 },
    /// The worker died (a fault in the driver, an abort).
    Died { phase: String, reason: String },
    /// The extension failed on this request (its own error or a panic).
    Failed {
        reason: String,
        /// The worker exited after answering.
        fatal: bool,
    },
}

/// How an exchange with the worker ended.
enum Exchange {
    Reply(ResponseBody),
    TimedOut { phase: String, limit: Duration },
    Died { phase: String, reason: String },
}

/// Evaluates variants in a worker process.
pub struct IsolatedEvaluator {
    command: WorkerCommand,
    limits: Limits,
    worker: Option<WorkerProcess>,
    next_id: u64,
    restarts: u32,
    started: u32,
}

impl IsolatedEvaluator {
    pub fn new(command: WorkerCommand) -> Self {
        IsolatedEvaluator {
            command,
            limits: Limits::default(),
            worker: None,
            next_id: 1,
            restarts: 0,
            started: 0,
        }
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Workers replaced after a fault, a time-out or a death.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Worker processes started so far.
    pub fn started(&self) -> u32 {
        self.started
    }

    /// The process id of the current worker, if one is running.
    pub fn worker_pid(&self) -> Option<u32> {
        self.worker.as_ref().map(|w| w.child.id())
    }

    /// The device's properties, read by the worker.
    pub fn device(&mut self) -> Result<DeviceProps> {
        self.device_as(None)
    }

    /// [`IsolatedEvaluator::device`], with the worker reporting `simulate`
    /// instead of opening a device: for testing supervisors of several
    /// devices without one.
    pub fn device_as(&mut self, simulate: Option<DeviceProps>) -> Result<DeviceProps> {
        let body = RequestBody::Device {
            simulate: simulate.map(Box::new),
        };
        match self.call(body, self.limits.host)? {
            Exchange::Reply(ResponseBody::Device { props }) => Ok(*props),
            other => Err(self.unexpected(other)),
        }
    }

    /// The command workers are started with.
    pub fn command(&self) -> &WorkerCommand {
        &self.command
    }

    /// Device-to-device copy bandwidth, measured by the worker.
    pub fn memcpy_bandwidth(
        &mut self,
        bytes: usize,
        timing: &TimingOptions,
    ) -> Result<CopyBandwidth> {
        let body = RequestBody::Memcpy {
            bytes,
            timing: timing.clone(),
        };
        let limit = self.limits.host + self.limits.per_launch * (timing.warmup + timing.reps);
        match self.call(body, limit)? {
            Exchange::Reply(ResponseBody::Bandwidth { bandwidth }) => Ok(bandwidth),
            other => Err(self.unexpected(other)),
        }
    }

    /// Evaluates a variant. A fault, time-out, crash or wrong answer is an
    /// `Ok(Outcome::Invalid)`; `Err` means the machinery failed (no device,
    /// a worker that cannot start).
    pub fn evaluate(&mut self, request: &EvalRequest) -> Result<Outcome> {
        self.evaluate_as(request, None)
    }

    /// [`IsolatedEvaluator::evaluate`], with the worker acting out `simulate`
    /// instead of using the GPU: for testing supervision without a device.
    pub fn evaluate_as(
        &mut self,
        request: &EvalRequest,
        simulate: Option<Simulate>,
    ) -> Result<Outcome> {
        let body = RequestBody::Evaluate {
            request: Box::new(request.clone()),
            simulate,
        };
        match self.call(body, self.limits.host)? {
            Exchange::Reply(ResponseBody::Outcome { outcome, fatal }) => {
                if fatal {
                    self.retire(Duration::from_secs(10));
                }
                Ok(outcome)
            }
            Exchange::TimedOut { phase, limit } => Ok(Outcome::invalid(
                InvalidKind::Timeout,
                format!(
                    "timed out after {:.1} s in phase `{phase}` (worker killed and restarted)",
                    limit.as_secs_f64()
                ),
            )),
            Exchange::Died { phase, reason } => Ok(Outcome::invalid(
                InvalidKind::Runtime,
                format!("worker died in phase `{phase}`: {reason}"),
            )),
            Exchange::Reply(other) => Err(self.unexpected(Exchange::Reply(other))),
        }
    }

    /// Sends `payload` to the worker's extension `name` and waits for its
    /// answer; `limit` is the first deadline (progress lines set the next
    /// ones). A worker that dies, times out or is poisoned is gone when this
    /// returns, and the next request starts another; `Err` means the
    /// machinery failed, or the worker answered with an error that is not the
    /// request's (an unknown extension, no device).
    pub fn extension(
        &mut self,
        name: &str,
        payload: serde_json::Value,
        limit: Duration,
    ) -> Result<ExtensionReply> {
        self.extension_as(name, payload, limit, None)
    }

    /// [`IsolatedEvaluator::extension`], with the worker acting out
    /// `simulate` instead of calling the extension: for testing supervision
    /// without a device.
    pub fn extension_as(
        &mut self,
        name: &str,
        payload: serde_json::Value,
        limit: Duration,
        simulate: Option<Simulate>,
    ) -> Result<ExtensionReply> {
        let body = RequestBody::Extension {
            name: name.to_string(),
            payload,
            simulate,
        };
        match self.call(body, limit)? {
            Exchange::Reply(ResponseBody::Extension { payload, fatal }) => {
                if fatal {
                    self.retire(Duration::from_secs(10));
                }
                Ok(ExtensionReply::Answer { payload, fatal })
            }
            Exchange::Reply(ResponseBody::ExtensionFailed { message, fatal }) => {
                if fatal {
                    self.retire(Duration::from_secs(10));
                }
                Ok(ExtensionReply::Failed {
                    reason: message,
                    fatal,
                })
            }
            // No device, no such extension: the machinery, not the request.
            Exchange::Reply(ResponseBody::Error { no_device, message }) => Err(if no_device {
                GpuError::NoDevice(message)
            } else {
                GpuError::Worker(message)
            }),
            Exchange::TimedOut { phase, limit } => Ok(ExtensionReply::TimedOut {
                phase,
                seconds: limit.as_secs_f64(),
            }),
            Exchange::Died { phase, reason } => Ok(ExtensionReply::Died { phase, reason }),
            other => Err(self.unexpected(other)),
        }
    }

    /// Asks the worker to exit and waits for it.
    pub fn shutdown(&mut self) {
        if let Some(mut w) = self.worker.take() {
            let line = serde_json::to_string(&Request {
                id: 0,
                body: RequestBody::Shutdown,
            })
            .unwrap_or_default();
            let _ = writeln!(w.stdin, "{line}").and_then(|_| w.stdin.flush());
            let _ = w.reap(Duration::from_secs(5));
        }
    }

    fn unexpected(&mut self, exchange: Exchange) -> GpuError {
        match exchange {
            Exchange::Reply(ResponseBody::Error {
                no_device: true,
                message,
            }) => GpuError::NoDevice(message),
            Exchange::Reply(ResponseBody::Error { message, .. }) => GpuError::Worker(message),
            Exchange::Reply(other) => GpuError::Worker(format!("unexpected reply {other:?}")),
            Exchange::TimedOut { phase, limit } => GpuError::Worker(format!(
                "no answer within {:.1} s in phase `{phase}`; worker killed",
                limit.as_secs_f64()
            )),
            Exchange::Died { phase, reason } => {
                GpuError::Worker(format!("worker died in phase `{phase}`: {reason}"))
            }
        }
    }

    /// Ends the current worker after it announced a fatal fault.
    fn retire(&mut self, grace: Duration) {
        if let Some(w) = self.worker.take() {
            let _ = w.reap(grace);
            self.restarts += 1;
        }
    }

    fn spawn(&mut self) -> Result<()> {
        let mut cmd = Command::new(&self.command.program);
        cmd.args(&self.command.args)
            .envs(self.command.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| {
            GpuError::Worker(format!(
                "cannot start {}: {e}",
                self.command.program.display()
            ))
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(GpuError::Worker(
                "the worker's pipes were not set up".to_string(),
            ));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail_writer = Arc::clone(&tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
                if let Ok(mut q) = tail_writer.lock() {
                    if q.len() == STDERR_TAIL {
                        q.pop_front();
                    }
                    q.push_back(line);
                }
            }
        });
        self.worker = Some(WorkerProcess {
            child,
            stdin,
            lines,
            stderr: tail,
        });
        self.started += 1;
        Ok(())
    }

    fn ensure_started(&mut self) -> Result<()> {
        if self.worker.is_some() {
            return Ok(());
        }
        self.spawn()?;
        match self.exchange(RequestBody::Hello, self.limits.startup) {
            Ok(Exchange::Reply(ResponseBody::Hello { protocol, .. }))
                if protocol == PROTOCOL_VERSION =>
            {
                Ok(())
            }
            Ok(Exchange::Reply(ResponseBody::Hello { protocol, .. })) => {
                self.kill();
                Err(GpuError::Worker(format!(
                    "the worker speaks protocol {protocol}, this program {PROTOCOL_VERSION}"
                )))
            }
            Ok(other) => {
                self.kill();
                let why = self.unexpected(other);
                Err(GpuError::Worker(format!(
                    "{} did not start: {why}",
                    self.command.program.display()
                )))
            }
            Err(e) => {
                self.kill();
                Err(e)
            }
        }
    }

    fn kill(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.reap(Duration::ZERO);
        }
    }

    /// Sends one request (starting a worker if none runs) and waits for its answer.
    fn call(&mut self, body: RequestBody, first_limit: Duration) -> Result<Exchange> {
        self.ensure_started()?;
        let exchange = self.exchange(body, first_limit)?;
        if matches!(exchange, Exchange::TimedOut { .. } | Exchange::Died { .. }) {
            self.restarts += 1;
        }
        Ok(exchange)
    }

    fn exchange(&mut self, body: RequestBody, first_limit: Duration) -> Result<Exchange> {
        let id = self.next_id;
        self.next_id += 1;
        let line = serde_json::to_string(&Request { id, body })
            .map_err(|e| GpuError::Worker(format!("cannot encode a request: {e}")))?;
        let limits = self.limits;
        let Some(w) = self.worker.as_mut() else {
            return Err(GpuError::Worker("no worker is running".to_string()));
        };
        let mut phase = "request".to_string();
        if writeln!(w.stdin, "{line}")
            .and_then(|_| w.stdin.flush())
            .is_err()
        {
            return Ok(self.died(phase));
        }
        let mut limit = first_limit;
        let mut deadline = Instant::now() + limit;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let received = match self.worker.as_ref() {
                Some(w) => w.lines.recv_timeout(wait),
                None => return Ok(self.died(phase)),
            };
            match received {
                Ok(Ok(text)) => {
                    let response: Response = match serde_json::from_str(&text) {
                        Ok(r) => r,
                        Err(e) => {
                            let tail = self
                                .worker
                                .as_ref()
                                .map(|w| w.stderr_tail())
                                .unwrap_or_default();
                            self.kill();
                            return Err(GpuError::Worker(format!(
                                "unreadable line from the worker ({e}): {text:?}; stderr: {tail}"
                            )));
                        }
                    };
                    // A line for an earlier request (one that timed out) is stale.
                    if response.id != id && response.id != 0 {
                        continue;
                    }
                    match response.body {
                        ResponseBody::Progress { phase: p, launches } => {
                            limit = if launches == 0 {
                                limits.host
                            } else {
                                limits
                                    .per_launch
                                    .checked_mul(launches)
                                    .unwrap_or(Duration::MAX)
                            };
                            deadline = Instant::now() + limit;
                            phase = p;
                        }
                        other => return Ok(Exchange::Reply(other)),
                    }
                }
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Ok(self.died(phase)),
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Ok(Exchange::TimedOut { phase, limit });
                }
            }
        }
    }

    /// The worker closed its stdout: collect its exit status and stderr.
    fn died(&mut self, phase: String) -> Exchange {
        let reason = match self.worker.take() {
            Some(w) => {
                let (status, tail) = w.reap(Duration::from_secs(5));
                let status = status
                    .map(describe_status)
                    .unwrap_or_else(|| "unknown exit".to_string());
                if tail.is_empty() {
                    status
                } else {
                    format!("{status}; stderr: {tail}")
                }
            }
            None => "no worker".to_string(),
        };
        Exchange::Died { phase, reason }
    }
}

impl Drop for IsolatedEvaluator {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                6 => " (SIGABRT)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return format!("killed by signal {sig}{name}");
        }
    }
    match status.code() {
        Some(c) => format!("exit code {c}"),
        None => "unknown exit".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_worker_program_is_an_error() {
        let mut ev = IsolatedEvaluator::new(WorkerCommand::new("/nonexistent/hone-gpu-worker"));
        let err = ev.device().unwrap_err();
        assert!(
            matches!(err, GpuError::Worker(ref m) if m.contains("cannot start")),
            "{err:?}"
        );
        assert_eq!(ev.started(), 0);
    }

    #[test]
    fn a_program_that_is_no_worker_fails_the_handshake() {
        // `true` exits at once without a hello.
        let mut ev = IsolatedEvaluator::new(WorkerCommand::new("true"));
        let err = ev.device().unwrap_err();
        assert!(err.to_string().contains("did not start"), "{err}");
        assert!(ev.worker_pid().is_none());
    }

    #[test]
    fn command_builder_collects_arguments_and_environment() {
        let c = WorkerCommand::new("hone")
            .args(["gpu-worker"])
            .env("HONE_GPU_DEVICE", "1");
        assert_eq!(c.args, vec![OsString::from("gpu-worker")]);
        assert_eq!(c.env.len(), 1);
        let me = WorkerCommand::current_exe(["gpu-worker"]).unwrap();
        assert!(me.program.exists());
    }
}
