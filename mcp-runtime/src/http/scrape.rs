//! `/metrics` on the standalone server (`HttpOptions::metrics`, `metrics_address`, the
//! command line's `--metrics` and `--metrics-address`): checked and bound before serving.

use axum::Router;

use crate::error::Error;
use crate::http::options::MetricsAt;
use crate::server::ServerInner;

/// Where the metrics are served, once checked.
pub(crate) enum Scrape {
    /// Not at all.
    Off,
    /// These routes, merged into the endpoint's.
    Here(Router),
    /// These routes on their own listener.
    Apart(tokio::net::TcpListener, Router),
}

/// Checks `at` against the server and the paths its endpoint takes, and binds a separate
/// listener: a configuration that cannot be honoured refuses to serve.
pub(crate) async fn prepare(
    server: &ServerInner,
    at: &MetricsAt,
    taken: &[String],
) -> Result<Scrape, Error> {
    let (addr, path) = match at {
        MetricsAt::Off => return Ok(Scrape::Off),
        MetricsAt::Path(path) => (None, path),
        MetricsAt::Address(addr, path) => (Some(addr), path),
    };
    let Some(metrics) = server.options.metrics.get() else {
        return Err(Error::Config(
            "/metrics is asked for but the server keeps no metrics: give it `ServerBuilder::metrics`".into(),
        ));
    };
    if !super::health::plain_path(path) {
        return Err(Error::Config(format!(
            "metrics path {path:?} must start with `/` and use only letters, digits and `/-._~`"
        )));
    }
    let routes = crate::metrics::router::at(metrics, path);
    match addr {
        None if taken.contains(path) => Err(Error::Config(format!(
            "metrics path {path:?} is taken by another endpoint"
        ))),
        None => Ok(Scrape::Here(routes)),
        Some(addr) => match tokio::net::TcpListener::bind(addr.as_str()).await {
            Ok(listener) => Ok(Scrape::Apart(listener, routes)),
            Err(e) => Err(Error::Config(format!(
                "cannot listen for metrics on {addr}: {e}"
            ))),
        },
    }
}

/// Serves `routes` on `listener` until the future is dropped (with the endpoint).
pub(crate) async fn serve_apart(listener: tokio::net::TcpListener, routes: Router) {
    if let Ok(local) = listener.local_addr() {
        tracing::info!(%local, "serving metrics");
    }
    let _ = axum::serve(listener, routes).await;
}
