//! Rules per GPU model. hone carries built-in rules for the GPU models it
//! was tuned on (a routine lists them, the first serving every other GPU);
//! rules tuned on the user's own GPU (`hone retune ROUTINE`) live
//! in the user's cache, one folder per GPU model and routine, and the
//! commands, the library's sessions and the C and Python interfaces take
//! them from there. A GPU with no rules of its own runs the built-in ones,
//! and hears once per process which GPU those were tuned on and how to tune
//! its own.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The GPU every built-in rule and plan of hone was tuned on, and whose
/// rules serve GPUs that have none of their own.
pub const BUILT_IN_GPU: &str = "NVIDIA H100 80GB HBM3";

/// Whether `device_name` is the GPU model `model` (names as the driver
/// reports them, surrounding blanks aside).
pub fn same_model(device_name: &str, model: &str) -> bool {
    device_name.trim() == model.trim()
}

/// Whether `device_name` is one of the models `built_in_on`.
fn built_in_model(device_name: &str, built_in_on: &[&str]) -> bool {
    built_in_on.iter().any(|m| same_model(device_name, m))
}

/// A GPU model's name as a folder name: `NVIDIA H100 80GB HBM3` becomes
/// `nvidia-h100-80gb-hbm3`.
pub fn slug(device_name: &str) -> String {
    let mut out = String::new();
    for c in device_name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "unnamed-gpu".to_string()
    } else {
        out
    }
}

/// Where the user's rules live: `HONE_RULES_HOME`, else
/// `$XDG_CACHE_HOME/hone/rules`, else `~/.cache/hone/rules`.
pub fn rules_home() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(home) = var("HONE_RULES_HOME") {
        return Some(PathBuf::from(home));
    }
    if let Some(cache) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(cache).join("hone").join("rules"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("hone").join("rules"))
}

/// The folder of a routine's rules tuned on the GPU named `device_name`.
pub fn user_dir(routine: &str, device_name: &str) -> Option<PathBuf> {
    rules_home().map(|h| h.join(slug(device_name)).join(routine))
}

/// Whether `dir` holds a rule for every variant.
pub fn complete(dir: &Path, variants: &[String]) -> bool {
    !variants.is_empty()
        && variants
            .iter()
            .all(|v| dir.join(format!("{v}.json")).is_file())
}

/// The rules a routine runs with on one GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The user's rules for this GPU; `None`: the built-in ones.
    pub dir: Option<PathBuf>,
    /// What to tell the user once, when the rules are another GPU's.
    pub notice: Option<String>,
}

/// Picks the rules of `routine` (whose variants are `variants`, with
/// built-in rules for the GPU models `built_in_on`, the first serving any
/// other) for the GPU named `device_name`: the user's, when a complete set
/// was tuned on this GPU model; else the built-in ones, with a notice when
/// none of them was tuned on this model.
pub fn resolve(
    routine: &str,
    variants: &[String],
    device_name: &str,
    built_in_on: &[&str],
) -> Resolved {
    resolve_in(
        user_dir(routine, device_name),
        routine,
        variants,
        device_name,
        built_in_on,
    )
}

fn resolve_in(
    dir: Option<PathBuf>,
    routine: &str,
    variants: &[String],
    device_name: &str,
    built_in_on: &[&str],
) -> Resolved {
    if let Some(d) = dir.as_ref().filter(|d| complete(d, variants)) {
        return Resolved {
            dir: Some(d.clone()),
            notice: None,
        };
    }
    if built_in_model(device_name, built_in_on) {
        return Resolved {
            dir: None,
            notice: None,
        };
    }
    let fallback = built_in_on.first().copied().unwrap_or(BUILT_IN_GPU);
    let partial = dir.as_ref().filter(|d| d.is_dir());
    let mut notice = format!(
        "hone: {routine} has no rules tuned on this GPU ({device_name}); it runs the built-in \
         rules, tuned on the {fallback}. `hone retune {routine}` tunes them here (about 13 \
         minutes for SYMV) and keeps them in {}",
        dir.as_ref()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| "the cache (set HONE_RULES_HOME)".to_string())
    );
    if let Some(d) = partial {
        notice.push_str(&format!(
            "; {} holds an unfinished set, which `hone retune {routine}` finishes",
            d.display()
        ));
    }
    Resolved {
        dir: None,
        notice: Some(notice),
    }
}

/// What to tell the user once when `routine`, which `hone retune` does not
/// tune, runs its built-in rules (or plans, with `plans`) on a GPU that none
/// of them was tuned on; `None` on one of `built_in_on`, or when it has no
/// built-in rules (`built_in_on` empty).
pub fn built_in_notice(
    routine: &str,
    plans: bool,
    device_name: &str,
    built_in_on: &[&str],
) -> Option<String> {
    let fallback = *built_in_on.first()?;
    if built_in_model(device_name, built_in_on) {
        return None;
    }
    let (what, how) = if plans {
        ("plans", format!("`hone plan {routine}`"))
    } else {
        (
            "rules",
            "`hone tune` and `hone rule` on its jobs".to_string(),
        )
    };
    Some(format!(
        "hone: {routine} runs its built-in {what}, tuned on the {fallback}, on this GPU \
         ({device_name}); {how} tune them here, and --rules DIR (or HONE_RULES_DIR) uses them"
    ))
}

/// Prints `notice` on standard error the first time it is given in this
/// process.
pub fn notify_once(notice: &str) {
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen
        .get_or_insert_with(HashSet::new)
        .insert(notice.to_string())
    {
        eprintln!("{notice}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routines_without_retune_say_whose_rules_they_run() {
        let on = [BUILT_IN_GPU];
        assert_eq!(built_in_notice("gemm", false, BUILT_IN_GPU, &on), None);
        let n = built_in_notice("gemm", false, "NVIDIA H200", &on).unwrap();
        assert!(
            n.contains("NVIDIA H200") && n.contains(BUILT_IN_GPU) && n.contains("hone rule"),
            "{n}"
        );
        let n = built_in_notice("fft3d", true, "NVIDIA H200", &on).unwrap();
        assert!(
            n.contains("built-in plans") && n.contains("hone plan fft3d"),
            "{n}"
        );
        // A routine with nothing tuned has nothing to say.
        assert_eq!(
            built_in_notice("dgemm_int8", false, "NVIDIA H200", &[]),
            None
        );
    }

    #[test]
    fn slugs_are_folder_names() {
        assert_eq!(slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
        assert_eq!(slug("  NVIDIA A100-SXM4-40GB "), "nvidia-a100-sxm4-40gb");
        assert_eq!(
            slug("NVIDIA GeForce RTX 4090 (x)"),
            "nvidia-geforce-rtx-4090-x"
        );
        assert_eq!(slug("/../"), "unnamed-gpu");
    }

    #[test]
    fn the_users_complete_rules_come_first_then_the_built_in_ones() {
        let root = std::env::temp_dir().join(format!("hone-device-rules-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("nvidia-a100").join("symv");
        let variants = vec!["dsymv_lower".to_string(), "ssymv_lower".to_string()];
        let built_in = [BUILT_IN_GPU, "NVIDIA H200"];
        let on = |name: &str| resolve_in(Some(dir.clone()), "symv", &variants, name, &built_in);
        // Nothing tuned: the built-in rules, with a notice naming both GPUs.
        let r = on("NVIDIA A100");
        assert_eq!(r.dir, None);
        let n = r.notice.unwrap();
        assert!(
            n.contains("NVIDIA A100") && n.contains(BUILT_IN_GPU) && n.contains("hone retune symv"),
            "{n}"
        );
        // On a GPU that built-in rules were tuned on: no notice.
        for model in built_in {
            let r = on(&format!(" {model}"));
            assert_eq!(
                r,
                Resolved {
                    dir: None,
                    notice: None
                }
            );
        }
        // A GPU whose name only starts like one of them is another model.
        assert!(on("NVIDIA H200 NVL").notice.is_some());
        // An unfinished set is not used, and the notice says it resumes.
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("dsymv_lower.json"), "{}").unwrap();
        let r = on("NVIDIA A100");
        assert_eq!(r.dir, None);
        assert!(r.notice.unwrap().contains("unfinished set"));
        // A complete set is used, on any GPU of that model.
        std::fs::write(dir.join("ssymv_lower.json"), "{}").unwrap();
        let r = on("NVIDIA A100");
        assert_eq!(
            r,
            Resolved {
                dir: Some(dir.clone()),
                notice: None
            }
        );
        assert!(!complete(&dir, &[]));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
