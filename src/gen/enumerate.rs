//! One solver session, one counterexample per test (seeds/001 §2.2, seeds/000).
//!
//! Input: a [`Session`] over the encoding of a seeded, acyclic graph (every goal's seed
//! point is the start of its block) and the graph's goals. Output: an [`Enumeration`]:
//! the candidate tests and a [`GoalStatus`] per goal.
//!
//! The loop: ask for an execution reaching *any* goal still open (leaves first: a path
//! to a leaf passes its enclosing goals); from the model, read every goal the path
//! reaches — collateral coverage (seeds/000) — and close them all; repeat until the
//! query is unsatisfiable. That takes about one check per test plus one, on a VC
//! asserted once. When the solver gives up on the disjunction, each open goal is asked
//! alone, so one hard goal does not hide the others.
//!
//! Honesty (DESIGN.md §1): a model whose path goes through an abstraction (a loop cut
//! by its invariants, a call replaced by its contract) may not be a real execution, so
//! its goals are only [`GoalStatus::Candidate`]s; unsatisfiability proves a goal dead
//! only when every abstraction the encoding used is itself verified
//! (`unsat_is_proof`); a timeout or unknown answer is "not covered", with the reason.

use crate::cfg::{AssumeReason, BlockId, Cfg, CmdKind};
use crate::seed::goals::Goal;
use crate::smt::{Reach, Session};
use crate::vc::{Encoding, Model};
use std::collections::BTreeSet;

/// What the enumeration established about one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalStatus {
    /// Reached by test `test`, a model of the exact part of the encoding.
    Covered {
        test: usize,
    },
    /// Reached only by test `test`, whose path goes through an abstraction.
    Candidate {
        test: usize,
    },
    /// No execution reaches it: unsatisfiable over a sound over-approximation.
    Unreachable,
    NotCovered {
        reason: NotCovered,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotCovered {
    /// The solver answered `unknown` (a timeout, a resource limit, incompleteness).
    Unknown(String),
    /// Unsatisfiable, but only under loop invariants or callee contracts that are not
    /// verified, so no proof of deadness.
    UnverifiedAbstraction,
}

impl NotCovered {
    pub fn describe(&self) -> String {
        match self {
            NotCovered::Unknown(reason) => format!("solver gave up: {reason}"),
            NotCovered::UnverifiedAbstraction => {
                "unreachable only under loop invariants or contracts that are not verified".to_string()
            }
        }
    }
}

/// One candidate test: the model of one query.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Indices of the goals the query asked for (any one of them).
    pub targets: Vec<usize>,
    /// Indices of every goal the model's path reaches.
    pub covers: Vec<usize>,
    /// The path avoids every abstraction: the model is an execution of the program.
    pub exact: bool,
    /// Why the model is unconfirmed beyond abstractions: the solver answered `unknown`
    /// and this is its best-effort model (as Boogie reports such models).
    pub unconfirmed: Option<String>,
    pub model: Model,
}

#[derive(Clone, Debug)]
pub struct Enumeration {
    pub status: Vec<GoalStatus>,
    pub candidates: Vec<Candidate>,
    /// How many satisfiability checks the session ran.
    pub checks: u32,
}

/// Blocks whose executions are over-approximated: a loop header after the cut (targets
/// havocked, invariants assumed) and blocks with a call encoded by its contract.
pub fn inexact_blocks(cfg: &Cfg, encoding: &Encoding) -> BTreeSet<BlockId> {
    let cut = cfg.block_ids().filter(|&id| {
        cfg.block(id).cmds.iter().any(|cmd| {
            matches!(cmd.kind, CmdKind::Assume { reason: AssumeReason::Invariant { .. } | AssumeReason::LoopCut, .. })
        })
    });
    cut.chain(encoding.abstractions.iter().map(|abstraction| abstraction.block)).collect()
}

struct Enumerator<'a> {
    session: &'a mut Session,
    goals: &'a [Goal],
    inexact: BTreeSet<BlockId>,
    unsat_is_proof: bool,
    status: Vec<Option<GoalStatus>>,
    candidates: Vec<Candidate>,
    checks: u32,
}

/// Enumerates tests for `goals` (whose blocks are seed points of the session's graph).
pub fn enumerate(session: &mut Session, cfg: &Cfg, goals: &[Goal], unsat_is_proof: bool) -> Enumeration {
    let inexact = inexact_blocks(cfg, session.encoding());
    let mut enumerator = Enumerator {
        session,
        goals,
        inexact,
        unsat_is_proof,
        status: vec![None; goals.len()],
        candidates: Vec::new(),
        checks: 0,
    };
    enumerator.run();
    let status = enumerator.status.into_iter().map(|status| status.expect("every goal is decided")).collect();
    Enumeration { status, candidates: enumerator.candidates, checks: enumerator.checks }
}

impl Enumerator<'_> {
    fn run(&mut self) {
        for leaves_only in [true, false] {
            while let Some(open) = self.open(leaves_only) {
                if !self.ask(&open) {
                    self.ask_one_by_one(&open);
                }
            }
        }
    }

    /// The goals still undecided (only leaves, in the first round), or `None`.
    fn open(&self, leaves_only: bool) -> Option<Vec<usize>> {
        let open: Vec<usize> = (0..self.goals.len())
            .filter(|&index| self.status[index].is_none() && (self.goals[index].leaf || !leaves_only))
            .collect();
        (!open.is_empty()).then_some(open)
    }

    /// Asks for any of `open`; false when the solver gave up on the disjunction.
    fn ask(&mut self, open: &[usize]) -> bool {
        let blocks: Vec<BlockId> = open.iter().map(|&index| self.goals[index].block).collect();
        self.checks += 1;
        match self.session.check_reach(&blocks) {
            Reach::Sat(model) => {
                if !self.record(open, model, None) {
                    // A model that reaches none of the goals it was asked for would be a
                    // solver or decoder bug; deciding goal by goal still terminates.
                    return false;
                }
            }
            Reach::Unsat => {
                for &index in open {
                    self.status[index] = Some(self.unreachable());
                }
            }
            Reach::Unknown { .. } if open.len() > 1 => return false,
            Reach::Unknown { reason, candidate } => {
                // The solver's best-effort model may still reach the goal: keep it as
                // a candidate (never as covered), for replay to confirm.
                let recorded = candidate.is_some_and(|model| self.record(open, model, Some(reason.clone())));
                if !recorded {
                    self.status[open[0]] = Some(GoalStatus::NotCovered { reason: NotCovered::Unknown(reason) });
                }
            }
        }
        true
    }

    fn ask_one_by_one(&mut self, open: &[usize]) {
        for &index in open {
            if self.status[index].is_none() {
                self.ask(&[index]);
                if self.status[index].is_none() {
                    let reason = NotCovered::Unknown("the model reached none of the goals asked for".to_string());
                    self.status[index] = Some(GoalStatus::NotCovered { reason });
                }
            }
        }
    }

    fn unreachable(&self) -> GoalStatus {
        if self.unsat_is_proof {
            GoalStatus::Unreachable
        } else {
            GoalStatus::NotCovered { reason: NotCovered::UnverifiedAbstraction }
        }
    }

    /// Records `model` as a candidate and closes every open goal its path reaches;
    /// false if it reaches none of `targets`.
    fn record(&mut self, targets: &[usize], model: Model, unconfirmed: Option<String>) -> bool {
        let covers: Vec<usize> =
            (0..self.goals.len()).filter(|&index| model.reaches(self.goals[index].block)).collect();
        if !covers.iter().any(|index| targets.contains(index)) {
            return false;
        }
        let exact = unconfirmed.is_none() && !model.path.iter().any(|block| self.inexact.contains(block));
        let test = self.candidates.len();
        for &index in &covers {
            let better = match &self.status[index] {
                None | Some(GoalStatus::NotCovered { .. }) => true,
                Some(GoalStatus::Candidate { .. }) => exact,
                Some(_) => false,
            };
            if better {
                self.status[index] =
                    Some(if exact { GoalStatus::Covered { test } } else { GoalStatus::Candidate { test } });
            }
        }
        self.candidates.push(Candidate { targets: targets.to_vec(), covers, exact, unconfirmed, model });
        true
    }
}
