//! `Authorization::hide_unpermitted_items` (feature `auth`): list answers show exactly the items
//! whose scopes the caller's token covers, whatever carries them: a JSON answer, an SSE stream,
//! a JSON-RPC batch (2025-03-26), the legacy HTTP+SSE transport's `GET` stream; page by page,
//! each permitted item once. Calling a hidden item is refused by the gate as before (403
//! `insufficient_scope`). Without hiding, or without a verified caller, lists are the prepared
//! pages, unchanged.
//!
//! The tokens are checked by a [`TokenVerifier`] of this file: a token is the comma-separated
//! list of the scopes it grants (`-` for none), so that every test states its caller's scopes.
#![cfg(feature = "auth")]

use std::time::Duration;

use futures_util::StreamExt;
use mcp_runtime::BoxFuture;
use mcp_runtime::ServerBuilder;
use mcp_runtime::auth::{AuthError, Authorization, Claims, TokenVerifier};
use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Archives every note.
#[tool(scopes = ["notes:write"])]
async fn archive() -> String {
    "archived".into()
}

/// Reads the notes.
#[tool(scopes = ["notes:read"])]
async fn read_notes() -> String {
    "notes".into()
}

/// Searches the public pages.
#[tool]
async fn search() -> String {
    "found".into()
}

/// Writes a note.
#[tool(scopes = ["notes:write"])]
async fn write_note(text: String) -> String {
    format!("wrote {text}")
}

/// Every note.
#[resource(uri = "notes://all", mime = "text/plain", scopes = ["notes:read"])]
async fn all_notes() -> String {
    "all".into()
}

/// The public notice.
#[resource(uri = "notes://notice", mime = "text/plain")]
async fn notice() -> String {
    "notice".into()
}

/// One note.
#[resource(uri = "notes://item/{id}", mime = "text/plain", scopes = ["notes:read"])]
async fn item(id: u32) -> String {
    format!("note {id}")
}

/// One draft.
#[resource(uri = "notes://draft/{id}", mime = "text/plain", scopes = ["notes:write"])]
async fn draft(id: u32) -> String {
    format!("draft {id}")
}

/// The secret prompt.
#[prompt(scopes = ["admin"])]
async fn secret() -> String {
    "secret".into()
}

/// Summarises the notes.
#[prompt]
async fn summary() -> String {
    "summary".into()
}

/// A token is the scopes it grants, comma-separated (`-`: none).
struct ScopeList;

impl TokenVerifier for ScopeList {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _: &'a axum::http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(async move {
            let scopes = token.split(',').filter(|s| !s.is_empty() && *s != "-");
            Ok(Claims::new("tester").with_scopes(scopes))
        })
    }
}

/// The four lists: method, result member, and the member naming an item.
const LISTS: [(&str, &str, &str); 4] = [
    ("tools/list", "tools", "name"),
    ("resources/list", "resources", "uri"),
    (
        "resources/templates/list",
        "resourceTemplates",
        "uriTemplate",
    ),
    ("prompts/list", "prompts", "name"),
];

/// What each caller sees of the four lists, in `LISTS` order.
fn expected(token: &str) -> [Vec<&'static str>; 4] {
    match token {
        "-" => [
            vec!["search"],
            vec!["notes://notice"],
            vec![],
            vec!["summary"],
        ],
        "notes:read" => [
            vec!["read_notes", "search"],
            vec!["notes://all", "notes://notice"],
            vec!["notes://item/{id}"],
            vec!["summary"],
        ],
        // `notes` implies `notes:read` and `notes:write`.
        "notes,admin" => [
            vec!["archive", "read_notes", "search", "write_note"],
            vec!["notes://all", "notes://notice"],
            vec!["notes://draft/{id}", "notes://item/{id}"],
            vec!["secret", "summary"],
        ],
        other => panic!("no expectations for {other}"),
    }
}

const TOKENS: [&str; 3] = ["-", "notes:read", "notes,admin"];

fn builder() -> ServerBuilder {
    Server::builder(server_info!())
        .tool(archive::TOOL)
        .tool(read_notes::TOOL)
        .tool(search::TOOL)
        .tool(write_note::TOOL)
        .resource(all_notes::RESOURCE)
        .resource(notice::RESOURCE)
        .resource(item::RESOURCE)
        .resource(draft::RESOURCE)
        .prompt(secret::PROMPT)
        .prompt(summary::PROMPT)
}

/// A server on a loopback port, stopped when dropped.
struct Running {
    base: String,
    url: String,
    http: reqwest::Client,
    _stop: mcp_runtime::ShutdownHandle,
}

/// Serves `builder()` tuned by `tune`, protected by `auth` (given the resource URI) when given.
async fn serve(
    auth: Option<fn(Authorization) -> Authorization>,
    tune: impl FnOnce(ServerBuilder) -> ServerBuilder,
) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let url = format!("{base}/mcp");
    let mut b = tune(builder());
    if let Some(tune_auth) = auth {
        let a = Authorization::new(&url, ScopeList)
            .authorization_server("https://auth.example.com")
            .imply("notes", ["notes:read", "notes:write"]);
        b = b.auth(tune_auth(a));
    }
    let server = b.build().unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    Running {
        base,
        url,
        http: reqwest::Client::new(),
        _stop: stop,
    }
}

fn hiding(a: Authorization) -> Authorization {
    a.hide_unpermitted_items(true)
}

fn listing_all(a: Authorization) -> Authorization {
    a
}

const STATELESS_META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// A stateless-era request.
fn stateless(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = serde_json::from_str(STATELESS_META).unwrap();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

impl Running {
    /// POSTs `body` with `token` (when given), accepting JSON and SSE; `headers` are added.
    async fn post(
        &self,
        token: Option<&str>,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }

    /// A stateless-era request's answer (JSON or SSE).
    async fn stateless(&self, token: Option<&str>, method: &str, params: Value) -> Value {
        let body = stateless(7, method, params);
        let headers = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        let r = self.post(token, &body, &headers).await;
        assert_eq!(r.status(), StatusCode::OK, "{method}");
        answer(r).await
    }

    /// Opens a handshake-era session of `version`: its id.
    async fn session(&self, token: &str, version: &str) -> String {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}});
        let r = self.post(Some(token), &init, &[]).await;
        assert_eq!(r.status(), StatusCode::OK);
        let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let headers = [
            ("mcp-session-id", sid.as_str()),
            ("mcp-protocol-version", version),
        ];
        let r = self.post(Some(token), &initialized, &headers).await;
        assert_eq!(r.status(), StatusCode::ACCEPTED);
        sid
    }
}

/// The JSON-RPC message of an answer: the JSON body, or the last message of an SSE stream.
async fn answer(r: reqwest::Response) -> Value {
    let sse = r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream");
    let text = r.text().await.unwrap();
    if !sse {
        return serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    }
    events(&text)
        .pop()
        .unwrap_or_else(|| panic!("no message in {text}"))
}

/// The JSON-RPC messages of SSE text (its `data:` lines).
fn events(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .filter(|d| d.starts_with('{') || d.starts_with('['))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect()
}

/// The names (or URIs) of a list answer's items.
fn names(answer: &Value, member: &str, key: &str) -> Vec<String> {
    answer["result"][member]
        .as_array()
        .unwrap_or_else(|| panic!("no {member} in {answer}"))
        .iter()
        .map(|item| item[key].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn json_answers_list_only_what_the_caller_may_use() {
    let s = serve(Some(hiding), |b| b).await;
    for token in TOKENS {
        for ((method, member, key), want) in LISTS.iter().zip(expected(token)) {
            let a = s.stateless(Some(token), method, json!({})).await;
            assert_eq!(names(&a, member, key), want, "{method} for {token}");
            // The list varies by caller: no shared cache may serve it to another token.
            assert_eq!(a["result"]["cacheScope"], "private", "{method} for {token}");
            assert!(a["result"].get("nextCursor").is_none(), "{a}");
        }
        // The handshake era, in a session.
        let sid = s.session(token, "2025-11-25").await;
        let headers = [
            ("mcp-session-id", sid.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ];
        for ((method, member, key), want) in LISTS.iter().zip(expected(token)) {
            let list = json!({"jsonrpc": "2.0", "id": 5, "method": method});
            let a = answer(s.post(Some(token), &list, &headers).await).await;
            assert_eq!(names(&a, member, key), want, "{method} for {token}");
            assert!(a["result"].get("cacheScope").is_none(), "{a}");
        }
    }
}

#[tokio::test]
async fn using_a_hidden_item_is_refused_as_before() {
    let s = serve(Some(hiding), |b| b).await;
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp", s.base);
    let refusals = [
        (
            "tools/call",
            json!({"name": "archive", "arguments": {}}),
            "notes:write",
        ),
        (
            "resources/read",
            json!({"uri": "notes://draft/3"}),
            "notes:write",
        ),
        (
            "resources/read",
            json!({"uri": "notes://all"}),
            "notes:read",
        ),
        ("prompts/get", json!({"name": "secret"}), "admin"),
    ];
    for (method, params, scope) in refusals {
        let body = stateless(9, method, params);
        let mut headers = vec![
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        let name = body["params"]["name"]
            .as_str()
            .or(body["params"]["uri"].as_str());
        headers.push(("mcp-name", name.unwrap()));
        let r = s.post(Some("-"), &body, &headers).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{method} {scope}");
        assert_eq!(
            r.headers()["www-authenticate"],
            format!(
                r#"Bearer error="insufficient_scope", scope="{scope}", resource_metadata="{metadata}", error_description="this request needs the scopes: {scope}""#
            )
        );
    }
    // A listed item is served.
    let call = stateless(
        10,
        "tools/call",
        json!({"name": "read_notes", "arguments": {}}),
    );
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "read_notes"),
    ];
    let a = answer(s.post(Some("notes:read"), &call, &headers).await).await;
    assert_eq!(a["result"]["content"][0]["text"], "notes", "{a}");
}

#[tokio::test]
async fn answers_the_server_may_stream_list_only_what_the_caller_may_use() {
    // SSE allowed (the JSON-response setting off, a stream at once when anything is pending)
    // and accepted by the client. A list's reply is ready when the request is first polled, so
    // today the server answers JSON; whichever it picks, the list is the caller's (the legacy
    // transport's test reads list answers from an SSE stream).
    let s = serve(Some(hiding), |b| {
        b.http(
            HttpOptions::new()
                .json_response(false)
                .stream_after(Duration::ZERO),
        )
    })
    .await;
    for token in TOKENS {
        for ((method, member, key), want) in LISTS.iter().zip(expected(token)) {
            let a = s.stateless(Some(token), method, json!({})).await;
            assert_eq!(names(&a, member, key), want, "{method} for {token}");
        }
    }
}

#[tokio::test]
async fn batches_list_only_what_the_caller_may_use() {
    let s = serve(Some(hiding), |b| b).await;
    for token in TOKENS {
        let sid = s.session(token, "2025-03-26").await;
        let headers = [
            ("mcp-session-id", sid.as_str()),
            ("mcp-protocol-version", "2025-03-26"),
        ];
        let batch: Vec<Value> = LISTS
            .iter()
            .zip(1..)
            .map(|((method, ..), id)| json!({"jsonrpc": "2.0", "id": id, "method": method}))
            .collect();
        let r = s.post(Some(token), &Value::from(batch), &headers).await;
        assert_eq!(r.status(), StatusCode::OK);
        let answers = answer(r).await;
        let answers = answers.as_array().unwrap_or_else(|| panic!("{answers}"));
        assert_eq!(answers.len(), 4);
        for (((method, member, key), want), id) in LISTS.iter().zip(expected(token)).zip(1..) {
            let a = answers.iter().find(|a| a["id"] == id).unwrap();
            assert_eq!(names(a, member, key), want, "{method} for {token}");
        }
    }
}

/// Walks a stateless-era list from its first page: each page's names, and the cursors.
async fn walk(s: &Running, token: &str, method: &str, member: &str, key: &str) -> Vec<Vec<String>> {
    let (mut pages, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let params = cursor.map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let a = s.stateless(Some(token), method, params).await;
        assert_eq!(a["result"]["cacheScope"], "private", "{a}");
        pages.push(names(&a, member, key));
        match a["result"].get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().unwrap().to_owned()),
            None => return pages,
        }
        assert!(pages.len() <= 10, "the pages do not end");
    }
}

#[tokio::test]
async fn pages_keep_their_cursors_and_a_walk_sees_each_permitted_item_once() {
    let s = serve(Some(hiding), |b| b.page_size(1)).await;
    // One item per prepared page: a page whose item is hidden is empty, and names the next.
    let pages = walk(&s, "notes:read", "tools/list", "tools", "name").await;
    assert_eq!(pages, [vec![], vec!["read_notes"], vec!["search"], vec![]]);
    let pages = walk(&s, "notes,admin", "tools/list", "tools", "name").await;
    assert_eq!(
        pages,
        [["archive"], ["read_notes"], ["search"], ["write_note"]]
    );
    let pages = walk(
        &s,
        "-",
        "resources/templates/list",
        "resourceTemplates",
        "uriTemplate",
    )
    .await;
    assert_eq!(pages, [Vec::<String>::new(), vec![]]);

    let s = serve(Some(hiding), |b| b.page_size(3)).await;
    for token in TOKENS {
        for ((method, member, key), want) in LISTS.iter().zip(expected(token)) {
            let walked: Vec<String> = walk(&s, token, method, member, key).await.concat();
            assert_eq!(walked, want, "{method} for {token}");
        }
    }
    // Pages of three: `archive`, `read_notes`, `search`, then `write_note`.
    let pages = walk(&s, "notes:read", "tools/list", "tools", "name").await;
    assert_eq!(pages, [vec!["read_notes", "search"], vec![]]);

    // The same pages in a batch (2025-03-26), cursors and all.
    let s = serve(Some(hiding), |b| b.page_size(1)).await;
    let sid = s.session("notes:read", "2025-03-26").await;
    let headers = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-03-26"),
    ];
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "p1"}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "p2"}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"cursor": "p3"}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"cursor": "p4"}},
    ]);
    let answers = answer(s.post(Some("notes:read"), &batch, &headers).await).await;
    let page = |id: u64| {
        answers
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id)
            .unwrap()
    };
    let seen: Vec<(Vec<String>, Option<&str>)> = (1..=4)
        .map(|id| {
            let a = page(id);
            (
                names(a, "tools", "name"),
                a["result"]["nextCursor"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (vec![], Some("p1")),
            (vec!["read_notes".to_owned()], Some("p2")),
            (vec!["search".to_owned()], Some("p3")),
            (vec![], None),
        ]
    );
    assert_eq!(page(5)["error"]["code"], -32602, "a cursor past the end");
}

#[cfg(feature = "legacy-sse")]
#[tokio::test]
async fn the_legacy_stream_lists_only_what_the_caller_may_use() {
    let s = serve(Some(hiding), |b| b).await;
    for token in TOKENS {
        let r = s
            .http
            .get(format!("{}/sse", s.base))
            .header("authorization", format!("Bearer {token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let mut stream = r.bytes_stream();
        let mut text = String::new();
        let mut next_chunk = async || {
            let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
                .await
                .expect("the stream goes on")
                .unwrap()
                .unwrap();
            String::from_utf8(chunk.to_vec()).unwrap()
        };
        while !text.contains("\n\n") {
            text.push_str(&next_chunk().await);
        }
        let endpoint = text
            .lines()
            .find_map(|l| l.strip_prefix("data: "))
            .expect("the endpoint event")
            .to_owned();
        let messages = format!("{}{endpoint}", s.base);
        let send = |body: Value| {
            s.http
                .post(&messages)
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "application/json")
                .body(body.to_string())
                .send()
        };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2024-11-05", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}});
        assert_eq!(send(init).await.unwrap().status(), StatusCode::ACCEPTED);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            send(initialized).await.unwrap().status(),
            StatusCode::ACCEPTED
        );
        for (id, (method, ..)) in (1..).zip(LISTS) {
            let list = json!({"jsonrpc": "2.0", "id": id, "method": method});
            assert_eq!(send(list).await.unwrap().status(), StatusCode::ACCEPTED);
        }
        let mut answers = Vec::new();
        while answers.len() < 4 {
            text.push_str(&next_chunk().await);
            let done = text.rfind("\n\n").unwrap_or(0);
            answers = events(&text[..done])
                .into_iter()
                .filter(|m| m["id"].as_u64().is_some_and(|id| id > 0))
                .collect();
        }
        for (((method, member, key), want), id) in LISTS.iter().zip(expected(token)).zip(1..) {
            let a = answers.iter().find(|a| a["id"] == id).unwrap();
            assert_eq!(names(a, member, key), want, "{method} for {token}");
        }
    }
}

/// Every item of each list, in `LISTS` order.
fn full() -> [Vec<&'static str>; 4] {
    expected("notes,admin")
}

#[tokio::test]
async fn without_hiding_or_without_a_caller_lists_are_the_prepared_pages() {
    // The reference: the same server, unprotected.
    let open = serve(None, |b| b.allow_unprotected(true)).await;
    let mut reference = Vec::new();
    for ((method, member, key), want) in LISTS.iter().zip(full()) {
        let a = open.stateless(None, method, json!({})).await;
        assert_eq!(names(&a, member, key), want);
        assert_eq!(a["result"]["cacheScope"], "public");
        reference.push(a["result"].clone());
    }
    // Protected, not hiding: every caller gets the prepared page, byte for byte the same.
    let s = serve(Some(listing_all), |b| b).await;
    for token in TOKENS {
        for ((method, ..), want) in LISTS.iter().zip(&reference) {
            let a = s.stateless(Some(token), method, json!({})).await;
            assert_eq!(&a["result"], want, "{method} for {token}");
        }
    }
    // Hiding, but no verified caller (a transport without the gate): everything.
    let server = builder()
        .auth(hiding(Authorization::new(
            "https://notes.example.com/mcp",
            ScopeList,
        )))
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    for ((method, ..), want) in LISTS.iter().zip(&reference) {
        let a = client.stateless(method, json!({})).await;
        assert_eq!(&a["result"], want, "{method} in memory");
    }
}
