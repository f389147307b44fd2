//! The selection rules of a routine: one [`Rule`] per variant (the tuner's
//! intervals along the variant's size axis, each naming a configuration),
//! built into the crate or read from a directory of `VARIANT.json` files as
//! `hone rule --out-json` writes them.

use std::collections::BTreeMap;
use std::path::Path;

use hone_tuner::{Config, Interval, Rule};

use super::{LibError, Result};

/// What a rule picks for one problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub variant: String,
    /// The configuration, as the tuner wrote it.
    pub config: Config,
    /// The rule's label for the kernel (`Rank 2`, `Best ALG=1`).
    pub label: String,
    /// The interval `start <= size < end` that holds the size (`end` None: no
    /// upper bound). Sizes below the first interval's start use it.
    pub start: u64,
    pub end: Option<u64>,
}

/// `[start, end)` as text, `[start, inf)` without an end.
pub fn interval_text(start: u64, end: Option<u64>) -> String {
    match end {
        Some(e) => format!("[{start}, {e})"),
        None => format!("[{start}, inf)"),
    }
}

impl Selection {
    /// `[start, end)` as text.
    pub fn interval(&self) -> String {
        interval_text(self.start, self.end)
    }

    /// A configuration chosen for the problem's size alone (by its own
    /// words or a plan measured for it), not from a rule's interval.
    pub fn for_problem(problem: &super::Problem, config: Config, label: String) -> Selection {
        Selection {
            variant: problem.variant.clone(),
            config,
            label,
            start: problem.size,
            end: Some(problem.size + 1),
        }
    }
}

/// Checks one configuration of a variant's rule against the routine's
/// templates; the message says what does not fit.
pub type ConfigCheck = fn(variant: &str, config: &Config) -> std::result::Result<(), String>;

/// One rule per variant of a routine.
#[derive(Debug, Clone)]
pub struct RuleSet {
    rules: BTreeMap<String, Rule>,
    check: ConfigCheck,
    /// Where the rules came from, for reports.
    origin: String,
}

/// Two sets are equal when their rules are: where they came from does not
/// matter, and the check is the routine's.
impl PartialEq for RuleSet {
    fn eq(&self, other: &RuleSet) -> bool {
        self.rules == other.rules
    }
}

impl RuleSet {
    /// Parses and checks a rule: the JSON, the intervals, the name (the
    /// variant's, as `hone rule` writes it), and every configuration with
    /// `check`. `origin` names the text in errors.
    pub fn parse(variant: &str, text: &str, origin: &str, check: ConfigCheck) -> Result<Rule> {
        let rule = Rule::from_json(text, origin).map_err(|e| LibError::Rule(e.to_string()))?;
        if rule.name != variant {
            return Err(LibError::Rule(format!(
                "{origin}: the rule is named `{}`, expected `{variant}`",
                rule.name
            )));
        }
        for k in &rule.kernels {
            check(variant, &k.config)
                .map_err(|e| LibError::Rule(format!("{origin}: kernel `{}`: {e}", k.label)))?;
        }
        Ok(rule)
    }

    /// Rules built into the crate: `(variant, JSON text)` pairs from
    /// `include_str!`, with the folder they came from. They are checked by
    /// the crate's tests, so one that fails to parse is a bug in the build,
    /// not a user error.
    pub fn bundled(folder: &str, texts: &[(&str, &str)], check: ConfigCheck) -> RuleSet {
        let rules = texts
            .iter()
            .map(|&(variant, text)| {
                let origin = format!("{folder}/{variant}.json");
                let rule = RuleSet::parse(variant, text, &origin, check)
                    .unwrap_or_else(|e| panic!("bundled rule {origin}: {e}"));
                (variant.to_string(), rule)
            })
            .collect();
        RuleSet {
            rules,
            check,
            origin: format!("the selection rules built into hone, from {folder}"),
        }
    }

    /// Takes `other`'s rule for every variant it has (built-in rules of
    /// one GPU model over the fallback model's); the origin names both.
    pub fn replace_from(&mut self, other: RuleSet) {
        let variants: Vec<&str> = other.rules.keys().map(String::as_str).collect();
        self.origin = format!(
            "{} ({} for {})",
            self.origin,
            other.origin,
            variants.join(", ")
        );
        self.rules.extend(other.rules);
    }

    /// Reads `VARIANT.json` for every variant from `dir`. Errors name the file.
    pub fn load_dir<S: AsRef<str>>(
        dir: impl AsRef<Path>,
        variants: &[S],
        check: ConfigCheck,
    ) -> Result<RuleSet> {
        let dir = dir.as_ref();
        let mut rules = BTreeMap::new();
        for v in variants {
            let v = v.as_ref();
            let path = dir.join(format!("{v}.json"));
            let text = std::fs::read_to_string(&path).map_err(|source| LibError::Io {
                path: path.clone(),
                source,
            })?;
            let rule = RuleSet::parse(v, &text, &path.display().to_string(), check)?;
            rules.insert(v.to_string(), rule);
        }
        Ok(RuleSet {
            rules,
            check,
            origin: format!("the selection rules in {}", dir.display()),
        })
    }

    /// Reads `VARIANT.json` for each variant that has one in `dir` (at
    /// least one must): for routines tuned one variant at a time.
    pub fn load_dir_present<S: AsRef<str>>(
        dir: impl AsRef<Path>,
        variants: &[S],
        check: ConfigCheck,
    ) -> Result<RuleSet> {
        let dir = dir.as_ref();
        let present = RuleSet::present(dir, variants);
        if present.is_empty() {
            return Err(LibError::Rule(format!(
                "{}: no rule file (VARIANT.json for one of {})",
                dir.display(),
                variants
                    .iter()
                    .map(|v| v.as_ref())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        RuleSet::load_dir(dir, &present, check)
    }

    /// The variants of `variants` that have a `VARIANT.json` in `dir`, in
    /// their order.
    pub fn present<S: AsRef<str>>(dir: &Path, variants: &[S]) -> Vec<String> {
        variants
            .iter()
            .map(|v| v.as_ref())
            .filter(|v| dir.join(format!("{v}.json")).exists())
            .map(str::to_string)
            .collect()
    }

    /// Reads `VARIANT.json` for each variant that has one in `dir`, each file
    /// on its own: the rules that could be read, and why each other could
    /// not (a damaged or outdated file leaves out its variant only).
    pub fn load_dir_readable<S: AsRef<str>>(
        dir: &Path,
        variants: &[S],
        check: ConfigCheck,
    ) -> (RuleSet, Vec<String>) {
        let mut rules = BTreeMap::new();
        let mut unreadable = Vec::new();
        for v in RuleSet::present(dir, variants) {
            match RuleSet::load_dir(dir, std::slice::from_ref(&v), check) {
                Ok(mut one) => rules.append(&mut one.rules),
                Err(e) => unreadable.push(e.to_string()),
            }
        }
        let set = RuleSet {
            rules,
            check,
            origin: format!("the selection rules in {}", dir.display()),
        };
        (set, unreadable)
    }

    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Replaces one rule, checked as a file is.
    pub fn set(&mut self, variant: &str, rule: Rule) -> Result<()> {
        let origin = format!("rule `{}`", rule.name);
        let checked = RuleSet::parse(variant, &rule.to_json(), &origin, self.check)?;
        self.rules.insert(variant.to_string(), checked);
        Ok(())
    }

    pub fn variants(&self) -> impl Iterator<Item = &str> {
        self.rules.keys().map(String::as_str)
    }

    pub fn rule(&self, variant: &str) -> Result<&Rule> {
        self.rules
            .get(variant)
            .ok_or_else(|| LibError::Usage(format!("no rule for `{variant}`")))
    }

    fn selection(&self, variant: &str, rule: &Rule, iv: &Interval) -> Selection {
        let k = &rule.kernels[iv.kernel];
        Selection {
            variant: variant.to_string(),
            config: k.config.clone(),
            label: k.label.clone(),
            start: iv.start,
            end: iv.end,
        }
    }

    /// The kernel the rule picks at `size`, with its interval. Sizes outside
    /// the rule's range use the nearest interval (the first below it; the
    /// last is open above).
    pub fn select(&self, variant: &str, size: u64) -> Result<Selection> {
        let rule = self.rule(variant)?;
        Ok(self.selection(variant, rule, &rule.intervals[rule.interval_of(size)]))
    }

    /// One selection per interval, in order of size.
    pub fn selections(&self, variant: &str) -> Result<Vec<Selection>> {
        let rule = self.rule(variant)?;
        Ok(rule
            .intervals
            .iter()
            .map(|iv| self.selection(variant, rule, iv))
            .collect())
    }

    /// The distinct configurations the rule can pick, in order of first use.
    pub fn configs(&self, variant: &str) -> Result<Vec<Config>> {
        let mut out: Vec<Config> = Vec::new();
        for s in self.selections(variant)? {
            if !out.contains(&s.config) {
                out.push(s.config);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hone_tuner::{ParamValue, RuleKernel};

    fn rule(name: &str) -> Rule {
        let k = |v: i64| RuleKernel {
            label: format!("Rank {v}"),
            config: Config::new(vec![("B".to_string(), ParamValue::Int(v))]),
        };
        Rule {
            name: name.to_string(),
            family: Default::default(),
            lo: 10,
            hi: 1000,
            tolerance: 0.0,
            kernels: vec![k(1), k(2)],
            intervals: vec![
                Interval {
                    start: 10,
                    end: Some(100),
                    kernel: 0,
                },
                Interval {
                    start: 100,
                    end: None,
                    kernel: 1,
                },
            ],
        }
    }

    fn small_b(_: &str, c: &Config) -> std::result::Result<(), String> {
        match c.get_int("B") {
            Some(b) if b <= 2 => Ok(()),
            other => Err(format!("B = {other:?} is not 1 or 2")),
        }
    }

    #[test]
    fn selects_by_interval_and_checks_names_and_configs() {
        let text = rule("xfoo").to_json();
        let set = RuleSet::bundled("kernels/foo/rules", &[("xfoo", &text)], small_b);
        assert_eq!(set.select("xfoo", 5).unwrap().label, "Rank 1");
        assert_eq!(set.select("xfoo", 99).unwrap().interval(), "[10, 100)");
        assert_eq!(set.select("xfoo", 100).unwrap().interval(), "[100, inf)");
        assert_eq!(set.configs("xfoo").unwrap().len(), 2);
        assert!(set.select("yfoo", 5).is_err());

        let wrong_name = RuleSet::parse("yfoo", &text, "f.json", small_b).unwrap_err();
        assert!(wrong_name.to_string().contains("expected `yfoo`"));
        let mut bad = rule("xfoo");
        bad.kernels[1].config = Config::new(vec![("B".to_string(), ParamValue::Int(9))]);
        let e = RuleSet::parse("xfoo", &bad.to_json(), "f.json", small_b).unwrap_err();
        assert!(e.to_string().contains("f.json: kernel `Rank 2`"), "{e}");
    }

    #[test]
    fn load_dir_names_the_missing_file() {
        let dir = std::env::temp_dir().join(format!("hone-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("xfoo.json"), rule("xfoo").to_json()).unwrap();
        let set = RuleSet::load_dir(&dir, &["xfoo"], small_b).unwrap();
        assert!(set.origin().contains(&dir.display().to_string()));
        let e = RuleSet::load_dir(&dir, &["xfoo", "zfoo"], small_b).unwrap_err();
        assert!(e.to_string().contains("zfoo.json"), "{e}");
        let some = RuleSet::load_dir_present(&dir, &["xfoo", "zfoo"], small_b).unwrap();
        assert_eq!(some.variants().collect::<Vec<_>>(), vec!["xfoo"]);
        let none = RuleSet::load_dir_present(&dir, &["zfoo"], small_b).unwrap_err();
        assert!(none.to_string().contains("no rule file"), "{none}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
