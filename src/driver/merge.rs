//! `seedgen merge SUITE...`: the suites of `--shard` runs combined into the suite of one
//! run (`suite::merge`), written atomically to `-o` or to stdout.

use super::{read_suite, refuse_to_write, Outcome, Streams};
use crate::config::{MergeConfig, OutputConfig};
use crate::suite;
use std::io;

/// `seedgen merge SUITE...`: shard suites combined into the suite of one run, written
/// to `-o` or stdout.
pub fn run_merge(config: &MergeConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    if let Some(refusal) = config.output.as_deref().and_then(|path| refuse_to_write(path, config.force)) {
        writeln!(streams.err, "seedgen: error: {refusal}")?;
        return Ok(Outcome::InputError);
    }
    let mut shards = Vec::with_capacity(config.suites.len());
    for path in &config.suites {
        match read_suite(path, output, streams, suite::load::read)? {
            Ok((_, suite)) => shards.push(suite::merge::Named { name: path.display().to_string(), suite }),
            Err(outcome) => return Ok(outcome),
        }
    }
    let merged = match suite::merge::merge(shards) {
        Ok(merged) => merged,
        Err(reason) => {
            writeln!(streams.err, "seedgen: error: cannot merge: {reason}")?;
            return Ok(Outcome::InputError);
        }
    };
    let text = suite::json::to_text(&merged);
    match &config.output {
        None => write!(streams.out, "{text}")?,
        Some(path) => {
            if let Err(error) = suite::write_atomically(path, &text) {
                writeln!(streams.err, "seedgen: error: cannot write `{}`: {error}", path.display())?;
                return Ok(Outcome::InputError);
            }
            if !output.quiet {
                writeln!(streams.err, "wrote {}", path.display())?;
            }
        }
    }
    Ok(Outcome::Success)
}
