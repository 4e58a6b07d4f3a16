//! The product program of a mutant: the original implementation and its mutant side by
//! side on the same inputs, and one assertion that what a test observes of them is equal.
//!
//! Input: the program's AST, one of its [`Mutant`]s and the name of the implementation
//! it changes. Output: a Boogie program ([`product_text`]) — the original program, the
//! mutant's procedure renamed `P$mutant`, and a procedure `P$product` that calls both:
//!
//! ```text
//! procedure P$product(ins) requires P.requires; modifies P.modifies;
//! {
//!   entry$g := g;                 (each global P modifies)
//!   call orig$o := P(ins);
//!   final$g := g;  g := entry$g;  (the second run starts where the first did)
//!   call mut$o := P$mutant(ins);
//!   assert orig$o == mut$o && final$g == g;
//! }
//! ```
//!
//! Every procedure with a body carries `{:inline D}`, so Boogie 2.4.1 checks the claim
//! on its own (`boogie /useArrayTheory /proc:P$product`: maps as z3's extensional
//! arrays, as in seedgen's semantics; Boogie's default map axioms lack extensionality
//! and cannot prove `m == m[i := m[i]]`), and [`check`] asks the same of z3: the product
//! inlined (`D` levels), optionally unrolled, cut, encoded, and every check of it asked
//! in one session. The checks are the product's assertion, the assertions of both
//! copies, their callees' preconditions and their postconditions (the inliner checks
//! each at the copies' returns), so the product holds exactly when, on every input the
//! precondition admits, neither run fails a check and both end with the same outputs
//! and globals: what `run-tests` judges (outcome, violated clause, return values and
//! final globals).
//!
//! A failed check is a candidate killing test (its inputs run on the original and on
//! the mutant by the caller: only replay decides). All checks unsatisfiable proves the
//! mutant **equivalent** when the encoding is exact ([`Verdict::Equivalent`]): no loop
//! cut by an invariant, no call modelled by its contract, no `assume` statement (an
//! assumption that stops one run and not the other is an observable difference the
//! product would not see), and no division the mutation introduced (the interpreter
//! stops where z3's `div` is total). With loops unrolled `N` times and the iterations
//! past `N` cut off, unsat proves "equivalent up to N iterations"
//! ([`Verdict::EquivalentUpTo`]), never more.

use super::operators::Mutant;
use crate::cfg::cut::cut_loops;
use crate::cfg::unroll::unroll_loops;
use crate::cfg::{self, AssumeReason, Cfg, Cmd, CmdKind};
use crate::sema::{self, hir};
use crate::smt::{Reach, Session, SessionOptions};
use crate::source::FileId;
use crate::syntax::ast::{self, Decl, SpecKind};
use crate::syntax::printer::{print_decl, print_expr, print_type};
use crate::vc::{self, InputKind, Model};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

/// The name of the mutant's copy of procedure `name`.
pub fn mutant_name(name: &str) -> String {
    format!("{name}$mutant")
}

/// The name of the product procedure of procedure `name`.
pub fn product_name(name: &str) -> String {
    format!("{name}$product")
}

/// What the product's checks say of a mutant.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Every check holds on an exact encoding.
    Equivalent,
    /// Every check holds on runs of at most `bound` iterations of each loop.
    EquivalentUpTo { bound: u32 },
    /// A counterexample's inputs kill the mutant.
    Killed,
    /// `failing` checks fail, but no counterexample's inputs kill the mutant.
    Differs { failing: usize },
    /// Nothing proved: `reason` says why (an abstraction, the solver gave up).
    Undecided { reason: String },
}

/// The product program of `mutant` (a mutant of implementation `name` of `program`), as
/// Boogie text, its procedures with bodies inlined `inline` levels deep; `None` when the
/// implementation has type parameters or no procedure declaration of that name exists.
pub fn product_text(program: &ast::Program, mutated: &ast::Program, name: &str, inline: u32) -> Option<ProductText> {
    let declaration = program.decls.iter().find_map(|decl| match decl {
        Decl::Procedure(procedure) if procedure.name.name == name => Some(procedure),
        _ => None,
    })?;
    if !declaration.type_params.is_empty() {
        return None;
    }
    let mut text = String::new();
    for decl in &program.decls {
        text.push_str(&inlined(decl, inline));
        text.push('\n');
    }
    let mutant_start = text.len();
    for decl in &mutated.decls {
        if let Some(renamed) = renamed(decl, name) {
            text.push_str(&inlined(&renamed, inline));
            text.push('\n');
        }
    }
    let product_start = text.len();
    text.push_str(&product_procedure(declaration, &global_types(program)));
    Some(ProductText { text, mutant_start, product_start })
}

/// A product program's text, and where its parts start: the original program first,
/// then the mutant's procedure, then the product procedure.
#[derive(Clone, Debug)]
pub struct ProductText {
    pub text: String,
    pub mutant_start: usize,
    pub product_start: usize,
}

impl ProductText {
    /// Which part of the program the check at `span` belongs to: 0 the product
    /// procedure's (its assertion, and the copies' contracts checked at its two calls),
    /// 1 the mutant's body, 2 the original (and the callees).
    fn rank(&self, span: crate::source::Span) -> u8 {
        let at = span.start as usize;
        match (at >= self.product_start, at >= self.mutant_start) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 2,
        }
    }
}

/// `decl` printed, with `{:inline depth}` when it has a body.
fn inlined(decl: &Decl, depth: u32) -> String {
    let printed = print_decl(decl);
    let keyword = match decl {
        Decl::Procedure(procedure) if procedure.body.is_some() => "procedure ",
        Decl::Implementation(_) => "implementation ",
        _ => return printed,
    };
    match printed.strip_prefix(keyword) {
        Some(rest) => format!("{keyword}{{:inline {depth}}} {rest}"),
        None => printed,
    }
}

/// A declaration of procedure `name` (its contract, or an implementation), renamed to
/// the mutant's copy; `None` for any other declaration.
fn renamed(decl: &Decl, name: &str) -> Option<Decl> {
    let mut decl = decl.clone();
    let ident = match &mut decl {
        Decl::Procedure(procedure) => &mut procedure.name,
        Decl::Implementation(implementation) => &mut implementation.name,
        _ => return None,
    };
    if ident.name != name {
        return None;
    }
    ident.name = mutant_name(name);
    Some(decl)
}

fn typed(groups: &[ast::TypedIdents]) -> Vec<(String, String)> {
    let mut typed = Vec::new();
    for group in groups {
        for name in &group.names {
            typed.push((name.name.clone(), print_type(&group.ty)));
        }
    }
    typed
}

/// The product procedure of `declaration` (see the module header).
fn product_procedure(declaration: &ast::ProcedureDecl, global_types: &BTreeMap<String, String>) -> String {
    let name = &declaration.name.name;
    let ins = typed(&declaration.params);
    let outs = typed(&declaration.returns);
    let mut requires = String::new();
    let mut modified = Vec::new();
    for spec in &declaration.specs {
        match &spec.kind {
            SpecKind::Requires { free, expr, .. } => {
                let free = if *free { "free " } else { "" };
                writeln!(requires, "  {free}requires {};", print_expr(expr)).expect("writing to a string");
            }
            SpecKind::Modifies { names } => modified.extend(names.iter().map(|name| name.name.clone())),
            SpecKind::Ensures { .. } => {}
        }
    }
    let params: Vec<String> = ins.iter().map(|(name, ty)| format!("{name}: {ty}")).collect();
    let args: Vec<&str> = ins.iter().map(|(name, _)| name.as_str()).collect();
    let mut text = format!("procedure {}({})\n{requires}", product_name(name), params.join(", "));
    if !modified.is_empty() {
        writeln!(text, "  modifies {};", modified.join(", ")).expect("writing to a string");
    }
    text.push_str("{\n");
    let mut equal = Vec::new();
    for (out, ty) in &outs {
        writeln!(text, "  var orig${out}: {ty};\n  var mut${out}: {ty};").expect("writing to a string");
        equal.push(format!("orig${out} == mut${out}"));
    }
    // A name `modifies` lists that is no global is the checker's to report on the
    // program itself: it has checked already, so every one is declared.
    let globals: Vec<(&String, &String)> =
        modified.iter().filter_map(|global| Some((global, global_types.get(global)?))).collect();
    for (global, ty) in &globals {
        writeln!(text, "  var entry${global}: {ty};\n  var final${global}: {ty};").expect("writing to a string");
        equal.push(format!("final${global} == {global}"));
    }
    let globals: Vec<&String> = globals.into_iter().map(|(global, _)| global).collect();
    for global in &globals {
        writeln!(text, "  entry${global} := {global};").expect("writing to a string");
    }
    let call = |prefix: &str, callee: &str| {
        let outs: Vec<String> = outs.iter().map(|(out, _)| format!("{prefix}${out}")).collect();
        let assigned = if outs.is_empty() { String::new() } else { format!("{} := ", outs.join(", ")) };
        format!("  call {assigned}{callee}({});\n", args.join(", "))
    };
    text.push_str(&call("orig", name));
    for global in &globals {
        writeln!(text, "  final${global} := {global};\n  {global} := entry${global};").expect("writing to a string");
    }
    text.push_str(&call("mut", &mutant_name(name)));
    let equal = if equal.is_empty() { "true".to_string() } else { equal.join(" && ") };
    writeln!(text, "  assert {equal};\n}}").expect("writing to a string");
    text
}

/// The type of each global variable of `program`, printed, by name.
fn global_types(program: &ast::Program) -> BTreeMap<String, String> {
    let mut types = BTreeMap::new();
    for decl in &program.decls {
        let Decl::Var(var) = decl else { continue };
        for group in &var.groups {
            for name in &group.names {
                types.insert(name.name.clone(), print_type(&group.ty));
            }
        }
    }
    types
}

/// The checked product program of `text` and the graphs of its implementations, or
/// the first error's message (a product that does not check is the product's fault,
/// never the user's: the caller reports the mutant undecided).
pub fn front_end(text: &str) -> Result<(hir::Program, Vec<Cfg>), String> {
    let (ast, errors) = crate::syntax::parse(FileId(0), text);
    if let Some(error) = errors.first() {
        return Err(error.to_diagnostic().message);
    }
    let (program, errors) = sema::check(&ast);
    let Some(program) = program else {
        return Err(errors.first().map(|error| error.to_diagnostic().message).unwrap_or_default());
    };
    let (cfgs, errors) = cfg::lower::lower_all(&program);
    if let Some(error) = errors.first() {
        return Err(error.to_diagnostic().message);
    }
    Ok((program, cfgs))
}

/// How the product is checked.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    /// Levels of calls inlined: the product's two calls, then the implementation's own.
    pub inline: u32,
    /// Loop iterations unrolled; the iterations past it are cut off when `truncate`, else
    /// abstracted by the loops' invariants.
    pub unroll: u32,
    pub truncate: bool,
    /// Each check's limits: the run's, the timeout cut to [`CHECK_TIMEOUT_MS`].
    pub session: SessionOptions,
    /// The mutation introduced a division (see the module header).
    pub divides: bool,
}

/// Each check of a product within z3's deterministic resource limit (the minimizer's),
/// so the same run gives the same answers; the wall-clock timeout, at most
/// [`CHECK_TIMEOUT_MS`], is the safety net.
pub const CHECK_RLIMIT: u32 = 2_000_000;

/// Each check of a product that can only kill (its encoding abstracts, so no
/// equivalence can be proved) within this much smaller resource limit. On the corpus
/// every such check that gave a killing test answered within a few milliseconds, while
/// the checks that ran long (quick sort's recursive calls, up to the whole
/// [`CHECK_RLIMIT`] each) all ended unsat or unknown: time spent there buys nothing.
/// A check that reaches this limit does not end the session (the next may still kill).
pub const KILL_CHECK_RLIMIT: u32 = 200_000;

/// The longest a check of a product may take: a safety net well above what the
/// resource limit allows, so that the limit, not the machine's load, decides.
pub const CHECK_TIMEOUT_MS: u32 = 10_000;

/// The least number of loop iterations a product is unrolled (cut off past them):
/// without unrolling, loops would be cut by their invariants, whose models are seldom
/// runs (and whose quantifiers z3 often gives up on), and no claim of equivalence could
/// be made of a procedure with a loop; unrolled and cut off, each model is a run of at
/// most this many iterations, and unsat proves equivalence up to them.
pub const MIN_UNROLL: u32 = 3;

/// The most checks a mutant's product session asks when only a killing test can come of
/// it (the encoding abstracts, so no equivalence can be proved); past them the mutant
/// is left undecided.
pub const MAX_CHECKS: usize = 8;

/// The most checks of an exact product, which may prove the mutant equivalent.
pub const MAX_EXACT_CHECKS: usize = 64;

/// The largest product graph (blocks, after inlining and unrolling) a session is asked
/// about; a larger one leaves the mutant undecided.
pub const MAX_BLOCKS: usize = 3_000;

impl CheckOptions {
    /// The session's limits: [`CHECK_RLIMIT`] per check when the encoding is `exact`,
    /// else [`KILL_CHECK_RLIMIT`].
    fn session(&self, exact: bool) -> SessionOptions {
        let timeout = self.session.timeout_ms.map_or(CHECK_TIMEOUT_MS, |timeout| timeout.min(CHECK_TIMEOUT_MS));
        let rlimit = if exact { CHECK_RLIMIT } else { KILL_CHECK_RLIMIT };
        SessionOptions { timeout_ms: Some(timeout), rlimit: Some(rlimit), ..self.session }
    }
}

/// Asks the checks of the product procedure of `name` in `program` (lowered to `cfgs`;
/// its text `layout`): the product's assertion first, then the mutant's checks, then,
/// only when the answer can prove equivalence (an exact encoding), the original's (in
/// the order of [`order`]). Each
/// counterexample (or candidate of an `unknown` answer) goes to `kills` with the graph
/// it is a model of (calls inlined), and the first it accepts ends the session.
pub fn check(
    (program, cfgs, layout): (&hir::Program, &[Cfg], &ProductText),
    name: &str,
    options: &CheckOptions,
    kills: &mut dyn FnMut(&Model, &Cfg) -> bool,
) -> Verdict {
    let Some(product) = cfgs.iter().find(|cfg| cfg.name == product_name(name)) else {
        return Verdict::Undecided { reason: "the product program has no product procedure".to_string() };
    };
    let inlined = cfg::inline::inline_calls(program, cfgs, product, options.inline);
    let mut unrolled = unroll_loops(program, &inlined, options.unroll).cfg;
    let had_loops = !inlined.loops.is_empty();
    // The loops left, found afresh: the unrolling of a graph with inlined loops keeps
    // some of them (past its size cap) that its own list may not name.
    let not_cut = || Verdict::Undecided { reason: "the product's loops could not be cut".to_string() };
    let Ok(left) = crate::cfg::loops::find_loops(program, &unrolled) else { return not_cut() };
    unrolled.loops = left;
    if options.truncate {
        cut_off_remaining_iterations(&mut unrolled);
    }
    if unrolled.blocks.len() > MAX_BLOCKS {
        let reason = format!("the product has {} blocks, more than {MAX_BLOCKS}", unrolled.blocks.len());
        return Verdict::Undecided { reason };
    }
    let acyclic = cut_loops(program, &unrolled);
    if !is_acyclic(&acyclic) {
        return not_cut();
    }
    let encoding = Arc::new(vc::encode(program, &acyclic));
    let assumes = has_assume_statement(&acyclic);
    let exact = encoding.abstractions.is_empty() && !assumes && !options.divides && (!had_loops || options.truncate);
    let mutant = program.procedures.iter().position(|procedure| procedure.name == mutant_name(name));
    let mut asked: Vec<(u8, vc::FailureId)> = encoding
        .failure_ids()
        .filter(|&id| {
            let kind = &encoding.failure(id).obligation.kind;
            !matches!(kind, vc::ObligationKind::Assert(cfg::AssertReason::Invariant { free: true, .. }))
        })
        .map(|id| {
            let obligation = &encoding.failure(id).obligation;
            (order(layout.rank(obligation.span), &obligation.kind, (mutant, exact)), id)
        })
        .filter(|&(order, _)| exact || order < 4)
        .collect();
    asked.sort();
    let mut session = Session::new(Arc::clone(&encoding), options.session(exact));
    let mut failing = 0;
    let mut gave_up = None;
    let mut over_budget = None;
    let budget = if exact { MAX_EXACT_CHECKS } else { MAX_CHECKS };
    if asked.len() > budget {
        over_budget = Some(format!("the product has {} checks, the mutant's budget {budget}", asked.len()));
        asked.truncate(budget);
    }
    for (_, id) in asked {
        match session.check_failure(id) {
            Reach::Sat(model) => {
                if kills(&model, &acyclic) {
                    return Verdict::Killed;
                }
                failing += 1;
            }
            Reach::Unsat => {}
            // Once z3 gives up, nothing can be proved, and the next checks of the same
            // formula are seldom easier: the session ends, unless it can only kill, each
            // check within the small limit, and the next check may.
            Reach::Unknown { reason, candidate } => {
                if candidate.as_ref().is_some_and(|model| kills(model, &acyclic)) {
                    return Verdict::Killed;
                }
                gave_up = Some(reason);
                if exact {
                    break;
                }
            }
        }
    }
    if failing > 0 {
        return Verdict::Differs { failing };
    }
    if let Some(reason) = gave_up {
        return Verdict::Undecided { reason: format!("the solver gave up on the product ({reason})") };
    }
    if let Some(reason) = over_budget {
        return Verdict::Undecided { reason: format!("no check asked fails, but {reason}") };
    }
    let reason = |why: &str| Verdict::Undecided { reason: format!("no check of the product fails, but {why}") };
    if options.divides {
        reason("the mutation divides, and a run may divide by zero where z3's division is total")
    } else if assumes {
        reason("an `assume` may stop one run and not the other")
    } else if !encoding.abstractions.is_empty() {
        reason("a callee's contract stood for its code")
    } else if had_loops && !options.truncate {
        reason("loops were cut by their invariants (`--unroll N` proves equivalence up to N iterations)")
    } else if had_loops {
        Verdict::EquivalentUpTo { bound: options.unroll }
    } else {
        Verdict::Equivalent
    }
}

/// When a check is asked, by the part of the program it belongs to (`rank`,
/// [`ProductText::rank`]) and its kind; `mutant` is the mutant's procedure. A product
/// that can only kill (not `exact`) asks at most [`MAX_CHECKS`], those most likely to
/// fail first: the product's assertion (0), then the mutant's postconditions (1: the
/// assertion assumes them, so a mutant that breaks its contract is killed only there),
/// then the checks in the mutant's body (2: its calls' preconditions, its assertions),
/// then the original's postconditions and both copies' preconditions at the product's
/// calls (3: they hold whenever the original verifies); the original's and the
/// callees' own checks (4) only when `exact`. An exact product asks them all, by part,
/// postconditions first within each.
fn order(rank: u8, kind: &vc::ObligationKind, (mutant, exact): (Option<usize>, bool)) -> u8 {
    use cfg::AssertReason::{Ensures, Requires};
    let ensures = matches!(kind, vc::ObligationKind::Assert(Ensures { .. }));
    if exact {
        return rank * 2 + u8::from(!ensures);
    }
    match (rank, kind) {
        (0, vc::ObligationKind::Assert(Ensures { callee, .. })) if Some(callee.index()) == mutant => 1,
        (0, vc::ObligationKind::Assert(Ensures { .. } | Requires { .. })) => 3,
        (0, _) => 0,
        (1, _) => 2,
        _ => 4,
    }
}

/// Iterations past the unrolling bound cut off: every edge into a remaining loop ends
/// in `assume false`, so the encoding holds exactly the runs within the bound.
fn cut_off_remaining_iterations(graph: &mut Cfg) {
    let predecessors = graph.predecessors();
    let entries: Vec<cfg::BlockId> = graph
        .loops
        .iter()
        .flat_map(|each| predecessors[each.header.index()].iter().copied().filter(|block| !each.body.contains(block)))
        .collect();
    for block in entries {
        let span = graph.blocks[block.index()].span;
        let stop = hir::Expr { kind: hir::ExprKind::Bool(false), ty: hir::Type::Bool, span };
        graph.blocks[block.index()]
            .cmds
            .push(Cmd { kind: CmdKind::Assume { expr: stop, reason: AssumeReason::LoopCut }, span });
    }
}

/// Whether `graph` has no cycle, reachable or not (what the encoding needs).
fn is_acyclic(graph: &Cfg) -> bool {
    let mut waiting = vec![0usize; graph.blocks.len()];
    for block in graph.block_ids() {
        for &next in graph.successors(block) {
            waiting[next.index()] += 1;
        }
    }
    let mut ready: Vec<cfg::BlockId> = graph.block_ids().filter(|block| waiting[block.index()] == 0).collect();
    let mut ordered = 0;
    while let Some(block) = ready.pop() {
        ordered += 1;
        for &next in graph.successors(block) {
            waiting[next.index()] -= 1;
            if waiting[next.index()] == 0 {
                ready.push(next);
            }
        }
    }
    ordered == graph.blocks.len()
}

fn has_assume_statement(graph: &Cfg) -> bool {
    graph
        .blocks
        .iter()
        .flat_map(|block| &block.cmds)
        .any(|cmd| matches!(cmd.kind, CmdKind::Assume { reason: AssumeReason::User, .. }))
}

/// The inputs of `model` (a model of `product_cfg`, the product procedure of `product`
/// inlined) as a test of the original implementation `implementation` of `program`: the
/// same in-parameters, globals, constants and function tables, by name, and the start
/// values of the locals and out-parameters the copies read before writing (the
/// mutant's, which come later, over the original's): a mutant that no longer sets a
/// variable reads the test's start value, which the original overwrites. Other
/// choices are left to the run.
pub fn test_input(
    product: &hir::Program,
    product_cfg: &Cfg,
    program: &hir::Program,
    implementation: hir::ImplId,
    model: &Model,
) -> crate::interp::TestInput {
    let mut input = crate::interp::TestInput::new(implementation);
    let ins = &program.implementations[implementation.index()].ins;
    let product_ins = &product.implementations[product_cfg.implementation.index()].ins;
    input.params = ins
        .iter()
        .zip(product_ins)
        .map(|(&id, &product_id)| {
            let ty = &program.implementations[implementation.index()].locals[id.index()].ty;
            model
                .entry_value(&InputKind::Param(product_id))
                .cloned()
                .unwrap_or_else(|| crate::interp::default_value(ty))
        })
        .collect();
    for assignment in &model.entry {
        match assignment.kind {
            InputKind::Global(id) => {
                let name = &product.globals[id.index()].name;
                if let Some(at) = program.globals.iter().position(|global| &global.name == name) {
                    input.globals.push((hir::GlobalId::from_index(at), assignment.value.clone()));
                }
            }
            InputKind::Const(id) => {
                let name = &product.consts[id.index()].name;
                if let Some(at) = program.consts.iter().position(|constant| &constant.name == name) {
                    input.consts.push((hir::ConstId::from_index(at), assignment.value.clone()));
                }
            }
            _ => {}
        }
    }
    let locals = &program.implementations[implementation.index()].locals;
    let chosen = model.choices.iter().filter_map(|choice| match choice {
        crate::vc::Choice::Value(assignment) => Some(assignment),
        crate::vc::Choice::Goto { .. } => None,
    });
    for assignment in model.entry.iter().chain(chosen) {
        let (InputKind::Havoc(hir::Var::Local(id)) | InputKind::Uninit(id)) = assignment.kind else { continue };
        let Some(name) = product_cfg.locals.get(id.index()).map(|local| &local.name) else { continue };
        let Some(at) = locals.iter().position(|local| &local.name == name && local.kind != hir::LocalKind::In) else {
            continue;
        };
        let local = hir::LocalId::from_index(at);
        input.uninitialized.retain(|(known, _)| *known != local);
        input.uninitialized.push((local, assignment.value.clone()));
    }
    for table in &model.functions {
        let name = &product.functions[table.function.index()].name;
        if let Some(at) = program.functions.iter().position(|function| &function.name == name) {
            input.functions.push(vc::FunctionModel { function: hir::FunctionId::from_index(at), ..table.clone() });
        }
    }
    input
}

/// Whether `mutant` introduces a division or a remainder.
pub fn divides(mutant: &Mutant) -> bool {
    let introduced = |word: &str| mutant.replacement.contains(word) && !mutant.original.contains(word);
    introduced(" div ") || introduced(" mod ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::operators;

    /// The product of the mutant of `source` that `original → replacement` describes,
    /// checked; the verdict and whether a counterexample was offered.
    fn verdict_of(source: &str, original: &str, replacement: &str) -> (Verdict, usize) {
        let (ast, mutant) = operators::parsed_mutant(source, original, replacement);
        let mutated = operators::apply(&ast, &mutant);
        let layout = product_text(&ast, &mutated, "P", 2).expect("a product");
        let (program, cfgs) = front_end(&layout.text).unwrap_or_else(|message| panic!("{message}\n{}", layout.text));
        let options = CheckOptions {
            inline: 2,
            unroll: MIN_UNROLL,
            truncate: true,
            session: SessionOptions::default(),
            divides: divides(&mutant),
        };
        let mut offered = 0;
        let verdict = check((&program, &cfgs, &layout), "P", &options, &mut |_, _| {
            offered += 1;
            false
        });
        (verdict, offered)
    }

    #[test]
    fn the_product_names_both_copies_and_compares_outputs_and_globals() {
        let source =
            "var g: int;\nprocedure P(a: int) returns (r: int) requires a > 0; modifies g; { g := a; r := a + 1; }";
        let (ast, _) = crate::syntax::parse(FileId(0), source);
        let mutant = operators::mutants(&ast, source).into_iter().next().expect("a mutant");
        let layout = product_text(&ast, &operators::apply(&ast, &mutant), "P", 2).expect("a product");
        let text = &layout.text;
        assert!(text.contains("procedure {:inline 2} P$mutant(a: int) returns (r: int)"), "{text}");
        assert!(text.contains("procedure P$product(a: int)\n  requires a > 0;\n  modifies g;"), "{text}");
        assert!(text.contains("assert orig$r == mut$r && final$g == g;"), "{text}");
        assert!(layout.mutant_start < layout.product_start);
        front_end(text).expect("the product checks");
    }

    #[test]
    fn a_boundary_mutant_differs_and_an_equivalent_one_is_proved() {
        let killable = "procedure P(a: int) returns (r: int) { if (a >= 0) { r := 1; } else { r := 0; } }";
        let (verdict, offered) = verdict_of(killable, "a >= 0", "a > 0");
        assert!(matches!(verdict, Verdict::Differs { failing: 1 }), "{verdict:?}");
        assert_eq!(offered, 1);
        // At a = 0 both branches give 0.
        let equivalent = "procedure P(a: int) returns (r: int) { if (a >= 0) { r := a; } else { r := 0 - a; } }";
        let (verdict, offered) = verdict_of(equivalent, "a >= 0", "a > 0");
        assert!(matches!(verdict, Verdict::Equivalent), "{verdict:?}");
        assert_eq!(offered, 0);
    }

    #[test]
    fn loops_prove_equivalence_only_up_to_the_bound_and_assumes_or_divisions_nothing() {
        let looping = "procedure P(n: int) returns (s: int) { var i: int; i := 0; s := 0; \
                       while (i < n) { s := s + 0; i := i + 1; } }";
        let (verdict, _) = verdict_of(looping, "s + 0", "s - 0");
        assert!(matches!(verdict, Verdict::EquivalentUpTo { bound: MIN_UNROLL }), "{verdict:?}");
        let assuming =
            "procedure P(a: int) returns (r: int) { assume a > 5; if (a >= 0) { r := a; } else { r := 0 - a; } }";
        let (verdict, _) = verdict_of(assuming, "a >= 0", "a > 0");
        assert!(matches!(verdict, Verdict::Undecided { .. }), "{verdict:?}");
        let dividing = "procedure P(a: int) returns (r: int) { r := a * 1; }";
        let (verdict, _) = verdict_of(dividing, "a * 1", "a div 1");
        assert!(matches!(verdict, Verdict::Undecided { .. }), "{verdict:?}");
    }
}
