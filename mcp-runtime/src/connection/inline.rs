//! The crate's own layers run inline: when the whole chain a client's request passes is the
//! metrics layer (`ServerBuilder::metrics`, the command line's) and the tracing layer
//! (`ServerBuilder::otel`, the command line's), in either order, the connection runs their
//! work around the method's (boxed) future in its own future: not one box and one dynamic call
//! per layer. What each layer does, and
//! in which order, is what its [`Layer::call`](crate::middleware::Layer::call) does (the same
//! functions); any other chain goes through [`Layers::run`].

use std::sync::Arc;

use crate::metrics::Metrics;
use crate::middleware::{Layer, Layers, Outcome, Request, caught};

/// One of the crate's own layers.
#[derive(Clone, Copy)]
enum Own<'a> {
    Metrics(&'a Metrics),
    #[cfg(feature = "otel")]
    Tracing(&'a crate::otel::Tracing),
}

impl<'a> Own<'a> {
    /// `layer`, when it is one of the crate's own.
    fn of(layer: &'a Arc<dyn Layer>) -> Option<Self> {
        let any: &dyn std::any::Any = &**layer;
        if let Some(metrics) = any.downcast_ref::<Metrics>() {
            return Some(Self::Metrics(metrics));
        }
        #[cfg(feature = "otel")]
        if let Some(tracing) = any.downcast_ref::<crate::otel::Tracing>() {
            return Some(Self::Tracing(tracing));
        }
        None
    }

    /// The layer's work around the rest of the chain, which `inner` makes.
    async fn around<F, Fut>(self, request: &Request<'_>, inner: F) -> Outcome
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Outcome>,
    {
        match self {
            Self::Metrics(metrics) => metrics.around(request, inner).await,
            #[cfg(feature = "otel")]
            Self::Tracing(tracing) => tracing.enter(request).run(inner).await,
        }
    }
}

/// A chain of one or two of the crate's own layers, outermost first.
pub(super) struct Chain<'a> {
    first: Own<'a>,
    second: Option<Own<'a>>,
}

impl<'a> Chain<'a> {
    /// The chain of a client's request, when it is one or two of the crate's own layers and
    /// nothing else.
    pub(super) fn of(layers: &'a Layers) -> Option<Self> {
        let (outer, inner) = layers.incoming();
        if outer.len() + inner.len() > 2 {
            return None;
        }
        let mut all = outer.iter().chain(inner);
        let first = Own::of(all.next()?)?;
        let second = match all.next() {
            Some(layer) => Some(Own::of(layer)?),
            None => None,
        };
        Some(Self { first, second })
    }

    /// `request` through the chain to `method`; a panic in it is a masked internal error, as
    /// in [`Layers::run`].
    pub(super) async fn run<F>(self, request: &Request<'_>, method: F) -> Outcome
    where
        F: Future<Output = Outcome> + Unpin,
    {
        let Self { first, second } = self;
        let work = async move {
            match second {
                None => first.around(request, move || method).await,
                Some(second) => {
                    first
                        .around(request, move || second.around(request, move || method))
                        .await
                }
            }
        };
        caught(request, std::pin::pin!(work)).await
    }
}
