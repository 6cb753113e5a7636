//! A future polled, and dropped, inside a tracing span where it stands.
//!
//! `tracing::Instrument::instrument` takes the future by value: the handler's future (the
//! method's and the tool's state, about 1.5 KB) was built, then copied into the wrapper, then into
//! the awaiting future's state, once per request. [`Spanned`] borrows the future pinned where it
//! was built instead; like `Instrumented`, it enters the span for every poll and for the drop of a
//! future that did not finish (a cancelled request).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tracing::Span;

/// `fut` (pinned in the caller's state, `Some` until dropped) polled in `span`.
pub(super) struct Spanned<'a, F> {
    pub(super) span: &'a Span,
    pub(super) fut: Pin<&'a mut Option<F>>,
}

impl<F: Future> Future for Spanned<'_, F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        let _entered = this.span.enter();
        match this.fut.as_mut().as_pin_mut() {
            Some(fut) => fut.poll(cx),
            // Never: the future is taken only when this is dropped.
            None => Poll::Pending,
        }
    }
}

impl<F> Drop for Spanned<'_, F> {
    fn drop(&mut self) {
        if self.fut.is_some() {
            let _entered = self.span.enter();
            self.fut.set(None);
        }
    }
}
