//! The invariant abstraction: a [`Cfg`] with loops → an acyclic [`Cfg`], as Boogie makes
//! its graphs acyclic before generating a verification condition.
//!
//! Input: a graph as [`super::lower`] returns it (reducible, `loops` filled in, each
//! loop's invariants the `assert`s among the leading `assert`/`assume` commands of its
//! header). Output: the same blocks, same ids, with every back edge cut, blocks added at
//! the end where a cut edge needs one, and `loops` empty; the graph is acyclic.
//!
//! For each loop, with `I` its invariants, `F` its free ones and `x` its targets:
//! - the header becomes `assert I (entry); havoc x; assume where(x); assume I, F; rest`,
//!   where `rest` is the header's commands after the invariants (its leading `assume`s
//!   stay in place). Once the back edges are cut, every edge into the header enters the
//!   loop, so the `assert`s at its top check the invariants on entry;
//! - each back edge `latch → header` becomes `assert I (maintained); assume false;
//!   return`: appended to the latch when the header is its only successor, otherwise
//!   in a new block that replaces the header among the latch's successors.
//!
//! What the result means: it over-approximates the executions of the original. Every
//! execution of the original that reaches no loop header is an execution of the result,
//! and the converse holds too: on those paths the encoding is exact. An execution that
//! reaches a header continues, in the result, from *some* state that agrees with it
//! outside the targets and satisfies the invariants — the real state is one of them
//! when the invariants hold there, but a model may pick another (DESIGN.md §1: such a
//! model is a candidate test, to be replayed). The paths through a loop body end at the
//! back edge after checking that the invariants are maintained. Hence, when no invariant
//! check of the result can fail (the invariants hold on entry and are maintained), each
//! execution of the original is covered, segment by segment between headers, by paths
//! of the result: an `assert` that can fail in the original can fail in the result, and
//! a block unreachable in the result is unreachable in the original (an UNSAT answer on
//! the result proves a goal dead). When an invariant check can fail, the result reports
//! that failure instead. Boogie 2.4.1 also infers interval invariants at loop heads (its
//! default `/infer`); the result has no loop left for that, so it matches Boogie run
//! with `/noinfer`.
//!
//! A block's origin is kept; cut blocks take the origin of their latch (not starting a
//! branch), so goals are unchanged.

use super::graph::{AssertReason, AssumeReason, Block, BlockId, Cfg, Cmd, CmdKind, Loop, Origin, Terminator};
use crate::sema::hir;
use crate::source::Span;

/// Cuts every loop of `cfg` (outermost first; the order does not matter for the result,
/// since each loop only rewrites its own header and back edges). `program` gives the
/// `where` clauses of the havocked globals.
pub fn cut_loops(program: &hir::Program, cfg: &Cfg) -> Cfg {
    let mut cut = cfg.clone();
    cut.loops = Vec::new();
    for found in &cfg.loops {
        cut_loop(program, &mut cut, found);
    }
    cut
}

/// One invariant of a loop header: its position among the header's leading commands.
struct Invariant {
    expr: hir::Expr,
    free: bool,
    index: u32,
    span: Span,
}

fn cut_loop(program: &hir::Program, cfg: &mut Cfg, found: &Loop) {
    let (invariants, prefix_len) = invariants(cfg.block(found.header));
    let cmds = havocked_header(program, cfg, found, &invariants, prefix_len);
    cfg.blocks[found.header.index()].cmds = cmds;
    let maintained = checks(&invariants, |index| AssertReason::InvariantMaintained { index });
    for &latch in &found.latches {
        cut_back_edge(cfg, latch, found.header, &maintained, found.span);
    }
}

/// The header's new commands: `assert I (entry); havoc x; assume where(x)`, then its
/// leading commands with each invariant (the k-th `assert` is `invariants[k]`) now
/// assumed and the `assume`s among them unchanged, then the rest of the header.
fn havocked_header(
    program: &hir::Program,
    cfg: &Cfg,
    found: &Loop,
    invariants: &[Invariant],
    prefix_len: usize,
) -> Vec<Cmd> {
    let header = cfg.block(found.header);
    let mut cmds = checks(invariants, |index| AssertReason::InvariantOnEntry { index });
    if !found.targets.is_empty() {
        cmds.push(Cmd { kind: CmdKind::Havoc { vars: found.targets.clone(), loop_cut: true }, span: found.span });
        for expr in where_clauses(program, cfg, &found.targets) {
            cmds.push(Cmd { kind: CmdKind::Assume { expr, reason: AssumeReason::Where }, span: found.span });
        }
    }
    let mut assumed = invariants.iter();
    for cmd in &header.cmds[..prefix_len] {
        let kind = match &cmd.kind {
            CmdKind::Assert { expr, .. } => {
                let invariant = assumed.next().expect("one invariant per `assert` of the prefix");
                CmdKind::Assume { expr: expr.clone(), reason: AssumeReason::Invariant { index: invariant.index } }
            }
            other => other.clone(),
        };
        cmds.push(Cmd { kind, span: cmd.span });
    }
    cmds.extend_from_slice(&header.cmds[prefix_len..]);
    cmds
}

/// The checked (not free) invariants as `assert`s with `reason`.
fn checks(invariants: &[Invariant], reason: fn(u32) -> AssertReason) -> Vec<Cmd> {
    invariants
        .iter()
        .filter(|invariant| !invariant.free)
        .map(|invariant| {
            let kind = CmdKind::Assert { expr: invariant.expr.clone(), reason: reason(invariant.index) };
            Cmd { kind, span: invariant.span }
        })
        .collect()
}

/// The invariants among the leading `assert`/`assume` commands of `header`, and how
/// many commands that prefix has.
fn invariants(header: &Block) -> (Vec<Invariant>, usize) {
    let mut found = Vec::new();
    let mut prefix_len = 0;
    for cmd in &header.cmds {
        match &cmd.kind {
            CmdKind::Assert { expr, reason } => {
                let (free, index) = match *reason {
                    AssertReason::Invariant { free, index } => (free, index),
                    // Lowering marks every leading `assert` of a header; any other one is
                    // still an invariant by Boogie's convention.
                    _ => (false, u32::try_from(found.len()).expect("fewer than 2^32 invariants")),
                };
                found.push(Invariant { expr: expr.clone(), free, index, span: cmd.span });
            }
            CmdKind::Assume { .. } => {}
            CmdKind::Assign { .. } | CmdKind::Havoc { .. } | CmdKind::Call { .. } => break,
        }
        prefix_len += 1;
    }
    (found, prefix_len)
}

/// The `where` clauses of the havocked targets (Boogie assumes them after every `havoc`).
fn where_clauses(program: &hir::Program, cfg: &Cfg, targets: &[hir::Var]) -> Vec<hir::Expr> {
    let clause = |var: &hir::Var| match *var {
        hir::Var::Local(id) => cfg.locals[id.index()].where_clause.clone(),
        hir::Var::Global(id) => program.globals[id.index()].where_clause.clone(),
        hir::Var::Const(_) | hir::Var::Bound(_) => None,
    };
    targets.iter().filter_map(clause).collect()
}

/// Replaces the edge `latch → header` by a check that the invariants are maintained,
/// followed by `assume false`: the path ends there.
fn cut_back_edge(cfg: &mut Cfg, latch: BlockId, header: BlockId, maintained: &[Cmd], span: Span) {
    let mut cmds = maintained.to_vec();
    cmds.push(Cmd { kind: CmdKind::Assume { expr: false_expr(span), reason: AssumeReason::LoopCut }, span });
    let cut = BlockId::from_index(cfg.blocks.len());
    let latch_block = &mut cfg.blocks[latch.index()];
    let Terminator::Goto(targets) = &mut latch_block.terminator else {
        unreachable!("a latch jumps to its loop header")
    };
    if targets.as_slice() == [header] {
        latch_block.cmds.extend(cmds);
        latch_block.terminator = Terminator::Return;
        return;
    }
    let origin = Origin { path: latch_block.origin.path.clone(), starts_branch: false };
    for target in targets.iter_mut().filter(|target| **target == header) {
        *target = cut;
    }
    cfg.blocks.push(Block { cmds, terminator: Terminator::Return, origin, span });
}

fn false_expr(span: Span) -> hir::Expr {
    hir::Expr { kind: hir::ExprKind::Bool(false), ty: hir::Type::Bool, span }
}

#[cfg(test)]
mod tests {
    use super::super::loops::{depth_first, find_loops};
    use super::super::tests::{assert_outline, check_cut, check_lower, lowered};
    use super::*;

    #[test]
    fn a_while_loop_is_cut_at_its_head_and_its_back_edge() {
        let outline = check_cut(
            "procedure P(n: int) returns (i: int) {
               i := 0;
               while (i < n) invariant i >= 0; free invariant i <= n || n < 0; { i := i + 1; }
             }",
        );
        assert_outline(
            &outline,
            "
            b0 entry*: i := 0; -> b1
            b1 while#1: assert{entry 0} i >= 0; havoc i; assume{inv 0} i >= 0; assume{inv 1} i <= n || n < 0; -> b2, b3
            b2 while#1/body*: assume i < n; i := i + 1; assert{maintained 0} i >= 0; assume{cut} false; return
            b3 while#1/exit*: assume n <= i; -> b4
            b4 : return
            ",
        );
    }

    #[test]
    fn a_latch_with_other_successors_gets_a_cut_block() {
        let outline = check_cut("procedure P() { var x: int; L: assert x >= 0; x := x + 1; goto L, M; M: return; }");
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1
            b1 goto:L*: assert{entry 0} x >= 0; havoc x; assume{inv 0} x >= 0; x := x + 1; -> b3, b2
            b2 goto:M*: return
            b3 goto:L: assert{maintained 0} x >= 0; assume{cut} false; return
            ",
        );
    }

    #[test]
    fn the_leading_assumes_of_a_header_stay_in_place() {
        let outline = check_cut("procedure P() { var x: int; L: assume x > 1; assert x > 0; x := x; goto L; }");
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1
            b1 : assert{entry 0} x > 0; havoc x; assume x > 1; assume{inv 0} x > 0; x := x; \
                 assert{maintained 0} x > 0; assume{cut} false; return
            ",
        );
    }

    #[test]
    fn the_havocked_targets_get_their_where_clauses_back() {
        let outline = check_cut(
            "var g: int where g > 0; procedure P() modifies g; { var l: int where l < 0; while (*) { g := g + 1; l := l; } }",
        );
        assert!(outline.contains("havoc l, g; assume{where} l < 0; assume{where} g > 0; -> b2, b3"), "{outline}");
    }

    #[test]
    fn nested_and_goto_loops_leave_an_acyclic_graph() {
        let sources = [
            "procedure P(n: int) { var i, j: int;
               while (i < n) invariant i >= 0; { j := 0; while (j < i) invariant j >= 0; { j := j + 1; } i := i + 1; } }",
            "procedure P(n: int) { var i, j: int;
               O: assert i >= 0; goto OB, OE;
               OB: j := 0;
               I: assert j >= 0; goto IB, IE, O;
               IB: j := j + 1; goto I;
               IE: i := i + 1; goto O;
               OE: return; }",
        ];
        for source in sources {
            let (program, cfg) = lowered(source);
            assert_eq!(cfg.loops.len(), 2, "{source}");
            let cut = cut_loops(&program, &cfg);
            assert!(cut.loops.is_empty());
            assert!(depth_first(&cut).retreating.is_empty(), "{source}");
            assert!(find_loops(&program, &cut).is_ok_and(|loops| loops.is_empty()));
            let asserts = |graph: &Cfg, wanted: fn(AssertReason) -> bool| {
                let cmds = graph.blocks.iter().flat_map(|block| &block.cmds);
                cmds.filter(|cmd| matches!(cmd.kind, CmdKind::Assert { reason, .. } if wanted(reason))).count()
            };
            assert_eq!(asserts(&cut, |reason| matches!(reason, AssertReason::InvariantOnEntry { .. })), 2);
            assert!(asserts(&cut, |reason| matches!(reason, AssertReason::InvariantMaintained { .. })) >= 2);
        }
    }

    #[test]
    fn a_graph_without_loops_is_unchanged() {
        let source = "procedure P(a: int) returns (x: int) { if (a > 0) { x := 1; } }";
        assert_eq!(check_cut(source), check_lower(source));
    }
}
