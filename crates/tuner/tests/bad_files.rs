//! Rule files, job files and tuning databases written or damaged by anyone:
//! each is refused with an error naming the file and the field, line or
//! table at fault, never a panic.

use std::path::{Path, PathBuf};

use hone_tuner::{JobSpec, Rule, TuningDb};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shipped_rule() -> String {
    std::fs::read_to_string(root().join("kernels/symv/rules/dsymv_lower.json")).unwrap()
}

#[test]
fn bad_rule_files_name_the_file_and_the_field() {
    let good = shipped_rule();
    Rule::from_json(&good, "good.json").unwrap();
    let cases: Vec<(String, &[&str])> = vec![
        (good[..good.len() / 2].to_string(), &["EOF"]),
        (
            good.replacen("\"lo\": 64", "\"lo\": \"low\"", 1),
            &["`lo`", "invalid type: string \"low\""],
        ),
        (
            good.replacen("\"end\": 1696", "\"end\": -5", 1),
            &["`intervals[0].end`"],
        ),
        (
            good.replacen("\"kernel\": 7", "\"kernel\": 70", 1),
            &["interval 0 names kernel 70 of 10"],
        ),
        (
            good.replacen("\"end\": 1696", "\"end\": 1700", 1),
            &["interval 0", "does not meet the next one"],
        ),
        (
            good.replacen("\"tolerance\"", "\"tolerence\"", 1),
            &["missing field `tolerance`"],
        ),
        (format!("{good} {{}}"), &["trailing characters"]),
        (String::new(), &["EOF"]),
    ];
    for (text, wants) in cases {
        let e = Rule::from_json(&text, "rules/bad.json")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("rules/bad.json: "), "{e}");
        for w in wants {
            assert!(e.contains(w), "wants `{w}` in {e}");
        }
    }
    // Read from disk: the path is named, and bytes that are not text too.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("binary.json");
    std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
    let e = Rule::load(&path).unwrap_err().to_string();
    assert!(e.contains("binary.json"), "{e}");
    let e = Rule::load(dir.path().join("none.json"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("none.json"), "{e}");
}

const JOB: &str = r#"name = "j"
sizes = [1000]
strategy = { kind = "exhaustive" }

[kernel]
name = "k"

[[param]]
name = "A"
values = [1, 2]
"#;

#[test]
fn hostile_job_sizes_are_refused_before_anything_is_allocated() {
    JobSpec::from_toml(JOB, "j.toml").unwrap();
    let cases = [
        (
            JOB.replacen(
                "values = [1, 2]",
                "range = { start = 0, end = 1000000000000000 }",
                1,
            ),
            "parameter `A`: range has 1000000000000001 values",
        ),
        (
            JOB.replacen(
                "sizes = [1000]",
                "sizes = { lo = 1, hi = 10, count = 18446744073709551615 }",
                1,
            ),
            "`sizes` asks for 18446744073709551615 sizes",
        ),
        (
            format!("{JOB}\n[sampling]\nlo = 1\nhi = 18446744073709551615\nmode = \"fixed\"\n"),
            "sampling: the grid",
        ),
        (
            format!("{JOB}\n[sampling]\nlo = 1\nhi = 1000\nmode = \"sequential\"\nmax_sizes = 4000000000\n"),
            "sampling asks for 4000000000 sizes",
        ),
        (
            JOB.replacen("sizes = [1000]", "sizes = [1000]\nbudget = \"many\"", 1),
            "line 3",
        ),
    ];
    for (text, want) in cases {
        let e = JobSpec::from_toml(&text, "hostile.toml")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("hostile.toml: "), "{e}");
        assert!(e.contains(want), "wants `{want}` in {e}");
    }
}

fn sqlite_with(path: &Path, schema: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(schema).unwrap();
}

#[test]
fn databases_of_another_shape_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.sqlite");
    sqlite_with(&other, "CREATE TABLE people (name TEXT);");
    let before = std::fs::read(&other).unwrap();
    let e = TuningDb::open(&other).err().expect("refused").to_string();
    assert!(
        e.contains("not a tuning database") && e.contains("people"),
        "{e}"
    );
    assert_eq!(std::fs::read(&other).unwrap(), before);

    let shaped = dir.path().join("shaped.sqlite");
    sqlite_with(
        &shaped,
        "CREATE TABLE measurements (id INTEGER PRIMARY KEY, job_id INTEGER);",
    );
    let e = TuningDb::open(&shaped).err().expect("refused").to_string();
    assert!(
        e.contains("table `measurements` has no column `config_id`"),
        "{e}"
    );

    // Not SQLite at all, and SQLite cut short: errors, and said once.
    let text = dir.path().join("text.sqlite");
    std::fs::write(
        &text,
        "not a database, just text, long enough to have a header",
    )
    .unwrap();
    let e = TuningDb::open(&text).err().expect("refused").to_string();
    assert!(e.contains("file is not a database"), "{e}");
    assert_eq!(e.matches("not a database").count(), 1, "{e}");

    // An empty file is a new database; one with the tables is opened as is.
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let db = TuningDb::open(&empty).unwrap();
    assert!(db.jobs().unwrap().is_empty());
    drop(db);
    TuningDb::open(&empty).unwrap();
    // A database made before problem keys (no `problem` column) still opens.
    let old = root().join("bench/results/tune/vcopy.sqlite");
    let copy = dir.path().join("old.sqlite");
    std::fs::copy(&old, &copy).unwrap();
    TuningDb::open(&copy).unwrap();
}
