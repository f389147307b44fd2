//! A single-node Slurm cluster on this machine for the tests of hone's
//! Slurm runs: a controller and a compute daemon started in the foreground
//! from a generated configuration in a scratch directory (no munge:
//! `auth/none`), on free ports, stopped when the value is dropped. Slurm
//! comes from the distribution's packages (`.ci/run` installs them); the
//! tests start it only under `HONE_SLURM_TEST=1` and as root, which slurmd
//! needs to run jobs.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The running controller and compute daemon.
pub struct MiniCluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<Child>,
}

/// Whether the Slurm test is asked for; prints why not when it is not.
pub fn slurm_test_requested() -> bool {
    if std::env::var("HONE_SLURM_TEST").as_deref() == Ok("1") {
        return true;
    }
    println!(
        "skipped: set HONE_SLURM_TEST=1 to start a single-node Slurm on this machine \
         (root, Debian's slurmctld, slurmd and slurm-client installed; .ci/run does)"
    );
    false
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// The short host name, as slurmctld compares it with `SlurmctldHost`.
fn short_hostname() -> String {
    let full = std::fs::read_to_string("/proc/sys/kernel/hostname").expect("the host name");
    full.trim()
        .split('.')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Job slots of the node: more than a small machine's cores, so that the
/// tests' tasks (light, one CPU each) run side by side on any machine.
const NODE_CPUS: usize = 4;

impl MiniCluster {
    /// Writes the configuration under `dir` and starts both daemons; waits
    /// until the node takes jobs. Panics, saying why, when Slurm is missing
    /// or does not come up.
    pub fn start(dir: &Path) -> MiniCluster {
        for program in ["slurmctld", "slurmd", "sbatch", "squeue", "sinfo"] {
            assert!(
                Command::new("which")
                    .arg(program)
                    .stdout(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success()),
                "HONE_SLURM_TEST=1 but `{program}` is not installed (apt-get install slurmctld slurmd slurm-client)"
            );
        }
        let dir = dir.to_path_buf();
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir_all(dir.join(sub)).expect("scratch directory");
        }
        let host = short_hostname();
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=hone-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld}
SlurmdPort={slurmd}
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=hone-node NodeHostname={host} NodeAddr=127.0.0.1 CPUs={NODE_CPUS} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
",
                ctld = free_port(),
                slurmd = free_port(),
            ),
        )
        .expect("slurm.conf");
        let mut cluster = MiniCluster {
            dir: dir.clone(),
            conf: conf.clone(),
            daemons: Vec::new(),
        };
        let spawn = |program: &str, args: &[&str], log: &str| {
            let log = std::fs::File::create(dir.join("log").join(log)).expect("daemon log");
            Command::new(program)
                .args(args)
                .env("SLURM_CONF", &conf)
                .stdout(log.try_clone().expect("daemon log"))
                .stderr(log)
                .spawn()
                .unwrap_or_else(|e| panic!("starting {program}: {e}"))
        };
        let conf_text = conf.display().to_string();
        cluster.daemons.push(spawn(
            "slurmctld",
            &["-D", "-i", "-f", &conf_text],
            "slurmctld.out",
        ));
        cluster.daemons.push(spawn(
            "slurmd",
            &["-D", "-N", "hone-node", "-f", &conf_text],
            "slurmd.out",
        ));
        cluster.wait_for("the node to come up idle", Duration::from_secs(60), |c| {
            c.command("sinfo", &["--noheader", "--format=%t"])
                .is_some_and(|s| s.trim() == "idle")
        });
        cluster
    }

    /// The configuration the client commands must be given (`SLURM_CONF`).
    pub fn conf(&self) -> &Path {
        &self.conf
    }

    /// A client command's stdout, when it succeeds.
    pub fn command(&self, program: &str, args: &[&str]) -> Option<String> {
        let out = Command::new(program)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Polls `done` every 500 ms; panics with the daemons' logs after `limit`.
    pub fn wait_for(&self, what: &str, limit: Duration, mut done: impl FnMut(&Self) -> bool) {
        let start = Instant::now();
        while !done(self) {
            if start.elapsed() > limit {
                panic!(
                    "Slurm: timed out after {limit:?} waiting for {what}\n{}",
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// The tails of the daemons' logs, for failure messages.
    pub fn logs(&self) -> String {
        let mut s = String::new();
        for name in ["slurmctld.out", "slurmd.out", "slurmctld.log", "slurmd.log"] {
            let text = std::fs::read_to_string(self.dir.join("log").join(name)).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            s.push_str(&format!("--- {name} (last 20 lines)\n"));
            for l in &lines[lines.len().saturating_sub(20)..] {
                s.push_str(l);
                s.push('\n');
            }
        }
        s
    }
}

impl Drop for MiniCluster {
    /// Asks the controller to shut down, then ends both daemons.
    fn drop(&mut self) {
        let _ = self.command("scontrol", &["shutdown"]);
        let deadline = Instant::now() + Duration::from_secs(10);
        for child in &mut self.daemons {
            while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(100));
            }
            if matches!(child.try_wait(), Ok(None)) {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
    }
}
