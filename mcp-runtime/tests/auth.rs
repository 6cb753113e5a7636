//! Authorization (feature `auth`) against a real authorization server: oauth2-mock-server
//! (tests/auth/mock-as.mjs, pinned in tests/auth/package.json, installed on first use with
//! `npm ci`) on a loopback port, issuing RS256 JWTs, serving discovery metadata and JWKS.
//!
//! The hostile-token table of docs/authorization-hostile-tokens.md is `hostile_*`: one test per
//! row, each asserting the status, the exact challenge, and that no handler ran.
#![cfg(feature = "auth")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use hmac::{Hmac, Mac};
use mcp_runtime::auth::{Auth, Authorization, IntrospectionVerifier, JwtVerifier};
use mcp_runtime::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Counts the handler runs of one server.
#[derive(Default, Clone)]
struct Runs(std::sync::Arc<AtomicUsize>);

/// Reads the notes.
#[tool(scopes = ["notes:read"])]
async fn read_notes(auth: Auth, runs: State<Runs>) -> String {
    runs.0.fetch_add(1, Ordering::SeqCst);
    format!("notes of {}", auth.subject)
}

/// Writes a note.
#[tool(scopes = ["notes:write"])]
async fn write_note(auth: Auth, runs: State<Runs>, text: String) -> String {
    runs.0.fetch_add(1, Ordering::SeqCst);
    format!("{} wrote {text}", auth.subject)
}

/// Says who is calling, and with which scopes and client.
#[tool]
async fn whoami(auth: Auth, runs: State<Runs>) -> String {
    runs.0.fetch_add(1, Ordering::SeqCst);
    format!(
        "{} {} {}",
        auth.subject,
        auth.scopes.join(","),
        auth.client_id.as_deref().unwrap_or("-")
    )
}

/// The secret prompt.
#[prompt(scopes = ["admin"])]
async fn secret(runs: State<Runs>) -> String {
    runs.0.fetch_add(1, Ordering::SeqCst);
    "secret".into()
}

/// Installs tests/auth's pinned packages once.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/auth");
        if std::path::Path::new(dir)
            .join("node_modules/oauth2-mock-server")
            .exists()
        {
            return;
        }
        let ok = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(dir)
            .status()
            .expect("npm (Node 18+) is needed by the authorization tests");
        assert!(ok.success(), "npm ci in tests/auth failed");
    });
}

/// A running oauth2-mock-server; stopped on drop.
struct MockAs {
    child: Child,
    issuer: String,
    http: reqwest::Client,
}

impl MockAs {
    fn start() -> Self {
        Self::start_with_kid(None)
    }

    fn start_with_kid(kid: Option<&str>) -> Self {
        install();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/auth/mock-as.mjs");
        let mut cmd = Command::new("node");
        cmd.arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(kid) = kid {
            cmd.env("MOCK_AS_KID", kid);
        }
        let mut child = cmd.spawn().expect("node runs tests/auth/mock-as.mjs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let v: Value = serde_json::from_str(&line).expect("the mock AS announces its issuer");
        Self {
            child,
            issuer: v["issuer"].as_str().unwrap().to_owned(),
            http: reqwest::Client::new(),
        }
    }

    /// A client-credentials token; `extra` are more form fields (`scope`, `resource`, `x_*`).
    async fn token(&self, client: &str, extra: &[(&str, &str)]) -> String {
        let mut form = vec![("grant_type", "client_credentials"), ("client_id", client)];
        form.extend_from_slice(extra);
        let body = form
            .iter()
            .map(|(k, v)| {
                format!(
                    "{k}={}",
                    v.replace('+', "%2B")
                        .replace(' ', "+")
                        .replace(':', "%3A")
                        .replace('/', "%2F")
                )
            })
            .collect::<Vec<_>>()
            .join("&");
        let r: Value = self
            .http
            .post(format!("{}/token", self.issuer))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap()
            .json_value()
            .await;
        r["access_token"].as_str().expect("a token").to_owned()
    }

    /// The signing key (JWK) the server publishes.
    async fn jwk(&self) -> Value {
        let r = self
            .http
            .get(format!("{}/jwks", self.issuer))
            .send()
            .await
            .unwrap()
            .json_value()
            .await;
        r["keys"][0].clone()
    }
}

impl Drop for MockAs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

trait JsonValue {
    async fn json_value(self) -> Value;
}

impl JsonValue for reqwest::Response {
    async fn json_value(self) -> Value {
        serde_json::from_slice(&self.bytes().await.unwrap()).unwrap()
    }
}

/// A protected server on a loopback port (standalone), its URL and its handler-run counter.
struct Protected {
    url: String,
    base: String,
    resource: String,
    runs: Runs,
    http: reqwest::Client,
    _stop: mcp_runtime::ShutdownHandle,
}

async fn protected(issuer: &str, tune: impl FnOnce(Authorization) -> Authorization) -> Protected {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let resource = format!("{base}/mcp");
    let auth =
        tune(Authorization::jwt(issuer, &resource).imply("notes", ["notes:read", "notes:write"]));
    protected_with(listener, base, resource, auth).await
}

async fn protected_with(
    listener: tokio::net::TcpListener,
    base: String,
    resource: String,
    auth: Authorization,
) -> Protected {
    let runs = Runs::default();
    let server = Server::builder(server_info!())
        .tool(read_notes::TOOL)
        .tool(write_note::TOOL)
        .tool(whoami::TOOL)
        .prompt(secret::PROMPT)
        .state(runs.clone())
        .auth(auth)
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    Protected {
        url: format!("{base}/mcp"),
        base,
        resource,
        runs,
        http: reqwest::Client::new(),
        _stop: stop,
    }
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

fn call(tool: &str, args: Value) -> String {
    json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":tool,"arguments":args,
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})
    .to_string()
}

impl Protected {
    /// A stateless-era `tools/call` with `authorization` (a whole header value).
    async fn call(
        &self,
        authorization: Option<&str>,
        tool: &str,
        args: Value,
    ) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .body(call(tool, args));
        if let Some(a) = authorization {
            req = req.header("authorization", a);
        }
        req.send().await.unwrap()
    }

    fn metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.base)
    }

    fn runs(&self) -> usize {
        self.runs.0.load(Ordering::SeqCst)
    }
}

fn challenge(r: &reqwest::Response) -> String {
    r.headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// The text of a tool result.
async fn text_of(r: reqwest::Response) -> String {
    assert_eq!(r.status(), StatusCode::OK);
    let v = r.json_value().await;
    v["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{v}"))
        .to_owned()
}

// ---- the happy paths ----

#[tokio::test]
async fn a_valid_token_reaches_the_handler_with_its_claims() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "notes-app",
            &[("scope", "notes:read"), ("resource", &s.resource)],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "whoami", json!({}))
        .await;
    assert_eq!(text_of(r).await, "notes-app notes:read notes-app");
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    assert_eq!(text_of(r).await, "notes of notes-app");
    assert_eq!(s.runs(), 2);
}

#[tokio::test]
async fn a_broader_scope_implies_the_narrower_ones() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_sub", "ada"),
            ],
        )
        .await;
    let r = s
        .call(
            Some(&format!("Bearer {t}")),
            "write_note",
            json!({"text": "hi"}),
        )
        .await;
    assert_eq!(text_of(r).await, "ada wrote hi");
}

#[tokio::test]
async fn protected_resource_metadata_at_both_well_known_paths() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x.require_scopes(["mcp"])).await;
    for url in [
        s.metadata_url(),
        format!("{}/.well-known/oauth-protected-resource", s.base),
    ] {
        let r = s.http.get(&url).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{url}");
        assert_eq!(r.headers()["content-type"], "application/json");
        let doc = r.json_value().await;
        assert_eq!(
            doc,
            json!({
                "resource": s.resource,
                "authorization_servers": [a.issuer],
                "scopes_supported": ["admin", "mcp", "notes", "notes:read", "notes:write"],
                "bearer_methods_supported": ["header"],
            })
        );
    }
}

#[tokio::test]
async fn lists_hide_what_the_caller_may_not_use_when_asked() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x.hide_unpermitted_items(true)).await;
    let t = a
        .token("c", &[("scope", "notes:read"), ("resource", &s.resource)])
        .await;
    let list = json!({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}});
    let r = s
        .http
        .post(&s.url)
        .header("authorization", format!("Bearer {t}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .body(list.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let v = r.json_value().await;
    let names: Vec<&str> = v["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_notes", "whoami"]);
}

#[tokio::test]
async fn opaque_tokens_through_introspection() {
    let a = MockAs::start();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let resource = format!("{base}/mcp");
    let verifier = IntrospectionVerifier::new(&a.issuer, &resource)
        .endpoint(format!("{}/introspect-jwt", a.issuer))
        .client_credentials("rs", "secret");
    let auth = Authorization::new(&resource, verifier).authorization_server(&a.issuer);
    let s = protected_with(listener, base, resource, auth).await;
    let good = a
        .token("c", &[("scope", "notes:read"), ("resource", &s.resource)])
        .await;
    let r = s
        .call(Some(&format!("Bearer {good}")), "read_notes", json!({}))
        .await;
    assert_eq!(text_of(r).await, "notes of c");
    let foreign = a
        .token(
            "c",
            &[
                ("scope", "notes:read"),
                ("x_aud", "http://other.example/mcp"),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {foreign}")), "read_notes", json!({}))
        .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert!(challenge(&r).contains(r#"error_description="the token is not for this resource""#));
    let r = s
        .call(Some("Bearer opaque-nonsense"), "read_notes", json!({}))
        .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(s.runs(), 1);
}

#[tokio::test]
async fn the_mounted_router_is_protected_too() {
    let a = MockAs::start();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let resource = format!("{base}/mcp");
    let server = Server::builder(server_info!())
        .tool(read_notes::TOOL)
        .state(Runs::default())
        .auth(Authorization::jwt(&a.issuer, &resource))
        .build()
        .unwrap();
    let app = axum::Router::new()
        .nest("/mcp", server.router())
        .merge(server.auth_metadata_router());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let http = reqwest::Client::new();
    let r = http
        .post(&resource)
        .header("content-type", "application/json")
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenge(&r),
        format!(r#"Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp""#)
    );
    let r = http
        .get(format!("{base}/.well-known/oauth-protected-resource/mcp"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.json_value().await["resource"], json!(resource));
    let t = a
        .token("c", &[("scope", "notes:read"), ("resource", &resource)])
        .await;
    let r = http
        .post(&resource)
        .header("authorization", format!("Bearer {t}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers().contains_key("mcp-session-id"));
}

// ---- the hostile-token table (docs/authorization-hostile-tokens.md), one test per row ----

/// Asserts a refusal: status, exact challenge, no handler run.
async fn refused(s: &Protected, r: reqwest::Response, status: StatusCode, expected: &str) {
    assert_eq!(r.status(), status);
    assert_eq!(challenge(&r), expected);
    let body = r.json_value().await;
    assert_eq!(body["jsonrpc"], "2.0");
    assert!(body["error"]["message"].is_string(), "{body}");
    assert_eq!(s.runs(), 0, "a handler ran");
}

fn invalid(s: &Protected, why: &str) -> String {
    format!(
        r#"Bearer error="invalid_token", error_description="{why}", resource_metadata="{}""#,
        s.metadata_url()
    )
}

fn forge(header: Value, claims: Value, sign: impl FnOnce(&str) -> Vec<u8>) -> String {
    let input = format!(
        "{}.{}",
        B64.encode(header.to_string()),
        B64.encode(claims.to_string())
    );
    let sig = sign(&input);
    format!("{input}.{}", B64.encode(sig))
}

fn good_claims(a: &MockAs, s: &Protected) -> Value {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    json!({"iss": a.issuer, "aud": s.resource, "sub": "mallory", "scope": "notes", "exp": now + 600, "iat": now})
}

#[tokio::test]
async fn hostile_no_token() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let r = s.call(None, "read_notes", json!({})).await;
    let expected = format!(r#"Bearer resource_metadata="{}""#, s.metadata_url());
    refused(&s, r, StatusCode::UNAUTHORIZED, &expected).await;
}

#[tokio::test]
async fn hostile_alg_none() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = forge(
        json!({"alg": "none", "typ": "JWT"}),
        good_claims(&a, &s),
        |_| Vec::new(),
    );
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    let why = "the token is not a JWT with a supported algorithm";
    refused(&s, r, StatusCode::UNAUTHORIZED, &invalid(&s, why)).await;
}

#[tokio::test]
async fn hostile_signed_by_another_key() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    // Another authorization server's key under an unknown kid…
    let other = MockAs::start();
    let t = other
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("x_iss", &a.issuer),
                ("x_aud", &s.resource),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token is signed by an unknown key"),
    )
    .await;
    // …and under the real key's kid.
    let kid = a.jwk().await["kid"].as_str().unwrap().to_owned();
    let twin = MockAs::start_with_kid(Some(&kid));
    let t = twin
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("x_iss", &a.issuer),
                ("x_aud", &s.resource),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token's signature does not verify"),
    )
    .await;
}

#[tokio::test]
async fn hostile_hs256_signed_with_the_public_key() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let jwk = a.jwk().await;
    let kid = jwk["kid"].as_str().unwrap().to_owned();
    let t = forge(
        json!({"alg": "HS256", "typ": "JWT", "kid": kid}),
        good_claims(&a, &s),
        |input| {
            let mut mac = Hmac::<sha2::Sha256>::new_from_slice(jwk.to_string().as_bytes()).unwrap();
            mac.update(input.as_bytes());
            mac.finalize().into_bytes().to_vec()
        },
    );
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token's algorithm HS256 is not accepted"),
    )
    .await;
}

#[tokio::test]
async fn hostile_expired() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_exp", "-120"),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token has expired"),
    )
    .await;
}

#[tokio::test]
async fn hostile_not_yet_valid() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_nbf", "3600"),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token is not valid yet"),
    )
    .await;
}

#[tokio::test]
async fn hostile_wrong_issuer() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_iss", "http://evil.example"),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token was issued by another issuer"),
    )
    .await;
}

#[tokio::test]
async fn hostile_wrong_audience() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", "http://127.0.0.1:1/other-mcp"),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token is not for this resource"),
    )
    .await;
}

#[tokio::test]
async fn hostile_missing_scope() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token("c", &[("scope", "notes:read"), ("resource", &s.resource)])
        .await;
    let r = s
        .call(
            Some(&format!("Bearer {t}")),
            "write_note",
            json!({"text": "x"}),
        )
        .await;
    let expected = format!(
        r#"Bearer error="insufficient_scope", scope="notes:write", resource_metadata="{}", error_description="this request needs the scopes: notes:write""#,
        s.metadata_url()
    );
    refused(&s, r, StatusCode::FORBIDDEN, &expected).await;
    // A server-wide scope is named together with the item's.
    let s = protected(&a.issuer, |x| x.require_scopes(["mcp"])).await;
    let t = a
        .token("c", &[("scope", "mcp"), ("resource", &s.resource)])
        .await;
    let r = s
        .call(
            Some(&format!("Bearer {t}")),
            "write_note",
            json!({"text": "x"}),
        )
        .await;
    let expected = format!(
        r#"Bearer error="insufficient_scope", scope="mcp notes:write", resource_metadata="{}", error_description="this request needs the scopes: mcp notes:write""#,
        s.metadata_url()
    );
    refused(&s, r, StatusCode::FORBIDDEN, &expected).await;
}

#[tokio::test]
async fn hostile_token_in_query_string() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token("c", &[("scope", "notes"), ("resource", &s.resource)])
        .await;
    let r = s
        .http
        .post(format!("{}?access_token={t}", s.url))
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "read_notes")
        .body(call("read_notes", json!({})))
        .send()
        .await
        .unwrap();
    let expected = format!(
        r#"Bearer error="invalid_request", error_description="access tokens are not accepted in the query string; send an Authorization header", resource_metadata="{}""#,
        s.metadata_url()
    );
    refused(&s, r, StatusCode::BAD_REQUEST, &expected).await;
}

#[tokio::test]
async fn hostile_another_subjects_session() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let alice = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_sub", "alice"),
            ],
        )
        .await;
    let bob = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_sub", "bob"),
            ],
        )
        .await;
    let post = |token: &str, sid: Option<&str>, body: &str| {
        let mut req = s
            .http
            .post(&s.url)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_owned());
        if let Some(sid) = sid {
            req = req
                .header("mcp-session-id", sid)
                .header("mcp-protocol-version", "2025-11-25");
        }
        req.send()
    };
    let r = post(&alice, None, INIT).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_notes","arguments":{}}}"#;
    let r = post(&bob, Some(&sid), call).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert_eq!(challenge(&r), "");
    assert_eq!(r.json_value().await["error"]["code"], -32001);
    assert_eq!(s.runs(), 0, "a handler ran");
    // Alice's own session serves her.
    let r = post(&alice, Some(&sid), call).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(s.runs(), 1);
}

#[tokio::test]
async fn hostile_garbage() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let r = s
        .call(Some("Bearer garbage"), "read_notes", json!({}))
        .await;
    let why = "the token is not a JWT with a supported algorithm";
    refused(&s, r, StatusCode::UNAUTHORIZED, &invalid(&s, why)).await;
    let r = s
        .call(Some("Basic dXNlcjpwYXNz"), "read_notes", json!({}))
        .await;
    let why = "expected `Authorization: Bearer <token>`";
    refused(&s, r, StatusCode::UNAUTHORIZED, &invalid(&s, why)).await;
}

#[tokio::test]
async fn hostile_10_kb_header() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let huge = format!("Bearer {}", "A".repeat(10 * 1024));
    let r = s.call(Some(&huge), "read_notes", json!({})).await;
    let why = "the Authorization header is over 8192 bytes";
    refused(&s, r, StatusCode::UNAUTHORIZED, &invalid(&s, why)).await;
}

#[tokio::test]
async fn jwks_refresh_on_unknown_kid_is_rate_bounded() {
    let a = MockAs::start();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let resource = format!("{base}/mcp");
    let verifier = JwtVerifier::new(&a.issuer, &resource)
        .min_refresh_interval(std::time::Duration::from_secs(3600));
    let auth = Authorization::new(&resource, verifier).authorization_server(&a.issuer);
    let s = protected_with(listener, base, resource, auth).await;
    let good = a
        .token("c", &[("scope", "notes:read"), ("resource", &s.resource)])
        .await;
    let r = s
        .call(Some(&format!("Bearer {good}")), "read_notes", json!({}))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    // Forged tokens under fresh kids: answered from the cache, quickly, never a fetch storm.
    let other = MockAs::start();
    let forged = other
        .token(
            "c",
            &[
                ("scope", "notes:read"),
                ("x_iss", &a.issuer),
                ("x_aud", &s.resource),
            ],
        )
        .await;
    let started = std::time::Instant::now();
    for _ in 0..20 {
        let r = s
            .call(Some(&format!("Bearer {forged}")), "read_notes", json!({}))
            .await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
    drop(a); // the authorization server is gone: a fetch would now fail with 503
    let r = s
        .call(Some(&format!("Bearer {forged}")), "read_notes", json!({}))
        .await;
    assert_eq!(
        r.status(),
        StatusCode::UNAUTHORIZED,
        "no refetch within the interval"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let r = s
        .call(Some(&format!("Bearer {good}")), "read_notes", json!({}))
        .await;
    assert_eq!(r.status(), StatusCode::OK, "the cached keys still serve");
}

// ---- the deprecated HTTP+SSE transport ----

#[cfg(feature = "legacy-sse")]
#[tokio::test]
async fn the_legacy_transport_is_protected_and_bound_to_its_subject() {
    use futures_util::StreamExt;

    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let sse = format!("{}/sse", s.base);
    let r = s.http.get(&sse).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenge(&r),
        format!(r#"Bearer resource_metadata="{}""#, s.metadata_url())
    );
    let alice = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_sub", "alice"),
            ],
        )
        .await;
    let bob = a
        .token(
            "c",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_sub", "bob"),
            ],
        )
        .await;
    let r = s
        .http
        .get(&sse)
        .header("authorization", format!("Bearer {alice}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let mut events = r.bytes_stream();
    let mut text = String::new();
    while !text.contains("\n\n") {
        text.push_str(&String::from_utf8_lossy(
            &events.next().await.unwrap().unwrap(),
        ));
    }
    let endpoint = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .expect("the endpoint event")
        .to_owned();
    assert!(endpoint.starts_with("/messages?sessionId="), "{endpoint}");
    let messages = format!("{}{endpoint}", s.base);
    let send = |token: &str, body: &str| {
        s.http
            .post(&messages)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
    };
    let r = send(&bob, INIT).await.unwrap();
    assert_eq!(
        r.status(),
        StatusCode::NOT_FOUND,
        "bob cannot use alice's session"
    );
    let r = send(&alice, INIT).await.unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    send(
        &alice,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await
    .unwrap();
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}"#;
    let r = send(&alice, call).await.unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let mut seen = String::new();
    while !seen.contains("alice notes c") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), events.next())
            .await
            .expect("the answer arrives on the stream")
            .unwrap()
            .unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert_eq!(s.runs(), 1);
}

#[tokio::test]
async fn an_unreachable_authorization_server_is_a_503_never_a_pass() {
    // A port nobody listens on: the issuer's metadata cannot be fetched.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let issuer = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let s = protected(&issuer, |x| x).await;
    let forged = forge(
        json!({"alg": "RS256", "typ": "at+jwt", "kid": "k1"}),
        json!({"iss": issuer, "aud": s.resource, "sub": "eve", "exp": 4_000_000_000_u64}),
        |_| vec![0; 256],
    );
    let r = s
        .call(Some(&format!("Bearer {forged}")), "read_notes", json!({}))
        .await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.headers()["retry-after"], "5");
    assert_eq!(challenge(&r), "");
    assert_eq!(s.runs(), 0, "a handler ran");
}

// ---- the token's type (RFC 9068 `typ`) and its subject ----

/// A token of `a` for `s` with `x_typ` (none given: the mock's `at+jwt`).
async fn typed(a: &MockAs, s: &Protected, typ: Option<&str>) -> String {
    let mut extra = vec![("scope", "notes:read"), ("resource", s.resource.as_str())];
    if let Some(typ) = typ {
        extra.push(("x_typ", typ));
    }
    a.token("notes-app", &extra).await
}

#[tokio::test]
async fn access_tokens_are_typed_at_jwt() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    for typ in [None, Some("application/at+jwt"), Some("AT+JWT")] {
        let t = typed(&a, &s, typ).await;
        let r = s
            .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
            .await;
        assert_eq!(text_of(r).await, "notes of notes-app", "{typ:?}");
    }
    assert_eq!(s.runs(), 3);
    let s = protected(&a.issuer, |x| x).await;
    for (typ, why) in [
        (
            "JWT",
            "the token is not typed as an access token (typ 'JWT'; expected 'at+jwt')",
        ),
        (
            "none",
            "the token is not typed as an access token (no typ; expected 'at+jwt')",
        ),
        (
            "id+jwt",
            "the token is not typed as an access token (typ 'id+jwt'; expected 'at+jwt')",
        ),
        (
            "secevent+jwt",
            "the token is not typed as an access token (typ 'secevent+jwt'; expected 'at+jwt')",
        ),
    ] {
        let t = typed(&a, &s, Some(typ)).await;
        let r = s
            .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
            .await;
        refused(&s, r, StatusCode::UNAUTHORIZED, &invalid(&s, why)).await;
    }
}

#[tokio::test]
async fn tokens_typed_jwt_pass_when_the_verifier_allows_them() {
    let a = MockAs::start();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let resource = format!("{base}/mcp");
    let verifier = JwtVerifier::new(&a.issuer, &resource).allow_jwt_typ(true);
    let auth = Authorization::from(verifier);
    let s = protected_with(listener, base, resource, auth).await;
    for typ in [None, Some("JWT"), Some("none"), Some("application/jwt")] {
        let t = typed(&a, &s, typ).await;
        let r = s
            .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
            .await;
        assert_eq!(text_of(r).await, "notes of notes-app", "{typ:?}");
    }
    assert_eq!(s.runs(), 4);
    // Still only access tokens: another type is refused.
    let t = typed(&a, &s, Some("id+jwt")).await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "read_notes", json!({}))
        .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenge(&r),
        invalid(
            &s,
            "the token is not typed as an access token (typ 'id+jwt'; expected 'at+jwt')"
        )
    );
    assert_eq!(s.runs(), 4, "a handler ran");
}

#[tokio::test]
async fn hostile_token_naming_no_subject() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    let t = a
        .token(
            "notes-app",
            &[
                ("scope", "notes"),
                ("resource", &s.resource),
                ("x_no_sub", "1"),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "whoami", json!({}))
        .await;
    refused(
        &s,
        r,
        StatusCode::UNAUTHORIZED,
        &invalid(&s, "the token names no subject"),
    )
    .await;
}

#[tokio::test]
async fn a_token_naming_only_its_client_speaks_for_the_client() {
    let a = MockAs::start();
    let s = protected(&a.issuer, |x| x).await;
    // `x_sub` empty: the mock leaves `sub` empty, `client_id` names the client.
    let t = a
        .token(
            "notes-app",
            &[
                ("scope", "notes:read"),
                ("resource", &s.resource),
                ("x_sub", ""),
            ],
        )
        .await;
    let r = s
        .call(Some(&format!("Bearer {t}")), "whoami", json!({}))
        .await;
    assert_eq!(text_of(r).await, "notes-app notes:read notes-app");
}
