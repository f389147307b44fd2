//! What the fuzz targets share: turning bytes into text, the one lowering
//! and round-trip check, and the kernels launch files are resolved against.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hone_frontend::{FrontendOptions, Parsed};

/// The input as text; invalid UTF-8 is replaced, as `hone` replaces it when
/// it reads a source file.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Options under which fuzzed sources are read: no include directories, and
/// quoted includes are resolved in an empty folder, so an input cannot make
/// the preprocessor read the machine's files.
pub fn frontend_options() -> FrontendOptions {
    FrontendOptions::default()
}

/// A fresh temporary folder, in memory where the system has one: the
/// database target writes a file per input, and a disk's syncs would make
/// it a hundred times slower.
pub fn scratch_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = tempfile::tempdir_in(shm) {
            return dir;
        }
    }
    tempfile::tempdir().expect("a temporary folder")
}

/// A folder with nothing in it, the base of fuzzed `#include "..."`.
pub fn empty_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary folder"))
        .path()
}

/// The name fuzzed sources go by: a file in [`empty_dir`].
pub fn source_name() -> String {
    empty_dir().join("fuzz.cu").display().to_string()
}

/// Lowers `text`; a preprocessor error is an answer, so it gives `None`.
pub fn lower(name: &str, text: &str) -> Option<Parsed> {
    hone_frontend::parse_source(name, text, &frontend_options()).ok()
}

/// Holds the printer to its contract (`hone_frontend::round_trip`) on the
/// module `text` lowers to.
pub fn check_roundtrip(text: &str) {
    let Some(first) = lower(&source_name(), text) else {
        return;
    };
    if let Err(e) = hone_frontend::round_trip(&source_name(), &first, &frontend_options()) {
        panic!("{e}");
    }
}

/// The sources launch files name, lowered once: `data/launch_kernels.cu`
/// (built in) first, for any name not found, then the examples' kernels by
/// file name where the repository is at hand.
pub fn launch_sources() -> &'static [(String, Parsed)] {
    static SOURCES: OnceLock<Vec<(String, Parsed)>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        let own = hone_frontend::parse_source(
            "launch_kernels.cu",
            include_str!("../data/launch_kernels.cu"),
            &frontend_options(),
        )
        .expect("the built-in launch kernels preprocess");
        let mut sources = vec![("launch_kernels.cu".to_string(), own)];
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut files = Vec::new();
        for dir in std::fs::read_dir(&examples).into_iter().flatten().flatten() {
            for f in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if f.path().extension().is_some_and(|e| e == "cu") {
                    files.push(f.path());
                }
            }
        }
        files.sort();
        sources.extend(files.iter().filter_map(|f| {
            let parsed = hone_frontend::parse_file(f, &frontend_options()).ok()?;
            Some((file_name(f), parsed))
        }));
        sources
    })
}

/// The lowered source a launch file's `source` stands for.
pub fn launch_source(source: &Path) -> &'static Parsed {
    let sources = launch_sources();
    let name = file_name(source);
    &sources
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or(&sources[0])
        .1
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A launch file as if it lay in the examples' folder.
pub fn launch_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("launch.json")
}

/// Tuning databases: a small valid one to start from, and every way `hone`
/// reads one.
pub mod db {
    use std::path::Path;
    use std::sync::OnceLock;

    use hone_tuner::measure::{InvalidKind, Measurement, Timing};
    use hone_tuner::{Config, DeviceInfo, DeviceProps, JobSpec, ParamValue, ProblemKey, TuningDb};

    /// The bytes of a database holding a finished job and one shard of it,
    /// with good and failed measurements, as `hone tune` writes them.
    pub fn base() -> &'static [u8] {
        static BASE: OnceLock<Vec<u8>> = OnceLock::new();
        BASE.get_or_init(|| {
            let dir = super::scratch_dir();
            let path = dir.path().join("base.sqlite");
            write_base(&path).expect("the base database");
            std::fs::read(&path).expect("the base database's bytes")
        })
    }

    fn write_base(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        // Built in, so that the binary runs where the repository is not.
        let job = JobSpec::from_toml(
            include_str!("../../kernels/examples/vcopy.tune.toml"),
            "vcopy.tune.toml",
        )?;
        let spec_json = serde_json::to_string(&job)?;
        // Small pages keep the file, and so each fuzzed input, small.
        rusqlite::Connection::open(path)?
            .execute_batch("PRAGMA page_size = 512; CREATE TABLE t (x); DROP TABLE t;")?;
        let db = TuningDb::open(path)?;
        let device = DeviceInfo::synthetic("fuzz", DeviceProps::tesla_k20());
        let device_id = db.upsert_device(&device)?;
        let kernel_id = db.upsert_kernel("vcopy", "0123")?;
        for shard in [(0, 1), (1, 2)] {
            let (job_id, _) = db.open_job("vcopy", kernel_id, device_id, shard, &spec_json)?;
            for (i, block) in [64i64, 128, 256].into_iter().enumerate() {
                let config = Config::new(vec![
                    ("BLOCK_SIZE".into(), ParamValue::Int(block)),
                    ("ELEMS_PER_THREAD".into(), ParamValue::Int(1)),
                    ("VEC".into(), ParamValue::Int(4)),
                ]);
                let config_id = db.config_id(kernel_id, &config)?;
                for size in [1024u64, 8192] {
                    let key: ProblemKey = format!("n={size}").parse()?;
                    let m = if i == 2 && size == 8192 {
                        Measurement::invalid(InvalidKind::Runtime, "launch failed")
                    } else {
                        Measurement::Ok(
                            Timing::from_samples(&[1e-5 * (i + 1) as f64, 1.1e-5, 1.2e-5])
                                .expect("a timing")
                                .with_work(Some(8.0 * size as f64), None),
                        )
                    };
                    db.record(job_id, config_id, &key, size, &m)?;
                }
            }
            if shard == (0, 1) {
                db.finish_job(job_id)?;
            }
        }
        db.connection()
            .pragma_update(None, "wal_checkpoint", "TRUNCATE")?;
        Ok(())
    }

    /// The ways the commands read a database; an input is read one way, as
    /// doing all for every input would make each a few times slower.
    #[derive(Clone, Copy, Debug)]
    pub enum Reader {
        /// Jobs, their devices, measurements and recordings, as `hone rule`
        /// and replays read them.
        Jobs,
        /// Exports (CSV, JSON, T4), the progress of every job, and the job
        /// a refit picks.
        Reports,
        /// A merge of the database into another, as the merge of shards does.
        Merge,
    }

    impl Reader {
        pub const ALL: [Reader; 3] = [Reader::Jobs, Reader::Reports, Reader::Merge];
    }

    /// Reads the database at `path` the way `reader` says; `scratch` is a
    /// folder for the exports.
    pub fn read(path: &Path, scratch: &Path, reader: Reader) {
        if let Reader::Merge = reader {
            if let Ok(mut merged) = TuningDb::open(scratch.join("merged.sqlite")) {
                let _ = merged.merge_from(path);
            }
            return;
        }
        let Ok(db) = TuningDb::open(path) else {
            return;
        };
        let Ok(jobs) = db.jobs() else {
            return;
        };
        for job in jobs {
            match reader {
                Reader::Jobs => {
                    let _ = db.device(&job.device_uuid);
                    let _ = db.measurements(job.id);
                    let _ = db.measurement_count(job.id);
                    let _ = db.job_id(&job.name);
                    if let Ok(rec) = db.recording(job.id) {
                        let _ = rec.to_csv_string();
                        let _ = rec.valid_space();
                    }
                }
                Reader::Reports => {
                    let _ = db.export_t4(job.id, None);
                    let _ = db.export_csv(job.id, &scratch.join("export.csv"));
                    let _ = db.export_json(job.id, &scratch.join("export.json"));
                }
                Reader::Merge => {}
            }
        }
        if let Reader::Reports = reader {
            let _ = hone_tuner::job_progress(&db);
            let _ = hone_tuner::refit::select_job(&db, None, None);
        }
    }
}
