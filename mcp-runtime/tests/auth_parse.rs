//! Authorization is decided on the message the dispatcher acts on (feature `auth`): the scopes a
//! request needs come from the item the dispatcher looked up from its own reading of the params,
//! so no member the dispatcher ignores can change the decision.
//!
//! Each case is a `tools/call` of `add_note` (scope `notes:write`) carrying one unreadable member
//! (nesting deeper than any parser's limit, a number out of range, a lone surrogate, duplicate
//! members) in one position (the envelope, the params, `_meta`, the arguments), in each era: a
//! 2025-11-25 session, a stateless 2026-07-28 request, and a 2025-03-26 batch. Every case is sent
//! twice: with a `notes:write` token (the control: the tool runs exactly when the dispatcher
//! can read the message) and with a `notes:read` token, which must never run the tool: it gets
//! the 403 `insufficient_scope` challenge where the control ran, and the control's own error
//! where it did not.
#![cfg(feature = "auth")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_runtime::BoxFuture;
use mcp_runtime::auth::{AuthError, Authorization, Claims, TokenVerifier};
use mcp_runtime::prelude::*;
use reqwest::StatusCode;
use serde_json::Value;

/// How often one server ran its writing items and its reading tool.
#[derive(Default, Clone)]
struct Runs {
    written: Arc<AtomicUsize>,
    read: Arc<AtomicUsize>,
}

/// Adds a note.
#[tool(scopes = ["notes:write"], allow_unknown_args)]
async fn add_note(runs: State<Runs>, text: String) -> String {
    runs.written.fetch_add(1, Ordering::SeqCst);
    format!("added {text}")
}

/// Reads the notes.
#[tool(scopes = ["notes:read"], allow_unknown_args)]
async fn read_notes(runs: State<Runs>) -> String {
    runs.read.fetch_add(1, Ordering::SeqCst);
    "notes".into()
}

/// A prompt for writers.
#[prompt(scopes = ["notes:write"])]
async fn draft(runs: State<Runs>) -> String {
    runs.written.fetch_add(1, Ordering::SeqCst);
    "draft".into()
}

/// A token is the scopes it grants, comma-separated.
struct ScopeList;

impl TokenVerifier for ScopeList {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _: &'a axum::http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(async move {
            let scopes = token.split(',').filter(|s| !s.is_empty());
            Ok(Claims::new("tester").with_scopes(scopes))
        })
    }
}

struct Running {
    url: String,
    metadata: String,
    runs: Runs,
    http: reqwest::Client,
    _stop: mcp_runtime::ShutdownHandle,
}

/// Serves the tools on a loopback port; `nested` mounts `Server::router()` in an axum app.
async fn serve(nested: bool) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let url = format!("{base}/mcp");
    let runs = Runs::default();
    let server = Server::builder(server_info!())
        .state(runs.clone())
        .tool(add_note::TOOL)
        .tool(read_notes::TOOL)
        .prompt(draft::PROMPT)
        .auth(Authorization::new(&url, ScopeList).authorization_server("https://as.example"))
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    if nested {
        let app = axum::Router::new()
            .nest("/mcp", server.router())
            .merge(server.auth_metadata_router());
        tokio::spawn(async move { axum::serve(listener, app).await });
    } else {
        tokio::spawn(async move { server.serve_http_on(listener).await });
    }
    Running {
        url,
        metadata: format!("{base}/.well-known/oauth-protected-resource/mcp"),
        runs,
        http: reqwest::Client::new(),
        _stop: stop,
    }
}

/// The unreadable values, as JSON text.
fn hostile_values() -> Vec<(&'static str, String)> {
    vec![
        (
            "nesting 200 deep",
            format!("{}{}", "[".repeat(200), "]".repeat(200)),
        ),
        (
            "nesting 100,000 deep",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        ),
        (
            "objects nested 300 deep",
            format!("{}1{}", r#"{"a":"#.repeat(300), "}".repeat(300)),
        ),
        ("1e400", "1e400".into()),
        ("-1e400", "-1e400".into()),
        ("a lone high surrogate", r#""\ud800""#.into()),
        ("a lone low surrogate", r#"["\udfff", "x"]"#.into()),
        ("duplicate members", r#"{"a":1,"a":{"b":2,"b":3}}"#.into()),
    ]
}

const STATELESS_META: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;

/// Where the unreadable member goes.
#[derive(Clone, Copy, Debug)]
enum Position {
    Envelope,
    Params,
    Meta,
    Arguments,
}

/// A `tools/call` of `add_note` with `value` at `position`; `stateless` adds the era's `_meta`.
fn call_text(id: u64, position: Position, value: &str, stateless: bool) -> String {
    let mut meta: Vec<String> = Vec::new();
    if stateless {
        meta.push(STATELESS_META.into());
    }
    let (mut envelope, mut params, mut args) = (String::new(), String::new(), String::new());
    match position {
        Position::Envelope => envelope = format!(r#","x":{value}"#),
        Position::Params => params = format!(r#","x":{value}"#),
        Position::Meta => meta.push(format!(r#""x":{value}"#)),
        Position::Arguments => args = format!(r#","x":{value}"#),
    }
    let meta = if meta.is_empty() {
        String::new()
    } else {
        format!(r#","_meta":{{{}}}"#, meta.join(","))
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id}{envelope},"method":"tools/call","params":{{"name":"add_note","arguments":{{"text":"t"{args}}}{params}{meta}}}}}"#
    )
}

/// Calls with the read members themselves given twice: the dispatcher refuses them (-32602 or
/// -32600), whatever another reading would keep of them.
fn duplicated_names(stateless: bool) -> Vec<(&'static str, String)> {
    let meta = if stateless {
        format!(r#","_meta":{{{STATELESS_META}}}"#)
    } else {
        String::new()
    };
    vec![
        (
            "name twice, permitted one last",
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"add_note","name":"read_notes","arguments":{{"text":"t"}}{meta}}}}}"#
            ),
        ),
        (
            "name twice, permitted one first",
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"read_notes","name":"add_note","arguments":{{"text":"t"}}{meta}}}}}"#
            ),
        ),
        (
            "params twice",
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"read_notes"{meta}}},"params":{{"name":"add_note","arguments":{{"text":"t"}}{meta}}}}}"#
            ),
        ),
        (
            "method twice",
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","method":"tools/call","params":{{"name":"add_note","arguments":{{"text":"t"}}{meta}}}}}"#
            ),
        ),
    ]
}

/// What one request got.
#[derive(Debug, PartialEq)]
struct Got {
    status: StatusCode,
    challenge: Option<String>,
    body: Value,
}

impl Running {
    async fn post(&self, token: &str, body: String, headers: &[(&str, String)]) -> Got {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", format!("Bearer {token}"))
            .body(body);
        for (k, v) in headers {
            req = req.header(*k, v);
        }
        let r = req.send().await.unwrap();
        let status = r.status();
        let challenge = r
            .headers()
            .get("www-authenticate")
            .map(|v| v.to_str().unwrap().to_owned());
        let text = r.text().await.unwrap();
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
        };
        Got {
            status,
            challenge,
            body,
        }
    }

    /// Opens a session of `version` for `token`: the headers its requests carry.
    async fn session(&self, token: &str, version: &str) -> Vec<(&'static str, String)> {
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        );
        let r = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", format!("Bearer {token}"))
            .body(init)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let headers = vec![
            ("mcp-session-id", sid),
            ("mcp-protocol-version", version.to_owned()),
        ];
        let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let got = self.post(token, done.into(), &headers).await;
        assert_eq!(got.status, StatusCode::ACCEPTED);
        headers
    }

    fn challenge(&self, scope: &str) -> String {
        format!(
            r#"Bearer error="insufficient_scope", scope="{scope}", resource_metadata="{}", error_description="this request needs the scopes: {scope}""#,
            self.metadata
        )
    }
}

const WRITER: &str = "notes:write,notes:read";
const READER: &str = "notes:read";

/// Sends `body` as the writer (the control), then as the reader, and checks the reader's answer
/// against the control's; returns whether the control ran the tool.
async fn case(
    s: &Running,
    label: &str,
    body: &str,
    writer: &[(&str, String)],
    reader: &[(&str, String)],
) -> bool {
    let before = s.runs.written.load(Ordering::SeqCst);
    let control = s.post(WRITER, body.to_owned(), writer).await;
    let ran = s.runs.written.load(Ordering::SeqCst) - before;
    assert!(ran <= 1, "{label}: ran {ran} times");
    let got = s.post(READER, body.to_owned(), reader).await;
    assert_eq!(
        s.runs.written.load(Ordering::SeqCst) - before,
        ran,
        "{label}: a notes:read token ran add_note ({got:?})"
    );
    if ran == 1 {
        assert_eq!(control.status, StatusCode::OK, "{label}: {control:?}");
        assert_eq!(got.status, StatusCode::FORBIDDEN, "{label}: {got:?}");
        assert_eq!(
            got.challenge.as_deref(),
            Some(s.challenge("notes:write").as_str()),
            "{label}"
        );
        assert_eq!(got.body["error"]["code"], -32000, "{label}: {got:?}");
        assert_eq!(
            got.body["error"]["data"],
            serde_json::json!({"reason": "insufficient_scope", "scope": "notes:write"}),
            "{label}"
        );
        // The refusal answers the request it refuses.
        assert_eq!(got.body["id"], control.body["id"], "{label}");
    } else {
        assert!(
            control.body.get("error").is_some() || control.status.is_client_error(),
            "{label}: the control neither ran nor failed: {control:?}"
        );
        assert_eq!(got, control, "{label}: the reader's answer differs");
    }
    ran == 1
}

#[tokio::test]
async fn unreadable_members_never_let_a_token_run_a_tool_it_lacks_the_scope_of() {
    for nested in [false, true] {
        let s = serve(nested).await;
        let w_session = s.session(WRITER, "2025-11-25").await;
        let r_session = s.session(READER, "2025-11-25").await;
        let stateless = |name: &str| {
            vec![
                ("mcp-protocol-version", "2026-07-28".to_owned()),
                ("mcp-method", "tools/call".to_owned()),
                ("mcp-name", name.to_owned()),
            ]
        };
        let mut ran = 0;
        let mut cases = 0;
        for (what, value) in hostile_values() {
            for position in [
                Position::Envelope,
                Position::Params,
                Position::Meta,
                Position::Arguments,
            ] {
                let label = format!("{what} in {position:?} (nested router: {nested})");
                let body = call_text(1, position, &value, false);
                let label_h = format!("2025-11-25 session, {label}");
                ran += usize::from(case(&s, &label_h, &body, &w_session, &r_session).await);
                let body = call_text(2, position, &value, true);
                let h = stateless("add_note");
                let label_s = format!("2026-07-28, {label}");
                ran += usize::from(case(&s, &label_s, &body, &h, &h).await);
                cases += 2;
            }
        }
        for stateless_era in [false, true] {
            for (what, body) in duplicated_names(stateless_era) {
                let label = format!("{what} (stateless: {stateless_era}, nested: {nested})");
                let (w, r) = if stateless_era {
                    (stateless("add_note"), stateless("add_note"))
                } else {
                    (w_session.clone(), r_session.clone())
                };
                assert!(!case(&s, &label, &body, &w, &r).await, "{label} ran");
                cases += 1;
            }
        }
        // Most unreadable members sit where the dispatcher ignores them: the tool runs for the
        // writer, so the reader's refusal is the dispatcher's decision, not a parse failure.
        assert!(ran >= cases / 2, "only {ran} of {cases} controls ran");
    }
}

#[tokio::test]
async fn batches_are_authorized_message_by_message() {
    let s = serve(false).await;
    for (what, value) in hostile_values() {
        for position in [Position::Envelope, Position::Params, Position::Arguments] {
            let label = format!("batch, {what} in {position:?}");
            let read =
                r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"read_notes"}}"#;
            let body = format!("[{read},{}]", call_text(11, position, &value, false));
            let before = (
                s.runs.written.load(Ordering::SeqCst),
                s.runs.read.load(Ordering::SeqCst),
            );
            let writer = s.session(WRITER, "2025-03-26").await;
            let control = s.post(WRITER, body.clone(), &writer).await;
            let wrote = s.runs.written.load(Ordering::SeqCst) - before.0;
            let reader = s.session(READER, "2025-03-26").await;
            let got = s.post(READER, body, &reader).await;
            assert_eq!(
                s.runs.written.load(Ordering::SeqCst) - before.0,
                wrote,
                "{label}: {got:?}"
            );
            assert_eq!(got.status, StatusCode::OK, "{label}");
            let answers = got
                .body
                .as_array()
                .unwrap_or_else(|| panic!("{label}: {got:?}"));
            // The permitted call of the batch is served either way.
            let first = answers.iter().find(|a| a["id"] == 10).unwrap();
            assert_eq!(first["result"]["content"][0]["text"], "notes", "{label}");
            let second = answers.iter().find(|a| a["id"] == 11);
            if wrote == 1 {
                let second = second.unwrap();
                assert_eq!(second["error"]["code"], -32000, "{label}");
                assert_eq!(second["error"]["data"]["reason"], "insufficient_scope");
                assert_eq!(second["error"]["data"]["scope"], "notes:write");
            } else {
                assert_eq!(got.body, control.body, "{label}");
            }
            assert_eq!(s.runs.read.load(Ordering::SeqCst) - before.1, 2, "{label}");
        }
    }
}

#[tokio::test]
async fn prompts_are_authorized_on_the_dispatchers_reading_too() {
    let s = serve(false).await;
    let h = vec![
        ("mcp-protocol-version", "2026-07-28".to_owned()),
        ("mcp-method", "prompts/get".to_owned()),
        ("mcp-name", "draft".to_owned()),
    ];
    for (what, value) in hostile_values() {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{{"name":"draft","x":{value},"_meta":{{{STATELESS_META}}}}}}}"#
        );
        let ran = case(&s, &format!("prompts/get, {what}"), &body, &h, &h).await;
        assert!(ran, "prompts/get with {what} did not run for the writer");
    }
}
