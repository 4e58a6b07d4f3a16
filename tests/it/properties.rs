//! Random structured programs (`seedgen::testgen`, the generator the
//! `pipeline` fuzz target uses) get suites that agree with their replays — every test
//! passes and enters exactly the goals it claims, no goal called unreachable is entered
//! (`testgen::oracle`). Bounded so that it runs in seconds: 32 cases of small programs,
//! from a fixed seed so that every run checks the same programs. `PROPTEST_CASES` and
//! `PROPTEST_RNG_SEED` explore further (`PROPTEST_CASES=1000 cargo test properties`).

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use seedgen::testgen;

fn config() -> ProptestConfig {
    let defaults = ProptestConfig::default();
    let set = |name: &str| std::env::var_os(name).is_some();
    ProptestConfig {
        cases: if set("PROPTEST_CASES") { defaults.cases } else { 32 },
        rng_seed: if set("PROPTEST_RNG_SEED") { defaults.rng_seed } else { RngSeed::Fixed(9) },
        failure_persistence: None,
        ..defaults
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn suites_agree_with_their_replays(bytes in proptest::collection::vec(any::<u8>(), 48..200)) {
        let case = testgen::generate(&bytes);
        if let Err(disagreement) = testgen::oracle::check(&case) {
            return Err(TestCaseError::fail(format!("{disagreement}\n{}", case.describe())));
        }
    }
}

/// Boogie as the judge (`testgen::judge`), the stable-toolchain fuzz harness of the
/// `boogie_judge` target: generated programs (loops, calls, maps, `goto`, quantified
/// contracts with bounds read from the state) are judged by Boogie 2.4.1 on `seedgen
/// seed --goals all` output: every goal seedgen covers is one Boogie reaches; where
/// Boogie is exact, every goal it reaches is covered; where the abstractions agree, no
/// goal seedgen proves unreachable is one Boogie reaches. `JUDGE_CASES` (default 200)
/// programs from the seed `JUDGE_SEED` (default 23), or as many as `JUDGE_SECONDS`
/// allows; each disagreement is written to `JUDGE_FAILURES` (a directory) when it is
/// set, in the form `fuzz/regressions/boogie_judge/` keeps; `BOOGIE` names the binary.
#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_judges_reachability_and_every_reachable_goal_is_covered() {
    let boogie = std::path::PathBuf::from(std::env::var_os("BOOGIE").unwrap_or_else(|| "boogie".into()));
    let number = |name: &str| std::env::var(name).ok().and_then(|value| value.parse::<u64>().ok());
    let budget = number("JUDGE_SECONDS").map(std::time::Duration::from_secs);
    let cases = if budget.is_some() { usize::MAX } else { number("JUDGE_CASES").unwrap_or(200) as usize };
    let failures = std::env::var_os("JUDGE_FAILURES").map(std::path::PathBuf::from);
    let start = std::time::Instant::now();
    let (mut tried, mut judged, mut disagreements) = (0, 0, Vec::new());
    for (index, seed) in crate::support::pseudo_random(number("JUDGE_SEED").unwrap_or(23), cases).enumerate() {
        if budget.is_some_and(|budget| start.elapsed() >= budget) {
            break;
        }
        tried += 1;
        let bytes: Vec<u8> = crate::support::pseudo_random(seed, 160).map(|byte| byte as u8).collect();
        let case = testgen::generate(&bytes);
        match testgen::judge::judge(&case, &boogie) {
            Ok(testgen::judge::Judged::Agree { .. }) => judged += 1,
            Ok(testgen::judge::Judged::Outside(_)) => {}
            Err(disagreement) => {
                if let Some(dir) = &failures {
                    std::fs::create_dir_all(dir).expect("JUDGE_FAILURES can be created");
                    std::fs::write(dir.join(format!("case{index}.bpl")), case.describe()).expect("writable");
                }
                eprintln!("case {index}: {disagreement}\n{}", case.describe());
                disagreements.push(format!("case {index}: {disagreement}\n{}", case.describe()));
            }
        }
    }
    eprintln!(
        "{judged} of {tried} cases judged by Boogie in {:.0} s, {} disagreements",
        start.elapsed().as_secs_f64(),
        disagreements.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n\n"));
    assert!(judged >= tried / 10, "only {judged} of {tried} cases were judged");
}
