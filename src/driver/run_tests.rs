//! `seedgen run-tests FILE SUITE`: every test of a suite (either form) replayed on the
//! program, with the verdicts and the goals the runs entered, in the human, JSON or
//! JUnit form, and `--lcov` coverage.

use super::{emit_all, load_and_lower, read_suite, Lowered, Outcome, Streams};
use crate::config::{OutputConfig, RunTestsConfig, RunTestsFormat};
use crate::interp;
use crate::regress;
use crate::suite;
use std::io;

/// `seedgen run-tests FILE SUITE`: replay every test of the suite on the program.
pub fn run_tests(config: &RunTestsConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { db, program, cfgs, .. } = match load_and_lower(&config.file, config.language, None, output, streams)?
    {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    let (_, (suite, tests)) =
        match read_suite(&config.suite, output, streams, |text| suite::load::read_and_load(&program, &cfgs, text))? {
            Ok(read) => read,
            Err(outcome) => return Ok(outcome),
        };
    // The goal ids of an unrolled suite carry iterations: measure coverage the same way.
    let run = regress::run(&program, &cfgs, &tests, interp::Limits::default(), &suite.options);
    if !output.quiet {
        emit_all(&db, output, streams, &regress::render::uncovered_goals(&run))?;
    }
    let text = match config.format {
        RunTestsFormat::Human => regress::render::human(&db, &run),
        RunTestsFormat::Json => regress::render::json(&db, &run),
        RunTestsFormat::Junit => regress::render::junit(&db, &run, &config.suite.display().to_string()),
    };
    write!(streams.out, "{text}")?;
    if let Some(path) = &config.lcov {
        if let Err(error) = suite::write_atomically(path, &regress::render::lcov(&db, &run, &cfgs)) {
            writeln!(streams.err, "seedgen: error: cannot write `{}`: {error}", path.display())?;
            return Ok(Outcome::InputError);
        }
    }
    Ok(if run.count(|verdict| matches!(verdict, regress::Verdict::Error { .. })) > 0 {
        Outcome::InputError
    } else if run.count(|verdict| !matches!(verdict, regress::Verdict::Pass)) > 0 {
        Outcome::ProgramErrors
    } else {
        Outcome::Success
    })
}
