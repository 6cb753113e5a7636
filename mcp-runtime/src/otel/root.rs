//! The root sampling decision, made by the layer itself when the installed tracer provider is
//! the command line's (`Telemetry::from_env`), whose sampler's ratio for root spans it then
//! knows: a request that starts a trace and is left out costs a random draw and a mark on the
//! thread while its future is polled, not a tracer, a span builder, the SDK's span and a
//! context. The provider's sampler ([`Decided`]) leaves out the roots started under that
//! mark (the handler's own spans), as it leaves out the children of a left-out root.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;

use crate::future::BoxFuture;
use crate::middleware::Outcome;

use opentelemetry::trace::{Link, SpanKind, TraceContextExt, TraceState};
use opentelemetry::{Context, KeyValue, TraceId};
use opentelemetry_sdk::trace::{Sampler, SamplingDecision, SamplingResult, ShouldSample};

/// The sampler's ratio for roots, as the bound on a trace id's low 63 bits that the SDK's
/// `TraceIdRatioBased` compares with; [`UNKNOWN`] when the layer leaves the decision to the
/// provider.
static BOUND: AtomicU64 = AtomicU64::new(UNKNOWN);
const UNKNOWN: u64 = u64::MAX;

thread_local! {
    /// Set while the layer starts a root span it decided to sample: [`Decided`] says yes.
    static DECIDED: Cell<bool> = const { Cell::new(false) };
    /// How many left-out requests are being polled on this thread (nested: a mounted
    /// server's call inside a gateway's): [`Decided`] leaves out the roots started then.
    static LEFT_OUT: Cell<u32> = const { Cell::new(0) };
}

/// Installs the root ratio the layer applies from now on (the command line's, with its
/// provider), or `None` to leave every decision to the provider.
pub(crate) fn set_ratio(ratio: Option<f64>) {
    let bound = ratio.map_or(UNKNOWN, |r| (r.clamp(0.0, 1.0) * (1u64 << 63) as f64) as u64);
    BOUND.store(bound, Ordering::Relaxed);
}

/// Whether a root whose trace id ends in the 64 random bits `low` is sampled (the SDK's
/// `TraceIdRatioBased` rule: the low 63 bits below the bound); `None` when the layer leaves
/// the decision to the provider.
pub(super) fn decide(low: u64) -> Option<bool> {
    let bound = BOUND.load(Ordering::Relaxed);
    (bound != UNKNOWN).then_some((low >> 1) < bound)
}

/// Whether a left-out request is being polled on this thread.
pub(super) fn inside_left_out() -> bool {
    LEFT_OUT.with(Cell::get) > 0
}

/// A left-out request's future: polled with the thread marked (see [`LEFT_OUT`]).
pub(super) struct LeftOut<'a>(pub(super) BoxFuture<'a, Outcome>);

impl Future for LeftOut<'_> {
    type Output = Outcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Outcome> {
        struct Unmark;
        impl Drop for Unmark {
            fn drop(&mut self) {
                LEFT_OUT.with(|n| n.set(n.get().saturating_sub(1)));
            }
        }
        LEFT_OUT.with(|n| n.set(n.get().saturating_add(1)));
        let _unmark = Unmark;
        self.0.as_mut().poll(cx)
    }
}

/// Whether the layer knows the root ratio (and so may decide).
pub(super) fn known() -> bool {
    BOUND.load(Ordering::Relaxed) != UNKNOWN
}

/// Runs `start` (which starts the root span the layer decided to sample) with [`Decided`]
/// answering yes on this thread.
pub(super) fn sampled<T>(start: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            DECIDED.with(|d| d.set(false));
        }
    }
    DECIDED.with(|d| d.set(true));
    let _reset = Reset;
    start()
}

/// The command line's sampler: `inner`, except for a root the layer already decided to
/// sample (so that the ratio is not applied twice).
#[derive(Debug, Clone)]
pub(crate) struct Decided(pub(crate) Sampler);

impl ShouldSample for Decided {
    fn should_sample(
        &self,
        parent_context: Option<&Context>,
        trace_id: TraceId,
        name: &str,
        span_kind: &SpanKind,
        attributes: &[KeyValue],
        links: &[Link],
    ) -> SamplingResult {
        let decision = if DECIDED.with(Cell::get) {
            Some(SamplingDecision::RecordAndSample)
        } else if LEFT_OUT.with(Cell::get) > 0
            && !parent_context.is_some_and(|cx| cx.span().span_context().is_valid())
        {
            // A root started while a left-out request is served: its child, left out too.
            Some(SamplingDecision::Drop)
        } else {
            None
        };
        if let Some(decision) = decision {
            return SamplingResult {
                decision,
                attributes: Vec::new(),
                trace_state: TraceState::default(),
            };
        }
        self.0.should_sample(
            parent_context,
            trace_id,
            name,
            span_kind,
            attributes,
            links,
        )
    }
}
