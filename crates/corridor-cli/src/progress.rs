//! Progress on stderr for steps that may take more than a second: shown only on a
//! terminal and without the global `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no progress at all.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether progress is shown: stderr is a terminal and `--quiet` was not given.
pub fn shown() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// Whether `--quiet` was given (for plain progress lines written without a terminal).
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

fn target() -> ProgressDrawTarget {
    if shown() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// A spinner with a message for one step of unknown length; it appears after a second
/// (a quick step leaves no trace) and is cleared when dropped.
pub fn spinner(message: impl Into<String>) -> Spinner {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(message.into());
    let bar2 = bar.clone();
    let show = shown();
    // Shown after a second, so that quick steps do not flicker.
    let timer = show.then(|| {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            if !bar2.is_finished() {
                bar2.set_draw_target(ProgressDrawTarget::stderr());
                bar2.enable_steady_tick(Duration::from_millis(120));
            }
        })
    });
    drop(timer);
    Spinner(bar)
}

/// A bar of `len` steps (`{msg}` shows what it is doing).
pub fn bar(len: u64, template: &str) -> ProgressBar {
    ProgressBar::with_draw_target(Some(len), target()).with_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}

/// A running spinner; cleared when dropped.
pub struct Spinner(ProgressBar);

impl Spinner {
    /// Changes the message.
    pub fn set_message(&self, message: impl Into<String>) {
        self.0.set_message(message.into());
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
