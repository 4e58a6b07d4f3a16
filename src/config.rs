//! The validated configuration of one run: what `cli` turns raw flags into before any
//! work starts. Nothing here knows about clap.

use crate::diag::MessageFormat;
pub use crate::seed::goals::GoalSelection;
use std::path::PathBuf;

/// Options shared by every command that reports diagnostics.
#[derive(Clone, Debug)]
pub struct OutputConfig {
    pub message_format: MessageFormat,
    /// Whether diagnostics are colored (resolved from `--color`, `NO_COLOR` and whether
    /// stderr is a terminal).
    pub color: bool,
    /// `--quiet`: no summary lines.
    pub quiet: bool,
}

/// A stage printed back by `--dump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dump {
    /// The parsed program, printed back as Boogie.
    Ast,
}

#[derive(Clone, Debug)]
pub struct CheckConfig {
    pub files: Vec<PathBuf>,
    pub dump: Option<Dump>,
}

/// `seedgen seed FILE`.
#[derive(Clone, Debug)]
pub struct SeedConfig {
    pub file: PathBuf,
    pub goals: GoalSelection,
}

#[derive(Clone, Debug)]
pub enum Config {
    Check(CheckConfig, OutputConfig),
    Seed(SeedConfig, OutputConfig),
}

impl Config {
    pub fn output(&self) -> &OutputConfig {
        match self {
            Config::Check(_, output) | Config::Seed(_, output) => output,
        }
    }
}
