//! `--baseline PATH`: what changed since an earlier run, read from that run's `--json`
//! output. The core files whose `check` verdict moved towards Boogie 2.4.1's (fixed) or
//! away from it (regressions), other changes (outside the core, crashes); and the files
//! whose `verify` comparison changed. Both runs are compared as JSON values, so a baseline from an older binary
//! or an older harness works as long as the per-file fields it has are the same.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// The section of the report, or an error reading the baseline.
pub fn changes(baseline: &Path, current: &Value) -> Result<String, String> {
    let text = std::fs::read_to_string(baseline).map_err(|error| format!("{}: {error}", baseline.display()))?;
    let old: Value = serde_json::from_str(&text).map_err(|error| format!("{}: {error}", baseline.display()))?;
    let old_files = by_file(&old);
    let new_files = by_file(current);
    let mut fixed = Vec::new();
    let mut regressed = Vec::new();
    let mut other = Vec::new();
    let mut verify = Vec::new();
    for (file, new) in &new_files {
        let Some(old) = old_files.get(file) else { continue };
        let (old_check, new_check) = (check_state(old), check_state(new));
        if old_check != new_check {
            let bucket = new.get("bucket").and_then(Value::as_str).unwrap_or("?");
            let line = format!("- {file} ({bucket}): {old_check} → {new_check}{}", first_error(new));
            // Outside the core, Boogie 2.4.1's verdict is not the target (current Boogie
            // accepts the files only 2.4.1 rejects).
            match (bucket == "core", agrees(old), agrees(new)) {
                (true, false, true) => fixed.push(line),
                (true, true, false) => regressed.push(line),
                _ => other.push(line),
            }
        }
        let (old_verify, new_verify) = (verify_state(old), verify_state(new));
        if old_verify != new_verify && old_verify.is_some() && new_verify.is_some() {
            let show = |state: Option<String>| state.unwrap_or_default();
            verify.push(format!("- {file}: {} → {}", show(old_verify), show(new_verify)));
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "## Changes since {}\n", baseline.display());
    for (title, lines) in [
        ("core files: check now agrees with Boogie 2.4.1", fixed),
        ("core files: check no longer agrees with Boogie 2.4.1 (regressions)", regressed),
        ("check changed otherwise (outside the core, or a failure)", other),
        ("verify beside Boogie 2.4.1 changed", verify),
    ] {
        let _ = writeln!(out, "### {title}: {}\n", lines.len());
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
    }
    Ok(out)
}

fn by_file(run: &Value) -> BTreeMap<String, &Value> {
    let files = run.get("files").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    files.iter().filter_map(|file| Some((file.get("file")?.as_str()?.to_string(), file))).collect()
}

/// `accepts`, `rejects`, or the failure (`panic (exit status 101)`).
fn check_state(file: &Value) -> String {
    let check = &file["check"];
    match (check.get("accepts").and_then(Value::as_bool), check.get("failed").and_then(Value::as_str)) {
        (Some(true), _) => "accepts".to_string(),
        (Some(false), _) => "rejects".to_string(),
        (None, Some(failure)) => failure.to_string(),
        (None, None) => "?".to_string(),
    }
}

/// Whether seedgen's `check` verdict is Boogie's.
fn agrees(file: &Value) -> bool {
    let boogie = file["boogie"].get("accepts").and_then(Value::as_bool);
    boogie.is_some() && boogie == file["check"].get("accepts").and_then(Value::as_bool)
}

fn first_error(file: &Value) -> String {
    file["check"].get("first_error").and_then(Value::as_str).map(|line| format!(" ({line})")).unwrap_or_default()
}

/// `verify`'s comparison with Boogie 2.4.1, or its failure.
fn verify_state(file: &Value) -> Option<String> {
    let verify = file.get("verify")?;
    verify.get("beside_boogie").or_else(|| verify.get("failed")).and_then(Value::as_str).map(str::to_string)
}
