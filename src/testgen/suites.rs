//! The `suite_reader` fuzz target's harness, shared with the test that replays its
//! regressions: a suite text, read for one of a few fixed corpus programs as
//! `run-tests` reads it — loaded, replayed under small budgets and rendered in every
//! report format, or its load error rendered as a diagnostic. Any panic is a bug.
//!
//! An input is one byte choosing the program ([`PROGRAMS`], modulo their number), then
//! the suite text; `just fuzz-seed-suites` seeds the corpus with the suites seedgen
//! writes for those programs, in both forms.

use crate::cfg::{lower::lower_all, Cfg};
use crate::diag::{render_human_plain, render_short};
use crate::interp::Limits;
use crate::regress::{self, render};
use crate::sema::hir;
use crate::source::SourceDb;
use crate::suite::load;

/// The programs suites are read for, relative to the crate root: between them they have
/// every kind of value and trace entry (maps, uninterpreted types and functions,
/// constants, body-less callees, `goto`s, loops). Append only: an input's first byte
/// names one by its position.
pub const PROGRAMS: [&str; 8] = [
    "corpus/simple.bpl",
    "corpus/nondet.bpl",
    "corpus/global_map.bpl",
    "corpus/types_axioms.bpl",
    "corpus/call_contract.bpl",
    "corpus/linear_search.bpl",
    "corpus/partition_goto.bpl",
    "corpus/recursive.bpl",
];

/// Budgets that keep one input fast: a hostile suite may ask for long runs.
const LIMITS: Limits = Limits { max_steps: 200_000, max_depth: 200, deadline: None };

/// The program an input is for (an index into [`PROGRAMS`]) and its suite text; `None`
/// for an empty input or one that is not UTF-8 (`run-tests` rejects those before
/// reading).
pub fn split(bytes: &[u8]) -> Option<(usize, &str)> {
    let (&first, rest) = bytes.split_first()?;
    Some((usize::from(first) % PROGRAMS.len(), std::str::from_utf8(rest).ok()?))
}

/// One program, checked and lowered once, ready to read any number of suites.
pub struct Reader {
    db: SourceDb,
    program: hir::Program,
    cfgs: Vec<Cfg>,
}

impl Reader {
    /// The reader for a program that checks and lowers (a corpus program).
    pub fn new(name: &str, source: &str) -> Reader {
        let mut db = SourceDb::new();
        let file = db.add(name, source);
        let program = crate::driver::check_file(&db, file, Default::default()).hir.expect("a corpus program checks");
        let (cfgs, errors) = lower_all(&program);
        assert!(errors.is_empty(), "a corpus program lowers");
        Reader { db, program, cfgs }
    }

    /// Reads `text` as `run-tests` does and renders what comes of it.
    pub fn read(&self, text: &str) {
        let _ = load::is_suite(text);
        match load::load_text(&self.program, &self.cfgs, text) {
            Err(error) => {
                let mut suite_db = SourceDb::new();
                let file = suite_db.add("suite", text);
                let diagnostic = error.to_diagnostic(file);
                let _ = render_short(&suite_db, &diagnostic);
                let _ = render_human_plain(&suite_db, std::slice::from_ref(&diagnostic));
            }
            Ok((tests, options)) => {
                let run = regress::run(&self.program, &self.cfgs, &tests, LIMITS, &options);
                let _ = render::human(&self.db, &run);
                let _ = render::json(&self.db, &run);
                let _ = render::junit(&self.db, &run, "suite");
                let _ = render::lcov(&self.db, &run, &self.cfgs);
                let _ = render::uncovered_goals(&run);
            }
        }
    }
}
