//! Preludes written for trigger-based instantiation, as verifier front ends write them
//! (`tests/preludes/`): their axioms may contradict each other as first-order formulas
//! while no trigger shows it, as Boogie reads them. Nothing seedgen reports as proved
//! may rest on such a contradiction: a `Sanity` procedure (`assert false`) is never
//! verified and none of its goals is called unreachable; every implementation fails
//! where Boogie 2.4.1 reports an error (ignored unless Boogie is installed).

use crate::support::{bpl_files, display_name, goals, id, seedgen, status};
use serde_json::Value;

#[test]
fn no_sanity_check_is_verified() {
    for path in bpl_files("tests/preludes") {
        let name = display_name(&path);
        let output = seedgen(&["verify", &name]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: a failure is reported\n{stderr}");
        assert!(stderr.contains("assert false;") && stderr.contains("this assertion can fail"), "{name}:\n{stderr}");
    }
}

#[test]
fn no_goal_of_a_sanity_check_is_unreachable() {
    let out = tempfile_dir();
    for path in bpl_files("tests/preludes") {
        let name = display_name(&path);
        let suite = out.join(format!("{}.tests.json", path.file_stem().and_then(|s| s.to_str()).expect("a name")));
        let output = seedgen(&["prove-tests", "--quiet", &name, "-o", suite.to_str().expect("UTF-8"), "--force"]);
        assert!(output.status.code().is_some_and(|code| code != 101), "{name}: {output:?}");
        let suite: Value = serde_json::from_str(&std::fs::read_to_string(&suite).expect("a suite")).expect("JSON");
        let unreachable: Vec<&str> =
            goals(&suite).into_iter().filter(|goal| status(goal) == "unreachable").map(id).collect();
        assert!(unreachable.iter().all(|goal| !goal.starts_with("Sanity/")), "{name}: {unreachable:?}");
    }
}

#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn failures_agree_with_boogie() {
    for path in bpl_files("tests/preludes") {
        let name = display_name(&path);
        let output = seedgen(&["verify", &name]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let failures =
            stderr.lines().filter(|line| line.starts_with("error: ") && line.contains("might not hold")).count();
        assert_eq!(failures, crate::support::boogie_errors(&path), "{name}:\n{stderr}");
    }
}

/// A fresh directory under the target directory for this test binary's suites.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("preludes");
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    dir
}
