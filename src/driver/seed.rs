//! `seedgen seed FILE`: the conditionally seeded program (seeds/001 §2.2), unrolled and
//! with its goals counted as `--unroll` and `--unroll-goals` say, on stdout; with
//! `--mutant ID`, the product program of that mutant ([`crate::mutate::product`]), or
//! with `--guarded` the original guarded at the mutation ([`crate::mutate::infection`]),
//! or with `--rejoined` the proof that its run rejoins the original's
//! ([`crate::mutate::rejoin`]).

use super::{load_and_lower, Lowered, Outcome, Streams};
use crate::cfg;
use crate::config::{OutputConfig, SeedConfig};
use crate::mutate;
use crate::seed::{goals, print::print_seeded_program, seeded};
use std::io;

/// `seedgen seed FILE`: the conditionally seeded program on stdout.
pub fn run_seed(config: &SeedConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { db, ast, program, cfgs } = match load_and_lower(&config.file, config.language, None, output, streams)?
    {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    if let Some(id) = &config.mutant {
        let source = db.text(crate::source::FileId(0));
        let inline = (config.inline_depth + 1).min(cfg::inline::MAX_DEPTH);
        let printed = if config.guarded {
            mutate::guarded_of(&ast, source, id)
        } else if config.rejoined {
            mutate::rejoined_of(&ast, source, id)
        } else {
            mutate::product_of(&ast, source, id, inline)
        };
        return match printed {
            Ok(text) => {
                write!(streams.out, "{text}")?;
                Ok(Outcome::Success)
            }
            Err(message) => {
                writeln!(streams.err, "seedgen: error: `{}`: {message}", config.file.display())?;
                Ok(Outcome::InputError)
            }
        };
    }
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
