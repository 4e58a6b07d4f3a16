//! The proofs that a mutant's run, once it leaves the original's, comes back to it:
//! equivalent mutants whose states differ from the original's for a while, which the
//! guard ([`super::infection`], the same state at once) cannot prove.
//!
//! Input: the program's AST and text, and one of its [`Mutant`]s. Output: Boogie
//! programs ([`rejoined_texts`], the first that verifies is the proof; `seedgen seed
//! --mutant ID --rejoined` prints it) and whether one verifies ([`rejoins`]). Two
//! shapes, both the original program with one procedure or one block added:
//!
//! - **A branch taken the other way** (a mutated guard of an `if` whose branches call
//!   procedures): before the `if`, on the states where the mutant's guard differs from
//!   the original's (the earlier branches' guards false), both versions of the `if` run
//!   side by side from the same state and every variable is compared after them. A
//!   call there goes to `Q$once`, a copy of the callee `Q` inlined one level with each
//!   call of its body replaced by `assert false;`, so the proof sees what the callee
//!   does (`call QuickSortStep(1, 1, ..)` changes nothing), needs no deeper call, and,
//!   the callee having no loop, the mutant's branch ends. Where the guards agree both
//!   runs take the same branch from the same state. So the mutant's state equals the
//!   original's after the `if`, and its runs are the original's.
//! - **A loop that lags** (a mutated assignment `x := e` in the body of a loop whose
//!   body has no loop, `x` an integer): a procedure `P$rejoin` checks one step of a
//!   relational loop invariant `R(o, m)` between a state `o` of the original and `m`
//!   of the mutant at the loop head: both satisfy the loop's invariants (the mutant's
//!   are its own checks, asserted after its step, and give facts the original's alone
//!   lack), every variable but `x` is equal, and the mutant's `x` is at most (at least)
//!   the original's, or also equal wherever the original's guard holds (the mutant
//!   runs a few iterations alone after the original left the loop). From a related
//!   pair, with the original's guard true, the mutant's is true, and after one mutant
//!   iteration either the original's next state and the mutant's are related again
//!   (*lockstep*), or the mutant's is related to the original's current state and
//!   `|x_m - x_o|` decreased (the mutant *catches up*, the original waits); with the
//!   original's guard false, both states are equal or the mutant catches up. Equal
//!   states are related, so by induction over the original's iterations the mutant's
//!   run visits the original's loop-head states in order, finitely many extra
//!   iterations between two (the distance decreases), and leaves the loop in the
//!   original's final state: a deleted `i := i + 1` that costs one more iteration,
//!   `i := i mod 1` that walks back over a prefix it knows, a deleted `high := mid + 1`
//!   whose bisection goes on to the same root. Locals of a loop not nested in another
//!   that neither its guard, its invariants nor the code after it mention are left out
//!   of the relation (each step is proved for every value of theirs; nobody reads them
//!   after the loop).
//!
//! Both rest on the original's contracts and loop invariants, so the original must
//! verify. Nothing is claimed when a clause is `free`, when the mutated procedure's
//! loop body or a callee run on the mutant's states divides by anything but a nonzero
//! literal (the interpreter stops at a division by zero, z3's division is total), or
//! stops a run by `assume`, or jumps (`goto`, `break`, `return`); a callee run on the
//! mutant's states must have no loop and no recursion, so it ends. Each program is
//! verified as `verify` does (loops cut by their invariants, calls by their contracts,
//! the `Q$once` copies inlined), within the guard's resource limit: an exact proof for
//! runs of any length, no unrolling bound. Boogie 2.4.1 checks it (`boogie
//! /useArrayTheory`, its default `/inline:assume` inlines the `{:inline 1}` copies and
//! verifies every other implementation).

use super::operators::{divisions, Change, Mutant};
use crate::source::Span;
use crate::syntax::ast::{self, Decl, SpecKind, StmtKind};
use crate::syntax::printer::print_type;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Why no program states that the mutant's run rejoins the original's.
pub const NO_REJOIN: &str = "no relational proof applies to this mutation";

/// One candidate proof: a program, and the procedure of it that must verify.
#[derive(Clone, Debug)]
pub struct Rejoined {
    pub text: String,
    checked: String,
}

/// The candidate proofs of `mutant` (see the module header), in the order they are
/// tried; empty when no shape applies.
pub fn rejoined_texts(program: &ast::Program, source: &str, mutant: &Mutant) -> Vec<Rejoined> {
    if super::infection::has_free_clause(program) {
        return Vec::new();
    }
    let Some(site) = Site::find(program, source, mutant) else { return Vec::new() };
    let name = &site.procedure.name.name;
    let mut texts: Vec<Rejoined> =
        branch_product(&site).map(|text| Rejoined { text, checked: name.clone() }).into_iter().collect();
    let checked = format!("{name}{REJOIN}");
    texts.extend(lagging_loop(&site).into_iter().map(|text| Rejoined { text, checked: checked.clone() }));
    texts
}

/// Which program of [`rejoined_texts`] verifies for `mutant`: `Ok` with its index
/// proves the mutant equivalent; `Err` says why nothing is proved.
/// `original_verifies` says whether every implementation of the original verifies: the
/// proof programs add to it only the procedure checked, or change only that procedure
/// by a block that restores the state it found, so that procedure alone is verified.
pub fn rejoins(
    (program, source): (&ast::Program, &str),
    mutant: &Mutant,
    session: &crate::smt::SessionOptions,
    original_verifies: &dyn Fn() -> bool,
) -> Result<usize, String> {
    let texts = rejoined_texts(program, source, mutant);
    if texts.is_empty() {
        return Err(NO_REJOIN.to_string());
    }
    let session = super::infection::limited(session);
    let Some(index) = texts.iter().position(|rejoined| verifies(rejoined, &session)) else {
        return Err("the relational proof that the mutant's run rejoins the original's is not proved".to_string());
    };
    if !original_verifies() {
        return Err("the original program does not verify, so its contracts prove nothing".to_string());
    }
    Ok(index)
}

/// Whether the checked procedure of `rejoined` verifies, the `$once` copies inlined
/// where it calls them, every other call by its contract.
fn verifies(rejoined: &Rejoined, session: &crate::smt::SessionOptions) -> bool {
    let Ok((program, cfgs)) = super::product::front_end(&rejoined.text) else { return false };
    let once: Vec<crate::cfg::Cfg> = cfgs.iter().filter(|cfg| cfg.name.ends_with(ONCE)).cloned().collect();
    let mut checked = cfgs.iter().filter(|cfg| cfg.name == rejoined.checked).peekable();
    checked.peek().is_some()
        && checked.all(|cfg| {
            let inlined = crate::cfg::inline::inline_calls(&program, &once, cfg, 1);
            super::infection::proves_every_check(&program, &inlined, session)
        })
}

const ONCE: &str = "$once";
const REJOIN: &str = "$rejoin";

/// Where the mutation is: its procedure (with a body), the statements around it.
struct Site<'a> {
    source: &'a str,
    program: &'a ast::Program,
    mutant: &'a Mutant,
    procedure: &'a ast::ProcedureDecl,
    body: &'a ast::Body,
    /// The statements from the body's to the innermost one containing the mutation.
    path: Vec<&'a ast::Stmt>,
}

impl<'a> Site<'a> {
    fn find(program: &'a ast::Program, source: &'a str, mutant: &'a Mutant) -> Option<Site<'a>> {
        let procedure = program.decls.iter().find_map(|decl| match decl {
            Decl::Procedure(procedure) if procedure.span.contains(mutant.span) && procedure.type_params.is_empty() => {
                Some(procedure)
            }
            _ => None,
        })?;
        let body = procedure.body.as_ref()?;
        let mut path = Vec::new();
        let mut stmts = &body.stmts;
        while let Some(stmt) = stmts.iter().find(|stmt| stmt.span.contains(mutant.span)) {
            path.push(stmt);
            stmts = match &stmt.kind {
                StmtKind::Block(block) => &block.stmts,
                StmtKind::While { body, .. } => &body.stmts,
                StmtKind::If { branches, else_block } => {
                    match branches
                        .iter()
                        .map(|branch| &branch.block)
                        .chain(else_block)
                        .find(|block| block.span.contains(mutant.span))
                    {
                        Some(block) => &block.stmts,
                        None => break,
                    }
                }
                _ => break,
            };
        }
        (!path.is_empty()).then_some(Site { source, program, mutant, procedure, body, path })
    }

    fn text(&self, span: Span) -> &'a str {
        &self.source[span.range()]
    }

    /// The text `span` with the mutation applied (a deleted statement leaves nothing).
    fn mutated(&self, span: Span) -> String {
        let (start, end) = (span.start as usize, span.end as usize);
        let (from, to) = (self.mutant.span.start as usize, self.mutant.span.end as usize);
        let replacement = if self.mutant.change == Change::Delete { "" } else { self.mutant.replacement.as_str() };
        format!("{}{}{}", &self.source[start..from], replacement, &self.source[to..end])
    }

    /// The procedure's state: its locals, out-parameters and the globals it modifies,
    /// each with its type printed; `None` when a modified name is no global.
    fn state(&self) -> Option<Vec<(String, String)>> {
        let mut state = Vec::new();
        let groups = self.body.locals.iter().flat_map(|var| var.groups.iter()).chain(&self.procedure.returns);
        for group in groups {
            state.extend(group.names.iter().map(|name| (name.name.clone(), print_type(&group.ty))));
        }
        let globals: Vec<&ast::TypedIdents> = self
            .program
            .decls
            .iter()
            .filter_map(|decl| match decl {
                Decl::Var(var) => Some(var.groups.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        for name in self.modifies() {
            let group = globals.iter().find(|group| group.names.iter().any(|ident| ident.name == name))?;
            state.push((name, print_type(&group.ty)));
        }
        Some(state)
    }

    fn modifies(&self) -> Vec<String> {
        modifies_of(self.procedure)
    }
}

fn modifies_of(procedure: &ast::ProcedureDecl) -> Vec<String> {
    let mut names = Vec::new();
    for spec in &procedure.specs {
        if let SpecKind::Modifies { names: modified } = &spec.kind {
            names.extend(modified.iter().map(|name| name.name.clone()));
        }
    }
    names
}

/// The procedure named `name` with a body.
fn procedure_named<'a>(program: &'a ast::Program, name: &str) -> Option<&'a ast::ProcedureDecl> {
    program.decls.iter().find_map(|decl| match decl {
        Decl::Procedure(procedure) if procedure.name.name == name => Some(procedure),
        _ => None,
    })
}

/// The branch product (see the module header) of a mutated `if` guard.
fn branch_product(site: &Site) -> Option<String> {
    let stmt = *site.path.last()?;
    let StmtKind::If { branches, .. } = &stmt.kind else { return None };
    let at = branches.iter().position(|branch| match &branch.guard {
        ast::Guard::Expr(expr) => expr.span.contains(site.mutant.span),
        ast::Guard::Star(_) => false,
    })?;
    let guard = |index: usize| match &branches[index].guard {
        ast::Guard::Expr(expr) => Some(expr.span),
        ast::Guard::Star(_) => None,
    };
    let mut callees = BTreeSet::new();
    calls_in(std::slice::from_ref(stmt), &mut callees);
    if callees.is_empty() || !safe_code(site.text(stmt.span)) || !safe_code(&site.mutated(stmt.span)) {
        // Without a call the guard's statement product decides already.
        return None;
    }
    let mut copies = String::new();
    for callee in &callees {
        copies.push_str(&once_copy(site, callee)?);
    }
    let mut condition = Vec::new();
    for earlier in 0..at {
        condition.push(format!("!({})", site.text(guard(earlier)?)));
    }
    let mutated_guard = guard(at)?;
    condition.push(format!("(({}) != ({}))", site.text(mutated_guard), site.mutated(mutated_guard)));
    let state = site.state()?;
    let renamed = |text: String| once_calls(&text, &callees);
    let super::infection::Snapshot { declarations, save, keep, restore, equal } =
        super::infection::Snapshot::of(&state);
    let block = format!(
        "if ({}) {{\n    {save}\n    {}\n    {keep}\n    {restore}\n    {}\n    assert {equal};\n    {restore}\n  }}\n  ",
        condition.join(" && "),
        renamed(site.mutated(stmt.span)),
        renamed(site.text(stmt.span).to_string()),
    );
    let open = site.body.span.start as usize + 1;
    let at = stmt.span.start as usize;
    let source = site.source;
    Some(format!("{}{declarations}{}{block}{}\n{copies}", &source[..open], &source[open..at], &source[at..]))
}

/// `text` with each call of a procedure in `callees` (its name as a whole word after
/// `call` or `:=`, before `(`) calling its `$once` copy.
fn once_calls(text: &str, callees: &BTreeSet<String>) -> String {
    let mut renamed = text.to_string();
    for callee in callees {
        let mut out = String::new();
        let mut rest = renamed.as_str();
        while let Some(at) = rest.find(callee.as_str()) {
            let before = rest[..at].trim_end();
            let whole = rest[..at].chars().next_back().is_none_or(|c| !is_ident_char(c))
                && rest[at + callee.len()..].chars().next().is_none_or(|c| !is_ident_char(c));
            let called = rest[at + callee.len()..].trim_start().starts_with('(')
                && (before.ends_with(":=") || before.ends_with("call"));
            out.push_str(&rest[..at + callee.len()]);
            if whole && called {
                out.push_str(ONCE);
            }
            rest = &rest[at + callee.len()..];
        }
        out.push_str(rest);
        renamed = out;
    }
    renamed
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || "_$.'#?^~`".contains(c)
}

/// `Q$once`: procedure `name`'s contract without postconditions and its body with each
/// call replaced by `assert false;`, inlined one level; `None` when it has no body, a
/// loop, a jump, an `assume` or an unsafe division.
fn once_copy(site: &Site, name: &str) -> Option<String> {
    let procedure = procedure_named(site.program, name)?;
    let body = procedure.body.as_ref()?;
    if !procedure.type_params.is_empty() || !loop_free(&body.stmts) || !safe_code(site.text(body.span)) {
        return None;
    }
    let mut calls = Vec::new();
    call_spans(&body.stmts, &mut calls);
    let mut text = site.text(body.span).to_string();
    let base = body.span.start as usize;
    for span in calls.iter().rev() {
        let (start, end) = (span.start as usize - base, span.end as usize - base);
        text.replace_range(start..end, "assert false;");
    }
    let params = |groups: &[ast::TypedIdents]| {
        groups
            .iter()
            .flat_map(|group| group.names.iter().map(move |name| format!("{}: {}", name.name, print_type(&group.ty))))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut copy = format!("procedure {{:inline 1}} {name}{ONCE}({})", params(&procedure.params));
    if !procedure.returns.is_empty() {
        write!(copy, " returns ({})", params(&procedure.returns)).expect("a string");
    }
    for spec in &procedure.specs {
        match &spec.kind {
            SpecKind::Requires { .. } | SpecKind::Modifies { .. } => {
                write!(copy, "\n  {}", site.text(spec.span)).expect("a string");
            }
            SpecKind::Ensures { .. } => {}
        }
    }
    write!(copy, "\n{text}\n").expect("a string");
    Some(copy)
}

/// The lagging-loop checks (see the module header) of a mutated assignment in a loop:
/// `x` of the mutant at most, then at least the original's; each as is, then with the
/// two allowed to differ only once the original has left the loop (the mutant runs a
/// few more iterations alone, a deleted `high := mid + 1` after an exact hit).
fn lagging_loop(site: &Site) -> Vec<String> {
    let Some(text) = lagging_parts(site) else { return Vec::new() };
    let mut texts = Vec::new();
    for after_exit in [false, true] {
        for direction in ["<=", ">="] {
            texts.push(text(Lag { direction, after_exit }));
        }
    }
    texts
}

/// How the mutant's lagging variable relates to the original's.
#[derive(Clone, Copy)]
struct Lag {
    /// `<=` or `>=`: the mutant's value against the original's.
    direction: &'static str,
    /// The two differ only where the original's guard is false.
    after_exit: bool,
}

/// The `P$rejoin` procedure's program, given how the lagging variable relates.
fn lagging_parts<'a>(site: &'a Site) -> Option<impl Fn(Lag) -> String + 'a> {
    let stmt = *site.path.last()?;
    let StmtKind::Assign { lhs, .. } = &stmt.kind else { return None };
    let [target] = lhs.as_slice() else { return None };
    if !target.indices.is_empty() {
        return None;
    }
    let lag = target.name.name.clone();
    let (at, _) = site.path.iter().enumerate().rev().find(|(_, stmt)| matches!(stmt.kind, StmtKind::While { .. }))?;
    let the_loop = site.path[at];
    let StmtKind::While { guard: ast::Guard::Expr(guard), invariants, body } = &the_loop.kind else { return None };
    let body_text = site.text(body.span);
    if !loop_free(&body.stmts) || !safe_code(body_text) || !safe_code(&site.mutated(body.span)) {
        return None;
    }
    let mut callees = BTreeSet::new();
    calls_in(&body.stmts, &mut callees);
    if !ends(site.program, &callees) {
        return None;
    }
    let mut state = site.state()?;
    if state.iter().find(|(name, _)| *name == lag).is_none_or(|(_, ty)| ty != "int") {
        return None;
    }
    let nested = site.path[..at].iter().any(|stmt| matches!(stmt.kind, StmtKind::While { .. }));
    if !nested {
        let dead = |name: &str| name != lag && dead_at_head(site, the_loop, name);
        state.retain(|(name, _)| !dead(name));
    }
    let invariant: Vec<String> =
        invariants.iter().map(|invariant| format!("({})", site.text(invariant.expr.span))).collect();
    let invariant = if invariant.is_empty() { "true".to_string() } else { invariant.join(" && ") };
    let guard = site.text(guard.span).to_string();
    let original = body_text.to_string();
    let mutated = site.mutated(body.span);
    Some(move |how: Lag| {
        let list = |items: Vec<String>, join: &str| {
            if items.is_empty() {
                "true".to_string()
            } else {
                items.join(join)
            }
        };
        // `mutant` and `original` are the two states' suffixes, `running` the flag of
        // the original's guard in its state.
        let relation = |mutant: &str, original: &str, running: &str| {
            let related = state.iter().map(|(name, _)| {
                if *name != lag {
                    return format!("{name}{mutant} == {name}{original}");
                }
                let direction = how.direction;
                let ordered = format!("{name}{mutant} {direction} {name}{original}");
                match how.after_exit {
                    true => format!("{ordered} && ({name}{mutant} == {name}{original} || !{running})"),
                    false => ordered,
                }
            });
            format!("({})", list(related.collect(), " && "))
        };
        let distance = |mutant: &str, original: &str| match how.direction {
            "<=" => format!("({lag}{original} - {lag}{mutant})"),
            _ => format!("({lag}{mutant} - {lag}{original})"),
        };
        let copy = |to: &str, from: &str| {
            list(state.iter().map(|(name, _)| format!("{name}{to} := {name}{from};")).collect(), " ")
        };
        let names: Vec<&str> = state.iter().map(|(name, _)| name.as_str()).collect();
        let havoc = if names.is_empty() { String::new() } else { format!("havoc {};", names.join(", ")) };
        let mut text = rejoin_header(site);
        let declared = site.body.locals.iter().flat_map(|var| &var.groups).chain(&site.procedure.returns);
        for group in declared {
            for name in &group.names {
                writeln!(text, "  var {}: {};", name.name, print_type(&group.ty)).expect("a string");
            }
        }
        for (name, ty) in &state {
            for suffix in ["$o", "$o1", "$m", "$m1"] {
                writeln!(text, "  var {name}{suffix}: {ty};").expect("a string");
            }
        }
        let stutter =
            format!("{} && {} < {}", relation("$m1", "$o", "go$rejoin"), distance("$m1", "$o"), distance("$m", "$o"));
        let equal = list(state.iter().map(|(name, _)| format!("{name}$m == {name}$o")).collect(), " && ");
        write!(
            text,
            "  var go$rejoin, go1$rejoin, gm$rejoin: bool;\n\
             \x20 // o: any state of the original at the loop head.\n\
             \x20 {havoc}\n  assume {invariant};\n  go$rejoin := {guard};\n  {}\n\
             \x20 // m: a state of the mutant related to it.\n\
             \x20 {havoc}\n  assume {invariant};\n  assume {};\n  gm$rejoin := {guard};\n  {}\n\
             \x20 if (gm$rejoin) {mutated}\n  assert {invariant};\n  {}\n\
             \x20 {}\n  if (go$rejoin) {original}\n  go1$rejoin := {guard};\n  {}\n\
             \x20 assert go$rejoin ==> gm$rejoin;\n\
             \x20 assert !go$rejoin && !gm$rejoin ==> {equal};\n\
             \x20 assert go$rejoin && gm$rejoin ==> {} || ({stutter});\n\
             \x20 assert !go$rejoin && gm$rejoin ==> {stutter};\n}}\n",
            copy("$o", ""),
            relation("", "$o", "go$rejoin"),
            copy("$m", ""),
            copy("$m1", ""),
            copy("", "$o"),
            copy("$o1", ""),
            relation("$m1", "$o1", "go1$rejoin"),
        )
        .expect("a string");
        format!("{}\n{text}", site.source)
    })
}

/// Whether local `name` of the site's procedure holds no value anyone reads at the head
/// of `the_loop` (a loop of the body's, not nested in another): the loop's guard and
/// invariants do not mention it, the loop body's first top-level statement that does
/// assigns it from an expression without it, and no text after the loop mentions it.
fn dead_at_head(site: &Site, the_loop: &ast::Stmt, name: &str) -> bool {
    let StmtKind::While { guard, invariants, body } = &the_loop.kind else { return false };
    let is_local = site
        .body
        .locals
        .iter()
        .flat_map(|var| &var.groups)
        .any(|group| group.names.iter().any(|ident| ident.name == name));
    let guard_mentions = match guard {
        ast::Guard::Expr(expr) => mentions(site.text(expr.span), name),
        ast::Guard::Star(_) => false,
    };
    if !is_local || guard_mentions || invariants.iter().any(|invariant| mentions(site.text(invariant.span), name)) {
        return false;
    }
    let first = body.stmts.iter().find(|stmt| mentions(site.text(stmt.span), name));
    let written_first = first.is_some_and(|stmt| match &stmt.kind {
        StmtKind::Assign { lhs, rhs, .. } => {
            lhs.len() == 1
                && lhs[0].name.name == name
                && lhs[0].indices.is_empty()
                && rhs.iter().all(|expr| !mentions(site.text(expr.span), name))
        }
        _ => false,
    });
    let after = &site.source[the_loop.span.end as usize..site.body.span.end as usize];
    written_first && !mentions(after, name)
}

/// Whether `text` has `name` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !is_ident_char(c));
        let after = text[at + name.len()..].chars().next().is_none_or(|c| !is_ident_char(c));
        before && after
    })
}

/// `procedure P$rejoin(ins) requires ..; modifies ..;` and the body's `{`.
fn rejoin_header(site: &Site) -> String {
    let procedure = site.procedure;
    let params: Vec<String> = procedure
        .params
        .iter()
        .flat_map(|group| group.names.iter().map(move |name| format!("{}: {}", name.name, print_type(&group.ty))))
        .collect();
    let mut text = format!("procedure {}{REJOIN}({})", procedure.name.name, params.join(", "));
    for spec in &procedure.specs {
        if let SpecKind::Requires { .. } | SpecKind::Modifies { .. } = spec.kind {
            write!(text, "\n  {}", site.text(spec.span)).expect("a string");
        }
    }
    text.push_str("\n{\n");
    text
}

/// The procedures `stmts` call, by name.
fn calls_in(stmts: &[ast::Stmt], names: &mut BTreeSet<String>) {
    walk(stmts, &mut |stmt| {
        if let StmtKind::Call(call) = &stmt.kind {
            names.insert(call.callee.name.clone());
        }
    });
}

/// The spans of the call statements of `stmts`.
fn call_spans(stmts: &[ast::Stmt], spans: &mut Vec<Span>) {
    walk(stmts, &mut |stmt| {
        if let StmtKind::Call(_) = stmt.kind {
            spans.push(stmt.span);
        }
    });
}

/// Calls `f` on every statement of `stmts`, nested ones included, outer first.
fn walk(stmts: &[ast::Stmt], f: &mut dyn FnMut(&ast::Stmt)) {
    for stmt in stmts {
        f(stmt);
        match &stmt.kind {
            StmtKind::Block(block) => walk(&block.stmts, f),
            StmtKind::If { branches, else_block } => {
                for block in branches.iter().map(|branch| &branch.block).chain(else_block) {
                    walk(&block.stmts, f);
                }
            }
            StmtKind::While { body, .. } => walk(&body.stmts, f),
            _ => {}
        }
    }
}

/// Whether `stmts` have no loop, no jump, no `assume`, no `par`/`yield` and no free or
/// asynchronous call: code that runs straight through, stopped only by a failed check.
fn loop_free(stmts: &[ast::Stmt]) -> bool {
    let mut free = true;
    walk(stmts, &mut |stmt| match &stmt.kind {
        StmtKind::While { .. }
        | StmtKind::Assume { .. }
        | StmtKind::Break { .. }
        | StmtKind::Return
        | StmtKind::Goto { .. }
        | StmtKind::Label(_)
        | StmtKind::Par { .. }
        | StmtKind::Yield => free = false,
        StmtKind::Call(call) if call.free || call.is_async => free = false,
        StmtKind::If { branches, .. } if branches.iter().any(|branch| matches!(branch.guard, ast::Guard::Star(_))) => {
            free = false
        }
        _ => {}
    });
    free
}

/// Whether every procedure `names` call, and those they call, has a body without loops
/// (and the other statements [`loop_free`] excludes) and none calls itself again: a
/// call of one always ends.
fn ends(program: &ast::Program, names: &BTreeSet<String>) -> bool {
    fn visit(program: &ast::Program, name: &str, open: &mut Vec<String>, done: &mut BTreeSet<String>) -> bool {
        if done.contains(name) {
            return true;
        }
        if open.iter().any(|known| known == name) {
            return false;
        }
        let Some(procedure) = procedure_named(program, name) else { return false };
        let Some(body) = &procedure.body else { return false };
        if !loop_free(&body.stmts) {
            return false;
        }
        open.push(name.to_string());
        let mut callees = BTreeSet::new();
        calls_in(&body.stmts, &mut callees);
        let all = callees.iter().all(|callee| visit(program, callee, open, done));
        open.pop();
        done.insert(name.to_string());
        all
    }
    let mut done = BTreeSet::new();
    names.iter().all(|name| visit(program, name, &mut Vec::new(), &mut done))
}

/// Whether every division or remainder of `text` is by a nonzero integer literal.
fn safe_code(text: &str) -> bool {
    let count = divisions(text);
    let mut safe = 0;
    for keyword in [" div ", " mod "] {
        for (at, _) in text.match_indices(keyword) {
            let rest = text[at + keyword.len()..].trim_start();
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let next = rest[digits.len()..].chars().next();
            if !digits.is_empty()
                && digits.chars().any(|c| c != '0')
                && next.is_none_or(|c| !is_ident_char(c) && c != '[')
            {
                safe += 1;
            }
        }
    }
    safe >= count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::operators;
    use crate::smt::SessionOptions;

    fn proved(source: &str, original: &str, replacement: &str) -> Result<usize, String> {
        let (ast, mutant) = operators::parsed_mutant(source, original, replacement);
        rejoins((&ast, source), &mutant, &SessionOptions::default(), &|| true)
    }

    /// A loop that raises `i` to `n`, `j` following `i` one step at a time.
    const FOLLOW: &str = "procedure P(n: int) returns (i: int, j: int)\n  requires n >= 0;\n{\n  \
                          i := 0;\n  j := 0;\n  while (i < n || j < i)\n    \
                          invariant 0 <= j && j <= i && i <= n;\n  {\n    if (j < i) {\n      \
                          j := j + 1;\n    } else {\n      i := i + 1;\n      j := i;\n    }\n  }\n}\n";

    #[test]
    fn a_loop_that_lags_behind_and_catches_up_rejoins() {
        // Without `j := i`, `j` is one behind and the next iteration brings it up.
        assert_eq!(proved(FOLLOW, "j := i;", "(deleted)"), Ok(0), "j lags, then catches up");
        assert!(proved(FOLLOW, "i := i + 1;", "(deleted)").is_err(), "without the step the loop never ends");
        assert!(proved(FOLLOW, "1", "2").is_err(), "i may pass n");
        let (ast, mutant) = operators::parsed_mutant(FOLLOW, "j := i;", "(deleted)");
        let texts = rejoined_texts(&ast, FOLLOW, &mutant);
        assert_eq!(texts.len(), 4, "j at most, at least, then either only after the original's exit");
        assert!(texts[0].text.contains("procedure P$rejoin(n: int)\n  requires n >= 0;\n{"), "{}", texts[0].text);
    }

    /// Bisection for the integer square root, stopping early at an exact hit.
    const ROOT: &str = "procedure R(n: int) returns (low: int)\n  requires n >= 0;\n{\n  \
                        var high, mid: int;\n  low := 0;\n  high := n + 1;\n  \
                        while (high - low > 1)\n    invariant 0 <= low && low < high;\n    \
                        invariant low * low <= n && n < high * high;\n  {\n    \
                        mid := (low + high) div 2;\n    if (mid * mid == n) {\n      low := mid;\n      \
                        high := mid + 1;\n    } else if (mid * mid < n) {\n      low := mid;\n    \
                        } else {\n      high := mid;\n    }\n  }\n}\n";

    #[test]
    fn a_loop_the_mutant_runs_on_alone_after_the_original_left_it_rejoins() {
        // After an exact hit the original stops; the mutant halves on to the same `low`,
        // its `mid` (read by nobody after the loop) left out of the relation.
        let proof = proved(ROOT, "high := mid + 1;", "(deleted)").expect("the bisection goes on to the same root");
        assert!(proof >= 2, "only once the original has left the loop do the two differ: {proof}");
        assert!(proved(ROOT, "high := mid;", "(deleted)").is_err(), "without it the loop runs for ever");
    }

    #[test]
    fn a_call_taken_where_it_does_nothing_rejoins() {
        let source = "var g: int;\nprocedure Step(lo: int, hi: int)\n  modifies g;\n{\n  \
                      if (lo < hi) {\n    g := g + 1;\n    call Step(lo + 1, hi);\n  }\n}\n\
                      procedure P(n: int)\n  requires n >= 0;\n  modifies g;\n{\n  \
                      if (n > 1) {\n    call Step(1, n);\n  }\n}\n";
        assert_eq!(proved(source, "n > 1", "n >= 1"), Ok(0), "Step(1, 1) does nothing");
        assert!(proved(source, "n > 1", "n != 1").is_ok(), "n != 1 differs at n == 0 only");
        assert!(proved(source, "n > 1", "n < 1").is_err(), "Step(1, 2) adds 1");
    }
}
