//! `seedgen mutate FILE --suite SUITE`: the suite judged against every mutant of the
//! program (killed, survived, timed out, could not run), in the human or JSON form.

use super::{load_and_lower, read_suite, Lowered, Outcome, Streams};
use crate::config::{MutateConfig, OutputConfig, SummaryFormat};
use crate::mutate;
use crate::regress;
use crate::source::FileId;
use crate::suite;
use std::io;

/// `seedgen mutate FILE --suite SUITE`: the suite run against every mutant of the
/// program. The suite must pass on the program as it is: a test that does not is an
/// input error, since no mutant could be judged by it.
pub fn run_mutate(config: &MutateConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { db, ast, program, cfgs } = match load_and_lower(&config.file, config.language, None, output, streams)?
    {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    // Mutants are made from the AST.
    let file = FileId(0);
    let (_, (suite, tests)) =
        match read_suite(&config.suite, output, streams, |text| suite::load::read_and_load(&program, &cfgs, text))? {
            Ok(read) => read,
            Err(outcome) => return Ok(outcome),
        };
    let max_steps = match mutate::budget(&program, &cfgs, &tests) {
        Ok(max_steps) => max_steps,
        Err(not_passing) => {
            let (label, message) = match &not_passing.verdict {
                regress::Verdict::Pass => unreachable!("a passing test is no reason"),
                regress::Verdict::Fail { message, .. } => ("fails", message),
                regress::Verdict::Invalid { message, .. } => ("is invalid", message),
                regress::Verdict::Error { message, .. } => ("cannot run", message),
            };
            writeln!(
                streams.err,
                "seedgen: error: the suite must pass on `{}` before its mutants can be judged, but test {} {label}: \
                 {message} (see `seedgen run-tests`)",
                config.file.display(),
                not_passing.test
            )?;
            return Ok(Outcome::InputError);
        }
    };
    let report = mutate::analyze(&ast, db.text(file), config.language, &suite, tests.len(), max_steps);
    let text = match config.format {
        SummaryFormat::Human => mutate::render::human(&db, &report),
        SummaryFormat::Json => mutate::render::json(&db, db.name(file), &report),
    };
    write!(streams.out, "{text}")?;
    Ok(Outcome::Success)
}
