//! Fuzzes the suite reader: the first byte picks one of a few corpus programs
//! (`seedgen::testgen::suites::PROGRAMS`), the rest is read as a suite for it, in either
//! form, as `run-tests` reads one; what loads is replayed and rendered, what does not is
//! a diagnostic that is rendered. The oracle is "no panic, no hang". Seed the corpus
//! with real suites: `just fuzz-seed-suites`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seedgen::testgen::suites::{split, Reader, PROGRAMS};
use std::sync::OnceLock;

/// Each program checked and lowered once per process, not once per input.
fn readers() -> &'static [Reader] {
    static READERS: OnceLock<Vec<Reader>> = OnceLock::new();
    READERS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        PROGRAMS
            .iter()
            .map(|name| {
                let source = std::fs::read_to_string(root.join(name)).expect("the corpus program is readable");
                Reader::new(name, &source)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    if let Some((program, text)) = split(data) {
        readers()[program].read(text);
    }
});
