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
#[cfg(feature = "cli")]
pub(crate) fn set_ratio(ratio: Option<f64>) {
    let bound = ratio.map_or(UNKNOWN, |r| {
        (r.clamp(0.0, 1.0) * (1u64 << 63) as f64) as u64
    });
    BOUND.store(bound, Ordering::Relaxed);
}

/// Whether a root whose trace id ends in the 64 random bits `low` is sampled (the SDK's
/// `TraceIdRatioBased` rule: the low 63 bits below the bound); `None` when the layer leaves
/// the decision to the provider.
#[inline]
pub(super) fn decide(low: u64) -> Option<bool> {
    let bound = BOUND.load(Ordering::Relaxed);
    (bound != UNKNOWN).then(|| below(low, bound))
}

/// The SDK's `TraceIdRatioBased` rule: the low 63 bits of the trace id below the bound.
#[inline]
fn below(low: u64, bound: u64) -> bool {
    (low >> 1) < bound
}

/// Whether a left-out request is being polled on this thread.
#[inline]
pub(super) fn inside_left_out() -> bool {
    LEFT_OUT.with(Cell::get) > 0
}

/// A left-out request's future (the rest of the chain): polled with the thread marked (see
/// [`LEFT_OUT`]).
pub(super) struct LeftOut<F>(pub(super) F);

impl<F: Future<Output = Outcome> + Unpin> Future for LeftOut<F> {
    type Output = Outcome;

    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Outcome> {
        struct Unmark;
        impl Drop for Unmark {
            fn drop(&mut self) {
                LEFT_OUT.with(|n| n.set(n.get().saturating_sub(1)));
            }
        }
        LEFT_OUT.with(|n| n.set(n.get().saturating_add(1)));
        let _unmark = Unmark;
        Pin::new(&mut self.0).poll(cx)
    }
}

/// Whether the layer knows the root ratio (and so may decide).
#[inline]
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
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
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
        self.0
            .should_sample(parent_context, trace_id, name, span_kind, attributes, links)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::trace::{SpanContext, SpanId, TraceFlags};

    fn ask(sampler: &Decided, parent: Option<&Context>) -> SamplingDecision {
        let id = TraceId::from(0x0123_4567_89ab_cdef_0123_4567_89ab_cdefu128);
        sampler
            .should_sample(parent, id, "tools/call", &SpanKind::Server, &[], &[])
            .decision
    }

    #[test]
    fn the_layers_decision_stands_and_a_left_out_requests_roots_are_left_out() {
        let off = Decided(Sampler::AlwaysOff);
        let on = Decided(Sampler::AlwaysOn);
        assert_eq!(ask(&off, None), SamplingDecision::Drop);
        assert_eq!(
            sampled(|| ask(&off, None)),
            SamplingDecision::RecordAndSample,
            "a root the layer chose is not decided again"
        );
        assert_eq!(ask(&off, None), SamplingDecision::Drop, "the flag is reset");
        // Polled inside a left-out request: a root is left out, a span with a parent is the
        // inner sampler's to decide.
        let parent = Context::new().with_remote_span_context(SpanContext::new(
            TraceId::from(7u128),
            SpanId::from(9u64),
            TraceFlags::SAMPLED,
            true,
            TraceState::NONE,
        ));
        let seen = std::sync::Mutex::new(Vec::new());
        let future = LeftOut(Box::pin(async {
            seen.lock().unwrap().push(ask(&on, None));
            seen.lock().unwrap().push(ask(&on, Some(&parent)));
            seen.lock().unwrap().push(ask(&on, Some(&Context::new())));
            Outcome::notified()
        }));
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut future = std::pin::pin!(future);
        assert!(future.as_mut().poll(&mut cx).is_ready());
        assert_eq!(
            *seen.lock().unwrap(),
            [
                SamplingDecision::Drop,
                SamplingDecision::RecordAndSample,
                SamplingDecision::Drop
            ]
        );
        assert!(!inside_left_out());
        assert_eq!(ask(&on, None), SamplingDecision::RecordAndSample);
    }

    #[test]
    fn the_ratio_is_the_sdks_rule_on_the_low_63_bits() {
        let bound = |r: f64| (r * (1u64 << 63) as f64) as u64;
        assert!(below(0, bound(0.01)));
        assert!(!below(u64::MAX, bound(0.99)));
        assert!(below(bound(0.5) << 1, bound(0.5) + 1));
        assert!(!below(bound(0.5) << 1, bound(0.5)));
        assert!(!below(0, bound(0.0)), "a ratio of 0 samples nothing");
    }
}
