//! The liveness and readiness endpoints (`/healthz`, `/readyz` by default on the standalone
//! server).

use std::sync::Arc;

use axum::Router;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

use crate::error::Error;
use crate::http::endpoint::Http;
use crate::http::options::{Health, LIVENESS, READINESS};

/// The liveness and readiness paths an endpoint serves, if any: `standalone` for the server's
/// own listener, `taken` the paths its MCP routes use.
pub(crate) fn paths(
    health: &Health,
    standalone: bool,
    taken: &[String],
) -> Result<Option<(String, String)>, Error> {
    let (live, ready) = match health {
        Health::Off => return Ok(None),
        Health::Auto if !standalone => return Ok(None),
        Health::Auto => (LIVENESS.to_owned(), READINESS.to_owned()),
        Health::Paths(live, ready) => (live.clone(), ready.clone()),
    };
    for path in [&live, &ready] {
        if !plain_path(path) {
            return Err(Error::Config(format!(
                "health endpoint path {path:?} must start with `/` and use only letters, digits and `/-._~`"
            )));
        }
        if taken.contains(path) {
            return Err(Error::Config(format!(
                "health endpoint path {path:?} is taken by the MCP endpoint"
            )));
        }
    }
    if live == ready {
        return Err(Error::Config(format!(
            "the liveness and readiness endpoints need two paths, not {live:?} twice"
        )));
    }
    Ok(Some((live, ready)))
}

/// Whether `path` is a route this server may add beside its endpoint: it starts with `/` and
/// has only letters, digits and `/-._~` (no route parameters, no wildcards, nothing to escape).
pub(crate) fn plain_path(path: &str) -> bool {
    path.starts_with('/')
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/-._~".contains(&b))
}

/// Adds the two endpoints to `router`.
pub(crate) fn routes(router: Router, http: &Arc<Http>, (live, ready): &(String, String)) -> Router {
    let state = Arc::clone(http);
    router
        .route(live, axum::routing::get(|| async { liveness() }))
        .route(
            ready,
            axum::routing::get(move || async move { readiness(!state.draining()) }),
        )
}

fn status(code: StatusCode, body: &'static str) -> Response {
    (
        code,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// 200 `{"status":"ok"}`: the process serves.
pub(crate) fn liveness() -> Response {
    status(StatusCode::OK, r#"{"status":"ok"}"#)
}

/// 200 `{"status":"ready"}`, or 503 `{"status":"draining"}` once shutting down.
pub(crate) fn readiness(ready: bool) -> Response {
    if ready {
        status(StatusCode::OK, r#"{"status":"ready"}"#)
    } else {
        status(StatusCode::SERVICE_UNAVAILABLE, r#"{"status":"draining"}"#)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_checked() {
        let taken = ["/mcp", "/sse", "/messages"].map(String::from);
        assert_eq!(paths(&Health::Auto, false, &taken).unwrap(), None);
        assert_eq!(
            paths(&Health::Auto, true, &taken).unwrap(),
            Some(("/healthz".into(), "/readyz".into()))
        );
        assert_eq!(paths(&Health::Off, true, &taken).unwrap(), None);
        let custom = Health::Paths("/live".into(), "/ops/ready".into());
        assert_eq!(
            paths(&custom, false, &taken).unwrap(),
            Some(("/live".into(), "/ops/ready".into()))
        );
        for (live, ready) in [
            ("live", "/ready"),
            ("/mcp", "/ready"),
            ("/live", "/{id}"),
            ("/live", "/*rest"),
            ("/same", "/same"),
            ("/live", "/ready?x"),
        ] {
            let h = Health::Paths(live.into(), ready.into());
            assert!(paths(&h, true, &taken).is_err(), "{live} {ready}");
        }
    }
}
