//! The proof that a mutant never infects the state: the original program, guarded at
//! the mutation by a check that the mutant would compute the same there, verified.
//!
//! Input: the program's AST and text, and one of its [`Mutant`]s. Output: the guarded
//! program ([`guarded_text`], Boogie text) and whether it verifies ([`never_infects`]).
//!
//! The guard is the weak-mutation seed (seeds/001 §2.2 applied to a mutant), asked of
//! every run at once instead of one path:
//! - an expression `e` of code replaced by `e'`: `assert (e) == (e');` before the
//!   statement that evaluates it (for the guard of an `else if`, under the earlier
//!   guards false: `assert !(g1) ==> (e) == (e');`), or `invariant (e) == (e');` on the loop whose guard
//!   it is (checked at every evaluation of the guard);
//! - a deleted assignment `x, a[i] := e1, e2`: `assert x == e1 && a[i] == e2;` before
//!   it (the assignment changes nothing);
//! - a clause of a specification (a postcondition, a loop invariant, an assertion)
//!   that loses its `old`: the mutant's clause added after the original's;
//! - an argument of a call to a parameter only the callee's specifications read (a
//!   ghost: a bound passed down a recursion): the mutant itself. Verified, its call
//!   meets the callee's precondition; the callee's code computes the same whatever
//!   the argument, and its checks hold since the (unchanged) callee verifies.
//!
//! When the guarded program verifies (every implementation, loops by their invariants,
//! calls by their verified contracts: a sound proof for every run, of any length), the
//! mutant's runs are the original's step for step: before the mutation both states are
//! equal, at the mutation the guard says both compute the same (or the mutant's clause
//! holds too), so they stay equal to the end. Outcome, outputs and final globals agree,
//! whatever the number of iterations: the mutant is **equivalent**, with no unrolling
//! bound. Nothing is claimed when the mutation involves a division (the interpreter
//! stops where z3's `div` is total), when a clause is `free` (assumed, never checked,
//! so the proof would rest on it), or when the guard is not proved.

use super::operators::{divisions, Mutant, Operator};
use crate::source::Span;
use crate::syntax::ast::{self, Decl, SpecKind, StmtKind};
use crate::syntax::printer::print_type;
use std::collections::{BTreeMap, BTreeSet};

/// Why no guarded program exists for a mutant.
pub const NO_GUARD: &str = "no guard states that this mutation changes nothing";

/// The original program `source` (parsed as `program`) with the guard of `mutant`
/// (see the module header); `None` when the mutation has none.
pub fn guarded_text(program: &ast::Program, source: &str, mutant: &Mutant) -> Option<String> {
    if has_free_clause(program) || involves_division(mutant) {
        return None;
    }
    let mut edits = guard(program, source, mutant)?;
    // From the last, so each edit's offsets still point at the original text.
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.0));
    let mut guarded = source.to_string();
    for (start, end, text) in edits {
        guarded.replace_range(start..end, &text);
    }
    Some(guarded)
}

/// Whether the guarded program of `mutant` (a mutant of procedure `procedure`) verifies:
/// `Ok` proves the mutant equivalent; `Err` says why nothing is proved.
/// `original_verifies` says whether every implementation of the original verifies: the
/// guarded program differs from it only in `procedure`'s declarations, and a
/// postcondition added there only gives its callers one more proved fact, so only
/// `procedure`'s implementation is verified again.
pub fn never_infects(
    (program, source): (&ast::Program, &str),
    (mutant, procedure): (&Mutant, &str),
    session: &crate::smt::SessionOptions,
    original_verifies: &dyn Fn() -> bool,
) -> Result<(), String> {
    let guarded = guarded_text(program, source, mutant).ok_or_else(|| NO_GUARD.to_string())?;
    let (program, cfgs) = super::product::front_end(&guarded)
        .map_err(|message| format!("the guarded program does not check: {message}"))?;
    let session = limited(session);
    let mutated = cfgs.iter().filter(|cfg| cfg.name == procedure);
    if !mutated.into_iter().all(|cfg| proves_every_check(&program, cfg, &session)) {
        return Err("the guard that the mutation changes nothing is not proved".to_string());
    }
    if !original_verifies() {
        return Err("the original program does not verify, so its contracts prove nothing".to_string());
    }
    Ok(())
}

/// Whether every check of `cfg` (loops cut by their invariants) holds, asked in one
/// session in the encoding's order (as `verify` asks them: z3's nonlinear arithmetic
/// depends on that history), ending at the first check not proved.
pub(super) fn proves_every_check(
    program: &crate::sema::hir::Program,
    cfg: &crate::cfg::Cfg,
    session: &crate::smt::SessionOptions,
) -> bool {
    let acyclic = crate::cfg::cut::cut_loops(program, cfg);
    let encoding = std::sync::Arc::new(crate::vc::encode(program, &acyclic));
    let mut solver = crate::smt::Session::new(std::sync::Arc::clone(&encoding), *session);
    encoding.failure_ids().all(|id| solver.proves(id))
}

/// `session` with each check within z3's deterministic resource limit, as the product's
/// checks are ([`super::product::CHECK_RLIMIT`]): a guard the solver cannot prove
/// quickly costs little, and the same run gives the same answers.
pub(super) fn limited(session: &crate::smt::SessionOptions) -> crate::smt::SessionOptions {
    use super::product::{CHECK_RLIMIT, CHECK_TIMEOUT_MS};
    let timeout = session.timeout_ms.map_or(CHECK_TIMEOUT_MS, |timeout| timeout.min(CHECK_TIMEOUT_MS));
    crate::smt::SessionOptions { timeout_ms: Some(timeout), rlimit: Some(CHECK_RLIMIT), ..*session }
}

/// Whether every implementation of `program` verifies.
pub fn verifies(
    program: &crate::sema::hir::Program,
    cfgs: &[crate::cfg::Cfg],
    session: &crate::smt::SessionOptions,
) -> bool {
    crate::verify::verify(program, cfgs, session, crate::verify::Confirmation::Skip)
        .iter()
        .all(crate::verify::ImplementationVerdict::is_verified)
}

/// An edit of the source: the bytes `start..end` replaced by the text.
type Edit = (usize, usize, String);

/// The edits that put the guard in place.
fn guard(program: &ast::Program, source: &str, mutant: &Mutant) -> Option<Vec<Edit>> {
    let text = |span: Span| &source[span.range()];
    let within = |outer: Span| outer.start <= mutant.span.start && mutant.span.end <= outer.end;
    // The text `span` with the mutant's replacement in place of what it changes.
    let mutated = |span: Span| {
        let (start, end) = (span.start as usize, span.end as usize);
        let (from, to) = (mutant.span.start as usize, mutant.span.end as usize);
        format!("{}{}{}", &source[start..from], mutant.replacement, &source[to..end])
    };
    let insert = |at: u32, text: String| Some(vec![(at as usize, at as usize, text)]);
    let equal = || format!("({}) == ({})", text(mutant.span), mutant.replacement);
    let globals = globals(program);
    for decl in &program.decls {
        let (body, params, returns) = match decl {
            Decl::Procedure(procedure) => {
                for spec in &procedure.specs {
                    if let SpecKind::Ensures { expr, .. } = &spec.kind {
                        if within(expr.span) {
                            return insert(spec.span.end, format!("\n  ensures {};", mutated(expr.span)));
                        }
                    }
                }
                (procedure.body.as_ref(), &procedure.params, &procedure.returns)
            }
            Decl::Implementation(implementation) => {
                (Some(&implementation.body), &implementation.params, &implementation.returns)
            }
            _ => continue,
        };
        let Some(body) = body else { continue };
        let Some(stmt) = innermost(&body.stmts, &within) else { continue };
        if let StmtKind::Call(call) = &stmt.kind {
            let ghost = ghost_params(program, source);
            let at = call.args.iter().position(|arg| within(arg.span));
            if at.is_some_and(|at| ghost.contains(&(call.callee.name.clone(), at))) {
                // Only the callee's specifications read the argument: the mutant itself,
                // verified, is the guard (see the module header).
                let (start, end) = (mutant.span.start as usize, mutant.span.end as usize);
                return Some(vec![(start, end, mutant.replacement.clone())]);
            }
        }
        if is_straight(stmt) && !divides(text(stmt.span)) {
            let locals: Vec<&ast::TypedIdents> = body.locals.iter().flat_map(|var| var.groups.iter()).collect();
            let types = |name: &str| {
                locals
                    .iter()
                    .copied()
                    .chain(params)
                    .chain(returns)
                    .chain(globals.iter().copied())
                    .find(|group| group.names.iter().any(|ident| ident.name == name))
                    .map(|group| print_type(&group.ty))
            };
            let original = text(stmt.span).to_string();
            let changed = if mutant.operator == Operator::DeleteStatement { String::new() } else { mutated(stmt.span) };
            return side_by_side(body, stmt, (original, changed), &types);
        }
        return match &stmt.kind {
            _ if mutant.operator == Operator::DeleteStatement => None,
            StmtKind::If { branches, .. } => {
                // A guard of an `else if` is evaluated only where the earlier ones are false.
                let earlier: Vec<String> = branches
                    .iter()
                    .take_while(|branch| !within(branch.span) || !guard_within(&branch.guard, &within))
                    .map(|branch| match &branch.guard {
                        ast::Guard::Expr(guard) => format!("!({}) ==> ", text(guard.span)),
                        ast::Guard::Star(_) => String::new(),
                    })
                    .collect();
                insert(stmt.span.start, format!("assert {}({});\n  ", earlier.concat(), equal()))
            }
            StmtKind::Assign { .. } | StmtKind::Call(_) => insert(stmt.span.start, format!("assert {};\n  ", equal())),
            StmtKind::While { invariants, body, .. } => {
                match invariants.iter().find(|invariant| within(invariant.span)) {
                    Some(invariant) => {
                        insert(invariant.span.end, format!("\n    invariant {};", mutated(invariant.expr.span)))
                    }
                    None => insert(body.span.start, format!("invariant {};\n  ", equal())),
                }
            }
            _ => None,
        };
    }
    None
}

/// Whether `guard` is an expression whose text holds what `within` accepts.
fn guard_within(guard: &ast::Guard, within: &dyn Fn(Span) -> bool) -> bool {
    matches!(guard, ast::Guard::Expr(expr) if within(expr.span))
}

/// The in-parameters of each procedure that only its specifications read: no
/// expression of its code (assignments, guards, `assume`s, arguments of calls but
/// those to such parameters) mentions them, in any of its implementations. A procedure
/// without a body has none. Found by a fixpoint from "every in-parameter"; a mention
/// is any occurrence of the name as a word of the code's text (a bound variable of the
/// same name counts too, which only loses ghosts).
fn ghost_params(program: &ast::Program, source: &str) -> BTreeSet<(String, usize)> {
    let mut bodies: BTreeMap<&str, Vec<(&[ast::TypedIdents], &ast::Body)>> = BTreeMap::new();
    let mut declared: BTreeMap<&str, &[ast::TypedIdents]> = BTreeMap::new();
    for decl in &program.decls {
        match decl {
            Decl::Procedure(procedure) => {
                declared.insert(&procedure.name.name, &procedure.params);
                if let Some(body) = &procedure.body {
                    bodies.entry(&procedure.name.name).or_default().push((&procedure.params, body));
                }
            }
            Decl::Implementation(implementation) => {
                bodies
                    .entry(&implementation.name.name)
                    .or_default()
                    .push((&implementation.params, &implementation.body));
            }
            _ => {}
        }
    }
    let names = |params: &[ast::TypedIdents]| -> Vec<String> {
        params.iter().flat_map(|group| group.names.iter().map(|ident| ident.name.clone())).collect()
    };
    let mut ghost: BTreeSet<(String, usize)> = BTreeSet::new();
    for (name, params) in &declared {
        if bodies.contains_key(name) {
            ghost.extend((0..names(params).len()).map(|index| (name.to_string(), index)));
        }
    }
    loop {
        let mut dropped = Vec::new();
        for ((name, index), implementations) in ghost.iter().filter_map(|key| Some((key, bodies.get(key.0.as_str())?)))
        {
            let read = implementations.iter().any(|(params, body)| {
                let Some(param) = names(params).into_iter().nth(*index) else { return true };
                let mut code = Vec::new();
                code_text(&body.stmts, source, &ghost, &mut code);
                code.iter().any(|text| mentions(text, &param))
            });
            if read {
                dropped.push((name.clone(), *index));
            }
        }
        if dropped.is_empty() {
            return ghost;
        }
        for key in dropped {
            ghost.remove(&key);
        }
    }
}

/// The text of every expression of code in `stmts` (see [`ghost_params`]).
fn code_text<'a>(stmts: &[ast::Stmt], source: &'a str, ghost: &BTreeSet<(String, usize)>, code: &mut Vec<&'a str>) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Assign { .. } | StmtKind::Assume { .. } | StmtKind::Par { .. } => {
                code.push(&source[stmt.span.range()]);
            }
            StmtKind::Call(call) => {
                for (index, arg) in call.args.iter().enumerate() {
                    if !ghost.contains(&(call.callee.name.clone(), index)) {
                        code.push(&source[arg.span.range()]);
                    }
                }
            }
            StmtKind::Block(block) => code_text(&block.stmts, source, ghost, code),
            StmtKind::If { branches, else_block } => {
                for branch in branches {
                    if let ast::Guard::Expr(guard) = &branch.guard {
                        code.push(&source[guard.span.range()]);
                    }
                    code_text(&branch.block.stmts, source, ghost, code);
                }
                if let Some(block) = else_block {
                    code_text(&block.stmts, source, ghost, code);
                }
            }
            StmtKind::While { guard, body, .. } => {
                if let ast::Guard::Expr(guard) = guard {
                    code.push(&source[guard.span.range()]);
                }
                code_text(&body.stmts, source, ghost, code);
            }
            _ => {}
        }
    }
}

/// Whether `text` has `name` as a whole word (Boogie's identifier characters around
/// it count as part of the word).
fn mentions(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || "_$.'#?^~`".contains(c);
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = text[at + name.len()..].chars().next().is_none_or(|c| !is_ident(c));
        before && after
    })
}

/// The global variables of `program`, in groups.
fn globals(program: &ast::Program) -> Vec<&ast::TypedIdents> {
    let vars = program.decls.iter().filter_map(|decl| match decl {
        Decl::Var(var) => Some(var),
        _ => None,
    });
    vars.flat_map(|var| var.groups.iter()).collect()
}

/// Whether `stmt` is straight-line code with branches: assignments, assertions and
/// `if`s with expression guards, no loop, call, `assume`, `havoc` or jump. Such a
/// statement is deterministic, changes only the variables it assigns, and stops a run
/// only by a failed assertion.
fn is_straight(stmt: &ast::Stmt) -> bool {
    match &stmt.kind {
        StmtKind::Assign { .. } | StmtKind::Assert { .. } => true,
        StmtKind::If { branches, else_block } => {
            let straight = |block: &ast::Block| block.stmts.iter().all(is_straight);
            branches.iter().all(|branch| matches!(branch.guard, ast::Guard::Expr(_)) && straight(&branch.block))
                && else_block.as_ref().is_none_or(straight)
        }
        _ => false,
    }
}

/// The variables `stmt` (straight, [`is_straight`]) assigns, in order, once each.
fn assigned(stmt: &ast::Stmt, names: &mut Vec<String>) {
    match &stmt.kind {
        StmtKind::Assign { lhs, .. } => {
            for target in lhs {
                if !names.contains(&target.name.name) {
                    names.push(target.name.name.clone());
                }
            }
        }
        StmtKind::If { branches, else_block } => {
            for stmt in branches.iter().map(|branch| &branch.block).chain(else_block).flat_map(|block| &block.stmts) {
                assigned(stmt, names);
            }
        }
        _ => {}
    }
}

/// The statement product of a straight statement (see [`is_straight`]): the mutant's
/// statement `changed` run first from the state before `stmt`, its results saved, the
/// state restored, the original `stmt` run, and an assertion that both left every
/// variable they assign equal. `types` gives a variable's type by name.
fn side_by_side(
    body: &ast::Body,
    stmt: &ast::Stmt,
    (original, changed): (String, String),
    types: &dyn Fn(&str) -> Option<String>,
) -> Option<Vec<Edit>> {
    let mut names = Vec::new();
    assigned(stmt, &mut names);
    let typed: Vec<(String, String)> =
        names.into_iter().map(|name| Some((name.clone(), types(&name)?))).collect::<Option<_>>()?;
    let Snapshot { declarations, save, keep, restore, equal } = Snapshot::of(&typed);
    let product = format!("{save}\n  {changed}\n  {keep}\n  {restore}\n  {original}\n  assert {equal};");
    // The body's text starts at its `{`: the declarations go right after it.
    let open = body.span.start as usize + 1;
    Some(vec![(open, open, declarations), (stmt.span.start as usize, stmt.span.end as usize, product)])
}

/// The statements of a statement product over variables (name, type): each saved to
/// `x$before` before the mutant's version runs, its result kept in `x$mutant`, restored
/// before the original's version runs, and compared after it.
pub(super) struct Snapshot {
    /// The two copies' declarations, each on a line of its own.
    pub declarations: String,
    pub save: String,
    pub keep: String,
    pub restore: String,
    /// Every variable equal to its kept copy (`true` when there are none).
    pub equal: String,
}

impl Snapshot {
    pub(super) fn of(typed: &[(String, String)]) -> Snapshot {
        let mut declarations = String::new();
        let (mut save, mut keep, mut restore, mut equal) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (name, ty) in typed {
            declarations.push_str(&format!("\n  var {name}$before: {ty};\n  var {name}$mutant: {ty};"));
            save.push(format!("{name}$before := {name};"));
            keep.push(format!("{name}$mutant := {name};"));
            restore.push(format!("{name} := {name}$before;"));
            equal.push(format!("{name} == {name}$mutant"));
        }
        let equal = if equal.is_empty() { "true".to_string() } else { equal.join(" && ") };
        Snapshot { declarations, save: save.join(" "), keep: keep.join(" "), restore: restore.join(" "), equal }
    }
}

/// The innermost statement of `stmts` (nested ones included) whose own text, not that
/// of a statement inside it, contains what `within` accepts.
fn innermost<'a>(stmts: &'a [ast::Stmt], within: &dyn Fn(Span) -> bool) -> Option<&'a ast::Stmt> {
    let stmt = stmts.iter().find(|stmt| within(stmt.span))?;
    let inner = match &stmt.kind {
        StmtKind::Block(block) => innermost(&block.stmts, within),
        StmtKind::If { branches, else_block } => branches
            .iter()
            .map(|branch| &branch.block)
            .chain(else_block)
            .find_map(|block| innermost(&block.stmts, within)),
        StmtKind::While { body, .. } => innermost(&body.stmts, within),
        _ => None,
    };
    inner.or(Some(stmt))
}

/// Whether the mutation writes or removes a division or a remainder by anything but a
/// nonzero literal (`x div 1` never stops a run).
fn involves_division(mutant: &Mutant) -> bool {
    let by_literal = |text: &str| {
        let divisor = text.rsplit_once(" div ").or_else(|| text.rsplit_once(" mod ")).map(|(_, divisor)| divisor);
        divisor.and_then(|divisor| divisor.trim().parse::<u64>().ok()).is_some_and(|divisor| divisor != 0)
    };
    let unsafe_division = |text: &str| {
        let count = divisions(text);
        count > 1 || (count == 1 && !by_literal(text))
    };
    unsafe_division(&mutant.original) || unsafe_division(&mutant.replacement)
}

/// Whether `text` divides (the interpreter stops at a division by zero, z3's division
/// is total): a statement that divides is not run on the mutant's path too.
fn divides(text: &str) -> bool {
    divisions(text) > 0
}

/// Whether some clause of `program` is assumed without being checked: a `free`
/// precondition, postcondition or invariant, or a `free call`.
pub(super) fn has_free_clause(program: &ast::Program) -> bool {
    program.decls.iter().any(|decl| {
        let (specs, body): (&[ast::Spec], Option<&ast::Body>) = match decl {
            Decl::Procedure(procedure) => (&procedure.specs, procedure.body.as_ref()),
            Decl::Implementation(implementation) => (&[], Some(&implementation.body)),
            _ => return false,
        };
        let free_spec = specs.iter().any(|spec| match &spec.kind {
            SpecKind::Requires { free, .. } | SpecKind::Ensures { free, .. } => *free,
            SpecKind::Modifies { .. } => false,
        });
        free_spec || body.is_some_and(|body| has_free_stmt(&body.stmts))
    })
}

fn has_free_stmt(stmts: &[ast::Stmt]) -> bool {
    stmts.iter().any(|stmt| match &stmt.kind {
        StmtKind::Call(call) => call.free,
        StmtKind::Block(block) => has_free_stmt(&block.stmts),
        StmtKind::If { branches, else_block } => {
            branches.iter().any(|branch| has_free_stmt(&branch.block.stmts))
                || else_block.as_ref().is_some_and(|block| has_free_stmt(&block.stmts))
        }
        StmtKind::While { invariants, body, .. } => {
            invariants.iter().any(|invariant| invariant.free) || has_free_stmt(&body.stmts)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::operators;
    use crate::smt::SessionOptions;
    use crate::source::FileId;

    /// Whether the mutant `original → replacement` of `source` is proved never to infect.
    fn proved(source: &str, original: &str, replacement: &str) -> Result<(), String> {
        let (ast, mutant) = operators::parsed_mutant(source, original, replacement);
        never_infects((&ast, source), (&mutant, "Max"), &SessionOptions::default(), &|| true)
    }

    const MAX: &str = "procedure Max(a: [int]int, n: int) returns (m: int)\n  requires n >= 1;\n  \
                       ensures (forall k: int :: 0 <= k && k < n ==> a[k] <= m);\n{\n  var i: int;\n  \
                       m := a[0];\n  i := 1;\n  while (i < n)\n    invariant 1 <= i && i <= n;\n    \
                       invariant (forall k: int :: 0 <= k && k < i ==> a[k] <= m);\n  {\n    \
                       if (a[i] > m) {\n      m := a[i];\n    }\n    i := i + 1;\n  }\n}\n";

    #[test]
    fn a_boundary_mutant_that_writes_the_same_value_is_proved_for_every_run() {
        proved(MAX, "a[i] > m", "a[i] >= m").expect("writing m where a[i] == m changes nothing");
        assert!(proved(MAX, "a[i] > m", "a[i] < m").is_err());
        // The loop runs while i < n; with i <= n, i != n is the same guard.
        proved(MAX, "i < n", "i != n").expect("the invariant bounds i by n");
        assert!(proved(MAX, "i < n", "i <= n").is_err());
    }

    #[test]
    fn the_guard_of_an_else_if_is_compared_where_the_earlier_guards_are_false() {
        let source = "procedure Id(x: int) returns (r: int)\n  ensures r == x;\n{\n  r := x;\n}\n\
                      procedure Max(a: int, b: int) returns (m: int)\n{\n  if (a == b) {\n    m := a;\n  \
                      } else if (a > b) {\n    call m := Id(a);\n  } else {\n    call m := Id(b);\n  }\n}\n";
        proved(source, "a > b", "a >= b").expect("a >= b is a > b where a != b");
        assert!(proved(source, "a > b", "a < b").is_err());
    }

    #[test]
    fn an_argument_only_the_callee_contract_reads_may_change_within_it() {
        let source = "procedure Q(x: int, bound: int) returns (r: int)\n  requires x <= bound;\n  \
                      ensures r <= bound + 1;\n{\n  r := x + 1;\n}\n\
                      procedure Max(x: int) returns (r: int)\n  requires x <= 10;\n{\n  call r := Q(x, 10);\n}\n";
        proved(source, "10", "11").expect("Q's code never reads its bound, and x <= 11 holds");
        assert!(proved(source, "10", "9").is_err(), "x <= 9 is not proved");
    }

    #[test]
    fn deletions_and_old_removals_are_guarded_by_what_they_leave_unchanged() {
        let source = "var g: int;\nprocedure P(x: int) returns (r: int)\n  modifies g;\n  \
                      ensures g == old(g) + 0;\n{\n  r := x;\n  r := x;\n  g := g;\n}\n";
        let (ast, _) = crate::syntax::parse(FileId(0), source);
        let mutants = operators::mutants(&ast, source);
        let removal = mutants.iter().find(|mutant| mutant.operator == Operator::RemoveOld).expect("old removal");
        let text = guarded_text(&ast, source, removal).expect("a guard");
        assert!(text.contains("ensures g == old(g) + 0;\n  ensures g == g + 0;"), "{text}");
        let check =
            |mutant: &Mutant| never_infects((&ast, source), (mutant, "P"), &SessionOptions::default(), &|| true);
        check(removal).expect("g == g + 0 always holds");
        let deletion = mutants.iter().find(|mutant| mutant.original == "g := g;").expect("a deletion");
        check(deletion).expect("g := g changes nothing");
        let division = "procedure Max(x: int, y: int) returns (r: int) { r := x * y; r := x * 1; }";
        assert_eq!(proved(division, "x * y", "x div y"), Err(NO_GUARD.to_string()));
        proved(division, "x * 1", "x div 1").expect("x div 1 is x, and 1 is no zero");
    }
}
