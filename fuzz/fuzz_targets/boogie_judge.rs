//! Fuzzes reachability with Boogie as the judge (`seedgen::testgen::judge`): the input
//! bytes are the generator's decisions; for a program without loops, quantifiers or
//! calls, every goal Boogie 2.4.1 reaches on `seedgen seed --goals all` output must be
//! covered by `prove-tests --goals all`, and every covered goal reached by Boogie. Needs
//! Boogie (`BOOGIE` names the binary, default `boogie`). Any disagreement is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seedgen::testgen;

fuzz_target!(|data: &[u8]| {
    let case = testgen::generate(data);
    let boogie = std::path::PathBuf::from(std::env::var_os("BOOGIE").unwrap_or_else(|| "boogie".into()));
    if let Err(disagreement) = testgen::judge::judge(&case, &boogie) {
        panic!("{disagreement}\n{}", case.describe());
    }
});
