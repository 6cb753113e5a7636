//! The OAuth client (feature `client-oauth`) against this crate's own protected resource
//! server and a small authorization server written here (axum, loopback): discovery from the
//! 401, dynamic registration, PKCE, the `resource` indicator, the `iss` check, step-up on a 403
//! `insufficient_scope`, refresh, and a refused redirect. The authorization server records
//! every request, and the tests assert on them.
#![cfg(all(feature = "auth", feature = "client-oauth"))]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Query, State as AxState};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_runtime::BoxFuture;
use mcp_runtime::auth::{Auth, AuthError, Authorization, Claims, TokenVerifier};
use mcp_runtime::client::oauth::{OAuth, OAuthError, RedirectHandler};
use mcp_runtime::client::{Client, ClientError};
use mcp_runtime::prelude::*;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

/// Reads the notes.
#[tool(scopes = ["notes:read"])]
async fn read_notes(auth: Auth) -> String {
    format!("notes of {} ({})", auth.subject, auth.scopes.join(" "))
}

/// Writes a note.
#[tool(scopes = ["notes:write"])]
async fn write_note(auth: Auth, text: String) -> String {
    format!("{} wrote {text}", auth.subject)
}

/// What the authorization server saw.
#[derive(Default)]
struct Seen {
    registrations: Vec<Value>,
    authorizations: Vec<HashMap<String, String>>,
    tokens: Vec<HashMap<String, String>>,
    /// code → (code_challenge, scope)
    codes: HashMap<String, (String, String)>,
    /// access token → scopes
    issued: HashMap<String, Vec<String>>,
    /// Whether the redirect carries a wrong `iss`.
    wrong_iss: bool,
}

#[derive(Clone)]
struct As {
    issuer: String,
    seen: Arc<Mutex<Seen>>,
}

/// A JSON answer.
fn reply(status: StatusCode, body: Value) -> Response {
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// A form body's fields.
fn form(body: &str) -> HashMap<String, String> {
    reqwest::Url::parse(&format!("http://form/?{body}"))
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

async fn as_metadata(AxState(a): AxState<As>) -> Response {
    reply(
        StatusCode::OK,
        json!({
            "issuer": a.issuer,
            "authorization_endpoint": format!("{}/authorize", a.issuer),
            "token_endpoint": format!("{}/token", a.issuer),
            "registration_endpoint": format!("{}/register", a.issuer),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": true,
            "scopes_supported": ["notes:read", "notes:write", "offline_access"],
        }),
    )
}

async fn register(AxState(a): AxState<As>, body: String) -> Response {
    let mut seen = a.seen.lock().unwrap();
    seen.registrations
        .push(serde_json::from_str(&body).unwrap_or(Value::Null));
    let id = format!("client-{}", seen.registrations.len());
    reply(
        StatusCode::CREATED,
        json!({"client_id": id, "token_endpoint_auth_method": "none"}),
    )
}

async fn authorize(AxState(a): AxState<As>, Query(q): Query<HashMap<String, String>>) -> Response {
    let mut seen = a.seen.lock().unwrap();
    let code = format!("code-{}", seen.authorizations.len());
    let challenge = q.get("code_challenge").cloned().unwrap_or_default();
    let scope = q.get("scope").cloned().unwrap_or_default();
    seen.codes.insert(code.clone(), (challenge, scope));
    seen.authorizations.push(q.clone());
    let iss = if seen.wrong_iss {
        "https://evil.example.com".to_owned()
    } else {
        a.issuer.clone()
    };
    let mut back = reqwest::Url::parse(&q["redirect_uri"]).unwrap();
    back.query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("state", q.get("state").map_or("", String::as_str))
        .append_pair("iss", &iss);
    Redirect::to(back.as_str()).into_response()
}

async fn token(AxState(a): AxState<As>, body: String) -> Response {
    let f = form(&body);
    let mut seen = a.seen.lock().unwrap();
    seen.tokens.push(f.clone());
    let n = seen.tokens.len();
    let scopes: Vec<String> = match f.get("grant_type").map(String::as_str) {
        Some("authorization_code") => {
            let Some((challenge, scope)) = seen.codes.remove(&f["code"]) else {
                return reply(StatusCode::BAD_REQUEST, json!({"error": "invalid_grant"}));
            };
            let verifier = f.get("code_verifier").cloned().unwrap_or_default();
            if URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) != challenge {
                return reply(StatusCode::BAD_REQUEST, json!({"error": "invalid_grant"}));
            }
            scope.split_whitespace().map(str::to_owned).collect()
        }
        Some("refresh_token") if f["refresh_token"] == "refresh-1" => {
            vec!["notes:read".into(), "notes:write".into()]
        }
        _ => {
            return reply(StatusCode::BAD_REQUEST, json!({"error": "invalid_grant"}));
        }
    };
    let access = format!("at-{n}");
    seen.issued.insert(access.clone(), scopes.clone());
    reply(
        StatusCode::OK,
        json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": 3600,
        "refresh_token": format!("refresh-{n}"),
        "scope": scopes.join(" "),
        }),
    )
}

/// Accepts the tokens the authorization server issued, with their scopes.
struct Issued(Arc<Mutex<Seen>>);

impl TokenVerifier for Issued {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(async move {
            let seen = self.0.lock().unwrap();
            match seen.issued.get(token) {
                Some(scopes) => Ok(Claims::new("ada").with_scopes(scopes.clone())),
                None => Err(AuthError::invalid("unknown token")),
            }
        })
    }
}

/// Takes the user through the authorization URL: fetches it and returns the redirect, as an
/// approving user's browser would land there.
struct Browser(reqwest::Client);

impl RedirectHandler for Browser {
    fn authorize<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<String, OAuthError>> {
        Box::pin(async move {
            let r = self.0.get(url).send().await.map_err(OAuthError::redirect)?;
            let location = r.headers()["location"]
                .to_str()
                .map_err(OAuthError::redirect)?;
            Ok(location.to_owned())
        })
    }
}

struct Setup {
    url: String,
    seen: Arc<Mutex<Seen>>,
    _stop: mcp_runtime::ShutdownHandle,
}

async fn setup() -> Setup {
    let as_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", as_listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Seen::default()));
    let app = Router::new()
        .route("/.well-known/oauth-authorization-server", get(as_metadata))
        .route("/register", post(register))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .with_state(As {
            issuer: issuer.clone(),
            seen: seen.clone(),
        });
    tokio::spawn(async move { axum::serve(as_listener, app).await });

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = Server::builder(server_info!())
        .tool(read_notes::TOOL)
        .tool(write_note::TOOL)
        .auth(
            Authorization::new(&url, Issued(seen.clone()))
                .authorization_server(&issuer)
                .require_scopes(["notes:read"]),
        )
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    Setup {
        url,
        seen,
        _stop: stop,
    }
}

fn oauth() -> OAuth {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    OAuth::builder()
        .client_name("oauth-client-test")
        .redirect_uri("http://127.0.0.1:1/callback")
        .redirect_handler(Browser(http))
        .build()
}

fn text(r: &mcp_runtime::protocol::CallToolResult) -> String {
    r.content[0].as_text().unwrap().to_owned()
}

#[tokio::test]
async fn discovers_registers_authorizes_and_steps_up() {
    let s = setup().await;
    let client = Client::builder()
        .oauth(oauth())
        .protocol_version(mcp_runtime::protocol::ProtocolVersion::V2025_11_25)
        .connect_http(&s.url)
        .await
        .unwrap();
    let r = client.call_tool("read_notes", json!({})).await.unwrap();
    assert_eq!(text(&r), "notes of ada (notes:read offline_access)");
    // notes:write is more than the token has: 403 insufficient_scope, then a second
    // authorization asking for the union.
    let r = client
        .call_tool("write_note", json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "ada wrote hi");
    client.close().await;

    let seen = s.seen.lock().unwrap();
    assert_eq!(seen.registrations.len(), 1, "one registration per server");
    let reg = &seen.registrations[0];
    assert_eq!(reg["client_name"], "oauth-client-test");
    assert_eq!(reg["token_endpoint_auth_method"], "none");
    assert_eq!(reg["application_type"], "native");
    assert_eq!(reg["redirect_uris"], json!(["http://127.0.0.1:1/callback"]));
    assert_eq!(seen.authorizations.len(), 2);
    let first = &seen.authorizations[0];
    assert_eq!(first["client_id"], "client-1");
    assert_eq!(first["resource"], s.url);
    assert_eq!(first["code_challenge_method"], "S256");
    assert_eq!(first["scope"], "notes:read offline_access");
    assert_eq!(
        seen.authorizations[1]["scope"],
        "notes:read offline_access notes:write"
    );
    assert_eq!(seen.tokens.len(), 2);
    for t in &seen.tokens {
        assert_eq!(t["grant_type"], "authorization_code");
        assert_eq!(t["resource"], s.url);
        assert_eq!(t["client_id"], "client-1");
    }
}

#[tokio::test]
async fn a_wrong_iss_stops_before_the_token_request() {
    let s = setup().await;
    s.seen.lock().unwrap().wrong_iss = true;
    let err = Client::builder()
        .oauth(oauth())
        .protocol_version(mcp_runtime::protocol::ProtocolVersion::V2025_11_25)
        .connect_http(&s.url)
        .await
        .unwrap_err();
    let ClientError::Unauthorized {
        status: 401,
        source: OAuthError::Refused(why),
    } = err
    else {
        panic!("expected a refused authorization after a 401, got {err:?}")
    };
    assert!(
        why.starts_with(
            "the redirect's iss \"https://evil.example.com\" is not the authorization server"
        ),
        "{why}"
    );
    let seen = s.seen.lock().unwrap();
    assert_eq!(seen.authorizations.len(), 1);
    assert!(seen.tokens.is_empty(), "no code went to the token endpoint");
}

#[tokio::test]
async fn a_refused_token_is_refreshed_first() {
    let s = setup().await;
    let client = Client::builder()
        .oauth(oauth())
        .protocol_version(mcp_runtime::protocol::ProtocolVersion::V2025_11_25)
        .connect_http(&s.url)
        .await
        .unwrap();
    // The server forgets the first token: the next request is refused with 401, and the
    // refresh token gets a new one without another authorization.
    s.seen.lock().unwrap().issued.remove("at-1");
    let r = client.call_tool("read_notes", json!({})).await.unwrap();
    assert_eq!(text(&r), "notes of ada (notes:read notes:write)");
    client.close().await;
    let seen = s.seen.lock().unwrap();
    assert_eq!(seen.authorizations.len(), 1);
    assert_eq!(seen.tokens.len(), 2);
    assert_eq!(seen.tokens[1]["grant_type"], "refresh_token");
    assert_eq!(seen.tokens[1]["refresh_token"], "refresh-1");
    assert_eq!(seen.tokens[1]["resource"], s.url);
}
