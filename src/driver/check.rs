//! `seedgen check FILE...`: parse and type-check each file, report every diagnostic, and
//! with `--dump STAGE` print a stage of a file that checked cleanly (the AST, the
//! graphs, the graphs after the loop cut, or the SMT-LIB encoding of the seeded graphs).

use super::{check_file, count, emit_all, plural, read_source, Checked, Outcome, Streams};
use crate::cfg;
use crate::config::{CheckConfig, Dump, OutputConfig};
use crate::diag::{Diagnostic, Severity};
use crate::seed::{goals, seeded};
use crate::source::SourceDb;
use crate::syntax;
use std::io;

/// `seedgen check FILE...`
pub fn run_check(config: &CheckConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let mut db = SourceDb::new();
    let mut outcome = Outcome::Success;
    let mut error_count = 0;
    let mut warning_count = 0;
    for path in &config.files {
        let text = match read_source(path) {
            Ok(text) => text,
            Err(error) => {
                writeln!(streams.err, "seedgen: error: {error}")?;
                outcome = Outcome::InputError;
                error_count += 1;
                continue;
            }
        };
        let file = db.add(path.display().to_string(), text);
        let checked = check_file(&db, file, config.language);
        let mut diagnostics = checked.diagnostics.clone();
        if let (Some(dump), false) = (config.dump, checked.has_errors()) {
            match dump_stage(&checked, dump, config.unroll) {
                Ok(text) => write!(streams.out, "{text}")?,
                Err(errors) => diagnostics.extend(errors),
            }
        }
        emit_all(&db, output, streams, &diagnostics)?;
        error_count += count(&diagnostics, Severity::Error);
        warning_count += count(&diagnostics, Severity::Warning);
        if error_count > 0 && outcome == Outcome::Success {
            outcome = Outcome::ProgramErrors;
        }
    }
    if output.message_format == crate::diag::MessageFormat::Human && !output.quiet {
        writeln!(streams.err, "{}", summary(config.files.len(), error_count, warning_count))?;
    }
    Ok(outcome)
}

/// `--dump STAGE` of a file that checked cleanly: the stage printed back, or the
/// diagnostics of the stages that could not be reached.
fn dump_stage(checked: &Checked, dump: Dump, unroll: u32) -> Result<String, Vec<Diagnostic>> {
    let hir = checked.hir.clone().expect("a file without errors has its HIR");
    if dump == Dump::Ast {
        return Ok(syntax::printer::print_program(&checked.ast));
    }
    let hir = &crate::mono::monomorphize(hir).map_err(|error| vec![error.to_diagnostic()])?;
    let (cfgs, errors) = cfg::lower::lower_all(hir);
    if !errors.is_empty() {
        return Err(errors.iter().map(|error| error.to_diagnostic()).collect());
    }
    let cut: Vec<cfg::Cfg> =
        cfgs.iter().map(|graph| cfg::cut::cut_loops(hir, &cfg::unroll::unroll_loops(hir, graph, unroll).cfg)).collect();
    Ok(match dump {
        Dump::Ast => unreachable!("handled above"),
        Dump::Cfg => cfg::print::print_program(hir, &cfgs),
        Dump::Cut => cfg::print::print_program(hir, &cut),
        Dump::Smt2 => cut
            .iter()
            .map(|graph| {
                let seeded =
                    seeded::seed(graph, &goals::goals(graph), Default::default(), &seeded::visible_names(hir, graph));
                let encoding = std::sync::Arc::new(crate::vc::encode(hir, &seeded.cfg));
                format!("; implementation {}\n{}", graph.name, crate::smt::to_smt2(encoding))
            })
            .collect(),
    })
}

fn summary(files: usize, errors: usize, warnings: usize) -> String {
    let checked = format!("checked {}", plural(files, "file"));
    match (errors, warnings) {
        (0, 0) => format!("{checked}: no problems"),
        (0, _) => format!("{checked}: {}", plural(warnings, "warning")),
        _ => format!("{checked}: {}, {}", plural(errors, "error"), plural(warnings, "warning")),
    }
}
