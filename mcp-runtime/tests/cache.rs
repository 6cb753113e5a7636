//! Response caching: the per-item cache hints on the wire (`resources/read` in 2026-07-28,
//! nothing before), and the [`Cache`] layer: an identical request answered without running the
//! handler, different arguments or callers missing, private results kept per principal, TTL
//! expiry, interim results, retries and errors never kept, the bounds, and invalidation.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use mcp_runtime::ListChanged;
use mcp_runtime::cache::Cache;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

/// Runs of each handler, by name.
static RATE: AtomicU32 = AtomicU32::new(0);
static FAILS: AtomicU32 = AtomicU32::new(0);
static PLAIN: AtomicU32 = AtomicU32::new(0);
static GREETING: AtomicU32 = AtomicU32::new(0);
static PROFILE: AtomicU32 = AtomicU32::new(0);
static BROKEN: AtomicU32 = AtomicU32::new(0);
static ASK: AtomicU32 = AtomicU32::new(0);
static SHORT: AtomicU32 = AtomicU32::new(0);
static LOOKUP: AtomicU32 = AtomicU32::new(0);
static SCOPED: AtomicU32 = AtomicU32::new(0);
static TASKY: AtomicU32 = AtomicU32::new(0);

/// The exchange rate of a currency.
#[tool(read_only, cache_ttl_ms = 60_000, cache_scope = "public")]
async fn rate(currency: String) -> String {
    let n = RATE.fetch_add(1, Ordering::SeqCst) + 1;
    format!("{currency} run {n}")
}

/// Fails the way a model sees (`isError`).
#[tool(read_only, cache_ttl_ms = 60_000)]
async fn fails() -> Result<String, ToolError> {
    FAILS.fetch_add(1, Ordering::SeqCst);
    Err(ToolError::new("nope"))
}

/// Read-only, with no TTL: never cached.
#[tool(read_only)]
async fn plain() -> String {
    let n = PLAIN.fetch_add(1, Ordering::SeqCst) + 1;
    format!("plain {n}")
}

/// Looks a code up (the bounds' test has it to itself).
#[tool(read_only, cache_ttl_ms = 60_000)]
async fn lookup(code: String) -> String {
    LOOKUP.fetch_add(1, Ordering::SeqCst);
    code
}

/// Needs a scope: the layer runs before authorization, so it never keeps this.
#[tool(read_only, cache_ttl_ms = 60_000, scopes = ["notes:read"])]
async fn scoped() -> String {
    SCOPED.fetch_add(1, Ordering::SeqCst);
    "scoped".into()
}

/// May run as a task: never kept.
#[tool(read_only, cache_ttl_ms = 60_000, task = "optional")]
async fn tasky() -> String {
    TASKY.fetch_add(1, Ordering::SeqCst);
    "tasky".into()
}

/// Fresh for 400 ms.
#[tool(read_only, cache_ttl_ms = 400)]
async fn short() -> String {
    let n = SHORT.fetch_add(1, Ordering::SeqCst) + 1;
    format!("short {n}")
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// Asks a name (an `input_required` round in 2026-07-28).
#[tool(read_only, cache_ttl_ms = 60_000)]
async fn ask(ctx: Context) -> Result<String, ToolError> {
    ASK.fetch_add(1, Ordering::SeqCst);
    match ctx.elicit::<Name>("Name?").await? {
        Elicitation::Accept(n) => Ok(format!("Hello, {}!", n.name)),
        Elicitation::Decline | Elicitation::Cancel => Ok("Hello!".into()),
    }
}

/// A greeting.
#[prompt(cache_ttl_ms = 60_000)]
async fn greeting(name: String) -> String {
    let n = GREETING.fetch_add(1, Ordering::SeqCst) + 1;
    format!("Greet {name} ({n}).")
}

/// Public, fresh for a minute.
#[resource(
    uri = "app://version",
    mime = "text/plain",
    ttl_ms = 60_000,
    cache_scope = "public"
)]
async fn version() -> String {
    "1.2.3".into()
}

/// A user's profile: private, fresh for 5 s.
#[resource(uri = "app://profile/{user}", mime = "text/plain", ttl_ms = 5000)]
async fn profile(user: String) -> String {
    let n = PROFILE.fetch_add(1, Ordering::SeqCst) + 1;
    format!("{user} {n}")
}

/// A document: private (the default scope), fresh for 5 s.
#[resource(uri = "app://doc/{id}", mime = "text/plain", ttl_ms = 5000)]
async fn doc(id: u32) -> String {
    format!("doc {id}")
}

/// No hint: `ttlMs: 0`, `private`.
#[resource(uri = "app://now", mime = "text/plain")]
async fn now() -> String {
    "now".into()
}

/// Always fails.
#[resource(uri = "app://broken", ttl_ms = 60_000)]
async fn broken() -> Result<String, ToolError> {
    BROKEN.fetch_add(1, Ordering::SeqCst);
    Err(ToolError::new("broken"))
}

fn server(cache: &Cache) -> Server {
    Server::builder(server_info!())
        .tool(rate::TOOL)
        .tool(fails::TOOL)
        .tool(plain::TOOL)
        .tool(short::TOOL)
        .tool(lookup::TOOL)
        .tool(scoped::TOOL)
        .tool(tasky::TOOL)
        .tool(ask::TOOL)
        .prompt(greeting::PROMPT)
        .resource(version::RESOURCE)
        .resource(profile::RESOURCE)
        .resource(doc::RESOURCE)
        .resource(now::RESOURCE)
        .resource(broken::RESOURCE)
        .layer(cache.clone())
        .build()
        .unwrap()
}

fn text(r: &Value) -> &str {
    r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{r}"))
}

/// The result without its `_meta` (the server's identity in 2026-07-28).
fn bare(mut r: Value) -> Value {
    let result = r["result"].as_object_mut().unwrap();
    result.remove("_meta");
    r["result"].take()
}

#[tokio::test]
async fn resources_read_carries_the_items_hints_in_2026_07_28_only() {
    let server = server(&Cache::new().max_entries(0));
    let mut c = server.connect_in_memory();
    let read = |uri: &str| json!({"uri": uri});
    assert_eq!(
        bare(c.stateless("resources/read", read("app://version")).await),
        json!({"contents": [{"uri": "app://version", "mimeType": "text/plain", "text": "1.2.3"}],
            "ttlMs": 60000, "cacheScope": "public", "resultType": "complete"})
    );
    assert_eq!(
        bare(c.stateless("resources/read", read("app://doc/7")).await),
        json!({"contents": [{"uri": "app://doc/7", "mimeType": "text/plain", "text": "doc 7"}],
            "ttlMs": 5000, "cacheScope": "private", "resultType": "complete"})
    );
    assert_eq!(
        bare(c.stateless("resources/read", read("app://now")).await),
        json!({"contents": [{"uri": "app://now", "mimeType": "text/plain", "text": "now"}],
            "ttlMs": 0, "cacheScope": "private", "resultType": "complete"})
    );
    // The handshake era has no cache hints.
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    assert_eq!(
        c.request("resources/read", read("app://version")).await["result"],
        json!({"contents": [{"uri": "app://version", "mimeType": "text/plain", "text": "1.2.3"}]})
    );
}

#[tokio::test]
async fn an_identical_call_is_answered_from_the_cache() {
    let cache = Cache::new();
    let server = server(&cache);
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    let first = c.call_tool("rate", json!({"currency": "EUR"})).await;
    assert_eq!(text(&first), "EUR run 1");
    let again = c.call_tool("rate", json!({"currency": "EUR"})).await;
    assert_eq!(again["result"], first["result"]);
    assert_eq!(RATE.load(Ordering::SeqCst), 1);
    // `_meta` (a progress token) is not part of the key.
    let params =
        json!({"name": "rate", "arguments": {"currency": "EUR"}, "_meta": {"progressToken": 9}});
    assert_eq!(text(&c.request("tools/call", params).await), "EUR run 1");
    // Other arguments miss.
    assert_eq!(
        text(&c.call_tool("rate", json!({"currency": "USD"})).await),
        "USD run 2"
    );
    assert_eq!((cache.hits(), cache.misses(), cache.len()), (2, 2, 2));
    // A public result is shared by another connection.
    let mut other = server.connect_in_memory();
    other.initialize("2025-11-25").await;
    assert_eq!(
        text(&other.call_tool("rate", json!({"currency": "EUR"})).await),
        "EUR run 1"
    );
    assert_eq!(RATE.load(Ordering::SeqCst), 2);
    // Another revision is another key.
    let r = c
        .stateless(
            "tools/call",
            json!({"name": "rate", "arguments": {"currency": "EUR"}}),
        )
        .await;
    assert_eq!(text(&r), "EUR run 3");
    // No TTL: never cached.
    assert_eq!(text(&c.call_tool("plain", json!({})).await), "plain 1");
    assert_eq!(text(&c.call_tool("plain", json!({})).await), "plain 2");
    assert_eq!((cache.hits(), cache.misses()), (3, 3));

    // A prompt with a TTL.
    let get = json!({"name": "greeting", "arguments": {"name": "Ada"}});
    let first = c.request("prompts/get", get.clone()).await;
    assert_eq!(
        first["result"]["messages"][0]["content"]["text"],
        "Greet Ada (1)."
    );
    assert_eq!(
        c.request("prompts/get", get.clone()).await["result"],
        first["result"]
    );
    assert_eq!(GREETING.load(Ordering::SeqCst), 1);
    // A list change drops the prompts' results.
    server.notify_list_changed(ListChanged::Prompts);
    let r = c.request("prompts/get", get).await;
    assert_eq!(
        r["result"]["messages"][0]["content"]["text"],
        "Greet Ada (2)."
    );
}

#[tokio::test]
async fn private_reads_are_kept_and_dropped_when_updated() {
    let cache = Cache::new();
    let server = server(&cache);
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    let read = json!({"uri": "app://profile/ada"});
    let r = c.request("resources/read", read.clone()).await;
    assert_eq!(r["result"]["contents"][0]["text"], "ada 1");
    let r = c.request("resources/read", read.clone()).await;
    assert_eq!(r["result"]["contents"][0]["text"], "ada 1");
    assert_eq!(PROFILE.load(Ordering::SeqCst), 1);
    server.notify_resource_updated("app://profile/ada");
    let r = c.request("resources/read", read.clone()).await;
    assert_eq!(r["result"]["contents"][0]["text"], "ada 2");
    // Errors are not kept.
    for _ in 0..2 {
        let r = c
            .request("resources/read", json!({"uri": "app://broken"}))
            .await;
        assert!(r.get("error").is_some(), "{r}");
    }
    assert_eq!(BROKEN.load(Ordering::SeqCst), 2);
    for _ in 0..2 {
        let r = c.call_tool("fails", json!({})).await;
        assert_eq!(r["result"]["isError"], true, "{r}");
    }
    assert_eq!(FAILS.load(Ordering::SeqCst), 2);
    assert_eq!((cache.hits(), cache.misses()), (1, 6));
}

#[tokio::test]
async fn a_result_expires_after_its_ttl() {
    let cache = Cache::new();
    let server = server(&cache);
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    assert_eq!(text(&c.call_tool("short", json!({})).await), "short 1");
    assert_eq!(text(&c.call_tool("short", json!({})).await), "short 1");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(text(&c.call_tool("short", json!({})).await), "short 2");
    assert_eq!((cache.hits(), cache.misses()), (1, 2));
}

#[tokio::test]
async fn interim_results_and_retries_are_never_kept() {
    let cache = Cache::new();
    let server = server(&cache);
    let mut c = server.connect_in_memory();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    });
    let call = json!({"name": "ask", "arguments": {}, "_meta": meta});
    for _ in 0..2 {
        let r = c.request("tools/call", call.clone()).await;
        assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    }
    assert_eq!(ASK.load(Ordering::SeqCst), 2);
    let r = c.request("tools/call", call.clone()).await;
    let mut retry = call.clone();
    retry["requestState"] = r["result"]["requestState"].clone();
    retry["inputResponses"] = json!({"elicit-0": {"action": "accept", "content": {"name": "Ada"}}});
    assert_eq!(
        text(&c.request("tools/call", retry.clone()).await),
        "Hello, Ada!"
    );
    assert_eq!(ASK.load(Ordering::SeqCst), 4);
    // The same retry again runs again (its state is single use: refused, not replayed).
    let r = c.request("tools/call", retry).await;
    assert!(
        r.get("error").is_some() || r["result"]["isError"] == true,
        "{r}"
    );
    assert_eq!((cache.hits(), cache.len()), (0, 0));
}

#[tokio::test]
async fn the_table_is_bounded_by_entries_and_bytes() {
    let cache = Cache::new().max_entries(2);
    let server = server(&cache);
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    for code in ["AAA", "BBB", "CCC"] {
        c.call_tool("lookup", json!({"code": code})).await;
    }
    assert_eq!(cache.len(), 2);
    // The least recently used (AAA) went first.
    c.call_tool("lookup", json!({"code": "CCC"})).await;
    c.call_tool("lookup", json!({"code": "AAA"})).await;
    assert_eq!(LOOKUP.load(Ordering::SeqCst), 4);
    assert_eq!((cache.hits(), cache.len()), (1, 2));

    let tiny = Cache::new().max_bytes(64);
    let server = self::server(&tiny);
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    c.call_tool("lookup", json!({"code": "DDD"})).await;
    c.call_tool("lookup", json!({"code": "DDD"})).await;
    assert_eq!((tiny.len(), tiny.hits(), tiny.misses()), (0, 0, 2));
    assert_eq!(LOOKUP.load(Ordering::SeqCst), 6);
}

#[tokio::test]
async fn scoped_items_and_tools_that_may_become_tasks_are_not_kept() {
    let cache = Cache::new();
    let server = server(&cache);
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    for _ in 0..2 {
        assert_eq!(text(&c.call_tool("scoped", json!({})).await), "scoped");
        assert_eq!(text(&c.call_tool("tasky", json!({})).await), "tasky");
    }
    assert_eq!(
        (SCOPED.load(Ordering::SeqCst), TASKY.load(Ordering::SeqCst)),
        (2, 2)
    );
    assert_eq!((cache.hits(), cache.misses(), cache.len()), (0, 0, 0));
}

#[cfg(feature = "auth")]
mod principals {
    use mcp_runtime::BoxFuture;
    use mcp_runtime::auth::{Auth, AuthError, Authorization, Claims, TokenVerifier};
    use mcp_runtime::cache::Cache;
    use mcp_runtime::prelude::*;
    use serde_json::{Value, json};

    /// The caller's own notes: private (the default scope).
    #[resource(uri = "notes://mine", mime = "text/plain", ttl_ms = 60_000)]
    async fn mine(auth: Auth) -> String {
        format!("notes of {}", auth.subject)
    }

    /// A token is its subject.
    struct Subject;

    impl TokenVerifier for Subject {
        fn verify<'a>(
            &'a self,
            token: &'a str,
            _: &'a axum::http::request::Parts,
        ) -> BoxFuture<'a, Result<Claims, AuthError>> {
            Box::pin(async move { Ok(Claims::new(token)) })
        }
    }

    async fn read(http: &reqwest::Client, url: &str, token: &str) -> String {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read",
            "params": {"uri": "notes://mine", "_meta": meta}});
        let r = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "resources/read")
            .header("mcp-name", "notes://mine")
            .header("authorization", format!("Bearer {token}"))
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let v: Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
        v["result"]["contents"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"))
            .to_owned()
    }

    #[tokio::test]
    async fn a_private_result_is_never_served_to_another_principal() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let cache = Cache::new();
        let server = Server::builder(server_info!())
            .resource(mine::RESOURCE)
            .auth(Authorization::new(&url, Subject).authorization_server("https://as.example.com"))
            .layer(cache.clone())
            .build()
            .unwrap();
        let stop = server.shutdown_handle();
        tokio::spawn(async move { server.serve_http_on(listener).await });
        let http = reqwest::Client::new();
        assert_eq!(read(&http, &url, "alice").await, "notes of alice");
        assert_eq!(read(&http, &url, "alice").await, "notes of alice");
        assert_eq!(read(&http, &url, "bob").await, "notes of bob");
        assert_eq!(read(&http, &url, "bob").await, "notes of bob");
        assert_eq!((cache.hits(), cache.misses(), cache.len()), (2, 2, 2));
        drop(stop);
    }
}
