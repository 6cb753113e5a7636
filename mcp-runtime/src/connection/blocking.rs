//! Whether a connection gives handlers their first poll in place, decided from how long those
//! polls take.
//!
//! A handler that blocks its thread during its first poll holds up every message behind it when
//! that poll runs on the connection's task. The detector watches the first handler poll of each
//! request (the handler's own code only: see `handler::invoke::handler_poll_time`) and:
//!
//! - switches the connection to a task per request when [`SLOW_TO_SWITCH`] of the last
//!   [`WINDOW`] first polls took longer than [`SLOW`]: one outlier (a huge request's arguments, a
//!   panic printing its backtrace) changes nothing, a handler that keeps blocking does;
//! - switches it back to inline first polls after [`FAST_TO_RETURN`] fast first polls in a row
//!   (measured in the tasks meanwhile): a burst of slow work does not cost the connection its
//!   fast path for good.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use crate::handler::invoke::handler_poll_time;
use crate::sync::lock;

/// A first poll longer than this counts as blocking.
pub(crate) const SLOW: Duration = Duration::from_millis(50);
/// How many recent first polls are considered.
pub(crate) const WINDOW: u32 = 16;
/// Slow first polls within the window that switch a connection to a task per request.
pub(crate) const SLOW_TO_SWITCH: u32 = 3;
/// Fast first polls in a row that bring a connection back to inline first polls.
pub(crate) const FAST_TO_RETURN: u32 = 64;

/// A change of mode, to log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Switch {
    /// From now on every request gets a task of its own.
    ToTasks,
    /// From now on first polls run in place again.
    ToInline,
}

#[derive(Default)]
struct Window {
    /// The last [`WINDOW`] first polls, newest in bit 0; a set bit is a slow one.
    recent: u32,
    /// Fast first polls since the last slow one.
    fast_run: u32,
}

/// The blocked-handler detector of one connection.
pub(crate) struct Blocking {
    /// `false` when the server turned inline first polls off: nothing is measured.
    enabled: bool,
    inline: AtomicBool,
    window: Mutex<Window>,
}

impl Blocking {
    /// A detector; with `enabled` false the connection never polls in place.
    pub(crate) fn new(enabled: bool) -> Self {
        Self {
            enabled,
            inline: AtomicBool::new(enabled),
            window: Mutex::new(Window::default()),
        }
    }

    /// Whether first polls are measured at all.
    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Whether the next request gets its first poll in place.
    pub(crate) fn inline(&self) -> bool {
        self.inline.load(Ordering::Relaxed)
    }

    /// Records one request's first handler poll; returns the switch it caused, if any.
    pub(crate) fn record(&self, took: Duration) -> Option<Switch> {
        if !self.enabled {
            return None;
        }
        let slow = took > SLOW;
        let mut w = lock(&self.window);
        let mask = (1u32 << WINDOW) - 1;
        w.recent = ((w.recent << 1) | u32::from(slow)) & mask;
        w.fast_run = if slow {
            0
        } else {
            w.fast_run.saturating_add(1)
        };
        let inline = self.inline();
        if inline && slow && w.recent.count_ones() >= SLOW_TO_SWITCH {
            self.inline.store(false, Ordering::Relaxed);
            return Some(Switch::ToTasks);
        }
        if !inline && w.fast_run >= FAST_TO_RETURN {
            w.recent = 0;
            self.inline.store(true, Ordering::Relaxed);
            return Some(Switch::ToInline);
        }
        None
    }
}

/// A request's future whose first handler poll is reported to the connection's detector,
/// wherever it happens (in place, or in the request's own task).
pub(crate) struct Watched<F> {
    inner: F,
    /// Until the first handler poll is reported; `None` after (or when nothing is measured).
    blocking: Option<Arc<Blocking>>,
    method: &'static str,
}

impl<F> Watched<F> {
    pub(crate) fn new(inner: F, blocking: &Arc<Blocking>, method: &'static str) -> Self {
        Self {
            inner,
            blocking: blocking.enabled().then(|| Arc::clone(blocking)),
            method,
        }
    }
}

impl<F: Future + Unpin> Future for Watched<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        if this.blocking.is_none() {
            return Pin::new(&mut this.inner).poll(cx);
        }
        let (polled, took) = handler_poll_time(|| Pin::new(&mut this.inner).poll(cx));
        if let Some(took) = took
            && let Some(blocking) = this.blocking.take()
        {
            match blocking.record(took) {
                Some(Switch::ToTasks) => tracing::warn!(
                    method = this.method,
                    blocked_ms = took.as_millis() as u64,
                    "handlers keep blocking their thread; this connection now runs every request in a task of its own"
                ),
                Some(Switch::ToInline) => tracing::info!(
                    "handlers stopped blocking; this connection polls them in place again"
                ),
                None => {}
            }
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: Duration = Duration::from_millis(1);
    const BLOCKED: Duration = Duration::from_millis(120);

    #[test]
    fn one_outlier_does_not_switch_repeated_blocking_does() {
        let d = Blocking::new(true);
        assert_eq!(d.record(BLOCKED), None);
        assert_eq!(d.record(BLOCKED), None);
        assert!(d.inline());
        assert_eq!(d.record(BLOCKED), Some(Switch::ToTasks));
        assert!(!d.inline());
        assert_eq!(d.record(BLOCKED), None, "switched once");
    }

    #[test]
    fn slow_polls_spread_wider_than_the_window_do_not_switch() {
        let d = Blocking::new(true);
        for _ in 0..10 {
            assert_eq!(d.record(BLOCKED), None);
            for _ in 0..WINDOW / 2 {
                assert_eq!(d.record(FAST), None);
            }
        }
        assert!(d.inline());
    }

    #[test]
    fn a_run_of_fast_polls_returns_to_inline() {
        let d = Blocking::new(true);
        for _ in 0..SLOW_TO_SWITCH {
            d.record(BLOCKED);
        }
        assert!(!d.inline());
        for _ in 0..FAST_TO_RETURN - 1 {
            assert_eq!(d.record(FAST), None);
        }
        assert_eq!(d.record(FAST), Some(Switch::ToInline));
        assert!(d.inline());
        // The window starts afresh: one slow poll after the return is an outlier again.
        assert_eq!(d.record(BLOCKED), None);
        assert!(d.inline());
    }

    #[test]
    fn a_slow_poll_restarts_the_fast_run() {
        let d = Blocking::new(true);
        for _ in 0..SLOW_TO_SWITCH {
            d.record(BLOCKED);
        }
        for _ in 0..FAST_TO_RETURN - 1 {
            d.record(FAST);
        }
        d.record(BLOCKED);
        for _ in 0..FAST_TO_RETURN - 1 {
            assert_eq!(d.record(FAST), None);
        }
        assert_eq!(d.record(FAST), Some(Switch::ToInline));
    }

    #[test]
    fn disabled_never_polls_in_place() {
        let d = Blocking::new(false);
        for _ in 0..FAST_TO_RETURN * 2 {
            assert_eq!(d.record(FAST), None);
        }
        assert!(!d.inline());
    }
}
