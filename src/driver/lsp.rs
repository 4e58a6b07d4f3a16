//! `seedgen lsp`: the language server (`crate::lsp`) on stdin and stdout.

use super::Outcome;
use crate::config::LspConfig;
use crate::lsp::{self, End};
use lsp_server::Connection;
use std::io;

/// Serves one client on stdin and stdout until it exits. Stdout carries the protocol:
/// the caller must not hold it locked. Exit status 0 after `shutdown` and `exit`, 1
/// when the client exits without `shutdown` or goes away (as the protocol asks), 2 on a
/// protocol error (told on stderr).
pub fn run_lsp(config: &LspConfig) -> io::Result<Outcome> {
    let (connection, io_threads) = Connection::stdio();
    let served = lsp::serve(&connection, config);
    // The writer thread ends once every sender of the connection is gone; the reader
    // has ended by now (at `exit`, or on an unreadable message or a closed stdin, which
    // is what a protocol error reports).
    drop(connection);
    let read = io_threads.join();
    Ok(match (served, read) {
        (Ok(End::Exited), _) => Outcome::Success,
        (Ok(End::Abandoned), _) => Outcome::ProgramErrors,
        (Err(_), Err(error)) => {
            eprintln!("seedgen: error: language server: cannot read the client's messages: {error}");
            Outcome::InputError
        }
        (Err(error), Ok(())) => {
            eprintln!("seedgen: error: language server: {error}");
            Outcome::InputError
        }
    })
}
