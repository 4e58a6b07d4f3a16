//! The exact retry of goals a replay still missed: no goal is reported "replay missed"
//! after its model went through a loop's invariant abstraction or a callee's contract
//! until it was asked again on exact unrollings, deepening.
//!
//! At `--unroll N` a model may reach a goal only through the cut of a loop (iterations
//! past `N`, all of them at `N = 0`) or a callee's contract: values the real run does
//! not produce, so its replay misses. The retries of `generate` (once at `--max-unroll`,
//! once with one more level of calls inlined) do not reach every such goal: at the
//! default `--unroll 0` `--max-unroll` is 0. Here the goals still missed are asked on
//! graphs unrolled 1, 2, 4, … [`DEEPEST`] iterations (the rungs above what was tried),
//! with calls inlined as many levels deeper when the implementation has calls, until
//! none is left. The ladder is bounded: a rung whose graph would exceed
//! [`MAX_BLOCKS`] blocks ends it (nested loops grow as the product of their
//! unrollings), and so does the run's `--time-limit`. What a rung's tests enter is
//! followed on the first graph, as every retry's is; a goal still missed at the last
//! rung because its models needed more iterations says so
//! ("needs more than 16 iterations of a loop").

use super::enumerate::{Enumeration, GoalStatus, NotCovered};
use super::replay::{missed_on_its_path, Replayer};
use super::{has_calls, past_deadline, retry, GenOptions};
use crate::cfg::unroll::unroll_loops;
use crate::cfg::{inline, Cfg};
use crate::interp::Machine;
use crate::sema::hir;

/// The deepest exact unrolling of the ladder, in iterations of each loop.
pub const DEEPEST: u32 = 16;

/// The largest graph (blocks, after unrolling) a rung builds.
pub const MAX_BLOCKS: usize = 4_096;

/// Asks the goals of `enumeration` still missed by replay again, on the ladder of exact
/// unrollings (see the module's header); `tried` is the deepest unrolling already asked.
pub(super) fn deepen(
    program: &hir::Program,
    machine: &Machine,
    original: &Cfg,
    (options, tried): (&GenOptions, u32),
    replayer: &Replayer,
    enumeration: &mut Enumeration,
) {
    let (loops, calls) = (!original.loops.is_empty(), has_calls(program, machine, original));
    let mut depth = 1;
    while depth <= DEEPEST && missed_any(enumeration) {
        let deeper_loops = loops && depth > tried;
        // The retry of `generate` already inlined one level more.
        let deeper_calls = calls && depth > 1;
        if deeper_loops || deeper_calls {
            if past_deadline(options) {
                return;
            }
            let unroll = if deeper_loops { depth } else { options.unroll };
            let inline_depth =
                if calls { (options.inline_depth + depth).min(inline::MAX_DEPTH) } else { options.inline_depth };
            if unroll_loops(program, original, unroll).cfg.blocks.len() > MAX_BLOCKS {
                return;
            }
            let rung = GenOptions { inline_depth, ..options.clone() };
            let retried = retry(program, machine, original, (&rung, unroll), replayer, enumeration, missed);
            if deeper_loops {
                note_bound(enumeration, &retried, unroll);
            }
        }
        depth *= 2;
    }
}

/// A goal whose replay took another path than its model (through an abstraction, or
/// past the unrolling bound): not one whose run could not be evaluated, which no
/// unrolling changes.
fn missed(reason: &NotCovered) -> bool {
    match reason {
        NotCovered::ReplayMissed(reason) | NotCovered::BeyondBound { reason, .. } => missed_on_its_path(reason),
        NotCovered::Unknown(_) | NotCovered::UnverifiedAbstraction => false,
    }
}

fn missed_any(enumeration: &Enumeration) -> bool {
    enumeration.status.iter().any(|status| matches!(status, GoalStatus::NotCovered { reason } if missed(reason)))
}

/// The goals still missed whose retry at `bound` iterations missed them only past that
/// bound: they now say they need more than `bound` iterations.
fn note_bound(enumeration: &mut Enumeration, retried: &[(usize, GoalStatus)], bound: u32) {
    for (index, status) in retried {
        let GoalStatus::NotCovered { reason: NotCovered::BeyondBound { reason, .. } } = status else { continue };
        if let GoalStatus::NotCovered { reason: kept } = &mut enumeration.status[*index] {
            if missed(kept) {
                *kept = NotCovered::BeyondBound { bound, reason: reason.clone() };
            }
        }
    }
}
