//! `seedgen verify FILE`: every check of each implementation in one session, failures as
//! diagnostics with their failing tests, undecided checks said (exit 3).

use super::{emit_all, incomplete_if, load_and_lower, plural, Lowered, Outcome, Streams};
use crate::config::{OutputConfig, VerifyConfig};
use crate::verify;
use std::io;
use std::time::Instant;

/// `seedgen verify FILE`: every contract and assertion proved, or a failure with its
/// failing test at the failing clause.
pub fn run_verify(config: &VerifyConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    // `--time-limit` counts from the run's start: reading, monomorphizing and lowering
    // a large front-end file take part of it.
    let started = Instant::now();
    let Lowered { db, program, cfgs, .. } = match load_and_lower(&config.file, config.language, output, streams)? {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    let options = config.solver.session_options(started);
    let verdicts = verify::verify(&program, &cfgs, &options, verify::Confirmation::Search);
    let diagnostics = verify::diagnostics(&verdicts);
    emit_all(&db, output, streams, &diagnostics)?;
    let failures: usize = verdicts.iter().map(verify::ImplementationVerdict::failures).sum();
    let vacuous = verdicts.iter().any(verify::ImplementationVerdict::is_vacuous);
    let undecided: usize = verdicts.iter().map(verify::ImplementationVerdict::undecided).sum();
    let possible: usize = verdicts.iter().map(verify::ImplementationVerdict::possible_failures).sum();
    if output.message_format == crate::diag::MessageFormat::Human && !output.quiet {
        let verified = verdicts.iter().filter(|verdict| verdict.is_verified()).count();
        let mut found = if failures == 0 { "no failures".to_string() } else { plural(failures, "failure") };
        if undecided > 0 {
            found.push_str(&format!(", {} undecided", plural(undecided, "check")));
        }
        if possible > 0 {
            found
                .push_str(&format!(" ({possible} of them possible failures: a counterexample replay did not confirm)"));
        }
        if vacuous {
            found.push_str(", axioms that contradict each other");
        }
        writeln!(streams.err, "verified {verified} of {}: {found}", plural(verdicts.len(), "implementation"))?;
    }
    if failures > 0 || vacuous {
        return Ok(Outcome::ProgramErrors);
    }
    // "No failures" is not "verified" while a check is undecided.
    incomplete_if(undecided, "check", output, streams)
}
