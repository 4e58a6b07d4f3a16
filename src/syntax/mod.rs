//! The front end's syntax half: source text → [`ast::Program`], and back ([`printer`]).
//!
//! The only module that knows logos and lalrpop. [`parse`] never fails: it returns the
//! program it could read and every error it found, recovering at declaration boundaries.
//!
//! Invariant: a program returned without errors nests at most [`MAX_NESTING`] brackets,
//! [`MAX_EXPR_DEPTH`] expression levels and [`MAX_STMT_DEPTH`] statement levels deep, so
//! later passes may recurse over it.

pub mod actions;
pub mod ast;
pub mod error;
pub mod lexer;
pub mod printer;

pub use error::ParseError;

use crate::source::{FileId, Span};
use lalrpop_util::lalrpop_mod;
use lexer::{LexError, Token};
type Recovered = actions::Recovered;

lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, unused_imports)]
    grammar,
    "/boogie.rs"
);

/// The deepest bracket nesting accepted.
pub const MAX_NESTING: usize = 256;
/// The deepest expression accepted (operator chains nest without brackets).
pub const MAX_EXPR_DEPTH: usize = 1_000;
/// The deepest statement accepted: an `else if` nests in the `else` before it (as goal
/// ids and every later stage see it), so a long chain nests without brackets.
pub const MAX_STMT_DEPTH: usize = 1_000;
/// At most this many syntax errors are reported per file.
pub const MAX_ERRORS: usize = 50;

/// Parses a whole file.
pub fn parse(file: FileId, source: &str) -> (ast::Program, Vec<ParseError>) {
    let tokens = match tokenize(file, source) {
        Ok(tokens) => tokens,
        Err(errors) => return (ast::Program::default(), errors),
    };
    let mut recovered: Recovered = Vec::new();
    let result = grammar::ProgramParser::new().parse(file, &mut recovered, tokens.into_iter().map(Ok));
    let mut errors = convert_all(file, source, recovered);
    let program = match result {
        Ok(program) => program,
        Err(error) => {
            errors.push(convert(file, source, error));
            ast::Program::default()
        }
    };
    if let Some(error) = too_deep(&program).or_else(|| stmt_too_deep(&program)) {
        errors.push(error);
        return (ast::Program::default(), cap(errors));
    }
    (program, cap(errors))
}

/// Parses a single expression (for tests and tools).
pub fn parse_expr(file: FileId, source: &str) -> Result<ast::Expr, Vec<ParseError>> {
    let tokens = tokenize(file, source)?;
    let mut recovered: Recovered = Vec::new();
    let expr = grammar::ExprParser::new()
        .parse(file, &mut recovered, tokens.into_iter().map(Ok))
        .map_err(|error| vec![convert(file, source, error)])?;
    let mut errors = convert_all(file, source, recovered);
    if let Some(error) = expr_too_deep(&expr) {
        errors.push(error);
    }
    if errors.is_empty() {
        Ok(expr)
    } else {
        Err(errors)
    }
}

type Spanned = (usize, Token, usize);

fn tokenize(file: FileId, source: &str) -> Result<Vec<Spanned>, Vec<ParseError>> {
    let (tokens, problems) = lexer::lex(source);
    if !problems.is_empty() {
        let errors = problems
            .into_iter()
            .map(|problem| {
                let span = Span::new(file, problem.start, problem.end);
                match problem.error {
                    LexError::InvalidChar => {
                        ParseError::InvalidChars { found: source[problem.start..problem.end].to_string(), span }
                    }
                    error => ParseError::Lex { error, span },
                }
            })
            .collect();
        return Err(cap(errors));
    }
    check_nesting(file, &tokens)?;
    Ok(tokens)
}

fn check_nesting(file: FileId, tokens: &[Spanned]) -> Result<(), Vec<ParseError>> {
    let mut depth: isize = 0;
    for (start, token, end) in tokens {
        depth += token.nesting_delta();
        if depth > MAX_NESTING as isize {
            let span = Span::new(file, *start, *end);
            return Err(vec![ParseError::NestingTooDeep { span, limit: MAX_NESTING }]);
        }
    }
    Ok(())
}

fn cap(mut errors: Vec<ParseError>) -> Vec<ParseError> {
    if errors.len() > MAX_ERRORS {
        let omitted = errors.len() - MAX_ERRORS;
        let span = errors[MAX_ERRORS].span();
        errors.truncate(MAX_ERRORS);
        errors.push(ParseError::TooMany { span, omitted });
    }
    errors
}

fn convert_all(file: FileId, source: &str, recovered: Recovered) -> Vec<ParseError> {
    let mut errors: Vec<ParseError> =
        recovered.into_iter().map(|recovery| convert(file, source, recovery.error)).collect();
    // Recovery reports in parse order, which is source order except for errors found
    // when a whole construct is reduced; show them in source order.
    errors.sort_by_key(|error| error.span());
    errors
}

fn convert(file: FileId, source: &str, error: lalrpop_util::ParseError<usize, Token, ParseError>) -> ParseError {
    use lalrpop_util::ParseError as Lalrpop;
    match error {
        Lalrpop::InvalidToken { location } => {
            ParseError::Lex { error: LexError::InvalidChar, span: Span::new(file, location, location) }
        }
        Lalrpop::UnrecognizedEof { location, expected } => {
            // Point just after the last token, not at trailing whitespace and newlines.
            let at = location.min(source.len());
            ParseError::UnexpectedEof { span: Span::new(file, at, at), expected }
        }
        Lalrpop::UnrecognizedToken { token: (start, token, end), expected } => {
            ParseError::UnexpectedToken { found: token.to_string(), span: Span::new(file, start, end), expected }
        }
        Lalrpop::ExtraToken { token: (start, token, end) } => ParseError::UnexpectedToken {
            found: token.to_string(),
            span: Span::new(file, start, end),
            expected: Vec::new(),
        },
        Lalrpop::User { error } => error,
    }
}

/// Finds the first expression deeper than [`MAX_EXPR_DEPTH`], without recursing on
/// expressions (statements are bounded by [`MAX_NESTING`]).
fn too_deep(program: &ast::Program) -> Option<ParseError> {
    let mut found = None;
    ast::visit_exprs(program, &mut |expr| {
        if found.is_none() {
            found = expr_too_deep(expr);
        }
    });
    found
}

/// Finds the first statement deeper than [`MAX_STMT_DEPTH`], counting the `n`-th branch
/// of an `if` as `n` levels deep, without recursing.
fn stmt_too_deep(program: &ast::Program) -> Option<ParseError> {
    let bodies = program.decls.iter().filter_map(|decl| match decl {
        ast::Decl::Procedure(decl) => decl.body.as_ref(),
        ast::Decl::Implementation(decl) => Some(&decl.body),
        _ => None,
    });
    let mut pending: Vec<(&[ast::Stmt], usize)> = bodies.map(|body| (&body.stmts[..], 1)).collect();
    while let Some((stmts, depth)) = pending.pop() {
        for stmt in stmts {
            match &stmt.kind {
                ast::StmtKind::If { branches, else_block } => {
                    for (index, branch) in branches.iter().enumerate() {
                        if depth + index > MAX_STMT_DEPTH {
                            return Some(ParseError::StmtTooDeep { span: branch.span, limit: MAX_STMT_DEPTH });
                        }
                        pending.push((&branch.block.stmts, depth + index + 1));
                    }
                    if let Some(block) = else_block {
                        pending.push((&block.stmts, depth + branches.len()));
                    }
                }
                ast::StmtKind::While { body, .. } => pending.push((&body.stmts, depth + 1)),
                _ => {}
            }
        }
    }
    None
}

fn expr_too_deep(root: &ast::Expr) -> Option<ParseError> {
    let mut pending = vec![(root, 1usize)];
    while let Some((expr, depth)) = pending.pop() {
        if depth > MAX_EXPR_DEPTH {
            return Some(ParseError::ExprTooDeep { span: expr.span, limit: MAX_EXPR_DEPTH });
        }
        expr.kind.for_each_child(&mut |child| pending.push((child, depth + 1)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn else_if_chain(arms: usize) -> String {
        let rest: String = (1..arms).map(|arm| format!(" else if (x == {arm}) {{ }}")).collect();
        format!("procedure P(x: int) {{ if (x == 0) {{ }}{rest} }}")
    }

    #[test]
    fn else_if_chains_nest_at_most_max_stmt_depth() {
        assert!(parse(FileId(0), &else_if_chain(MAX_STMT_DEPTH)).1.is_empty());
        let source = else_if_chain(MAX_STMT_DEPTH + 1);
        let (_, errors) = parse(FileId(0), &source);
        let [ParseError::StmtTooDeep { span, limit }] = errors.as_slice() else { panic!("{errors:?}") };
        assert_eq!(*limit, MAX_STMT_DEPTH);
        assert!(source[span.range()].starts_with(&format!("if (x == {MAX_STMT_DEPTH})")), "{}", &source[span.range()]);
    }

    #[test]
    fn a_function_argument_without_a_type_has_the_next_named_ones() {
        let (program, errors) = parse(FileId(0), "function leq(r1, r2: ref, b: bool, int): bool;");
        assert!(errors.is_empty(), "{errors:?}");
        let Some(crate::syntax::ast::Decl::Function(function)) = program.decls.first() else { panic!("{program:?}") };
        let named: Vec<(Option<&str>, String)> = function
            .params
            .iter()
            .map(|arg| (arg.name.as_ref().map(|name| name.name.as_str()), format!("{:?}", arg.ty.kind)))
            .collect();
        assert_eq!(named[0].0, Some("r1"));
        assert_eq!(named[0].1, named[1].1);
        assert_eq!(named[2].0, Some("b"));
        assert_eq!(named[3].0, None, "an unnamed argument after the last named one stays a type");
    }

    #[test]
    fn function_arguments_that_are_all_types_stay_types() {
        let (program, errors) = parse(FileId(0), "function f(T, int): bool;");
        assert!(errors.is_empty(), "{errors:?}");
        let Some(crate::syntax::ast::Decl::Function(function)) = program.decls.first() else { panic!("{program:?}") };
        assert!(function.params.iter().all(|arg| arg.name.is_none()));
    }
}
