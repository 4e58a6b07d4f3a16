//! Fuzzes reachability with Boogie as the judge (`seedgen::testgen::judge`): the input
//! bytes are the generator's decisions (loops, calls, maps, `goto`, quantified
//! contracts); every goal seedgen covers must be reached by Boogie 2.4.1 on `seedgen seed
//! --goals all` output, every goal Boogie reaches covered where Boogie is exact, and no
//! goal seedgen proves unreachable reached where the abstractions agree (see the
//! module). On the stable toolchain, `just judge` runs the same check for a time
//! budget. Needs Boogie (`BOOGIE` names the binary, default `boogie`). Any disagreement
//! is a crash.
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
