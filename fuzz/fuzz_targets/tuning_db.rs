//! Tuning databases: any file (truncated, corrupted), and the valid base
//! database changed by SQL (wrong schema, wrong types, missing rows), read
//! every way the commands read one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rusqlite::{limits::Limit, Connection};

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

/// Statements that would reach outside the database or run without bound.
const REFUSED: &[&str] = &["attach", "vacuum", "recursive", "load_extension", "blob"];

fuzz_target!(
    init: {
        // `run.sh seed` asks for the base database as a seed of raw files.
        if let Ok(path) = std::env::var("HONE_FUZZ_WRITE_BASE_DB") {
            std::fs::write(path, hone_fuzz::db::base()).expect("write the base database");
        }
    },
    |data: &[u8]| {
    let dir = hone_fuzz::scratch_dir();
    let path = dir.path().join("fuzz.sqlite");
    if data.starts_with(SQLITE_MAGIC) {
        std::fs::write(&path, data).expect("write the database");
    } else {
        let sql = hone_fuzz::text(data).to_lowercase();
        if REFUSED.iter().any(|w| sql.contains(w)) {
            return;
        }
        std::fs::write(&path, hone_fuzz::db::base()).expect("write the database");
        let Ok(conn) = Connection::open(&path) else {
            return;
        };
        conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, 1 << 20);
        // Statements up to the first that fails are kept, as a partly
        // applied change would leave them.
        let _ = conn.execute_batch(&hone_fuzz::text(data));
    }
    let readers = hone_fuzz::db::Reader::ALL;
    hone_fuzz::db::read(&path, dir.path(), readers[data.len() % readers.len()]);
}
);
