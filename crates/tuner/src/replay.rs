//! Recorded runs: CSV and JSON files of measurements, and a backend that answers
//! from them so strategies can be compared and tested without a GPU.

use crate::config::{Config, ParamValue};
use crate::db::{DbError, DeviceInfo, TuningDb};
use crate::key::{Family, ProblemKey};
use crate::measure::{Evaluator, InvalidKind, Measurement, Stop, Timing};
use crate::space::{DeviceProps, SpaceError, ValidSpace};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// One measured point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub config: Config,
    /// The size along the job's family (`n` of the key `n=N`).
    pub size: u64,
    /// The problem, when it is not `n=size` (recordings made before keys
    /// existed have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<ProblemKey>,
    pub measurement: Measurement,
}

impl Record {
    pub fn problem(&self) -> ProblemKey {
        self.key.clone().unwrap_or_else(|| ProblemKey::n(self.size))
    }
}

/// Errors reading or writing recordings.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
}

/// A set of measurements, e.g. a whole tuning run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub records: Vec<Record>,
}

/// Column names of the CSV form, before one column per parameter.
pub const CSV_COLUMNS: [&str; 13] = [
    "config", "size", "status", "median_s", "q1_s", "q3_s", "min_s", "max_s", "samples", "gbps",
    "gflops", "reason", "times_s",
];

fn opt_num(x: Option<f64>) -> String {
    x.map(|v| format!("{v:e}")).unwrap_or_default()
}

impl Recording {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, config: Config, size: u64, measurement: Measurement) {
        self.records.push(Record {
            config,
            size,
            key: None,
            measurement,
        });
    }

    /// A measurement of `key`, which stands at `size` on its family.
    pub fn push_key(&mut self, config: Config, key: ProblemKey, size: u64, m: Measurement) {
        let key = (key != ProblemKey::n(size)).then_some(key);
        self.records.push(Record {
            config,
            size,
            key,
            measurement: m,
        });
    }

    /// Distinct configurations in first-seen order.
    pub fn configs(&self) -> Vec<Config> {
        let mut seen = std::collections::HashSet::new();
        self.records
            .iter()
            .filter(|r| seen.insert(r.config.key()))
            .map(|r| r.config.clone())
            .collect()
    }

    /// Distinct sizes, ascending.
    pub fn sizes(&self) -> Vec<u64> {
        self.records
            .iter()
            .map(|r| r.size)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    /// The recorded configurations as a space to search.
    pub fn valid_space(&self) -> Result<ValidSpace, SpaceError> {
        ValidSpace::from_configs(&self.configs())
    }

    /// Writes the CSV form: fixed columns, then one column per parameter (for
    /// spreadsheets; reading uses the `config` key).
    pub fn to_csv_string(&self) -> String {
        let param_names: Vec<String> = self
            .records
            .first()
            .map(|r| r.config.entries().iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_default();
        let mut w = csv::Writer::from_writer(Vec::new());
        // The key column only where some problem is not `n=size`, so that
        // one-size recordings keep their form.
        let keyed = self.records.iter().any(|r| r.key.is_some());
        let header: Vec<&str> = CSV_COLUMNS
            .iter()
            .copied()
            .chain(keyed.then_some("key"))
            .chain(param_names.iter().map(String::as_str))
            .collect();
        // Writing to a Vec cannot fail.
        let _ = w.write_record(&header);
        for r in &self.records {
            let mut row: Vec<String> = vec![r.config.key(), r.size.to_string()];
            match &r.measurement {
                Measurement::Ok(t) => {
                    row.push("ok".into());
                    for v in [t.median_s, t.q1_s, t.q3_s, t.min_s, t.max_s] {
                        row.push(format!("{v:e}"));
                    }
                    row.push(t.samples.to_string());
                    row.push(opt_num(t.gbps));
                    row.push(opt_num(t.gflops));
                    row.push(String::new());
                    row.push(
                        t.times_s
                            .iter()
                            .map(|x| format!("{x:e}"))
                            .collect::<Vec<_>>()
                            .join(" "),
                    );
                }
                Measurement::Invalid { kind, reason } => {
                    row.push(kind.as_str().into());
                    row.extend(std::iter::repeat_n(String::new(), 8));
                    row.push(reason.clone());
                    row.push(String::new());
                }
            }
            if keyed {
                row.push(r.problem().to_string());
            }
            for name in &param_names {
                row.push(
                    r.config
                        .get(name)
                        .map(ParamValue::to_string)
                        .unwrap_or_default(),
                );
            }
            let _ = w.write_record(&row);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// Reads the CSV form; `origin` names the source in error messages.
    pub fn from_csv_str(text: &str, origin: &str) -> Result<Recording, RecordingError> {
        let fmt_err = |line: u64, message: String| RecordingError::Format {
            path: origin.to_string(),
            message: format!("line {line}: {message}"),
        };
        let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let header = rdr
            .headers()
            .map_err(|e| fmt_err(1, e.to_string()))?
            .clone();
        let col = |name: &str| header.iter().position(|h| h == name);
        let mut idx = HashMap::new();
        for name in CSV_COLUMNS {
            match col(name) {
                Some(i) => {
                    idx.insert(name, i);
                }
                None if name == "times_s" || name == "gbps" || name == "gflops" => {}
                None => return Err(fmt_err(1, format!("missing column `{name}`"))),
            }
        }
        let mut rec = Recording::new();
        for (row_no, row) in rdr.records().enumerate() {
            let line = row_no as u64 + 2;
            let row = row.map_err(|e| fmt_err(line, e.to_string()))?;
            let get = |name: &str| idx.get(name).and_then(|&i| row.get(i)).unwrap_or("");
            let num = |name: &str| -> Result<Option<f64>, RecordingError> {
                let s = get(name).trim();
                if s.is_empty() {
                    return Ok(None);
                }
                s.parse::<f64>()
                    .map(Some)
                    .map_err(|_| fmt_err(line, format!("column `{name}`: `{s}` is not a number")))
            };
            let config =
                Config::parse_key(get("config")).map_err(|e| fmt_err(line, e.to_string()))?;
            let size = get("size")
                .trim()
                .parse::<u64>()
                .map_err(|_| fmt_err(line, format!("size `{}` is not an integer", get("size"))))?;
            let status = get("status").trim();
            let measurement = if status == "ok" {
                let need = |name: &str| {
                    num(name)?.ok_or_else(|| fmt_err(line, format!("column `{name}` is empty")))
                };
                let times_s = get("times_s")
                    .split_whitespace()
                    .map(|s| {
                        s.parse::<f64>()
                            .map_err(|_| fmt_err(line, format!("times_s: `{s}` is not a number")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Measurement::Ok(Timing {
                    median_s: need("median_s")?,
                    q1_s: need("q1_s")?,
                    q3_s: need("q3_s")?,
                    min_s: need("min_s")?,
                    max_s: need("max_s")?,
                    samples: need("samples")? as u32,
                    times_s,
                    gbps: num("gbps")?,
                    gflops: num("gflops")?,
                })
            } else {
                let kind = InvalidKind::parse(status).ok_or_else(|| {
                    fmt_err(line, format!("unknown status `{status}` (ok, compile, runtime, timeout, wrong_answer, constraint, missing)"))
                })?;
                Measurement::invalid(kind, get("reason"))
            };
            let key = match col("key").and_then(|i| row.get(i)).map(str::trim) {
                Some(k) if !k.is_empty() => {
                    k.parse().map_err(|e| fmt_err(line, format!("key: {e}")))?
                }
                _ => ProblemKey::n(size),
            };
            rec.push_key(config, key, size, measurement);
        }
        Ok(rec)
    }

    pub fn to_json_string(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json_str(text: &str, origin: &str) -> Result<Recording, RecordingError> {
        serde_json::from_str(text).map_err(|e| RecordingError::Format {
            path: origin.to_string(),
            message: format!("line {}: {e}", e.line()),
        })
    }

    /// Reads a `.csv` or `.json` recording, chosen by extension; either may
    /// be gzip-compressed (`.csv.gz`, `.json.gz`).
    pub fn load(path: &Path) -> Result<Recording, RecordingError> {
        let name = path.display().to_string();
        let io = |source| RecordingError::Io {
            path: name.clone(),
            source,
        };
        let bytes = std::fs::read(path).map_err(io)?;
        let (bytes, inner) = if path.extension().is_some_and(|e| e == "gz") {
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut out)
                .map_err(io)?;
            (out, path.with_extension(""))
        } else {
            (bytes, path.to_path_buf())
        };
        let text = String::from_utf8(bytes).map_err(|e| RecordingError::Format {
            path: name.clone(),
            message: format!("not UTF-8 text: {e}"),
        })?;
        match inner.extension().and_then(|e| e.to_str()) {
            Some("csv") => Recording::from_csv_str(&text, &name),
            Some("json") => Recording::from_json_str(&text, &name),
            _ => Err(RecordingError::Format {
                path: name,
                message: "expected a .csv or .json file (or .csv.gz, .json.gz)".into(),
            }),
        }
    }

    /// The records at `sizes` only (e.g. a tuning run's search phase without
    /// its sampling phase).
    pub fn at_sizes(&self, sizes: &[u64]) -> Recording {
        Recording {
            records: self
                .records
                .iter()
                .filter(|r| sizes.contains(&r.size))
                .cloned()
                .collect(),
        }
    }

    /// Writes `.csv` or `.json` by extension.
    pub fn save(&self, path: &Path) -> Result<(), RecordingError> {
        let name = path.display().to_string();
        let text = match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => self.to_csv_string(),
            Some("json") => self.to_json_string(),
            _ => {
                return Err(RecordingError::Format {
                    path: name,
                    message: "expected a .csv or .json file".into(),
                })
            }
        };
        std::fs::write(path, text).map_err(|source| RecordingError::Io { path: name, source })
    }
}

/// Answers from a recording; unrecorded points come back as
/// [`InvalidKind::Missing`].
#[derive(Debug, Clone)]
pub struct ReplayEvaluator {
    table: HashMap<(String, ProblemKey), Measurement>,
    /// Calls answered so far (the evaluation count of a strategy).
    pub calls: usize,
    /// Calls for points the recording lacks.
    pub misses: usize,
    /// How long each answer takes, as a measurement on the GPU would.
    pace: Option<std::time::Duration>,
}

impl ReplayEvaluator {
    pub fn new(recording: &Recording) -> Self {
        let table = recording
            .records
            .iter()
            .map(|r| ((r.config.key(), r.problem()), r.measurement.clone()))
            .collect();
        ReplayEvaluator {
            table,
            calls: 0,
            misses: 0,
            pace: None,
        }
    }

    /// Each answer waits `pace` first, as a measurement would take time
    /// (to rehearse progress, interruption and resumption at a real pace).
    pub fn with_pace(mut self, pace: std::time::Duration) -> Self {
        self.pace = Some(pace);
        self
    }

    pub fn lookup(&self, config: &Config, key: &ProblemKey) -> Option<&Measurement> {
        self.table.get(&(config.key(), key.clone()))
    }
}

impl Evaluator for ReplayEvaluator {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        self.calls += 1;
        if let Some(pace) = self.pace {
            std::thread::sleep(pace);
        }
        Ok(match self.lookup(config, key) {
            Some(m) => m.clone(),
            None => {
                self.misses += 1;
                let at = match key.single_size() {
                    Some(n) => format!("size {n}"),
                    None => format!("`{key}`"),
                };
                Measurement::invalid(
                    InvalidKind::Missing,
                    format!("`{}` at {at} is not in the recording", config.key()),
                )
            }
        })
    }
}

/// Why a recorded run could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// Device properties for constraints from a JSON file: an object of
/// integers, or a device as `hone tune --json` prints it (its `props`).
pub fn load_device_props(path: &Path) -> Result<DeviceProps, SourceError> {
    let fail = |m: String| SourceError(format!("{}: {m}", path.display()));
    let text = std::fs::read_to_string(path)
        .map_err(|e| SourceError(format!("reading {}: {e}", path.display())))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| fail(format!("not JSON: {e}")))?;
    let props = match value.get("props") {
        Some(p) => p.clone(),
        None => value,
    };
    serde_json::from_value(props).map_err(|e| {
        fail(format!(
            "expected an object of integer device properties: {e}"
        ))
    })
}

/// A recorded run of job `job` and the device it stands for: from a tuning
/// database (`.sqlite`, `.sqlite3`, `.db`) that holds the job, or from a
/// `.csv`/`.json` recording, whose device is named after the file and has
/// the properties in `props` (none when absent).
pub fn recorded_run(
    path: &Path,
    job: &str,
    props: Option<&Path>,
) -> Result<(Recording, DeviceInfo), SourceError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if matches!(ext, "sqlite" | "sqlite3" | "db") {
        if !path.is_file() {
            return Err(SourceError(format!(
                "{}: no such tuning database",
                path.display()
            )));
        }
        let db = TuningDb::open(path)
            .map_err(|e| SourceError(format!("opening {}: {e}", path.display())))?;
        let row = crate::refit::select_job(&db, None, Some(job))
            .map_err(|e| SourceError(format!("replaying {}: {e}", path.display())))?;
        let db_err = |e: DbError| SourceError(format!("{}: {e}", path.display()));
        let device = db
            .device(&row.device_uuid)
            .map_err(db_err)?
            .ok_or_else(|| {
                SourceError(format!(
                    "{}: job `{}` names a device the database does not hold",
                    path.display(),
                    row.name
                ))
            })?;
        return Ok((db.recording(row.id).map_err(db_err)?, device));
    }
    let recording = Recording::load(path).map_err(|e| SourceError(e.to_string()))?;
    let props = match props {
        Some(p) => load_device_props(p)?,
        None => DeviceProps::new(),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut device = DeviceInfo::synthetic(&format!("replay of {name}"), props);
    device.uuid = format!("replay-{name}");
    Ok((recording, device))
}

/// Measures every configuration of `space` at every size of `family` into
/// a recording.
pub fn record_all(
    space: &ValidSpace,
    family: &Family,
    sizes: &[u64],
    eval: &mut dyn Evaluator,
) -> Result<Recording, Stop> {
    let mut rec = Recording::new();
    for i in 0..space.len() {
        let c = space.config(i);
        for &n in sizes {
            let key = family.key(n);
            let m = eval.evaluate(&c, &key)?;
            rec.push_key(c.clone(), key, n, m);
        }
    }
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::{SyntheticEvaluator, SyntheticModel};

    fn sample() -> Recording {
        let mut r = Recording::new();
        let a = Config::parse_key("B=32,L=tn").unwrap();
        let b = Config::parse_key("B=64,L=nn").unwrap();
        let mut t = Timing::from_samples(&[1e-3, 1.1e-3, 0.9e-3]).unwrap();
        t.gflops = Some(12.5);
        r.push(a.clone(), 100, Measurement::Ok(t));
        r.push(a, 200, Measurement::Ok(Timing::single(2e-3)));
        r.push(
            b,
            100,
            Measurement::invalid(InvalidKind::Compile, "error: \"x\", line 3"),
        );
        r
    }

    #[test]
    fn csv_and_json_round_trip() {
        let r = sample();
        let csv = r.to_csv_string();
        assert!(csv.starts_with("config,size,status,"), "{csv}");
        assert!(csv.lines().next().unwrap().ends_with(",B,L"));
        assert_eq!(Recording::from_csv_str(&csv, "mem").unwrap(), r);
        assert_eq!(
            Recording::from_json_str(&r.to_json_string(), "mem").unwrap(),
            r
        );
        assert_eq!(r.sizes(), vec![100, 200]);
        assert_eq!(r.configs().len(), 2);
        let dir = tempfile::tempdir().unwrap();
        for name in ["r.csv", "r.json"] {
            let p = dir.path().join(name);
            r.save(&p).unwrap();
            assert_eq!(Recording::load(&p).unwrap(), r);
        }
        assert!(r.save(&dir.path().join("r.txt")).is_err());
        // Compressed recordings load the same.
        let gz = dir.path().join("r.csv.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, csv.as_bytes()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        assert_eq!(Recording::load(&gz).unwrap(), r);
        std::fs::write(dir.path().join("r.txt.gz"), b"x").unwrap();
        assert!(Recording::load(&dir.path().join("r.txt.gz")).is_err());
        assert_eq!(r.at_sizes(&[200]).records.len(), 1);
        assert_eq!(r.at_sizes(&[200]).sizes(), vec![200]);
    }

    #[test]
    fn keyed_records_round_trip_and_replay_by_key() {
        let mut r = sample();
        let gemm: Family = "m=*,n=*,k=*,layout=NT".parse().unwrap();
        let c = Config::parse_key("B=32,L=tn").unwrap();
        r.push_key(
            c.clone(),
            gemm.key(100),
            100,
            Measurement::Ok(Timing::single(5e-3)),
        );
        let csv = r.to_csv_string();
        assert!(
            csv.lines().next().unwrap().ends_with(",times_s,key,B,L"),
            "{csv}"
        );
        assert!(csv.contains("m=100,n=100,k=100,layout=NT"), "{csv}");
        let back = Recording::from_csv_str(&csv, "mem").unwrap();
        assert_eq!(back, r);
        assert_eq!(
            Recording::from_json_str(&r.to_json_string(), "mem").unwrap(),
            r
        );
        let replay = ReplayEvaluator::new(&back);
        // The same configuration and size on two problems: two answers.
        assert_eq!(
            replay.lookup(&c, &gemm.key(100)).unwrap().time_s(),
            Some(5e-3)
        );
        assert_eq!(
            replay.lookup(&c, &ProblemKey::n(100)).unwrap().time_s(),
            Some(1e-3)
        );
    }

    #[test]
    fn csv_errors_name_the_line() {
        let bad = "config,size,status,median_s,q1_s,q3_s,min_s,max_s,samples,gbps,gflops,reason,times_s\nA=1,xx,ok,1,1,1,1,1,1,,,,\n";
        let err = Recording::from_csv_str(bad, "f.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("f.csv") && err.contains("line 2") && err.contains("size"),
            "{err}"
        );
        let bad = "config,size\nA=1,3\n";
        let err = Recording::from_csv_str(bad, "f.csv")
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing column `status`"), "{err}");
        let bad = "config,size,status,median_s,q1_s,q3_s,min_s,max_s,samples,reason\nA=1,3,exploded,,,,,,,\n";
        let err = Recording::from_csv_str(bad, "f.csv")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown status `exploded`"), "{err}");
    }

    #[test]
    fn replay_answers_like_the_original() {
        let space = crate::space::Space::new(
            crate::space::SpaceSpec::new().param(crate::space::Param::range("K", 0, 9, 1)),
            Default::default(),
        )
        .unwrap()
        .enumerate();
        let mut synth = SyntheticEvaluator::new(SyntheticModel::Generic, 5);
        let rec = record_all(&space, &Family::default(), &[100, 1000], &mut synth).unwrap();
        let mut replay =
            ReplayEvaluator::new(&Recording::from_csv_str(&rec.to_csv_string(), "mem").unwrap());
        for i in 0..space.len() {
            let c = space.config(i);
            assert_eq!(
                replay.evaluate(&c, &ProblemKey::n(1000)).unwrap(),
                synth.measure(&c, 1000)
            );
        }
        let m = replay
            .evaluate(&space.config(0), &ProblemKey::n(5))
            .unwrap();
        assert!(matches!(
            m,
            Measurement::Invalid {
                kind: InvalidKind::Missing,
                ..
            }
        ));
        assert_eq!((replay.calls, replay.misses), (11, 1));
    }

    #[test]
    fn recorded_runs_open_from_databases_and_files() {
        let db =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/results/tune/vcopy.sqlite");
        let (rec, device) = recorded_run(&db, "vcopy", None).unwrap();
        assert!(!rec.records.is_empty());
        assert!(!device.uuid.is_empty());
        let err = recorded_run(&db, "nope", None).unwrap_err().to_string();
        assert!(
            err.starts_with("replaying ") && err.contains("no job matches"),
            "{err}"
        );
        let missing = Path::new("/nonexistent/x.sqlite");
        let err = recorded_run(missing, "vcopy", None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no such tuning database"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("run.csv");
        sample().save(&csv).unwrap();
        let props = dir.path().join("device.json");
        std::fs::write(&props, r#"{"name": "x", "props": {"sm_count": 132}}"#).unwrap();
        let (rec, device) = recorded_run(&csv, "any", Some(&props)).unwrap();
        assert_eq!(rec, sample());
        assert_eq!(device.uuid, "replay-run.csv");
        assert_eq!(device.props.get("sm_count"), Some(132));
        std::fs::write(&props, "[1]").unwrap();
        let err = load_device_props(&props).unwrap_err().to_string();
        assert!(err.contains("integer device properties"), "{err}");
    }
}
