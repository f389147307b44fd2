//! The tuning database (SQLite): devices, kernels, configurations, jobs and
//! measurements, each measurement committed as soon as it is taken so that an
//! interrupted job resumes where it stopped. Exports to CSV, JSON and Kernel
//! Tuner's T4 results format; merges the databases of sharded runs.

use crate::config::Config;
use crate::key::ProblemKey;
use crate::measure::{InvalidKind, Measurement, Timing};
use crate::replay::Recording;
use crate::space::DeviceProps;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Errors of the tuning database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    // Not sources: the message already holds the cause, and a chain of
    // sources would print it again.
    #[error("tuning database: {0}")]
    Sqlite(rusqlite::Error),
    #[error("tuning database: {0}")]
    Json(serde_json::Error),
    /// A SQLite file that is not a tuning database (or one whose tables
    /// lack columns hone reads).
    #[error("not a tuning database: {0}")]
    Schema(String),
    #[error("{0}")]
    Conflict(String),
    #[error("tuning database: no job with id {0}")]
    NoJob(i64),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError::Sqlite(e)
    }
}

impl From<serde_json::Error> for DbError {
    fn from(e: serde_json::Error) -> DbError {
        DbError::Json(e)
    }
}

/// The device a job ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    pub name: String,
    /// Stable identity (the GPU UUID); devices are matched by it.
    pub uuid: String,
    pub clock_mhz: Option<f64>,
    pub mem_clock_mhz: Option<f64>,
    pub driver: Option<String>,
    pub nvrtc_version: Option<String>,
    pub props: DeviceProps,
}

/// What makes two devices interchangeable for a rule: the same product at
/// the same clocks. Measurements of one job come from one model only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceModel {
    pub name: String,
    pub clock_mhz: Option<f64>,
    pub mem_clock_mhz: Option<f64>,
}

impl std::fmt::Display for DeviceModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mhz = |v: Option<f64>| v.map_or("?".to_string(), |m| format!("{m:.0}"));
        write!(
            f,
            "{} (SM {} MHz, memory {} MHz)",
            self.name,
            mhz(self.clock_mhz),
            mhz(self.mem_clock_mhz)
        )
    }
}

impl DeviceInfo {
    /// The device's model (name and clocks), by which rules are kept apart.
    pub fn model(&self) -> DeviceModel {
        DeviceModel {
            name: self.name.clone(),
            clock_mhz: self.clock_mhz,
            mem_clock_mhz: self.mem_clock_mhz,
        }
    }

    /// A stand-in for runs on synthetic or replayed backends.
    pub fn synthetic(name: &str, props: DeviceProps) -> Self {
        DeviceInfo {
            name: name.to_string(),
            uuid: format!("synthetic-{name}"),
            clock_mhz: None,
            mem_clock_mhz: None,
            driver: None,
            nvrtc_version: None,
            props,
        }
    }
}

/// A row of the `jobs` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobRow {
    pub id: i64,
    pub name: String,
    pub kernel: String,
    pub device_uuid: String,
    pub shard_index: u32,
    pub shard_count: u32,
    pub spec_json: String,
    pub status: String,
    pub created: String,
    pub finished: Option<String>,
}

/// A measurement as stored, with its configuration and time of taking.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMeasurement {
    pub config: Config,
    /// The size on the job's family (0 for a problem off it).
    pub size: u64,
    pub problem: ProblemKey,
    pub measurement: Measurement,
    pub timestamp: String,
    /// The UUID of the device it was taken on; `None` in databases made
    /// before measurements named their device (the job's device took them).
    pub device: Option<String>,
    /// The device's ordinal on its machine, when a run on several devices
    /// took it.
    pub ordinal: Option<u32>,
}

/// How many measurements of a job one device took.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceShare {
    pub device: DeviceInfo,
    pub ordinal: Option<u32>,
    pub measurements: usize,
}

/// What a merge did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeReport {
    pub jobs: usize,
    pub inserted: usize,
    /// Measurements already present in the target (the target's are kept).
    pub duplicates: usize,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS devices (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    clock_mhz REAL,
    mem_clock_mhz REAL,
    driver TEXT,
    nvrtc_version TEXT,
    props_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS kernels (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    UNIQUE (name, source_hash)
);
CREATE TABLE IF NOT EXISTS configs (
    id INTEGER PRIMARY KEY,
    kernel_id INTEGER NOT NULL REFERENCES kernels(id),
    key TEXT NOT NULL,
    params_json TEXT NOT NULL,
    UNIQUE (kernel_id, key)
);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kernel_id INTEGER NOT NULL REFERENCES kernels(id),
    device_id INTEGER NOT NULL REFERENCES devices(id),
    shard_index INTEGER NOT NULL,
    shard_count INTEGER NOT NULL,
    spec_json TEXT NOT NULL,
    status TEXT NOT NULL,
    created TEXT NOT NULL,
    finished TEXT,
    UNIQUE (name, device_id, shard_index, shard_count)
);
CREATE TABLE IF NOT EXISTS measurements (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    config_id INTEGER NOT NULL REFERENCES configs(id),
    size INTEGER NOT NULL,
    problem TEXT,
    status TEXT NOT NULL,
    median_s REAL,
    q1_s REAL,
    q3_s REAL,
    min_s REAL,
    max_s REAL,
    samples INTEGER,
    times_json TEXT,
    gbps REAL,
    gflops REAL,
    reason TEXT,
    timestamp TEXT NOT NULL,
    device_id INTEGER REFERENCES devices(id),
    ordinal INTEGER,
    UNIQUE (job_id, config_id, size, problem)
);
";

/// Seconds since the Unix epoch as an RFC 3339 UTC timestamp.
pub fn rfc3339(secs: f64) -> String {
    let whole = secs.floor() as i64;
    let micros = ((secs - whole as f64) * 1e6).round().min(999_999.0) as i64;
    let days = whole.div_euclid(86_400);
    let rem = whole.rem_euclid(86_400);
    // Civil date from day count (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{micros:06}+00:00",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60
    )
}

fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    rfc3339(secs)
}

/// The tuning database.
///
/// Measurements name their problem by key text (`problem`). Databases made
/// before keys existed have no such column and hold one-size problems,
/// `n=<size>`: they are read as such and get the column on their first new
/// measurement (so that replaying a recorded database leaves it untouched),
/// keeping their uniqueness over (job, configuration, size).
pub struct TuningDb {
    conn: Connection,
    keyed: std::cell::Cell<bool>,
    /// Measurements name their device (`device_id`, `ordinal`); databases
    /// made before get the columns with their first new measurement, their
    /// old rows standing for the job's device.
    located: std::cell::Cell<bool>,
    /// Made before keys: one measurement per (job, configuration, size).
    legacy: bool,
}

impl TuningDb {
    /// Opens (creating if needed) a database file in WAL mode.
    pub fn open(path: impl AsRef<Path>) -> Result<TuningDb, DbError> {
        let conn = Connection::open(path)?;
        Self::init(conn)
    }

    pub fn open_in_memory() -> Result<TuningDb, DbError> {
        Self::init(Connection::open_in_memory()?)
    }

    /// Refuses a file whose tables are not a tuning database's: another
    /// program's database, or one whose tables lack columns (a database made
    /// before problem keys or devices per measurement lacks `problem`,
    /// `device_id` and `ordinal`, and is read as such).
    fn check_schema(conn: &Connection) -> Result<(), DbError> {
        let tables = |c: &Connection| -> Result<Vec<String>, DbError> {
            let mut stmt = c.prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )?;
            let names = stmt.query_map([], |r| r.get(0))?;
            Ok(names.collect::<Result<_, _>>()?)
        };
        let columns = |c: &Connection, table: &str| -> Result<Vec<String>, DbError> {
            let mut stmt = c.prepare("SELECT name FROM pragma_table_info(?1)")?;
            let names = stmt.query_map([table], |r| r.get(0))?;
            Ok(names.collect::<Result<_, _>>()?)
        };
        let present = tables(conn)?;
        if present.is_empty() {
            return Ok(());
        }
        let model = Connection::open_in_memory()?;
        model.execute_batch(SCHEMA)?;
        let ours = tables(&model)?;
        if !present.iter().any(|t| ours.contains(t)) {
            return Err(DbError::Schema(format!(
                "it holds the tables {} and none of {}",
                present.join(", "),
                ours.join(", ")
            )));
        }
        for table in ours.iter().filter(|t| present.contains(t)) {
            let have = columns(conn, table)?;
            for col in columns(&model, table)? {
                // Columns an older database gains with its first new measurement.
                let optional = table == "measurements"
                    && matches!(col.as_str(), "problem" | "device_id" | "ordinal");
                if !(optional || have.contains(&col)) {
                    return Err(DbError::Schema(format!(
                        "table `{table}` has no column `{col}`"
                    )));
                }
            }
        }
        Ok(())
    }

    fn init(conn: Connection) -> Result<TuningDb, DbError> {
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        // Before anything is written: another program's file is left as it was.
        Self::check_schema(&conn)?;
        // WAL: each committed measurement survives a crash of the process, and
        // readers (exports, a progress view) do not block the writer.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(SCHEMA)?;
        let has_column = |name: &str| {
            conn.prepare("SELECT 1 FROM pragma_table_info('measurements') WHERE name = ?1")?
                .exists([name])
        };
        let keyed = has_column("problem")?;
        let located = has_column("device_id")?;
        Ok(TuningDb {
            conn,
            keyed: std::cell::Cell::new(keyed),
            located: std::cell::Cell::new(located),
            legacy: !keyed,
        })
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Inserts or refreshes a device (matched by UUID); returns its id.
    pub fn upsert_device(&self, d: &DeviceInfo) -> Result<i64, DbError> {
        let props = serde_json::to_string(&d.props)?;
        self.conn.execute(
            "INSERT INTO devices (uuid, name, clock_mhz, mem_clock_mhz, driver, nvrtc_version, props_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (uuid) DO UPDATE SET name = ?2, clock_mhz = ?3, mem_clock_mhz = ?4,
                 driver = ?5, nvrtc_version = ?6, props_json = ?7",
            params![d.uuid, d.name, d.clock_mhz, d.mem_clock_mhz, d.driver, d.nvrtc_version, props],
        )?;
        Ok(self
            .conn
            .query_row("SELECT id FROM devices WHERE uuid = ?1", [&d.uuid], |r| {
                r.get(0)
            })?)
    }

    pub fn device(&self, uuid: &str) -> Result<Option<DeviceInfo>, DbError> {
        let row = self
            .conn
            .query_row(
                "SELECT name, uuid, clock_mhz, mem_clock_mhz, driver, nvrtc_version, props_json
                 FROM devices WHERE uuid = ?1",
                [uuid],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get::<_, String>(6)?,
                    ))
                },
            )
            .optional()?;
        row.map(
            |(name, uuid, clock_mhz, mem_clock_mhz, driver, nvrtc_version, props)| {
                Ok(DeviceInfo {
                    name,
                    uuid,
                    clock_mhz,
                    mem_clock_mhz,
                    driver,
                    nvrtc_version,
                    props: serde_json::from_str(&props)?,
                })
            },
        )
        .transpose()
    }

    pub fn upsert_kernel(&self, name: &str, source_hash: &str) -> Result<i64, DbError> {
        self.conn.execute(
            "INSERT OR IGNORE INTO kernels (name, source_hash) VALUES (?1, ?2)",
            params![name, source_hash],
        )?;
        Ok(self.conn.query_row(
            "SELECT id FROM kernels WHERE name = ?1 AND source_hash = ?2",
            params![name, source_hash],
            |r| r.get(0),
        )?)
    }

    pub fn config_id(&self, kernel_id: i64, config: &Config) -> Result<i64, DbError> {
        let key = config.key();
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id FROM configs WHERE kernel_id = ?1 AND key = ?2")?;
        if let Some(id) = stmt
            .query_row(params![kernel_id, key], |r| r.get(0))
            .optional()?
        {
            return Ok(id);
        }
        self.conn
            .prepare_cached(
                "INSERT INTO configs (kernel_id, key, params_json) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![kernel_id, key, config.to_json()])?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Opens the job `(name, device, shard)`, creating it if new. An existing
    /// job is resumed only if its spec is the same; returns `(id, resumed)`.
    pub fn open_job(
        &self,
        name: &str,
        kernel_id: i64,
        device_id: i64,
        shard: (u32, u32),
        spec_json: &str,
    ) -> Result<(i64, bool), DbError> {
        let existing: Option<(i64, String, i64)> = self
            .conn
            .query_row(
                "SELECT id, spec_json, kernel_id FROM jobs
                 WHERE name = ?1 AND device_id = ?2 AND shard_index = ?3 AND shard_count = ?4",
                params![name, device_id, shard.0, shard.1],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        if let Some((id, spec, kid)) = existing {
            if spec != spec_json || kid != kernel_id {
                return Err(DbError::Conflict(format!(
                    "job `{name}` (shard {}/{}) already exists in this database with a different specification, kernel source or measurement options (repetitions, warm-up, L2 flush, checks); run it as it was run, or give the job a new name to start afresh",
                    shard.0, shard.1
                )));
            }
            self.conn.execute(
                "UPDATE jobs SET status = 'running', finished = NULL WHERE id = ?1",
                [id],
            )?;
            return Ok((id, true));
        }
        self.conn.execute(
            "INSERT INTO jobs (name, kernel_id, device_id, shard_index, shard_count, spec_json, status, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', ?7)",
            params![name, kernel_id, device_id, shard.0, shard.1, spec_json, now()],
        )?;
        Ok((self.conn.last_insert_rowid(), false))
    }

    pub fn finish_job(&self, job_id: i64) -> Result<(), DbError> {
        self.conn.execute(
            "UPDATE jobs SET status = 'finished', finished = ?2 WHERE id = ?1",
            params![job_id, now()],
        )?;
        Ok(())
    }

    pub fn jobs(&self) -> Result<Vec<JobRow>, DbError> {
        let mut stmt = self.conn.prepare(
            "SELECT j.id, j.name, k.name, d.uuid, j.shard_index, j.shard_count, j.spec_json,
                    j.status, j.created, j.finished
             FROM jobs j JOIN kernels k ON k.id = j.kernel_id JOIN devices d ON d.id = j.device_id
             ORDER BY j.id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok(JobRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    kernel: r.get(2)?,
                    device_uuid: r.get(3)?,
                    shard_index: r.get(4)?,
                    shard_count: r.get(5)?,
                    spec_json: r.get(6)?,
                    status: r.get(7)?,
                    created: r.get(8)?,
                    finished: r.get(9)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Stores one measurement in its own transaction (autocommit), so it is
    /// durable the moment this returns. A point already stored is kept.
    /// `size` is the problem's size on the job's family.
    pub fn record(
        &self,
        job_id: i64,
        config_id: i64,
        problem: &ProblemKey,
        size: u64,
        m: &Measurement,
    ) -> Result<bool, DbError> {
        self.record_at(job_id, config_id, problem, size, m, &now(), None)
    }

    /// [`TuningDb::record`] of a measurement taken on the device `device_id`
    /// (a row of `devices`), ordinal `ordinal` on its machine.
    #[allow(clippy::too_many_arguments)]
    pub fn record_on(
        &self,
        job_id: i64,
        config_id: i64,
        problem: &ProblemKey,
        size: u64,
        m: &Measurement,
        device_id: i64,
        ordinal: Option<u32>,
    ) -> Result<bool, DbError> {
        self.record_at(
            job_id,
            config_id,
            problem,
            size,
            m,
            &now(),
            Some((device_id, ordinal)),
        )
    }

    /// Adds the columns naming each measurement's device to a database made
    /// before they existed.
    fn locate_measurements(&self) -> Result<(), DbError> {
        if !self.located.get() {
            self.conn.execute_batch(
                "ALTER TABLE measurements ADD COLUMN device_id INTEGER REFERENCES devices(id);
                 ALTER TABLE measurements ADD COLUMN ordinal INTEGER;",
            )?;
            self.located.set(true);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn record_at(
        &self,
        job_id: i64,
        config_id: i64,
        problem: &ProblemKey,
        size: u64,
        m: &Measurement,
        timestamp: &str,
        device: Option<(i64, Option<u32>)>,
    ) -> Result<bool, DbError> {
        if self.legacy && size == 0 {
            // Problems off a family all stand at size 0: the old uniqueness
            // would keep only the first of them.
            return Err(DbError::Conflict(format!(
                "this tuning database predates problem keys and cannot hold `{problem}`; use a new database"
            )));
        }
        if !self.keyed.get() {
            self.conn
                .execute_batch("ALTER TABLE measurements ADD COLUMN problem TEXT")?;
            self.keyed.set(true);
        }
        if device.is_some() {
            self.locate_measurements()?;
        }
        use rusqlite::types::Value;
        let real = |v: Option<f64>| v.map_or(Value::Null, Value::Real);
        let text = |v: Option<String>| v.map_or(Value::Null, Value::Text);
        let mut values = vec![
            Value::Integer(job_id),
            Value::Integer(config_id),
            Value::Integer(size as i64),
            Value::Text(m.status().to_string()),
        ];
        match m {
            Measurement::Ok(t) => values.extend([
                Value::Real(t.median_s),
                Value::Real(t.q1_s),
                Value::Real(t.q3_s),
                Value::Real(t.min_s),
                Value::Real(t.max_s),
                Value::Integer(t.samples.into()),
                text(if t.times_s.is_empty() {
                    None
                } else {
                    Some(serde_json::to_string(&t.times_s)?)
                }),
                real(t.gbps),
                real(t.gflops),
                Value::Null,
            ]),
            Measurement::Invalid { reason, .. } => {
                values.extend(std::iter::repeat_n(Value::Null, 9));
                values.push(Value::Text(reason.clone()));
            }
        }
        values.push(Value::Text(timestamp.to_string()));
        values.push(Value::Text(problem.to_string()));
        // One statement, so that a measurement is never stored without its device.
        let sql = if self.located.get() {
            let (device_id, ordinal) = device.unzip();
            values.push(device_id.map_or(Value::Null, Value::Integer));
            values.push(
                ordinal
                    .flatten()
                    .map_or(Value::Null, |o| Value::Integer(o.into())),
            );
            "INSERT OR IGNORE INTO measurements
             (job_id, config_id, size, status, median_s, q1_s, q3_s, min_s, max_s, samples,
              times_json, gbps, gflops, reason, timestamp, problem, device_id, ordinal)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
        } else {
            "INSERT OR IGNORE INTO measurements
             (job_id, config_id, size, status, median_s, q1_s, q3_s, min_s, max_s, samples,
              times_json, gbps, gflops, reason, timestamp, problem)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
        };
        let n = self
            .conn
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(values))?;
        Ok(n == 1)
    }

    /// Every measurement of a job, in the order taken.
    pub fn measurements(&self, job_id: i64) -> Result<Vec<StoredMeasurement>, DbError> {
        let problem = if self.keyed.get() {
            "m.problem"
        } else {
            "NULL"
        };
        let (device, ordinal, join) = if self.located.get() {
            (
                "d.uuid",
                "m.ordinal",
                "LEFT JOIN devices d ON d.id = m.device_id",
            )
        } else {
            ("NULL", "NULL", "")
        };
        let mut stmt = self.conn.prepare(&format!(
            "SELECT c.params_json, m.size, m.status, m.median_s, m.q1_s, m.q3_s, m.min_s, m.max_s,
                    m.samples, m.times_json, m.gbps, m.gflops, m.reason, m.timestamp, {problem},
                    {device}, {ordinal}
             FROM measurements m JOIN configs c ON c.id = m.config_id {join}
             WHERE m.job_id = ?1 ORDER BY m.id"
        ))?;
        let rows = stmt.query_map([job_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<f64>>(3)?,
                r.get::<_, Option<f64>>(4)?,
                r.get::<_, Option<f64>>(5)?,
                r.get::<_, Option<f64>>(6)?,
                r.get::<_, Option<f64>>(7)?,
                r.get::<_, Option<u32>>(8)?,
                r.get::<_, Option<String>>(9)?,
                r.get::<_, Option<f64>>(10)?,
                r.get::<_, Option<f64>>(11)?,
                r.get::<_, Option<String>>(12)?,
                r.get::<_, String>(13)?,
                r.get::<_, Option<String>>(14)?,
                r.get::<_, Option<String>>(15)?,
                r.get::<_, Option<u32>>(16)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (
                params_json,
                size,
                status,
                median,
                q1,
                q3,
                min,
                max,
                samples,
                times,
                gbps,
                gflops,
                reason,
                ts,
                problem,
                device,
                ordinal,
            ) = row?;
            let problem = match problem {
                Some(text) => text.parse().map_err(|e| {
                    DbError::Conflict(format!("tuning database: problem `{text}`: {e}"))
                })?,
                None => ProblemKey::n(size as u64),
            };
            let config: Config = serde_json::from_str(&params_json)?;
            let measurement = if status == "ok" {
                let median = median.unwrap_or(f64::NAN);
                Measurement::Ok(Timing {
                    median_s: median,
                    q1_s: q1.unwrap_or(median),
                    q3_s: q3.unwrap_or(median),
                    min_s: min.unwrap_or(median),
                    max_s: max.unwrap_or(median),
                    samples: samples.unwrap_or(1),
                    times_s: match times {
                        Some(t) => serde_json::from_str(&t)?,
                        None => Vec::new(),
                    },
                    gbps,
                    gflops,
                })
            } else {
                let kind = InvalidKind::parse(&status).ok_or_else(|| {
                    DbError::Conflict(format!(
                        "tuning database: unknown measurement status `{status}`"
                    ))
                })?;
                Measurement::invalid(kind, reason.unwrap_or_default())
            };
            out.push(StoredMeasurement {
                config,
                size: size as u64,
                problem,
                measurement,
                timestamp: ts,
                device,
                ordinal,
            });
        }
        Ok(out)
    }

    /// How many measurements a job holds (valid or not).
    pub fn measurement_count(&self, job_id: i64) -> Result<usize, DbError> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM measurements WHERE job_id = ?1",
            [job_id],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    }

    /// The devices that took a job's measurements, with how many each took
    /// (by device and ordinal, in the order of their first measurement).
    /// Measurements that name no device are the job's device's.
    pub fn job_devices(&self, job_id: i64) -> Result<Vec<DeviceShare>, DbError> {
        let job_device: String = self
            .conn
            .query_row(
                "SELECT d.uuid FROM jobs j JOIN devices d ON d.id = j.device_id WHERE j.id = ?1",
                [job_id],
                |r| r.get(0),
            )
            .optional()?
            .ok_or(DbError::NoJob(job_id))?;
        let mut shares: Vec<DeviceShare> = Vec::new();
        for s in self.measurements(job_id)? {
            let uuid = s.device.unwrap_or_else(|| job_device.clone());
            match shares
                .iter_mut()
                .find(|d| d.device.uuid == uuid && d.ordinal == s.ordinal)
            {
                Some(d) => d.measurements += 1,
                None => {
                    let device = self.device(&uuid)?.ok_or_else(|| {
                        DbError::Conflict(format!("tuning database: no device `{uuid}`"))
                    })?;
                    shares.push(DeviceShare {
                        device,
                        ordinal: s.ordinal,
                        measurements: 1,
                    });
                }
            }
        }
        Ok(shares)
    }

    /// The measurements of a job keyed by (configuration key, problem): what
    /// a resumed job need not measure again.
    pub fn measured(
        &self,
        job_id: i64,
    ) -> Result<HashMap<(String, ProblemKey), Measurement>, DbError> {
        Ok(self
            .measurements(job_id)?
            .into_iter()
            .map(|s| ((s.config.key(), s.problem), s.measurement))
            .collect())
    }

    pub fn recording(&self, job_id: i64) -> Result<Recording, DbError> {
        let mut rec = Recording::new();
        for s in self.measurements(job_id)? {
            rec.push_key(s.config, s.problem, s.size, s.measurement);
        }
        Ok(rec)
    }

    /// The job id for a name (the unsharded job when there are several).
    pub fn job_id(&self, name: &str) -> Result<Option<i64>, DbError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM jobs WHERE name = ?1 ORDER BY shard_count, shard_index, id LIMIT 1",
                [name],
                |r| r.get(0),
            )
            .optional()?)
    }

    pub fn export_csv(&self, job_id: i64, path: &Path) -> Result<(), DbError> {
        self.write(path, self.recording(job_id)?.to_csv_string())
    }

    pub fn export_json(&self, job_id: i64, path: &Path) -> Result<(), DbError> {
        self.write(path, self.recording(job_id)?.to_json_string())
    }

    fn write(&self, path: &Path, text: String) -> Result<(), DbError> {
        std::fs::write(path, text).map_err(|source| DbError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// The job's results in Kernel Tuner's T4 results format (schema 1.0.0).
    ///
    /// T4 has no notion of problem size: each entry's `configuration` holds the
    /// tuning parameters only, and the size is given as a `problem_size`
    /// measurement; `size` restricts the export to one size. Times are in
    /// milliseconds, as Kernel Tuner writes them.
    pub fn export_t4(&self, job_id: i64, size: Option<u64>) -> Result<serde_json::Value, DbError> {
        use serde_json::{json, Value};
        let mut results = Vec::new();
        for s in self.measurements(job_id)? {
            if size.is_some_and(|n| n != s.size) {
                continue;
            }
            let configuration: Value = serde_json::to_value(&s.config)?;
            let mut measurements =
                vec![json!({"name": "problem_size", "value": s.size, "unit": ""})];
            let (times, invalidity, correctness) = match &s.measurement {
                Measurement::Ok(t) => {
                    measurements.insert(
                        0,
                        json!({"name": "time", "value": t.median_s * 1e3, "unit": "ms"}),
                    );
                    if let Some(g) = t.gbps {
                        measurements.push(json!({"name": "GB/s", "value": g, "unit": "GB/s"}));
                    }
                    if let Some(g) = t.gflops {
                        measurements
                            .push(json!({"name": "GFLOP/s", "value": g, "unit": "GFLOP/s"}));
                    }
                    let runtimes: Vec<f64> = if t.times_s.is_empty() {
                        vec![t.median_s * 1e3]
                    } else {
                        t.times_s.iter().map(|x| x * 1e3).collect()
                    };
                    let total: f64 = runtimes.iter().sum();
                    (
                        json!({"runtimes": runtimes, "benchmark": total}),
                        "correct",
                        1,
                    )
                }
                Measurement::Invalid { kind, .. } => {
                    let inv = match kind {
                        InvalidKind::Compile => "compile",
                        InvalidKind::Runtime => "runtime",
                        InvalidKind::Timeout => "timeout",
                        InvalidKind::WrongAnswer => "correctness",
                        InvalidKind::Constraint | InvalidKind::Missing => "constraints",
                    };
                    let correctness = if *kind == InvalidKind::WrongAnswer {
                        0
                    } else {
                        1
                    };
                    (json!({"runtimes": []}), inv, correctness)
                }
            };
            results.push(json!({
                "timestamp": s.timestamp,
                "configuration": configuration,
                "times": times,
                "invalidity": invalidity,
                "correctness": correctness,
                "measurements": measurements,
                "objectives": ["time"],
            }));
        }
        Ok(json!({"schema_version": "1.0.0", "results": results}))
    }

    /// Merges every job of the database at `other` into this one. Jobs that ran
    /// as shards `i/n` go into the unsharded job (`0/1`) of the same name and
    /// device, so that the unsharded job can then be resumed to finish the work.
    pub fn merge_from(&mut self, other: &Path) -> Result<MergeReport, DbError> {
        let src = TuningDb::open(other)?;
        let mut report = MergeReport::default();
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let result = (|| -> Result<(), DbError> {
            for job in src.jobs()? {
                report.jobs += 1;
                let device = src.device(&job.device_uuid)?.ok_or_else(|| {
                    DbError::Conflict(format!("job `{}` names a missing device", job.name))
                })?;
                let device_id = self.upsert_device(&device)?;
                let hash: String = src.conn.query_row(
                    "SELECT k.source_hash FROM jobs j JOIN kernels k ON k.id = j.kernel_id WHERE j.id = ?1",
                    [job.id],
                    |r| r.get(0),
                )?;
                let kernel_id = self.upsert_kernel(&job.kernel, &hash)?;
                let (target, _) =
                    self.open_job(&job.name, kernel_id, device_id, (0, 1), &job.spec_json)?;
                let mut device_ids: HashMap<String, i64> = HashMap::new();
                for s in src.measurements(job.id)? {
                    let cid = self.config_id(kernel_id, &s.config)?;
                    let on = match &s.device {
                        Some(uuid) => {
                            let id = match device_ids.get(uuid) {
                                Some(&id) => id,
                                None => {
                                    let d = src.device(uuid)?.ok_or_else(|| {
                                        DbError::Conflict(format!(
                                            "job `{}` has a measurement on a missing device",
                                            job.name
                                        ))
                                    })?;
                                    let id = self.upsert_device(&d)?;
                                    device_ids.insert(uuid.clone(), id);
                                    id
                                }
                            };
                            Some((id, s.ordinal))
                        }
                        None => None,
                    };
                    if self.record_at(
                        target,
                        cid,
                        &s.problem,
                        s.size,
                        &s.measurement,
                        &s.timestamp,
                        on,
                    )? {
                        report.inserted += 1;
                    } else {
                        report.duplicates += 1;
                    }
                }
                // A merged shard does not finish the whole job; a finished
                // unsharded job stays finished.
                if job.status == "finished" && job.shard_count <= 1 {
                    self.conn.execute(
                        "UPDATE jobs SET status = 'finished', finished = ?2 WHERE id = ?1",
                        params![target, job.finished],
                    )?;
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                self.conn.execute_batch("COMMIT")?;
                Ok(report)
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(db: &TuningDb) -> (i64, i64) {
        let dev = db
            .upsert_device(&DeviceInfo::synthetic("k20", DeviceProps::tesla_k20()))
            .unwrap();
        let ker = db.upsert_kernel("symv", "abc123").unwrap();
        (dev, ker)
    }

    #[test]
    fn timestamps_are_rfc3339() {
        assert_eq!(rfc3339(0.0), "1970-01-01T00:00:00.000000+00:00");
        assert_eq!(rfc3339(951_782_400.5), "2000-02-29T00:00:00.500000+00:00");
        assert_eq!(rfc3339(1_361_404_800.0), "2013-02-21T00:00:00.000000+00:00");
    }

    #[test]
    fn store_read_and_resume_guard() {
        let db = TuningDb::open_in_memory().unwrap();
        let (dev, ker) = setup(&db);
        assert_eq!(db.upsert_kernel("symv", "abc123").unwrap(), ker);
        let (job, resumed) = db.open_job("j", ker, dev, (0, 1), "{}").unwrap();
        assert!(!resumed);
        let c = Config::parse_key("B=32,U=8").unwrap();
        let cid = db.config_id(ker, &c).unwrap();
        assert_eq!(db.config_id(ker, &c).unwrap(), cid);
        let mut t = Timing::from_samples(&[1e-3, 2e-3, 3e-3]).unwrap();
        t.gflops = Some(5.0);
        assert!(db
            .record(
                job,
                cid,
                &ProblemKey::n(100),
                100,
                &Measurement::Ok(t.clone())
            )
            .unwrap());
        // A point already stored is kept, not overwritten.
        assert!(!db
            .record(
                job,
                cid,
                &ProblemKey::n(100),
                100,
                &Measurement::Ok(Timing::single(9.0))
            )
            .unwrap());
        let bad = Measurement::invalid(InvalidKind::Timeout, "over 10 s");
        db.record(job, cid, &ProblemKey::n(200), 200, &bad).unwrap();
        let got = db.measured(job).unwrap();
        assert_eq!(got[&(c.key(), ProblemKey::n(100))], Measurement::Ok(t));
        assert_eq!(got[&(c.key(), ProblemKey::n(200))], bad);
        assert_eq!(
            db.open_job("j", ker, dev, (0, 1), "{}").unwrap(),
            (job, true)
        );
        let err = db.open_job("j", ker, dev, (0, 1), "{\"x\":1}").unwrap_err();
        assert!(err.to_string().contains("different specification"), "{err}");
        db.finish_job(job).unwrap();
        assert_eq!(db.jobs().unwrap()[0].status, "finished");
        assert_eq!(
            db.device("synthetic-k20").unwrap().unwrap().props,
            DeviceProps::tesla_k20()
        );
    }

    #[test]
    fn a_database_made_before_devices_per_measurement_opens_and_takes_them() {
        let old =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/results/tune/vcopy.sqlite");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        std::fs::copy(&old, &path).unwrap();
        let db = TuningDb::open(&path).unwrap();
        assert!(
            !db.located.get(),
            "the recorded database names no device per measurement"
        );
        let job = db.jobs().unwrap()[0].clone();
        let before = db.measurements(job.id).unwrap();
        assert!(before
            .iter()
            .all(|m| m.device.is_none() && m.ordinal.is_none()));
        // Old rows are the job's device's.
        let shares = db.job_devices(job.id).unwrap();
        assert_eq!(shares.len(), 1);
        assert_eq!(shares[0].device.uuid, job.device_uuid);
        assert_eq!(shares[0].measurements, before.len());
        // A measurement on a second GPU of the same model adds the columns.
        let mut twin = db.device(&job.device_uuid).unwrap().unwrap();
        twin.uuid = "GPU-twin".into();
        let twin_id = db.upsert_device(&twin).unwrap();
        let kernel: i64 = db
            .connection()
            .query_row("SELECT kernel_id FROM jobs WHERE id = ?1", [job.id], |r| {
                r.get(0)
            })
            .unwrap();
        let cid = db.config_id(kernel, &before[0].config).unwrap();
        let m = Measurement::Ok(Timing::single(1.0));
        assert!(db
            .record_on(job.id, cid, &ProblemKey::n(7), 7, &m, twin_id, Some(1))
            .unwrap());
        drop(db);
        let db = TuningDb::open(&path).unwrap();
        assert!(db.located.get());
        let after = db.measurements(job.id).unwrap();
        assert_eq!(after[..before.len()], before[..]);
        let last = after.last().unwrap();
        assert_eq!(
            (last.device.as_deref(), last.ordinal),
            (Some("GPU-twin"), Some(1))
        );
        let shares = db.job_devices(job.id).unwrap();
        assert_eq!(shares.len(), 2);
        assert_eq!((shares[1].ordinal, shares[1].measurements), (Some(1), 1));
        // Merging carries each measurement's device.
        let merged_path = dir.path().join("merged.sqlite");
        let mut merged = TuningDb::open(&merged_path).unwrap();
        merged.merge_from(&path).unwrap();
        let mjob = merged.job_id(&job.name).unwrap().unwrap();
        let mlast = merged.measurements(mjob).unwrap().pop().unwrap();
        assert_eq!(
            (mlast.device.as_deref(), mlast.ordinal),
            (Some("GPU-twin"), Some(1))
        );
    }

    #[test]
    fn a_database_made_before_keys_reads_as_n_and_takes_keys_on_writing() {
        let old =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/results/tune/vcopy.sqlite");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        std::fs::copy(&old, &path).unwrap();
        let db = TuningDb::open(&path).unwrap();
        assert!(
            !db.keyed.get(),
            "the recorded database has no problem column"
        );
        let job = db.jobs().unwrap()[0].id;
        let before = db.measurements(job).unwrap();
        assert!(!before.is_empty());
        assert!(before.iter().all(|m| m.problem == ProblemKey::n(m.size)));
        let kernel: i64 = db
            .connection()
            .query_row("SELECT kernel_id FROM jobs WHERE id = ?1", [job], |r| {
                r.get(0)
            })
            .unwrap();
        let cid = db.config_id(kernel, &before[0].config).unwrap();
        let gemm: ProblemKey = "m=7,n=7,k=7,layout=NN".parse().unwrap();
        let m = Measurement::Ok(Timing::single(1.0));
        assert!(db.record(job, cid, &gemm, 7, &m).unwrap());
        let fft: ProblemKey = "nx=64,precision=s".parse().unwrap();
        let err = db.record(job, cid, &fft, 0, &m).unwrap_err().to_string();
        assert!(err.contains("predates problem keys"), "{err}");
        drop(db);
        let db = TuningDb::open(&path).unwrap();
        assert!(db.keyed.get());
        let after = db.measurements(job).unwrap();
        assert_eq!(after[..before.len()], before[..]);
        assert_eq!(after.last().unwrap().problem, gemm);
        assert_eq!(
            db.measured(job).unwrap()[&(before[0].config.key(), gemm)],
            m
        );
    }

    #[test]
    fn a_job_replays_from_the_database() {
        use crate::measure::Evaluator;
        use crate::replay::ReplayEvaluator;
        let db = TuningDb::open_in_memory().unwrap();
        let (dev, ker) = setup(&db);
        let (job, _) = db.open_job("j", ker, dev, (0, 1), "{}").unwrap();
        let synth =
            crate::synthetic::SyntheticEvaluator::new(crate::synthetic::SyntheticModel::Generic, 3);
        let configs: Vec<Config> = (0..5)
            .map(|k| Config::parse_key(&format!("K={k}")).unwrap())
            .collect();
        for c in &configs {
            let cid = db.config_id(ker, c).unwrap();
            for n in [100, 1000] {
                db.record(job, cid, &ProblemKey::n(n), n, &synth.measure(c, n))
                    .unwrap();
            }
        }
        let mut replay = ReplayEvaluator::new(&db.recording(job).unwrap());
        for c in &configs {
            assert_eq!(
                replay.evaluate(c, &ProblemKey::n(1000)).unwrap(),
                synth.measure(c, 1000)
            );
        }
        assert_eq!(replay.misses, 0);
    }

    #[test]
    fn t4_export_follows_the_schema() {
        let db = TuningDb::open_in_memory().unwrap();
        let (dev, ker) = setup(&db);
        let (job, _) = db.open_job("j", ker, dev, (0, 1), "{}").unwrap();
        let a = Config::parse_key("BLOCK_SIZE=64,LAYOUT=tn").unwrap();
        let b = Config::parse_key("BLOCK_SIZE=96,LAYOUT=nn").unwrap();
        let ca = db.config_id(ker, &a).unwrap();
        let cb = db.config_id(ker, &b).unwrap();
        let t = Timing::from_samples(&[1e-3, 2e-3, 3e-3])
            .unwrap()
            .with_work(None, Some(2e6));
        let record = |cid, n, m: Measurement| {
            db.record(job, cid, &ProblemKey::n(n), n, &m).unwrap();
        };
        record(ca, 1000, Measurement::Ok(t));
        record(cb, 1000, Measurement::invalid(InvalidKind::Compile, "x"));
        record(
            cb,
            2000,
            Measurement::invalid(InvalidKind::WrongAnswer, "x"),
        );
        let v = db.export_t4(job, None).unwrap();
        assert_eq!(v["schema_version"], "1.0.0");
        let r = v["results"].as_array().unwrap();
        assert_eq!(r.len(), 3);
        // Required by the schema: configuration, times, invalidity, correctness.
        for e in r {
            for key in [
                "configuration",
                "times",
                "invalidity",
                "correctness",
                "timestamp",
                "objectives",
                "measurements",
            ] {
                assert!(e.get(key).is_some(), "{key} missing in {e}");
            }
            let inv = e["invalidity"].as_str().unwrap();
            assert!([
                "timeout",
                "compile",
                "runtime",
                "correctness",
                "constraints",
                "correct"
            ]
            .contains(&inv));
        }
        assert_eq!(
            r[0]["configuration"],
            serde_json::json!({"BLOCK_SIZE": 64, "LAYOUT": "tn"})
        );
        assert_eq!(r[0]["invalidity"], "correct");
        assert_eq!(
            r[0]["times"]["runtimes"],
            serde_json::json!([1.0, 2.0, 3.0])
        );
        assert_eq!(
            r[0]["measurements"][0],
            serde_json::json!({"name": "time", "value": 2.0, "unit": "ms"})
        );
        assert_eq!(r[0]["objectives"], serde_json::json!(["time"]));
        assert_eq!(r[1]["invalidity"], "compile");
        assert_eq!(r[2]["invalidity"], "correctness");
        assert_eq!(r[2]["correctness"], 0);
        assert_eq!(
            db.export_t4(job, Some(2000)).unwrap()["results"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }
}
