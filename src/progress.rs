//! The progress bar of long runs (indicatif, the only module that knows it): drawn on
//! stderr, and only once a run has taken longer than [`DELAY`], so that quick runs
//! (an editor's save hook, a warm cache) print nothing of it. Whether to draw at all
//! (stderr is a terminal, no `--quiet`) is the caller's decision (`OutputConfig`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a run goes before its bar appears.
pub const DELAY: Duration = Duration::from_millis(300);

/// A count of finished items, drawn once [`DELAY`] has passed.
pub struct Progress {
    bar: ProgressBar,
    /// Tells the thread that shows the bar that the run is over, and the thread.
    shower: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

impl Progress {
    /// Counts `total` items of `what` (e.g. "implementations"); draws nothing unless
    /// `enabled`.
    pub fn start(total: usize, what: &str, enabled: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        let style =
            ProgressStyle::with_template(&format!("{{spinner}} [{{bar:30}}] {{pos}}/{{len}} {what} {{elapsed}}"))
                .expect("the template is valid")
                .progress_chars("=> ");
        bar.set_style(style);
        let shower = enabled.then(|| {
            let (done, wait) = mpsc::channel::<()>();
            let shown = bar.clone();
            let thread = std::thread::spawn(move || {
                if wait.recv_timeout(DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                    shown.set_draw_target(ProgressDrawTarget::stderr());
                    shown.enable_steady_tick(Duration::from_millis(120));
                }
            });
            (done, thread)
        });
        Progress { bar, shower }
    }

    /// One more item done.
    pub fn advance(&self) {
        self.bar.inc(1);
    }

    /// Ends the run: the bar, if it was drawn, is erased.
    pub fn finish(mut self) {
        if let Some((done, thread)) = self.shower.take() {
            // The thread may have finished waiting already; then nobody listens.
            let _ = done.send(());
            let _ = thread.join();
        }
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_bar_counts_silently() {
        let progress = Progress::start(3, "implementations", false);
        (0..3).for_each(|_| progress.advance());
        assert_eq!(progress.bar.position(), 3);
        progress.finish();
    }

    #[test]
    fn a_quick_run_ends_before_the_bar_shows() {
        let progress = Progress::start(1, "implementations", true);
        progress.advance();
        progress.finish();
    }
}
