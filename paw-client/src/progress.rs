//! The progress bar `paw-client exec` draws on a terminal from the run's `run.progress`
//! events (e.g. `rss news` refreshing many feeds). Drawn on stderr, cleared at the end, so
//! the command's output is the same with or without it.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::exec::RunEvent;

/// A bar that appears with the first progress event; runs without progress draw nothing.
#[derive(Default)]
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    /// Shows one event of the run.
    pub fn show(&mut self, ev: RunEvent) {
        let RunEvent::Progress { done, total, note } = ev else {
            return;
        };
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            b.enable_steady_tick(Duration::from_millis(120));
            b
        });
        bar.set_length(total);
        bar.set_position(done);
        if let Some(n) = note {
            // The note names a feed: third-party text, shown on one line without controls.
            bar.set_message(paw_proto::untrusted::clean_line(&n).into_owned());
        }
    }

    /// Clears the bar before the command's output is printed.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}
