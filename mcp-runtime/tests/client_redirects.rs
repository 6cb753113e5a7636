//! The client's HTTP requests redirected (two loopback servers, two origins): a redirect to
//! another origin keeps the protocol's headers only, a redirect within the origin keeps every
//! header, a header dropped stays dropped when the redirects come back; and, with feature
//! `client-oauth`, protected resource metadata without `resource` still leads to authorization and
//! token requests with the RFC 8707 `resource` of the server's canonical URI.
#![cfg(feature = "client")]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use mcp_runtime::client::Client;
use mcp_runtime::protocol::ProtocolVersion;
use serde_json::{Value, json};

/// The headers of every POST an MCP endpoint answered, by path.
type Seen = Arc<Mutex<Vec<(String, HeaderMap)>>>;

/// A minimal handshake-era MCP endpoint: `initialize`, `ping`, notifications.
fn answer(body: &str) -> Response {
    let msg: Value = serde_json::from_str(body).unwrap();
    let Some(id) = msg.get("id").cloned() else {
        return StatusCode::ACCEPTED.into_response();
    };
    let result = if msg["method"] == "initialize" {
        json!({"protocolVersion":"2025-11-25","capabilities":{},
               "serverInfo":{"name":"target","version":"1"}})
    } else {
        json!({})
    };
    (
        [("content-type", "application/json")],
        json!({"jsonrpc":"2.0","id":id,"result":result}).to_string(),
    )
        .into_response()
}

fn redirect(to: String) -> Response {
    (StatusCode::TEMPORARY_REDIRECT, [("location", to)]).into_response()
}

/// A server on its own port: `/mcp` records and answers; `/same` redirects to its own
/// `/mcp`; `/away/{port}` to `/mcp` on another port; `/bounce/{port}` to `/same` on another
/// port.
async fn server() -> (u16, Seen) {
    let seen: Seen = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = Router::new()
        .route(
            "/mcp",
            post(
                |State(seen): State<Seen>, headers: HeaderMap, body: String| async move {
                    seen.lock().unwrap().push(("/mcp".into(), headers));
                    answer(&body)
                },
            ),
        )
        .route(
            "/same",
            post(move || async move { redirect(format!("http://127.0.0.1:{port}/mcp")) }),
        )
        .route(
            "/away/{to}",
            post(
                |axum::extract::Path(to): axum::extract::Path<u16>| async move {
                    redirect(format!("http://127.0.0.1:{to}/mcp"))
                },
            ),
        )
        .route(
            "/bounce/{to}",
            post(
                |axum::extract::Path(to): axum::extract::Path<u16>| async move {
                    redirect(format!("http://127.0.0.1:{to}/same"))
                },
            ),
        )
        .with_state(seen.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (port, seen)
}

async fn connect(url: &str) -> Client {
    Client::builder()
        .protocol_version(ProtocolVersion::V2025_11_25)
        .listen(false)
        .header("X-Api-Key", "k-123")
        .header("X-Tenant", "acme")
        .connect_http(url)
        .await
        .unwrap()
}

fn header<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).map(|v| v.to_str().unwrap())
}

#[tokio::test]
async fn a_redirect_to_another_origin_keeps_only_the_protocol_headers() {
    let (a, seen_a) = server().await;
    let (b, seen_b) = server().await;
    let client = connect(&format!("http://127.0.0.1:{a}/away/{b}")).await;
    client.ping().await.unwrap();
    client.close().await;
    assert!(seen_a.lock().unwrap().is_empty());
    let seen = seen_b.lock().unwrap();
    // initialize, notifications/initialized, ping: each redirected.
    assert_eq!(seen.len(), 3);
    for (_, h) in seen.iter() {
        assert_eq!(header(h, "x-api-key"), None);
        assert_eq!(header(h, "x-tenant"), None);
        assert_eq!(header(h, "content-type"), Some("application/json"));
        assert_eq!(
            header(h, "accept"),
            Some("application/json, text/event-stream")
        );
    }
    assert_eq!(header(&seen[0].1, "mcp-protocol-version"), None);
    assert_eq!(
        header(&seen[2].1, "mcp-protocol-version"),
        Some("2025-11-25")
    );
}

#[tokio::test]
async fn a_redirect_within_the_origin_keeps_every_header() {
    let (a, seen_a) = server().await;
    let client = connect(&format!("http://127.0.0.1:{a}/same")).await;
    client.ping().await.unwrap();
    client.close().await;
    let seen = seen_a.lock().unwrap();
    assert_eq!(seen.len(), 3);
    for (_, h) in seen.iter() {
        assert_eq!(header(h, "x-api-key"), Some("k-123"));
        assert_eq!(header(h, "x-tenant"), Some("acme"));
    }
}

#[tokio::test]
async fn a_header_dropped_on_the_way_stays_dropped_on_the_way_back() {
    // B's /bounce sends to A's /same (another origin: dropped), which sends to A's /mcp (the
    // same origin as the hop before: what is left is kept, nothing comes back).
    let (a, seen_a) = server().await;
    let (b, seen_b) = server().await;
    let client = connect(&format!("http://127.0.0.1:{b}/bounce/{a}")).await;
    client.ping().await.unwrap();
    client.close().await;
    assert!(seen_b.lock().unwrap().is_empty());
    let seen = seen_a.lock().unwrap();
    assert_eq!(seen.len(), 3);
    for (_, h) in seen.iter() {
        assert_eq!(header(h, "x-api-key"), None);
    }
}

#[tokio::test]
async fn redirects_end_after_ten() {
    let seen: Arc<Mutex<u32>> = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = Router::new()
        .route(
            "/loop",
            post(move |State(n): State<Arc<Mutex<u32>>>| async move {
                *n.lock().unwrap() += 1;
                redirect(format!("http://127.0.0.1:{port}/loop"))
            }),
        )
        .with_state(seen.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let err = Client::builder()
        .protocol_version(ProtocolVersion::V2025_11_25)
        .connect_http(&format!("http://127.0.0.1:{port}/loop"))
        .await
        .unwrap_err();
    assert_eq!(
        chain(&err),
        "transport: POST failed: more than 10 redirects"
    );
    assert_eq!(*seen.lock().unwrap(), 11);
}

/// The authorization server of the `resource` test, recording what it is sent.
/// An error and its sources, joined as a report shows them.
fn chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        text = format!("{text}: {e}");
        source = e.source();
    }
    text
}

#[cfg(feature = "client-oauth")]
mod resource {
    use super::*;
    use axum::extract::Query;
    use axum::routing::get;
    use mcp_runtime::client::oauth::{FollowRedirect, OAuth};

    #[derive(Default)]
    struct Asked {
        authorizations: Vec<HashMap<String, String>>,
        tokens: Vec<HashMap<String, String>>,
    }

    fn form(body: &str) -> HashMap<String, String> {
        reqwest::Url::parse(&format!("http://form/?{body}"))
            .unwrap()
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    fn json_reply(body: Value) -> Response {
        ([("content-type", "application/json")], body.to_string()).into_response()
    }

    /// An MCP endpoint that wants `Bearer at-1`, whose protected resource metadata (served by
    /// the authorization server) has no `resource`.
    #[tokio::test]
    async fn metadata_without_resource_still_sends_the_servers_canonical_uri() {
        let asked: Arc<Mutex<Asked>> = Arc::default();
        let as_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", as_listener.local_addr().unwrap());
        let meta = {
            let issuer = issuer.clone();
            move || async move {
                json_reply(json!({
                    "issuer": issuer,
                    "authorization_endpoint": format!("{issuer}/authorize"),
                    "token_endpoint": format!("{issuer}/token"),
                    "response_types_supported": ["code"],
                    "code_challenge_methods_supported": ["S256"],
                    "token_endpoint_auth_methods_supported": ["none"],
                }))
            }
        };
        let prm = {
            let issuer = issuer.clone();
            move || async move {
                json_reply(json!({"authorization_servers": [issuer], "scopes_supported": ["mcp"]}))
            }
        };
        let app = Router::new()
            .route("/.well-known/oauth-authorization-server", get(meta))
            .route("/prm", get(prm))
            .route(
                "/authorize",
                get(
                    |State(a): State<Arc<Mutex<Asked>>>,
                     Query(q): Query<HashMap<String, String>>| async move {
                        a.lock().unwrap().authorizations.push(q.clone());
                        let mut back = reqwest::Url::parse(&q["redirect_uri"]).unwrap();
                        back.query_pairs_mut()
                            .append_pair("code", "code-1")
                            .append_pair("state", &q["state"]);
                        (StatusCode::FOUND, [("location", back.to_string())]).into_response()
                    },
                ),
            )
            .route(
                "/token",
                post(
                    |State(a): State<Arc<Mutex<Asked>>>, body: String| async move {
                        a.lock().unwrap().tokens.push(form(&body));
                        json_reply(json!({"access_token": "at-1", "token_type": "Bearer"}))
                    },
                ),
            )
            .with_state(asked.clone());
        tokio::spawn(async move { axum::serve(as_listener, app).await });

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let challenge = format!(r#"Bearer resource_metadata="{issuer}/prm""#);
        let mcp = Router::new().route(
            "/mcp/",
            post(move |headers: HeaderMap, body: String| async move {
                if header(&headers, "authorization") != Some("Bearer at-1") {
                    let www = [("www-authenticate", challenge)];
                    return (StatusCode::UNAUTHORIZED, www).into_response();
                }
                answer(&body)
            }),
        );
        tokio::spawn(async move { axum::serve(listener, mcp).await });

        // The URL as given: a trailing slash, a query and a fragment the resource leaves out.
        let oauth = OAuth::builder()
            .redirect_uri("http://127.0.0.1:1/callback")
            .preregistered("client-1", None)
            .redirect_handler(FollowRedirect::new())
            .build();
        let client = Client::builder()
            .oauth(oauth)
            .protocol_version(ProtocolVersion::V2025_11_25)
            .listen(false)
            .connect_http(&format!("http://LOCALHOST:{port}/mcp/?tenant=a#top"))
            .await
            .unwrap();
        client.ping().await.unwrap();
        client.close().await;

        let expected = format!("http://localhost:{port}/mcp");
        let asked = asked.lock().unwrap();
        assert_eq!(asked.authorizations.len(), 1);
        assert_eq!(asked.authorizations[0]["resource"], expected);
        assert_eq!(asked.authorizations[0]["scope"], "mcp");
        assert_eq!(asked.tokens.len(), 1);
        assert_eq!(asked.tokens[0]["grant_type"], "authorization_code");
        assert_eq!(asked.tokens[0]["client_id"], "client-1");
        assert_eq!(asked.tokens[0]["resource"], expected);
    }
}
