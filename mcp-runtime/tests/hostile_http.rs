//! Hostile input over Streamable HTTP (127.0.0.1:0), in both eras: malformed and non-UTF-8
//! bodies, deep nesting, odd ids, unknown methods, wrong params, `arguments` that is not an
//! object, huge names, URIs and headers (echoed shortened), broken `_meta`, tampered
//! `requestState`, stray responses and cancellations; and a session's end releasing the calls
//! that wait for the client. Every case gets its exact status and body, and the server keeps
//! serving. The table of every case is `docs/hostile-inputs.md`; the HTTP transport's own rules
//! (timeouts, sizes, content types, Origin) are tested with the transport.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_runtime::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Echoes the text back.
#[tool]
async fn echo(
    /// The text
    text: String,
) -> String {
    text
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

static ASKING: AtomicBool = AtomicBool::new(false);
static RELEASED: AtomicBool = AtomicBool::new(false);

/// Marks the end of `ask`'s wait, however it ends (an answer, an error, or being dropped).
struct Released;

impl Drop for Released {
    fn drop(&mut self) {
        RELEASED.store(true, Ordering::SeqCst);
    }
}

/// Asks the user's name.
#[tool]
async fn ask(ctx: Context) -> Result<String, ToolError> {
    let _released = Released;
    ASKING.store(true, Ordering::SeqCst);
    let answer = ctx.elicit::<Name>("Your name?").await?;
    Ok(answer.accepted().map_or_else(String::new, |n| n.name))
}

/// A resource, so that resource methods exist.
#[resource(uri = "test://one", mime = "text/plain")]
async fn one() -> String {
    "one".into()
}

async fn serve() -> String {
    let server = Server::builder(server_info!())
        .tool(echo::TOOL)
        .tool(ask::TOOL)
        .resource(one::RESOURCE)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { server.serve_http_on(listener).await });
    url
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

const ACCEPT: &str = "application/json, text/event-stream";
const MB3: usize = 3 * 1024 * 1024;

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "hostile", "version": "0"}
    })
}

/// What an error shows of an input of `len` bytes, `shown` being its first 256.
fn shortened(shown: &str, len: usize) -> String {
    assert_eq!(shown.len(), 256);
    format!("{shown}… ({len} bytes)")
}

/// The era of a POST: a 2025-11-25 session, or stateless (2026-07-28) headers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Era<'a> {
    Session(&'a str),
    Stateless,
}

/// Posts `body` in `era`; stateless posts carry `Mcp-Method` (`method`) and, when given,
/// `Mcp-Name`. Returns the status and the body as JSON (`Null` when empty).
async fn post(
    url: &str,
    era: Era<'_>,
    method: &str,
    name: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let mut req = http()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json");
    match era {
        Era::Session(sid) => {
            req = req
                .header("mcp-session-id", sid)
                .header("mcp-protocol-version", "2025-11-25");
        }
        Era::Stateless => {
            req = req
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", method);
            if let Some(name) = name {
                req = req.header("mcp-name", name);
            }
        }
    }
    let resp = req.body(body).send().await.unwrap();
    let status = resp.status();
    let bytes = resp.bytes().await.unwrap();
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)))
    };
    (status, value)
}

/// A request body in `era` (stateless bodies carry `_meta`).
fn body(era: Era<'_>, id: Value, method: &str, mut params: Value) -> Vec<u8> {
    if era == Era::Stateless {
        params["_meta"] = meta();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        .to_string()
        .into_bytes()
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// `initialize` at 2025-11-25 with `caps`; returns the session id.
async fn initialize(url: &str, caps: Value) -> String {
    let resp = http()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": caps,
                "clientInfo": {"name": "hostile", "version": "0"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned()
}

/// The server still answers a plain call in `era`.
async fn still_serving(url: &str, era: Era<'_>) {
    let b = body(
        era,
        json!("alive"),
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "alive"}}),
    );
    let (status, reply) = post(url, era, "tools/call", Some("echo"), b).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["result"]["content"][0]["text"], "alive", "{reply}");
}

#[tokio::test]
async fn malformed_bodies_are_parse_errors_in_both_eras() {
    let url = serve().await;
    let sid = initialize(&url, json!({})).await;
    let parse = error(Value::Null, -32700, "Parse error");
    for era in [Era::Session(&sid), Era::Stateless] {
        for (name, bytes) in [
            (
                "truncated JSON",
                br#"{"jsonrpc":"2.0","id":1,"method":"#.to_vec(),
            ),
            ("100k unclosed brackets", vec![b'['; 100_000]),
            (
                "not UTF-8",
                b"{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\",\"method\":\"ping\"}".to_vec(),
            ),
        ] {
            let (status, reply) = post(&url, era, "ping", None, bytes).await;
            assert_eq!(
                (status, &reply),
                (StatusCode::BAD_REQUEST, &parse),
                "{era:?} {name}"
            );
        }
        still_serving(&url, era).await;
    }
}

#[tokio::test]
async fn odd_ids_and_unknown_methods_get_their_errors_in_both_eras() {
    let url = serve().await;
    let sid = initialize(&url, json!({})).await;
    let fraction =
        "Invalid request: `id` must be a string or an integer, not a fraction or an exponent";
    for era in [Era::Session(&sid), Era::Stateless] {
        let bad_request = if era == Era::Stateless {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::OK
        };
        for (name, id, message) in [
            ("float id", "1.5", fraction),
            ("exponent id", "1e400", fraction),
            (
                "object id",
                r#"{"a":1}"#,
                "Invalid request: `id` must be a string or an integer",
            ),
        ] {
            let text = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{}}}}}"#,
                meta()
            );
            let (status, reply) = post(&url, era, "tools/list", None, text.into_bytes()).await;
            assert_eq!(reply, error(Value::Null, -32600, message), "{era:?} {name}");
            assert_eq!(status, StatusCode::BAD_REQUEST, "{era:?} {name}");
        }
        let long_method = format!("x/{}", "m".repeat(4096));
        let (status, reply) = post(
            &url,
            era,
            &long_method,
            None,
            body(era, json!(3), &long_method, json!({})),
        )
        .await;
        let shown = shortened(&long_method[..256], long_method.len());
        assert_eq!(
            reply,
            error(json!(3), -32601, &format!("Method not found: {shown}")),
            "{era:?}"
        );
        let not_found = if era == Era::Stateless {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        assert_eq!(status, not_found, "{era:?}");
        // Wrong params types (the stateless transport reads `params` first, for `Mcp-Name`).
        let (status, reply) = post(
            &url,
            era,
            "tools/call",
            Some("echo"),
            body(era, json!(4), "tools/call", json!({"name": 5})),
        )
        .await;
        let message = if era == Era::Stateless {
            "invalid params"
        } else {
            "invalid params: invalid type: integer `5`, expected a string"
        };
        assert_eq!(reply, error(json!(4), -32602, message), "{era:?}");
        assert_eq!(status, bad_request, "{era:?}");
        still_serving(&url, era).await;
    }
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_invalid_params_in_both_eras() {
    let url = serve().await;
    let sid = initialize(&url, json!({})).await;
    for era in [Era::Session(&sid), Era::Stateless] {
        for (n, (arguments, got)) in [
            (json!([1, 2]), "an array"),
            (json!("x"), "a string"),
            (json!(5), "a number"),
            (json!(true), "a boolean"),
        ]
        .into_iter()
        .enumerate()
        {
            let b = body(
                era,
                json!(n),
                "tools/call",
                json!({"name": "echo", "arguments": arguments}),
            );
            let (status, reply) = post(&url, era, "tools/call", Some("echo"), b).await;
            let message = format!("invalid params: `arguments` must be an object, got {got}");
            assert_eq!(reply, error(json!(n), -32602, &message), "{era:?}");
            let expected = if era == Era::Stateless {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            assert_eq!(status, expected, "{era:?}");
        }
    }
}

#[tokio::test]
async fn huge_inputs_and_headers_come_back_shortened() {
    let url = serve().await;
    let sid = initialize(&url, json!({})).await;
    let name = "n".repeat(MB3);
    let uri = format!("test://{}", "u".repeat(MB3 - 7));
    for era in [Era::Session(&sid), Era::Stateless] {
        let b = body(
            era,
            json!(1),
            "tools/call",
            json!({"name": name, "arguments": {}}),
        );
        // A 3 MB `Mcp-Name` header is beyond any HTTP server's header limit: stateless requests
        // are refused for the missing header before the name is looked up (the session era
        // looks it up).
        let (_, reply) = post(&url, era, "tools/call", None, b).await;
        let message = if era == Era::Stateless {
            "Header mismatch: the Mcp-Name header is required for this method".to_owned()
        } else {
            format!("unknown tool '{}'", shortened(&name[..256], MB3))
        };
        let code = if era == Era::Stateless {
            -32020
        } else {
            -32602
        };
        assert_eq!(reply, error(json!(1), code, &message), "{era:?}");

        let b = body(era, json!(2), "resources/read", json!({"uri": uri}));
        let (_, reply) = post(&url, era, "resources/read", Some("test://x"), b).await;
        let shown = shortened(&uri[..256], MB3);
        let expected = if era == Era::Stateless {
            error(
                json!(2),
                -32020,
                &format!(
                    "Header mismatch: Mcp-Name header value 'test://x' does not match body value '{shown}'"
                ),
            )
        } else {
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32002,
                   "message": format!("resource not found: {shown}"), "data": {"uri": shown}}})
        };
        assert_eq!(reply, expected, "{era:?}");
        still_serving(&url, era).await;
    }
    // An 8 KB `Mcp-Method` header that disagrees with the body: both are shortened.
    let header = format!("tools/{}", "h".repeat(8 * 1024 - 6));
    let (status, reply) = post(
        &url,
        Era::Stateless,
        &header,
        None,
        body(Era::Stateless, json!(5), "tools/list", json!({})),
    )
    .await;
    let message = format!(
        "Header mismatch: Mcp-Method header value '{}' does not match body value 'tools/list'",
        shortened(&header[..256], 8 * 1024)
    );
    assert_eq!(reply, error(json!(5), -32020, &message));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // An 8 KB URI with a matching header fails the lookup, shortened.
    let short_uri = format!("test://{}", "u".repeat(8 * 1024 - 7));
    let b = body(
        Era::Stateless,
        json!(6),
        "resources/read",
        json!({"uri": short_uri}),
    );
    let (status, reply) = post(&url, Era::Stateless, "resources/read", Some(&short_uri), b).await;
    let shown = shortened(&short_uri[..256], 8 * 1024);
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": 6, "error": {"code": -32602,
               "message": format!("resource not found: {shown}"), "data": {"uri": shown}}})
    );
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn broken_meta_and_tampered_request_state_are_refused() {
    let url = serve().await;
    let post_raw = |id: i64, params: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
            .to_string()
            .into_bytes()
    };
    let mut broken_meta = meta();
    broken_meta["io.modelcontextprotocol/logLevel"] = json!(5);
    for (id, params, expected) in [
        (
            1,
            json!({"name": "echo", "arguments": {"text": "x"}, "_meta": meta(), "requestState": "e30.AAAA"}),
            error(
                json!(1),
                -32602,
                "invalid requestState: integrity check failed",
            ),
        ),
        (
            2,
            json!({"name": "echo", "arguments": {"text": "x"}, "_meta": meta(), "requestState": "x".repeat(MB3)}),
            error(json!(2), -32602, "invalid requestState: malformed"),
        ),
        (
            3,
            json!({"name": "echo", "arguments": {"text": "x"}, "_meta": broken_meta}),
            // The transport reads `_meta` before the dispatcher does, and a `_meta` it cannot
            // read counts as missing.
            error(
                json!(3),
                -32602,
                "missing required `_meta[\"io.modelcontextprotocol/protocolVersion\"]` and `_meta[\"io.modelcontextprotocol/clientCapabilities\"]`",
            ),
        ),
    ] {
        let (status, reply) = post(
            &url,
            Era::Stateless,
            "tools/call",
            Some("echo"),
            post_raw(id, params),
        )
        .await;
        assert_eq!(reply, expected);
        assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    }
    still_serving(&url, Era::Stateless).await;
}

#[tokio::test]
async fn stray_responses_and_cancellations_are_accepted_and_ignored() {
    let url = serve().await;
    let sid = initialize(&url, json!({})).await;
    for text in [
        r#"{"jsonrpc":"2.0","id":"s-999","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":424242}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}"#,
    ] {
        let (status, reply) =
            post(&url, Era::Session(&sid), "", None, text.as_bytes().to_vec()).await;
        assert_eq!(
            (status, reply),
            (StatusCode::ACCEPTED, Value::Null),
            "{text}"
        );
    }
    still_serving(&url, Era::Session(&sid)).await;
}

#[tokio::test]
async fn ending_a_session_releases_the_calls_waiting_for_the_client_at_once() {
    let url = serve().await;
    let sid = initialize(&url, json!({"elicitation": {}})).await;
    let call = body(
        Era::Session(&sid),
        json!(1),
        "tools/call",
        json!({"name": "ask", "arguments": {}}),
    );
    let waiting = {
        let (url, sid) = (url.clone(), sid.clone());
        tokio::spawn(async move {
            http()
                .post(&url)
                .header("accept", ACCEPT)
                .header("content-type", "application/json")
                .header("mcp-session-id", &sid)
                .header("mcp-protocol-version", "2025-11-25")
                .body(call)
                .send()
                .await
        })
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ASKING.load(Ordering::SeqCst) {
        assert!(Instant::now() < deadline, "the tool never asked");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(!RELEASED.load(Ordering::SeqCst));
    let ended = Instant::now();
    let resp = http()
        .delete(&url)
        .header("mcp-session-id", &sid)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    while !RELEASED.load(Ordering::SeqCst) && ended.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Not after the client-request timeout (2 min): a tenth of a second is far below it, and
    // ten times the time the release takes here.
    assert!(RELEASED.load(Ordering::SeqCst), "the waiting call was kept");
    assert!(
        ended.elapsed() < Duration::from_secs(1),
        "{:?}",
        ended.elapsed()
    );
    waiting.abort();
}
