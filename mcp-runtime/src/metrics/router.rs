//! `GET /metrics` as an axum router (feature `http`).

use axum::Router;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, header};

use super::Metrics;

/// The content type of the Prometheus text exposition format 0.0.4.
const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A router answering `GET /metrics` with `metrics` as Prometheus text, for an application
/// that mounts the server in its own axum app (the standalone server serves it itself when
/// [`HttpOptions::metrics`](crate::http::HttpOptions::metrics) asks).
///
/// ```
/// use mcp_runtime::metrics::{self, Metrics};
/// use mcp_runtime::prelude::*;
///
/// let metrics = Metrics::new();
/// let server = Server::builder(server_info!()).metrics(&metrics).build().unwrap();
/// let app = server.router().merge(metrics::router(&metrics));
/// # let _ = app;
/// ```
pub fn router(metrics: &Metrics) -> Router {
    at(metrics, "/metrics")
}

/// `GET path` answered with `metrics`.
pub(crate) fn at(metrics: &Metrics, path: &str) -> Router {
    let metrics = metrics.clone();
    Router::new().route(
        path,
        axum::routing::get(move || {
            let text = metrics.render();
            async move { exposition(text) }
        }),
    )
}

fn exposition(text: String) -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE))],
        text,
    )
        .into_response()
}
