//! HTTP input rules (batches, `Content-Type`, `Accept`), `Origin` on public binds, and the
//! `sessions(false)` and `json_response(true)` options, over real sockets.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

/// Reports progress twice, with a pause, then answers.
#[tool]
async fn progressing(ctx: Context) -> String {
    ctx.progress(1.0, Some(2.0), None).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.progress(2.0, Some(2.0), None).await;
    "progressed".into()
}

fn server(options: HttpOptions) -> Server {
    Server::builder(server_info!())
        .tool(quick::TOOL)
        .tool(progressing::TOOL)
        .http(options.stream_after(Duration::from_millis(10)))
        .build()
        .unwrap()
}

async fn serve_on(server: &Server, bind: &str) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind(bind).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = server.clone();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

async fn serve(server: &Server) -> String {
    format!("http://{}/mcp", serve_on(server, "127.0.0.1:0").await)
}

const ACCEPT: &str = "application/json, text/event-stream";

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

fn init(version: &str) -> Value {
    json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":version,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}})
}

/// `initialize` at `version`; returns the session id.
async fn initialize(url: &str, version: &str) -> String {
    let resp = post(url, &[], init(version)).await;
    assert_eq!(resp.status(), 200);
    let sid = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(body["result"]["protocolVersion"], version);
    sid
}

/// A POST with `Accept` and `Content-Type` set as clients do, then `headers` (which may replace
/// them; an empty value removes the header).
async fn post(url: &str, headers: &[(&str, &str)], body: Value) -> reqwest::Response {
    let mut h = reqwest::header::HeaderMap::new();
    h.insert("accept", ACCEPT.parse().unwrap());
    h.insert("content-type", "application/json".parse().unwrap());
    for (k, v) in headers {
        let k: reqwest::header::HeaderName = k.parse().unwrap();
        if v.is_empty() {
            h.remove(&k);
        } else {
            h.insert(k, v.parse().unwrap());
        }
    }
    client()
        .post(url)
        .headers(h)
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

/// Status and JSON body.
async fn answer(resp: reqwest::Response) -> (u16, Value) {
    let status = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, body)
}

fn batch() -> Value {
    json!([
        {"jsonrpc":"2.0","id":1,"method":"ping"},
        {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{}}}
    ])
}

const BATCH_REFUSED: &str = "JSON-RPC batches are only accepted in protocol revision 2025-03-26";

#[tokio::test]
async fn batches_are_400_outside_protocol_revision_2025_03_26() {
    let url = serve(&server(HttpOptions::new())).await;
    // Without a session.
    let (status, body) = answer(post(&url, &[], batch()).await).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], -32600);
    assert_eq!(body["error"]["message"], BATCH_REFUSED);
    // In a 2025-11-25 session (and a 2025-06-18 one).
    for version in ["2025-11-25", "2025-06-18"] {
        let sid = initialize(&url, version).await;
        let headers = [("mcp-session-id", &*sid), ("mcp-protocol-version", version)];
        let (status, body) = answer(post(&url, &headers, batch()).await).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (400, &json!(-32600)),
            "{version}"
        );
        assert_eq!(body["error"]["message"], BATCH_REFUSED);
    }
    // In a 2025-03-26 session: one JSON array answers the batch.
    let sid = initialize(&url, "2025-03-26").await;
    let resp = post(&url, &[("mcp-session-id", &sid)], batch()).await;
    assert_eq!(resp.headers()["content-type"], "application/json");
    let (status, body) = answer(resp).await;
    assert_eq!(status, 200);
    assert_eq!(body[0], json!({"jsonrpc":"2.0","id":1,"result":{}}));
    assert_eq!(body[1]["id"], 2);
    assert_eq!(body[1]["result"]["content"][0]["text"], "quick");
}

#[tokio::test]
async fn batches_without_sessions_follow_the_protocol_version_header() {
    let url = serve(&server(HttpOptions::new().sessions(false))).await;
    let (status, body) = answer(post(&url, &[], batch()).await).await;
    assert_eq!(status, 200, "no header: 2025-03-26");
    assert_eq!(body.as_array().map(Vec::len), Some(2), "{body}");
    let headers = [("mcp-protocol-version", "2025-03-26")];
    let (status, _) = answer(post(&url, &headers, batch()).await).await;
    assert_eq!(status, 200);
    let headers = [("mcp-protocol-version", "2025-11-25")];
    let (status, body) = answer(post(&url, &headers, batch()).await).await;
    assert_eq!(
        (status, &body["error"]["message"]),
        (400, &json!(BATCH_REFUSED))
    );
}

#[tokio::test]
async fn content_type_must_be_json_and_accept_must_admit_json_or_sse() {
    let url = serve(&server(HttpOptions::new())).await;
    let ping = json!({"jsonrpc":"2.0","id":1,"method":"ping"});
    // Refused before anything is read: even `initialize` is not served.
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "text/json",
    ] {
        let resp = post(&url, &[("content-type", content_type)], init("2025-11-25")).await;
        assert!(!resp.headers().contains_key("mcp-session-id"));
        let (status, body) = answer(resp).await;
        assert_eq!(status, 415, "{content_type}");
        assert_eq!(body["error"]["code"], -32000);
        assert_eq!(
            body["error"]["message"],
            "Unsupported Media Type: the body must be application/json"
        );
    }
    for accept in ["text/html", "image/png, text/plain", "application/json;q=0"] {
        let (status, body) =
            answer(post(&url, &[("accept", accept)], init("2025-11-25")).await).await;
        assert_eq!(status, 406, "{accept}");
        assert_eq!(body["error"]["code"], -32000);
    }
    // Accepted: JSON with parameters, a missing Content-Type, a missing Accept, JSON only.
    let sid = initialize(&url, "2025-11-25").await;
    for headers in [
        [
            ("content-type", "application/json; charset=utf-8"),
            ("accept", ACCEPT),
        ],
        [("content-type", ""), ("accept", ACCEPT)],
        [("content-type", "application/json"), ("accept", "")],
        [
            ("content-type", "application/json"),
            ("accept", "application/json"),
        ],
    ] {
        let mut all = headers.to_vec();
        all.push(("mcp-session-id", &sid));
        let (status, body) = answer(post(&url, &all, ping.clone()).await).await;
        assert_eq!((status, &body["result"]), (200, &json!({})), "{headers:?}");
    }
}

#[tokio::test]
async fn public_binds_refuse_foreign_origins() {
    let public = server(HttpOptions::new());
    let addr = serve_on(&public, "0.0.0.0:0").await;
    let url = format!("http://127.0.0.1:{}/mcp", addr.port());
    let own = format!("http://127.0.0.1:{}", addr.port());
    let ok = |origin: Option<&str>| {
        let url = url.clone();
        let origin = origin.map(str::to_owned);
        async move {
            let headers: Vec<(&str, &str)> =
                origin.iter().map(|o| ("origin", o.as_str())).collect();
            post(&url, &headers, init("2025-11-25"))
                .await
                .status()
                .as_u16()
        }
    };
    assert_eq!(ok(None).await, 200, "no Origin: not a browser, served");
    assert_eq!(ok(Some(&own)).await, 200, "the server's own origin");
    for foreign in [
        "https://evil.example",
        "http://localhost:3000",
        "null",
        &format!("http://127.0.0.1:{}", addr.port() ^ 1),
    ] {
        assert_eq!(ok(Some(foreign)).await, 403, "{foreign}");
    }
    let resp = post(
        &url,
        &[("origin", "https://evil.example")],
        init("2025-11-25"),
    )
    .await;
    let (_, body) = answer(resp).await;
    assert_eq!(
        body,
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Forbidden: Origin not allowed"}})
    );

    // With an allow-list, only the list.
    let listed = server(HttpOptions::new().allowed_origins(["https://app.example.com"]));
    let addr = serve_on(&listed, "0.0.0.0:0").await;
    let url = format!("http://127.0.0.1:{}/mcp", addr.port());
    let status = |origin: &'static str| {
        let url = url.clone();
        async move {
            post(&url, &[("origin", origin)], init("2025-11-25"))
                .await
                .status()
                .as_u16()
        }
    };
    assert_eq!(status("https://app.example.com").await, 200);
    assert_eq!(status("https://evil.example").await, 403);
}

#[tokio::test]
async fn without_sessions_every_post_stands_alone() {
    let url = serve(&server(HttpOptions::new().sessions(false))).await;
    let resp = post(&url, &[], init("2025-11-25")).await;
    assert!(
        !resp.headers().contains_key("mcp-session-id"),
        "no session minted"
    );
    let (status, body) = answer(resp).await;
    assert_eq!(
        (status, &body["result"]["protocolVersion"]),
        (200, &json!("2025-11-25"))
    );
    let call = json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"quick","arguments":{}}});
    let (status, body) =
        answer(post(&url, &[("mcp-protocol-version", "2025-11-25")], call).await).await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], 3);
    assert_eq!(body["result"]["content"][0]["text"], "quick");
    let get = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", "anything")
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), 405, "no GET stream");
    assert_eq!(get.headers()["allow"], "POST");
    let delete = client()
        .delete(&url)
        .header("mcp-session-id", "anything")
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), 405, "nothing to delete");
}

#[tokio::test]
async fn json_response_answers_with_one_json_object_and_sends_notifications_to_the_get_stream() {
    let url = serve(&server(HttpOptions::new().json_response(true))).await;
    let sid = initialize(&url, "2025-11-25").await;
    let get = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(get.headers()["content-type"], "text/event-stream");
    let mut stream = get.bytes_stream();
    let call = json!({"jsonrpc":"2.0","id":4,"method":"tools/call",
        "params":{"name":"progressing","arguments":{},"_meta":{"progressToken":"pt"}}});
    let headers = [
        ("mcp-session-id", &*sid),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let resp = post(&url, &headers, call).await;
    assert_eq!(
        resp.headers()["content-type"],
        "application/json",
        "not SSE, though slow"
    );
    let (status, body) = answer(resp).await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], 4);
    assert_eq!(body["result"]["content"][0]["text"], "progressed");
    // The progress went to the session's GET stream instead.
    let mut text = String::new();
    while text.matches("notifications/progress").count() < 2 {
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("progress on the GET stream")
            .unwrap()
            .unwrap();
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    assert!(
        text.contains(r#""progressToken":"pt","progress":1"#),
        "{text}"
    );
    assert!(
        text.contains(r#""progressToken":"pt","progress":2"#),
        "{text}"
    );
}
