//! Rate limits and quotas (`mcp_runtime::limit`): the exact refusal, refill on tokio's paused
//! clock, principals counted apart (the standalone HTTP server's principal is the peer
//! address: each client binds its own loopback address, 127.0.0.N), one tool's rule not
//! touching another, a quota window's reset, and the bounded key table.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use mcp_runtime::limit::{ERROR_CODE, RateLimit, Rule};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::Method;
use serde_json::{Value, json};

/// Searches.
#[tool]
async fn search() -> String {
    "found".into()
}

/// Fetches.
#[tool]
async fn fetch() -> String {
    "fetched".into()
}

fn server(limit: Arc<RateLimit>) -> Server {
    Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(fetch::TOOL)
        .layer(ArcLayer(limit))
        .build()
        .unwrap()
}

/// The limiter shared with the test, which reads its key count.
struct ArcLayer(Arc<RateLimit>);

impl mcp_runtime::middleware::Layer for ArcLayer {
    fn call<'a>(
        &'a self,
        request: &'a mcp_runtime::middleware::Request<'a>,
        next: mcp_runtime::middleware::Next<'a>,
    ) -> mcp_runtime::BoxFuture<'a, mcp_runtime::middleware::Outcome> {
        self.0.call(request, next)
    }
}

fn refused(id: i64, reason: &str, ms: u64, rule: &str) -> Value {
    let what = if reason == "rate_limited" {
        "rate limited"
    } else {
        "quota exceeded"
    };
    json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": ERROR_CODE,
        "message": format!("{what}: retry in {ms} ms"),
        "data": {"reason": reason, "retryAfterMs": ms, "rule": rule}}})
}

fn found(r: &Value) -> &str {
    r["result"]["content"][0]["text"].as_str().unwrap_or("-")
}

#[tokio::test(start_paused = true)]
async fn a_burst_then_the_exact_refusal_then_refill_on_the_paused_clock() {
    let limit = RateLimit::builder()
        .rule(
            Rule::tool("search")
                .rate(2, Duration::from_secs(1))
                .burst(3),
        )
        .build()
        .unwrap();
    let mut c = server(Arc::new(limit)).connect_in_memory();
    c.initialize("2025-11-25").await;
    for _ in 0..3 {
        assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    }
    let r = c.call_tool("search", json!({})).await;
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r, refused(id, "rate_limited", 500, "tool:search"));
    // One token every 500 ms: not yet at 499 ms, one at 500 ms, and only one.
    tokio::time::advance(Duration::from_millis(499)).await;
    let r = c.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["data"]["retryAfterMs"], 1);
    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    let r = c.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["data"]["retryAfterMs"], 500);
    // A full bucket again after 1.5 s: three at once.
    tokio::time::advance(Duration::from_millis(1500)).await;
    for _ in 0..3 {
        assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    }
    assert_eq!(
        c.call_tool("search", json!({})).await["error"]["code"],
        ERROR_CODE
    );
}

#[tokio::test(start_paused = true)]
async fn a_tools_rule_leaves_other_tools_and_methods_alone() {
    let limit = RateLimit::builder()
        .rule(Rule::tool("search").rate(1, Duration::from_secs(60)))
        .rule(Rule::method(Method::ListTools).rate(1, Duration::from_secs(60)))
        .build()
        .unwrap();
    let mut c = server(Arc::new(limit)).connect_in_memory();
    c.initialize("2025-11-25").await;
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    let r = c.call_tool("search", json!({})).await;
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r, refused(id, "rate_limited", 60_000, "tool:search"));
    for _ in 0..5 {
        assert_eq!(found(&c.call_tool("fetch", json!({})).await), "fetched");
    }
    assert_eq!(c.request("ping", Value::Null).await["result"], json!({}));
    let list = c.request("tools/list", json!({})).await;
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 2);
    let r = c.request("tools/list", json!({})).await;
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r, refused(id, "rate_limited", 60_000, "method:tools/list"));
}

#[tokio::test(start_paused = true)]
async fn a_quota_refuses_until_its_window_ends() {
    let limit = RateLimit::builder()
        .rule(Rule::all().quota(3, Duration::from_secs(3600)))
        .build()
        .unwrap();
    let mut c = server(Arc::new(limit)).connect_in_memory();
    // `initialize` is counted too (`Rule::all`): two calls remain.
    c.initialize("2025-11-25").await;
    tokio::time::advance(Duration::from_secs(600)).await;
    assert_eq!(found(&c.call_tool("fetch", json!({})).await), "fetched");
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    let r = c.call_tool("search", json!({})).await;
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r, refused(id, "quota_exceeded", 3_000_000, "all"));
    tokio::time::advance(Duration::from_millis(2_999_999)).await;
    let r = c.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["data"]["retryAfterMs"], 1);
    assert_eq!(r["error"]["data"]["reason"], "quota_exceeded");
    tokio::time::advance(Duration::from_millis(1)).await;
    for _ in 0..3 {
        assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    }
    assert_eq!(
        c.call_tool("search", json!({})).await["error"]["data"]["retryAfterMs"],
        3_600_000
    );
}

#[tokio::test(start_paused = true)]
async fn the_longer_wait_of_a_bucket_and_a_quota_is_the_refusal() {
    let limit = RateLimit::builder()
        .rule(
            Rule::tool("search")
                .rate(1, Duration::from_secs(1))
                .quota(2, Duration::from_secs(100)),
        )
        .build()
        .unwrap();
    let mut c = server(Arc::new(limit)).connect_in_memory();
    c.initialize("2025-11-25").await;
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    let r = c.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["data"]["reason"], "rate_limited");
    assert_eq!(r["error"]["data"]["retryAfterMs"], 1000);
    tokio::time::advance(Duration::from_secs(1)).await;
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    tokio::time::advance(Duration::from_secs(1)).await;
    let r = c.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["data"]["reason"], "quota_exceeded");
    assert_eq!(r["error"]["data"]["retryAfterMs"], 98_000);
}

#[test]
fn rules_that_cannot_be_honoured_refuse_to_build() {
    let err = |b: mcp_runtime::limit::RateLimitBuilder| b.build().unwrap_err().to_string();
    assert_eq!(err(RateLimit::builder()), "rate limit: no rule given");
    assert_eq!(
        err(RateLimit::builder()
            .rule(Rule::all().rate(1, Duration::from_secs(1)))
            .max_keys(0)),
        "rate limit: max_keys is 0"
    );
    assert_eq!(
        err(RateLimit::builder().rule(Rule::all().rate(1, Duration::from_secs(1)).burst(0))),
        "rate limit: rule `all` has a burst of 0"
    );
    let many = (0..65).fold(RateLimit::builder(), |b, i| {
        b.rule(Rule::tool(format!("t{i}")).rate(1, Duration::from_secs(1)))
    });
    assert_eq!(err(many), "rate limit: 65 rules given, at most 64");
}

// ---------------------------------------------------------------------------------------------
// Over the standalone HTTP server: the principal is the peer address.

async fn serve(server: Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { server.serve_http_on(listener).await });
    url
}

/// A client whose connections come from 127.0.0.`n`.
fn from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// A stateless `tools/call` of `name`.
async fn call(client: &reqwest::Client, url: &str, name: &str) -> Value {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    });
    let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/call",
        "params":{"name":name,"arguments":{},"_meta":meta}});
    let r = client
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    serde_json::from_str(&r.text().await.unwrap()).unwrap()
}

#[tokio::test]
async fn two_principals_have_budgets_of_their_own() {
    let limit = RateLimit::builder()
        .rule(
            Rule::tool("search")
                .rate(1, Duration::from_secs(3600))
                .burst(2),
        )
        .build()
        .unwrap();
    let url = serve(server(Arc::new(limit))).await;
    let (a, b) = (from(1), from(2));
    assert_eq!(found(&call(&a, &url, "search").await), "found");
    assert_eq!(found(&call(&a, &url, "search").await), "found");
    // The real clock runs here: the wait is a little under the hour.
    let mut r = call(&a, &url, "search").await;
    let wait = r["error"]["data"]["retryAfterMs"].as_u64().unwrap();
    assert!((3_590_000..=3_600_000).contains(&wait), "{wait}");
    r["error"]["data"]["retryAfterMs"] = json!(3_600_000);
    r["error"]["message"] = json!("rate limited: retry in 3600000 ms");
    assert_eq!(r, refused(1, "rate_limited", 3_600_000, "tool:search"));
    assert_eq!(found(&call(&b, &url, "search").await), "found");
    assert_eq!(found(&call(&b, &url, "search").await), "found");
    let r = call(&b, &url, "search").await;
    assert_eq!(r["error"]["data"]["reason"], "rate_limited");
    assert_eq!(call(&a, &url, "search").await["error"]["code"], ERROR_CODE);
}

#[tokio::test]
async fn the_key_table_is_bounded_and_drops_the_least_recently_seen() {
    let limit = Arc::new(
        RateLimit::builder()
            .rule(Rule::tool("search").rate(1, Duration::from_secs(3600)))
            .max_keys(4)
            .build()
            .unwrap(),
    );
    let url = serve(server(Arc::clone(&limit))).await;
    // Five peers, each spending its one call; the table keeps four.
    for n in 1..=5 {
        let c = from(n);
        assert_eq!(found(&call(&c, &url, "search").await), "found", "peer {n}");
        assert_eq!(call(&c, &url, "search").await["error"]["code"], ERROR_CODE);
        assert_eq!(limit.keys(), usize::from(n.min(4)));
    }
    // Peer 1, seen least recently, was dropped: a fresh budget. Peer 5 still has none.
    assert_eq!(found(&call(&from(1), &url, "search").await), "found");
    assert_eq!(
        call(&from(5), &url, "search").await["error"]["code"],
        ERROR_CODE
    );
    assert_eq!(limit.keys(), 4);
}
