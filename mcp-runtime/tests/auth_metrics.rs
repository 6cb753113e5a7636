//! The HTTP authorization gate's refusals are counted in the server's metrics: each 401 (no
//! token, a token the verifier refuses) and 403 (a token without the server-wide scope) is one
//! `mcp_server_refusals_total{cause="auth"}`, and none of them reaches the layers (so no
//! operation is recorded for them); an accepted request counts no refusal.
#![cfg(all(feature = "auth", feature = "http"))]

use mcp_runtime::BoxFuture;
use mcp_runtime::auth::{AuthError, Authorization, Claims, TokenVerifier};
use mcp_runtime::metrics::Metrics;
use mcp_runtime::prelude::*;
use reqwest::StatusCode;

/// `writer` has the server's scope, `reader` has another, anything else is refused.
struct Keys;

impl TokenVerifier for Keys {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(async move {
            match token {
                "writer" => Ok(Claims::new("w").with_scopes(["notes:write"])),
                "reader" => Ok(Claims::new("r").with_scopes(["notes:read"])),
                _ => Err(AuthError::invalid("unknown key")),
            }
        })
    }
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// The lines of `text` that start with `prefix`.
fn lines<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[tokio::test]
async fn the_gates_401_and_403_are_counted_as_auth_refusals() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let metrics = Metrics::new();
    let server = Server::builder(server_info!())
        .metrics(&metrics)
        .auth(Authorization::new(&url, Keys).require_scopes(["notes:write"]))
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    let http = reqwest::Client::new();
    let post = |token: Option<&str>| {
        let mut req = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(INIT);
        if let Some(token) = token {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        req.send()
    };
    let refusals = |m: &Metrics| lines(&m.render(), "mcp_server_refusals_total{").join("\n");
    let none = "mcp_server_refusals_total{cause=\"auth\"} 0\n\
                mcp_server_refusals_total{cause=\"quota\"} 0\n\
                mcp_server_refusals_total{cause=\"rate_limit\"} 0";
    assert_eq!(refusals(&metrics), none);

    assert_eq!(post(None).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        post(Some("forged")).await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        post(Some("reader")).await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        refusals(&metrics),
        "mcp_server_refusals_total{cause=\"auth\"} 3\n\
         mcp_server_refusals_total{cause=\"quota\"} 0\n\
         mcp_server_refusals_total{cause=\"rate_limit\"} 0"
    );
    let text = metrics.render();
    assert_eq!(
        lines(&text, "mcp_server_operation_duration_seconds_count"),
        Vec::<&str>::new(),
        "a refused request never reaches the layers"
    );

    assert_eq!(post(Some("writer")).await.unwrap().status(), StatusCode::OK);
    let text = metrics.render();
    let counts = lines(&text, "mcp_server_operation_duration_seconds_count");
    assert_eq!(counts.len(), 1, "{counts:?}");
    assert!(
        counts[0].contains(r#"mcp_method_name="initialize""#) && counts[0].ends_with("} 1"),
        "{}",
        counts[0]
    );
    assert_eq!(
        refusals(&metrics),
        "mcp_server_refusals_total{cause=\"auth\"} 3\n\
         mcp_server_refusals_total{cause=\"quota\"} 0\n\
         mcp_server_refusals_total{cause=\"rate_limit\"} 0",
        "an accepted request is no refusal"
    );
    stop.shutdown();
}
