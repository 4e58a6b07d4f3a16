//! Issue 9: random structured programs (`seedgen::testgen`, the generator the
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
