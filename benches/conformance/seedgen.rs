//! seedgen's verdicts: `seedgen check` (does it accept the file) and `seedgen verify`
//! (how many implementations verify, how many failures), each run as a process with a
//! time limit, so a panic (exit status 101), a crash (a signal) or a hang is seen and
//! reported rather than ending the harness.

use crate::process::{self, Ending, Run};
use std::path::Path;
use std::time::Duration;

/// How a run of seedgen ended, beyond an ordinary verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Exit status 101: seedgen caught a panic (an internal error).
    Panic,
    /// A signal ended it.
    Signal(i32),
    /// It ran past the time limit.
    TimedOut,
    /// An exit status seedgen does not document, or it did not start.
    Other(String),
}

impl Failure {
    pub fn describe(&self) -> String {
        match self {
            Failure::Panic => "panic (exit status 101)".to_string(),
            Failure::Signal(signal) => format!("killed by signal {signal}"),
            Failure::TimedOut => "time limit".to_string(),
            Failure::Other(what) => what.clone(),
        }
    }

    /// A panic or a crash: what the harness lists first.
    pub fn is_crash(&self) -> bool {
        matches!(self, Failure::Panic | Failure::Signal(_))
    }
}

/// `seedgen check` on one file.
#[derive(Clone, Debug)]
pub struct Check {
    /// `Ok(true)`: accepted (exit 0); `Ok(false)`: rejected (exit 1 or 2).
    pub accepts: Result<bool, Failure>,
    /// The first error line, without the file's path (`12:12: error: ...`), or for a
    /// failure the last line of stderr (a panic's message).
    pub first_error: Option<String>,
    pub elapsed: Duration,
}

/// Runs `seedgen check` on `path`, shown as `relative` in messages.
pub fn check(seedgen: &Path, path: &Path, infer_modifies: bool, limit: Duration) -> Check {
    let path_text = path.to_string_lossy();
    let arguments = ["check", "--message-format", "short", "--color", "never", "--quiet", &path_text];
    let run = process::run(seedgen, &with_options(&arguments, infer_modifies), None, limit);
    let accepts = match failure_of(&run) {
        Some(failure) => Err(failure),
        None => Ok(run.ending == Ending::Exited(0)),
    };
    let first_error = match &accepts {
        Ok(true) => None,
        Ok(false) => run
            .stderr
            .lines()
            .chain(run.stdout.lines())
            .find(|line| line.contains(": error: ") || line.starts_with("error"))
            .map(|line| without_path(line, &path_text)),
        Err(_) => failure_line(&run.stderr),
    };
    Check { accepts, first_error, elapsed: run.elapsed }
}

/// `seedgen verify` on one file: the summary line's counts.
#[derive(Clone, Debug)]
pub struct Verify {
    pub outcome: Result<VerifyCounts, Failure>,
    /// Where there is no summary line, the first error (a program `check` accepts
    /// that `verify` rejects) or the panic's message.
    pub first_error: Option<String>,
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyCounts {
    pub verified: u32,
    pub implementations: u32,
    pub failures: u32,
    /// Checks the solver left open (exit status 3).
    pub undecided: u32,
}

/// Runs `seedgen verify` on `path` with the run's own time limit `limit` (so that it
/// reports what it established), killed a little after it.
pub fn verify(seedgen: &Path, path: &Path, infer_modifies: bool, limit: Duration) -> Verify {
    let path_text = path.to_string_lossy();
    let seconds = format!("{}", limit.as_secs_f64());
    let arguments = ["verify", "--color", "never", "--time-limit", &seconds, &path_text];
    let run = process::run(seedgen, &with_options(&arguments, infer_modifies), None, limit + Duration::from_secs(10));
    let outcome = match failure_of(&run) {
        Some(failure) => Err(failure),
        None => run
            .stderr
            .lines()
            .rev()
            .find_map(parse_verify_summary)
            .ok_or_else(|| Failure::Other(format!("no summary line ({:?})", run.ending))),
    };
    let first_error = match &outcome {
        Ok(_) => None,
        Err(Failure::Panic) => failure_line(&run.stderr),
        Err(_) => run
            .stderr
            .lines()
            .find(|line| line.starts_with("error"))
            .map(str::to_string)
            .or_else(|| failure_line(&run.stderr)),
    };
    Verify { outcome, first_error, elapsed: run.elapsed }
}

/// A failure, where the run did not end with one of seedgen's verdicts (exit 0–3).
/// seedgen's `arguments` (a command first), with `--infer-modifies` where the suite
/// runs the file with `-inferModifies`.
fn with_options<'a>(arguments: &[&'a str], infer_modifies: bool) -> Vec<&'a str> {
    let mut all = arguments.to_vec();
    if infer_modifies {
        all.insert(1, "--infer-modifies");
    }
    all
}

fn failure_of(run: &Run) -> Option<Failure> {
    match &run.ending {
        Ending::Exited(0..=3) => None,
        Ending::Exited(101) => Some(Failure::Panic),
        Ending::Exited(status) => Some(Failure::Other(format!("exit status {status}"))),
        Ending::Signal(signal) => Some(Failure::Signal(*signal)),
        Ending::TimedOut => Some(Failure::TimedOut),
        Ending::NotStarted(error) => Some(Failure::Other(format!("did not start: {error}"))),
    }
}

/// `verified 7 of 11 implementations: 4 failures, 2 undecided checks`.
fn parse_verify_summary(line: &str) -> Option<VerifyCounts> {
    let rest = line.strip_prefix("verified ")?;
    let (verified, rest) = rest.split_once(" of ")?;
    let (implementations, rest) = rest.split_once(' ')?;
    let (_, found) = rest.split_once(": ")?;
    let mut failures = 0;
    let mut undecided = 0;
    for part in found.split(", ") {
        let mut words = part.split_whitespace();
        let (Some(number), Some(noun)) = (words.next(), words.next()) else { continue };
        match (number.parse::<u32>(), noun) {
            (Ok(number), "failure" | "failures") => failures = number,
            (Ok(number), "check" | "checks") => undecided = number,
            _ => {}
        }
    }
    Some(VerifyCounts {
        verified: verified.parse().ok()?,
        implementations: implementations.parse().ok()?,
        failures,
        undecided,
    })
}

/// `/abs/Test/x.bpl:12:3: error: msg` → `12:3: error: msg`.
fn without_path(line: &str, path: &str) -> String {
    line.strip_prefix(path).map(|rest| rest.trim_start_matches(':')).unwrap_or(line).trim().to_string()
}

/// What a failed run said: the panic's message (`seedgen: internal error: panicked
/// at ...`), or else its last line.
fn failure_line(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines().map(str::trim).filter(|line| !line.is_empty());
    let panic = lines.clone().find(|line| line.contains("internal error"));
    panic.or_else(|| lines.next_back()).map(str::to_string)
}
