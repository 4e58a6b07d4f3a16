//! Suite reduction: the tests of one implementation whose goals other tests
//! cover too are dropped, by a deterministic greedy set cover.
//!
//! Input: an [`Enumeration`] after collateral coverage and retries, each candidate with
//! the goals its replay entered. Output: the same enumeration keeping a subset of its
//! candidates, still in generation order, whose runs enter every goal the whole set's
//! runs entered and witness every distinct failure the whole set witnessed; each
//! covered goal's status names the first kept test that enters it.
//!
//! The cover: repeatedly keep the test that enters the most goals not yet entered by a
//! kept test (ties: the earlier generated), until every goal is; then drop, latest pick
//! first, any kept test whose goals the other kept tests all enter (greedy picks a big
//! test early that later picks can make redundant). A test that is the only one entering
//! some goal is kept by construction. Coverage is what replay measured
//! ([`Candidate::covers`]), never what the model claimed; goals covered by tests kept
//! from an existing suite ([`GoalStatus::Kept`]) are not this enumeration's to cover.

use super::enumerate::{Candidate, Enumeration, GoalStatus};
use crate::interp::Outcome;
use std::collections::BTreeSet;

/// What a kept test must keep witnessing.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Element {
    /// A goal, by index, that its run enters.
    Goal(usize),
    /// A check its run fails (the violation's message): a failing test is a finding,
    /// not coverage another test can stand in for.
    Failure(String),
}

/// Drops the redundant candidates of `enumeration` (see the module header).
pub fn reduce(enumeration: &mut Enumeration) {
    let elements: Vec<BTreeSet<Element>> =
        enumeration.candidates.iter().map(|candidate| witnessed(candidate, &enumeration.status)).collect();
    let keep = cover(&elements);
    let candidates = std::mem::take(&mut enumeration.candidates);
    enumeration.candidates =
        candidates.into_iter().zip(&keep).filter(|(_, &kept)| kept).map(|(test, _)| test).collect();
    for (index, status) in enumeration.status.iter_mut().enumerate() {
        if let GoalStatus::Covered { test } = status {
            *test = enumeration
                .candidates
                .iter()
                .position(|candidate| candidate.covers.contains(&index))
                .expect("the cover keeps a test entering every covered goal");
        }
    }
}

/// The goals `candidate`'s run entered that this enumeration covers, and its failure.
fn witnessed(candidate: &Candidate, status: &[GoalStatus]) -> BTreeSet<Element> {
    let goals = candidate.covers.iter().filter(|&&goal| matches!(status[goal], GoalStatus::Covered { .. }));
    let mut elements: BTreeSet<Element> = goals.map(|&goal| Element::Goal(goal)).collect();
    if let Outcome::Failed(violation) = &candidate.test.replay.outcome {
        elements.insert(Element::Failure(violation.message.clone()));
    }
    elements
}

/// Which of `sets` a greedy cover of their union keeps, redundant picks dropped.
fn cover<T: Ord + Clone>(sets: &[BTreeSet<T>]) -> Vec<bool> {
    let mut open: BTreeSet<T> = sets.iter().flatten().cloned().collect();
    let mut picks: Vec<usize> = Vec::new();
    while !open.is_empty() {
        let gain = |index: usize| sets[index].intersection(&open).count();
        // `max_by_key` returns the last of equal maxima: `Reverse` makes it the earliest.
        let best = (0..sets.len())
            .filter(|index| !picks.contains(index))
            .max_by_key(|&index| (gain(index), std::cmp::Reverse(index)))
            .expect("an open element lies in some set");
        open.retain(|element| !sets[best].contains(element));
        picks.push(best);
    }
    let mut keep = vec![false; sets.len()];
    picks.iter().for_each(|&index| keep[index] = true);
    for &index in picks.iter().rev() {
        let others_enter =
            |element: &T| (0..sets.len()).any(|other| other != index && keep[other] && sets[other].contains(element));
        if sets[index].iter().all(others_enter) {
            keep[index] = false;
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::cover;
    use std::collections::BTreeSet;

    fn sets(lists: &[&[u32]]) -> Vec<BTreeSet<u32>> {
        lists.iter().map(|list| list.iter().copied().collect()).collect()
    }

    fn kept(lists: &[&[u32]]) -> Vec<usize> {
        let keep = cover(&sets(lists));
        (0..keep.len()).filter(|&index| keep[index]).collect()
    }

    #[test]
    fn a_test_whose_goals_others_enter_is_dropped() {
        assert_eq!(kept(&[&[1, 2], &[1], &[2, 3]]), [0, 2]);
    }

    #[test]
    fn the_only_test_entering_a_goal_stays() {
        assert_eq!(kept(&[&[1, 2, 3], &[4], &[1]]), [0, 1]);
    }

    #[test]
    fn ties_keep_the_earlier_test() {
        assert_eq!(kept(&[&[1, 2], &[1, 2], &[2, 1]]), [0]);
    }

    #[test]
    fn a_big_early_pick_made_redundant_by_later_ones_goes() {
        // Greedy takes the four-goal test first; the other two are each the only one
        // entering a goal, and together they enter its four.
        assert_eq!(kept(&[&[1, 2, 5], &[1, 2, 3, 4], &[3, 4, 6]]), [0, 2]);
    }

    #[test]
    fn tests_entering_nothing_are_dropped() {
        assert_eq!(kept(&[&[], &[1], &[]]), [1]);
        assert_eq!(kept(&[]), Vec::<usize>::new());
    }

    #[test]
    fn the_union_is_unchanged() {
        let lists: &[&[u32]] = &[&[1, 2], &[2, 3], &[3, 4], &[4, 5], &[1, 5], &[2, 4], &[6], &[6, 1]];
        let keep = cover(&sets(lists));
        let all: BTreeSet<u32> = lists.iter().flat_map(|list| list.iter().copied()).collect();
        let kept: BTreeSet<u32> =
            lists.iter().zip(&keep).filter(|(_, &kept)| kept).flat_map(|(list, _)| list.iter().copied()).collect();
        assert_eq!(kept, all);
        assert!(keep.iter().filter(|&&kept| kept).count() < lists.len());
    }
}
