//! The forward reachability encoding: a [`Passive`] program → an [`Encoding`] whose
//! models are the executions of the implementation, one path prefix each.
//!
//! Input: the passive form of an acyclic `Cfg` (see [`crate::vc::passify`]). Output: the
//! formulas a solver asserts once per implementation, one Boolean per block and per edge,
//! and the failure conditions `verify` checks. Size: linear in the program (each block's
//! transition relation is one shared term; no path is ever enumerated), except the
//! at-most-one constraint of a `goto`, quadratic in its number of targets.
//!
//! Variables: `%exec@B` — "execution reaches the start of B"; `%take@P@S` — "the `goto`
//! at the end of P chose S". `trans@P` is the conjunction of P's steps (assumptions,
//! assignment equalities, call contracts, and assertions taken as assumptions: an
//! execution that violates one stops there); `fix@P@S` the join fix-ups of edge P → S.
//! The asserted constraints, in this order:
//! ```text
//! (A1) the prelude: unique constants, axioms (functions with bodies are not assertions
//!      but [`Definition`]s, which the solver declares as recursive functions)
//! (A2) the precondition, over incarnation 0
//! (A3) %exec@entry
//! (A4) for each S ≠ entry:   %exec@S ⇒ ⋁_{P ∈ preds(S)} (%exec@P ∧ trans@P ∧ fix@P@S ∧ %take@P@S)
//! (A5) for each edge P → S:  %take@P@S ⇒ %exec@P
//! (A6) for each P, S1 ≠ S2 ∈ succs(P): ¬(%take@P@S1 ∧ %take@P@S2)
//! (A7) for each assignment's equation x@k+1 == e where e applies a body-less function,
//!      and those of the incarnations such an e reads (transitively): x@k+1 == e, unguarded
//! ```
//!
//! **Models are path prefixes.** Let M satisfy (A1–A6). Call an edge P → S *used* when
//! M makes `%take@P@S` true. By (A6) every block has at most one used outgoing edge, so
//! from the entry there is exactly one maximal chain of used edges, `entry = B0 → B1 →
//! … → Bn` (finite: the graph is acyclic). Take any block X executed in M (`%exec@X`).
//! If X is not the entry, (A4) gives a predecessor P, executed, with P → X used and
//! `trans@P ∧ fix@P@X` true; repeating, we walk backwards along used edges through
//! executed blocks. The walk cannot cycle and only stops at a block without the
//! obligation (A4), the entry, so it is a chain of used edges from the entry to X: by
//! uniqueness a prefix of B0 → … → Bn. Hence the executed blocks are exactly B0 … Bk for
//! some k (each Bi with i < k is on the walk back from Bk, so executed), and for i < k,
//! `trans@Bi ∧ fix@Bi@Bi+1` holds.
//!
//! **Reachability.** `%exec@G` is satisfiable with (A1–A6) iff some execution of the
//! implementation reaches the start of G with every earlier assumption and assertion
//! holding. (⇒) By the above, M's executed blocks form a path B0 … Bk = G whose
//! transitions hold in M; the values M gives to the inputs (incarnation 0, havocs,
//! body-less calls' results; constants and uninterpreted functions) drive the program
//! along that path, since every assignment is an equality `x@k+1 == e` and every
//! incarnation is either such a result, an input, or a join copy fixed by `fix`.
//! (⇐) Given such an execution along B0 … Bk = G, set each incarnation to the value it
//! denotes, `%exec` true on the path, `%take` true on its edges and false elsewhere, and
//! everything off the path arbitrarily: (A4) holds through the path, holds vacuously
//! off it, and (A5), (A6) by construction. This is exactly when Boogie reports the
//! seeded `if (bn == i) { assert false; }` at the start of G as failing (seeds/001 §2.2):
//! the seed fails on an execution that reaches it, and Boogie's VC assumes each earlier
//! assertion after checking it. Calls are their contracts, so for a callee with a body
//! "execution" is one of the abstracted program (see [`Abstraction`]).
//!
//! **(A7) changes no answer.** An incarnation `x@k+1` of an assignment at step p of block
//! D is current only in D after p and in the blocks D dominates (passify gives a block
//! whose predecessors disagree a join incarnation), so it occurs only in D's steps from p
//! on, in `trans` and fix-ups of blocks D dominates, in their failures, and in later
//! (A7) equations. Let M satisfy (A1–A6) and a query but not the equation of `x@k+1`.
//! The equation is a conjunct of `trans@D`, so D is not executed in M or is the last
//! block of its path (the next one's (A4) would need `trans@D`): no block after D is
//! executed. So the asserted constraints reading `x@k+1` are the (A4) of blocks after D,
//! true because their `%exec` is false, and later (A7) equations; and the query reads it
//! only if it is the failure of a block after D (false in M: its `%exec` is) or of D
//! after step p (false in M: it contains the equation), which it is not (a reach query
//! and its exclusions read only `%exec` literals and entry values). Setting `x@k+1`
//! to the value of `e` therefore keeps M a model of the query; doing so for each false
//! equation in passification order (a change only affects later equations) gives a model
//! of (A1–A7) with the same path, inputs and choices. Conversely (A7) only adds
//! constraints. What it buys: the solver sees the applications of uninterpreted
//! functions in *every* block, in particular in the last block of a model's path, whose
//! `trans` no query constrains but whose commands a replay runs: it instantiates
//! triggered axioms on them (and even an `unknown` answer's candidate satisfies the
//! instances it made), and their model values are the ones the replay looks up in the
//! decoded function tables ([`crate::smt`]). Only equations applying a body-less function (and those their
//! arguments need) are asserted: the others need neither, and the queries of programs
//! without such functions stay exactly as they were.
//!
//! **Failures** (`verify`). The check at position k of block B, with condition e, fails
//! iff `%exec@B ∧ pre@B@k ∧ ¬e` is satisfiable, where `pre@B@k` is the conjunction of
//! B's steps before k (chained, so B's prefixes share their terms with `trans@B`). The
//! `ensures` clauses are the last checks of every `return` block, so they are checked
//! after everything the block does, and callee `requires` come before the call's effects.

use crate::cfg::{AssertReason, BlockId, Cfg};
use crate::sema::hir::{self, FunctionId};
use crate::sema::relevance::{self, Relevant};
use crate::vc::expr::{Definition, Translator};
use crate::vc::passify::{self, Abstraction, Input, InputKind, Obligation, ObligationKind, Passive, Step};
use crate::vc::term::{self, Sort, SymbolId, Term, TermId, Terms};
use std::collections::{BTreeMap, BTreeSet};

/// The verification condition of one implementation, ready to be asserted once.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// The implementation's name.
    pub name: String,
    pub terms: Terms,
    /// The name of each uninterpreted type, by `TypeId` (for readable solver dumps).
    pub type_names: Vec<String>,
    /// (A1)–(A7), in that order: to be asserted, all of them, once.
    pub assertions: Vec<TermId>,
    /// The asserted term of each relevant axiom, with its index into the program's
    /// axioms, and of each `requires` clause of the implementation's procedure (over
    /// incarnation 0), in order: where an instance of one comes from
    /// ([`crate::smt::refine`]).
    pub axiom_terms: Vec<(usize, TermId)>,
    pub precondition: Vec<TermId>,
    /// The functions with a body, to be declared as (recursive) definitions.
    pub definitions: Vec<Definition>,
    pub entry: BlockId,
    /// By [`BlockId`].
    pub blocks: Vec<BlockVc>,
    pub edges: Vec<EdgeVc>,
    pub failures: Vec<Failure>,
    /// Constants, entry values, then the choices of each block in passification order.
    pub inputs: Vec<Input>,
    /// The functions without a body: part of a test's inputs.
    pub functions: Vec<(FunctionId, SymbolId)>,
    /// The variable of each slot of [`BlockVc::exit`].
    pub vars: Vec<hir::Var>,
    pub abstractions: Vec<Abstraction>,
}

#[derive(Clone, Debug)]
pub struct BlockVc {
    /// `%exec@B`.
    pub exec: TermId,
    /// `trans@B`: the conjunction of the block's steps.
    pub trans: TermId,
    /// Outgoing edges (indices into [`Encoding::edges`]), in `goto` order.
    pub edges: Vec<usize>,
    /// The choices the block's commands make (indices into [`Encoding::inputs`]), in order.
    pub inputs: Vec<usize>,
    /// The incarnation of each variable at the end of the block (see
    /// [`crate::vc::passify::PassiveBlock::exit`]).
    pub exit: Vec<Option<TermId>>,
}

#[derive(Clone, Debug)]
pub struct EdgeVc {
    pub from: BlockId,
    pub to: BlockId,
    /// `%take@P@S`.
    pub take: TermId,
    /// `fix@P@S`.
    pub fixups: TermId,
}

/// A check that may fail: its satisfiable `condition` is a failing execution.
#[derive(Clone, Debug)]
pub struct Failure {
    pub obligation: Obligation,
    pub block: BlockId,
    /// The index of the check among its block's steps.
    pub step: usize,
    pub condition: TermId,
}

/// Identifies a [`Failure`] of an [`Encoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FailureId(pub u32);

impl FailureId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Encoding {
    /// Whether a loop's invariant abstraction chooses a state here that the first
    /// iteration's may replace ([`crate::vc::Input::before`]): a query for first
    /// iterations restricts something. Not whether loops were cut (a loop that modifies
    /// nothing is cut without a state to choose), which decides exactness elsewhere.
    pub fn has_first_iterations(&self) -> bool {
        self.inputs.iter().any(|input| matches!(input.kind, InputKind::LoopState(_)) && input.before.is_some())
    }

    pub fn exec(&self, block: BlockId) -> TermId {
        self.blocks[block.index()].exec
    }

    pub fn failure(&self, id: FailureId) -> &Failure {
        &self.failures[id.index()]
    }

    pub fn failure_ids(&self) -> impl Iterator<Item = FailureId> {
        (0..self.failures.len()).map(|index| FailureId(u32::try_from(index).expect("fewer than 2^32 checks")))
    }

    /// The edge `from → to`, if the `goto` of `from` names `to`.
    pub fn edge(&self, from: BlockId, to: BlockId) -> Option<&EdgeVc> {
        self.blocks[from.index()].edges.iter().map(|&index| &self.edges[index]).find(|edge| edge.to == to)
    }

    /// The incarnation of `var` at the end of `block`; `None` if no path to there reads
    /// or writes it.
    pub fn exit_term(&self, block: BlockId, var: hir::Var) -> Option<TermId> {
        let slot = self.vars.iter().position(|&candidate| candidate == var)?;
        self.blocks[block.index()].exit[slot]
    }
}

/// Encodes one implementation (`cfg`, acyclic) of `program` for its executions: every
/// assertion holds after it (an execution that fails one stops there).
pub fn encode(program: &hir::Program, cfg: &Cfg) -> Encoding {
    encode_with(program, cfg, false)
}

/// Encodes one implementation as Boogie's verification condition does: an assertion
/// with `{:subsumption 0}` ([`AssertReason::Unsubsumed`]) is not assumed after it, so
/// a check after it fails where only the assertion kept it from failing, as Boogie
/// counts errors. `verify` asks this; test generation asks [`encode`].
pub fn encode_verification(program: &hir::Program, cfg: &Cfg) -> Encoding {
    encode_with(program, cfg, true)
}

fn encode_with(program: &hir::Program, cfg: &Cfg, boogie_subsumption: bool) -> Encoding {
    let relevant = relevance::relevant(program, cfg.implementation);
    let mut translator = Translator::new(program, &relevant);
    let passive = passify::passify(&mut translator, cfg);
    let Translator { terms, prelude, .. } = translator;
    let mut encoder = Encoder { terms, cfg, assertions: prelude.axioms.clone(), boogie_subsumption };
    encoder.assertions.extend(passive.precondition.iter().copied());
    let (blocks, edges) = encoder.blocks_and_edges(&passive);
    let failures = encoder.failures(&passive, &blocks);
    encoder.control(&blocks, &edges);
    let functions: Vec<(FunctionId, SymbolId)> = program
        .functions
        .iter()
        .enumerate()
        .filter(|&(index, function)| function.body.is_none() && relevant.has_function(FunctionId::from_index(index)))
        .map(|(index, _)| (FunctionId::from_index(index), prelude.functions[index]))
        .collect();
    encoder.definitions(&passive.definitions, &functions);
    let (inputs, blocks) = inputs(program, &relevant, &prelude.consts, &passive, blocks);
    // `requires true` and the like say nothing; keep the dump and the solver lean.
    let always = encoder.terms.bool(true);
    encoder.assertions.retain(|&assertion| assertion != always);
    Encoding {
        name: cfg.name.clone(),
        terms: encoder.terms,
        type_names: program.types.iter().map(|decl| decl.name.clone()).collect(),
        assertions: encoder.assertions,
        axiom_terms: prelude.axiom_terms,
        precondition: passive.precondition.clone(),
        definitions: prelude.definitions,
        entry: cfg.entry,
        blocks,
        edges,
        failures,
        inputs,
        functions,
        vars: passive.vars,
        abstractions: passive.abstractions,
    }
}

/// The relevant constants first (program-level entry values; a test leaves the others
/// out, as nothing it runs reads them), then the passifier's inputs, whose indices in
/// the blocks shift accordingly.
fn inputs(
    program: &hir::Program,
    relevant: &Relevant,
    consts: &[TermId],
    passive: &Passive,
    mut blocks: Vec<BlockVc>,
) -> (Vec<Input>, Vec<BlockVc>) {
    let mut inputs: Vec<Input> = program
        .consts
        .iter()
        .zip(consts)
        .enumerate()
        .filter(|&(index, _)| relevant.has_const(hir::ConstId::from_index(index)))
        .map(|(index, (constant, &term))| Input {
            kind: InputKind::Const(hir::ConstId::from_index(index)),
            term,
            block: None,
            position: 0,
            span: constant.span,
            before: None,
        })
        .collect();
    let shift = inputs.len();
    inputs.extend(passive.inputs.iter().cloned());
    for block in &mut blocks {
        for index in &mut block.inputs {
            *index += shift;
        }
    }
    (inputs, blocks)
}

struct Encoder<'c> {
    terms: Terms,
    cfg: &'c Cfg,
    assertions: Vec<TermId>,
    /// See [`encode_verification`].
    boogie_subsumption: bool,
}

impl Encoder<'_> {
    /// What executions past `step` satisfy: its term, except an unsubsumed check's
    /// under Boogie's subsumption.
    fn assumed(&mut self, step: &Step) -> TermId {
        match step {
            Step::Check(_, obligation)
                if self.boogie_subsumption && obligation.kind == ObligationKind::Assert(AssertReason::Unsubsumed) =>
            {
                self.terms.bool(true)
            }
            _ => step.term(),
        }
    }

    fn blocks_and_edges(&mut self, passive: &Passive) -> (Vec<BlockVc>, Vec<EdgeVc>) {
        let mut blocks = Vec::with_capacity(passive.blocks.len());
        let mut edges = Vec::new();
        for (index, block) in passive.blocks.iter().enumerate() {
            let id = BlockId::from_index(index);
            let exec = self.terms.constant(format!("%exec@{index}"), Sort::Bool);
            // trans@B = s_0 ∧ … ∧ s_n-1, chained as the prefixes of the failures are.
            let empty = self.terms.bool(true);
            let trans = block.steps.iter().fold(empty, |prefix, step| {
                let assumed = self.assumed(step);
                self.chain(prefix, assumed)
            });
            let mut edge_indices = Vec::with_capacity(block.edges.len());
            for edge in &block.edges {
                let take = self.terms.constant(format!("%take@{index}@{}", edge.to.index()), Sort::Bool);
                let fixups = self.terms.and(edge.fixups.clone());
                edge_indices.push(edges.len());
                edges.push(EdgeVc { from: id, to: edge.to, take, fixups });
            }
            let inputs = block.inputs.clone();
            blocks.push(BlockVc { exec, trans, edges: edge_indices, inputs, exit: block.exit.clone() });
        }
        (blocks, edges)
    }

    /// `prefix ∧ step` as a binary node, so every prefix of a block is one shared term.
    fn chain(&mut self, prefix: TermId, step: TermId) -> TermId {
        self.terms.and(vec![prefix, step])
    }

    /// fail@B@k = %exec@B ∧ pre@B@k ∧ ¬e_k, for each check e_k of each block.
    fn failures(&mut self, passive: &Passive, blocks: &[BlockVc]) -> Vec<Failure> {
        let mut failures = Vec::new();
        for &id in &passive.order {
            let mut prefix = self.terms.bool(true);
            for (position, step) in passive.blocks[id.index()].steps.iter().enumerate() {
                if let Step::Check(condition, obligation) = step {
                    let violated = self.terms.not(*condition);
                    let condition = self.terms.and(vec![blocks[id.index()].exec, prefix, violated]);
                    failures.push(Failure { obligation: obligation.clone(), block: id, step: position, condition });
                }
                let assumed = self.assumed(step);
                prefix = self.chain(prefix, assumed);
            }
        }
        failures
    }

    /// (A7) x@k+1 == e, for each assignment whose `e` applies one of the body-less
    /// `functions` (with arguments; a constant needs no table), and for the assignments
    /// of the incarnations such an `e` reads, transitively (an application's arguments
    /// must have their execution values too).
    fn definitions(&mut self, definitions: &[TermId], functions: &[(FunctionId, SymbolId)]) {
        let applied: BTreeSet<SymbolId> = functions
            .iter()
            .map(|&(_, symbol)| symbol)
            .filter(|&symbol| !self.terms.symbol(symbol).domain.is_empty())
            .collect();
        if applied.is_empty() {
            return;
        }
        // Children come before their parents in the arena: one forward pass marks every
        // term that applies one of them.
        let mut applies = Vec::with_capacity(self.terms.len());
        for id in self.terms.ids() {
            let term = self.terms.get(id);
            let here = matches!(term, Term::App(symbol, _) if applied.contains(symbol));
            applies.push(here || term::children(term).iter().any(|child| applies[child.index()]));
        }
        // The equation (by index) defining each incarnation.
        let defining: BTreeMap<TermId, usize> = definitions
            .iter()
            .enumerate()
            .filter_map(|(index, &definition)| match self.terms.get(definition) {
                Term::Eq(incarnation, _) => Some((*incarnation, index)),
                _ => None,
            })
            .collect();
        let mut chosen = vec![false; definitions.len()];
        let mut pending: Vec<usize> =
            (0..definitions.len()).filter(|&index| applies[definitions[index].index()]).collect();
        let mut visited = vec![false; self.terms.len()];
        while let Some(index) = pending.pop() {
            if std::mem::replace(&mut chosen[index], true) {
                continue;
            }
            let mut stack = vec![definitions[index]];
            while let Some(id) = stack.pop() {
                if std::mem::replace(&mut visited[id.index()], true) {
                    continue;
                }
                pending.extend(defining.get(&id));
                stack.extend(term::children(self.terms.get(id)));
            }
        }
        let asserted =
            definitions.iter().zip(&chosen).filter(|&(_, &chosen)| chosen).map(|(&definition, _)| definition);
        self.assertions.extend(asserted);
    }

    /// (A3)–(A6).
    fn control(&mut self, blocks: &[BlockVc], edges: &[EdgeVc]) {
        let entry = self.cfg.entry;
        self.assertions.push(blocks[entry.index()].exec);
        let mut incoming: Vec<Vec<TermId>> = vec![Vec::new(); blocks.len()];
        for edge in edges {
            let from = &blocks[edge.from.index()];
            // %exec@P ∧ trans@P ∧ fix@P@S ∧ %take@P@S: S is entered from P.
            let entered = self.terms.and(vec![from.exec, from.trans, edge.fixups, edge.take]);
            incoming[edge.to.index()].push(entered);
        }
        for (index, sources) in incoming.into_iter().enumerate() {
            if index == entry.index() {
                continue;
            }
            // (A4) %exec@S ⇒ ⋁_P (%exec@P ∧ trans@P ∧ fix@P@S ∧ %take@P@S)
            let some_source = self.terms.or(sources);
            let reached = self.terms.implies(blocks[index].exec, some_source);
            self.assertions.push(reached);
        }
        for edge in edges {
            // (A5) %take@P@S ⇒ %exec@P
            let only_when_executed = self.terms.implies(edge.take, blocks[edge.from.index()].exec);
            self.assertions.push(only_when_executed);
        }
        for block in blocks {
            for (position, &first) in block.edges.iter().enumerate() {
                for &second in &block.edges[position + 1..] {
                    // (A6) ¬(%take@P@S1 ∧ %take@P@S2)
                    let both = self.terms.and(vec![edges[first].take, edges[second].take]);
                    let at_most_one = self.terms.not(both);
                    self.assertions.push(at_most_one);
                }
            }
        }
    }
}
