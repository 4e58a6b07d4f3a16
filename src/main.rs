//! The `seedgen` binary: parse flags, run the driver on a thread with a large stack,
//! map the outcome to the exit status. A panic is a bug: it is reported as an internal
//! error with exit status 101, never mistaken for a verdict.

mod cli;

use clap::Parser;
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use seedgen::driver::{self, Outcome, Streams};
use std::io::{self, Write};
use std::process::ExitCode;

/// The pipeline recurses over expressions up to `syntax::MAX_EXPR_DEPTH` deep; this
/// leaves ample room even in debug builds.
const STACK_BYTES: usize = 256 * 1024 * 1024;

const INTERNAL_ERROR: u8 = 101;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        // A solver session's thread catches its panics (the z3 crate's, on a null z3
        // returns) and answers "z3 failed": no internal error.
        if std::thread::current().name().is_some_and(|name| name.starts_with("smt:")) {
            return;
        }
        eprintln!("seedgen: internal error: {info}");
        eprintln!("seedgen: this is a bug in seedgen; please report it with the input that triggered it");
    }));
    let cli = cli::Cli::parse().validated().unwrap_or_else(|error| error.exit());
    let worker = std::thread::Builder::new().stack_size(STACK_BYTES).spawn(move || run(cli));
    let status = match worker.map(|handle| handle.join()) {
        Ok(Ok(status)) => status,
        Ok(Err(_panic)) => INTERNAL_ERROR,
        Err(error) => {
            eprintln!("seedgen: error: cannot start the worker thread: {error}");
            INTERNAL_ERROR
        }
    };
    // A solver thread left busy past `--time-limit` is not waited for.
    let _ = (io::stdout().flush(), io::stderr().flush());
    seedgen::smt::end_process(status);
    ExitCode::from(status)
}

fn run(cli: cli::Cli) -> u8 {
    let config = cli.into_config();
    // The language server speaks its protocol on stdout: it must not be locked here.
    if let seedgen::config::Config::Lsp(lsp, _) = &config {
        return exit_status(driver::lsp::run_lsp(lsp));
    }
    let color = if config.output().color { ColorChoice::Always } else { ColorChoice::Never };
    let mut err = StandardStream::stderr(color);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = driver::run(&config, &mut Streams { out: &mut out, err: &mut err });
    exit_status(result.and_then(|outcome| out.flush().map(|()| outcome)))
}

fn exit_status(result: io::Result<Outcome>) -> u8 {
    match result {
        Ok(Outcome::Success) => 0,
        Ok(Outcome::ProgramErrors) => 1,
        Ok(Outcome::InputError) => 2,
        Ok(Outcome::Incomplete) => 3,
        Ok(Outcome::CoverageGap) => 4,
        // A closed pipe (`seedgen ... | head`) is the reader's choice, not a failure.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(error) => {
            eprintln!("seedgen: error: {error}");
            2
        }
    }
}
