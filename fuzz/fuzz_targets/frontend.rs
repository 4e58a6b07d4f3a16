//! Fuzzes the front end: any bytes, read as the driver reads a file, then parsed and
//! checked. The oracle is "no panic, no hang, no stack overflow"; additionally, a
//! program that checks cleanly must print back to text that parses to the same program.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seedgen::source::SourceDb;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut db = SourceDb::new();
    let file = db.add("fuzz.bpl", text);
    let checked = seedgen::driver::check_file(&db, file);
    for diagnostic in &checked.diagnostics {
        let _ = seedgen::diag::render_short(&db, diagnostic);
    }
    if checked.diagnostics.is_empty() {
        let printed = seedgen::syntax::printer::print_program(&checked.ast);
        let reprinted_file = db.add("printed.bpl", printed.clone());
        let (again, errors) = seedgen::syntax::parse(reprinted_file, &printed);
        assert!(errors.is_empty(), "printed program does not parse:\n{printed}");
        assert_eq!(seedgen::syntax::printer::print_program(&again), printed, "printing is not a fixpoint");
    }
});
