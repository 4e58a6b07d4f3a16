//! Running a command with a time limit: its exit status (or the signal that ended it,
//! or the limit), its stdout and its stderr.
//!
//! The outputs go to temporary files rather than pipes, so a command that writes a
//! lot (thousands of diagnostics on a 27,000-line file) never blocks on a full pipe
//! while the harness waits for it; the harness polls for the exit and kills the
//! command at the limit.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How a command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it (a crash: `SIGSEGV`, `SIGABRT`, an out-of-memory kill).
    Signal(i32),
    /// It ran past the limit and was killed.
    TimedOut,
    /// It could not be started, or its outputs not read (the error).
    NotStarted(String),
}

/// A finished run.
pub struct Run {
    pub ending: Ending,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `program args...` (in `directory` if given) with stdin closed, killing it
/// after `limit`.
pub fn run(program: &Path, args: &[&str], directory: Option<&Path>, limit: Duration) -> Run {
    let start = Instant::now();
    try_run(program, args, directory, limit).unwrap_or_else(|error| Run {
        ending: Ending::NotStarted(error.to_string()),
        stdout: String::new(),
        stderr: String::new(),
        elapsed: start.elapsed(),
    })
}

fn try_run(program: &Path, args: &[&str], directory: Option<&Path>, limit: Duration) -> std::io::Result<Run> {
    let mut stdout_file = tempfile::tempfile()?;
    let mut stderr_file = tempfile::tempfile()?;
    let start = Instant::now();
    let mut command = Command::new(program);
    if let Some(directory) = directory {
        command.current_dir(directory);
    }
    // Its own process group, so that the limit ends the solver Boogie starts as well.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::from(stdout_file.try_clone()?))
        .stderr(Stdio::from(stderr_file.try_clone()?))
        .spawn()?;
    let ending = loop {
        if let Some(status) = child.try_wait()? {
            break ending_of(status);
        }
        if start.elapsed() > limit {
            kill_group(&mut child);
            child.wait()?;
            break Ending::TimedOut;
        }
        std::thread::sleep(poll_interval(start.elapsed()));
    };
    let elapsed = start.elapsed();
    Ok(Run { ending, stdout: read_all(&mut stdout_file)?, stderr: read_all(&mut stderr_file)?, elapsed })
}

/// Kills `child` and every process of its group (Boogie's `z3`, which would otherwise
/// run on, orphaned), through `kill(1)` since the standard library only kills the
/// child. Killing a child that has just exited fails harmlessly; `wait` reaps it.
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
    }
    let _ = child.kill();
}

/// Short polls while most runs finish (tens of milliseconds), longer ones after.
fn poll_interval(elapsed: Duration) -> Duration {
    if elapsed < Duration::from_secs(1) {
        Duration::from_millis(5)
    } else {
        Duration::from_millis(50)
    }
}

fn ending_of(status: ExitStatus) -> Ending {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Ending::Signal(signal);
        }
    }
    Ending::Exited(status.code().expect("a process not ended by a signal has an exit code"))
}

fn read_all(file: &mut File) -> std::io::Result<String> {
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(0))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
