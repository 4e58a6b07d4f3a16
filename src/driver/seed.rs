//! `seedgen seed FILE`: the conditionally seeded program (seeds/001 §2.2), unrolled and
//! with its goals counted as `--unroll` and `--unroll-goals` say, on stdout.

use super::{load_and_lower, Lowered, Outcome, Streams};
use crate::cfg;
use crate::config::{OutputConfig, SeedConfig};
use crate::seed::{goals, print::print_seeded_program, seeded};
use std::io;

/// `seedgen seed FILE`: the conditionally seeded program on stdout.
pub fn run_seed(config: &SeedConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { program, cfgs, .. } = match load_and_lower(&config.file, config.language, output, streams)? {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    // Loops past the bound stay loops: Boogie abstracts them by their invariants as the
    // cut does for `prove-tests`.
    let seeded: Vec<seeded::SeededCfg> = cfgs
        .iter()
        .map(|cfg| {
            let unrolled = cfg::unroll::unroll_loops(&program, cfg, config.unroll).cfg;
            let taken = seeded::visible_names(&program, &unrolled);
            seeded::seed(&unrolled, &goals::goals_counted(&unrolled, config.unroll_goals), config.goals, &taken)
        })
        .collect();
    write!(streams.out, "{}", print_seeded_program(&program, &seeded))?;
    Ok(Outcome::Success)
}
