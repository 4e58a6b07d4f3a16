//! `prove-tests --kill-mutants`: each implementation's section of the coverage suite
//! extended with tests that kill its mutants ([`crate::mutate::kill`]), sections in
//! parallel (`--jobs`), and the summary of what became of the mutants.

use super::*;
use crate::mutate::kill::{self, KillOptions, MutantDecision, MutantResult, Original};
use crate::suite::json;

/// The sections with their killing tests, and every implementation's mutants with
/// their decisions, in program order.
pub(crate) fn kill_all(
    original: &Original,
    template: &json::Suite,
    sections: Vec<json::Procedure>,
    (config, options): (&ProveTestsConfig, &GenOptions),
) -> io::Result<(Vec<json::Procedure>, Vec<MutantResult>)> {
    let kill_options = KillOptions {
        inline_depth: config.inline_depth,
        unroll: config.unroll,
        session: options.session,
        neighbours: KillOptions::NEIGHBOURS,
        walks: KillOptions::WALKS,
        limits: interp::Limits { max_steps: KillOptions::MAX_STEPS, ..interp::Limits::default() },
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .stack_size(crate::verify::WORKER_STACK_BYTES)
        .thread_name(|index| format!("seedgen-kill-{index}"))
        .build()
        .map_err(io::Error::other)?;
    let done: Vec<(json::Procedure, Vec<MutantResult>)> = pool.install(|| {
        sections.par_iter().map(|section| kill::kill_mutants(original, template, section, &kill_options)).collect()
    });
    let mut sections = Vec::new();
    let mut results = Vec::new();
    for (section, decided) in done {
        sections.push(section);
        results.extend(decided);
    }
    Ok((sections, results))
}

/// One line of totals (`mutants: 40 killed, 2 equivalent, 1 undecided, …; score …`),
/// then, with `verbose`, a line per mutant not killed.
pub(crate) fn summary(results: &[MutantResult], verbose: bool) -> String {
    let count = |wanted: fn(&MutantDecision) -> bool| results.iter().filter(|result| wanted(&result.decision)).count();
    let killed = count(|decision| matches!(decision, MutantDecision::Killed { .. }));
    let equivalent = count(|decision| matches!(decision, MutantDecision::Equivalent));
    let up_to = count(|decision| matches!(decision, MutantDecision::EquivalentUpTo { .. }));
    let timeout = count(|decision| matches!(decision, MutantDecision::Timeout { .. }));
    let undecided = count(|decision| matches!(decision, MutantDecision::Undecided { .. }));
    let counted = killed + up_to + undecided;
    let score =
        if counted == 0 { "n/a".to_string() } else { format!("{:.1}%", killed as f64 * 100.0 / counted as f64) };
    let mut text = format!(
        "mutants: {killed} killed, {equivalent} equivalent, {up_to} equivalent up to the unrolling bound, \
         {undecided} undecided, {timeout} timed out; score {score}\n"
    );
    if verbose {
        for result in results {
            let line = match &result.decision {
                MutantDecision::Killed { .. } | MutantDecision::IllTyped => continue,
                MutantDecision::Equivalent => "equivalent".to_string(),
                MutantDecision::EquivalentUpTo { bound } => format!("equivalent up to {bound} iterations"),
                MutantDecision::Timeout { test } => format!("timed out (test {test})"),
                MutantDecision::Undecided { tried } => format!("undecided (tried {tried})"),
            };
            let mutant = &result.mutant;
            text.push_str(&format!("  {}: `{}` → `{}`: {line}\n", result.id, mutant.original, mutant.replacement));
        }
    }
    text
}
