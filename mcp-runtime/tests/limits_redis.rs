//! Rate limits on Redis (features `redis`): two replicas on one real `redis-server` share one
//! budget, the script survives `SCRIPT FLUSH` (`NOSCRIPT` → `EVAL`), and with Redis down each
//! configured fallback (local limiter, allow, refuse) applies.
//!
//! Needs Debian's `redis-server` on the PATH (`apt-get install redis-server`), like
//! tests/redis.rs: without it these tests fail, they are never skipped.
#![cfg(feature = "redis")]

use std::time::Duration;

use mcp_runtime::limit::{ERROR_CODE, RateLimit, Rule, Unavailable};
use mcp_runtime::prelude::*;
use mcp_runtime::scale_redis::RedisOptions;
use serde_json::{Value, json};

/// Searches.
#[tool]
async fn search() -> String {
    "found".into()
}

#[path = "support/redis_server.rs"]
mod redis_server;
use redis_server::{RedisServer, free_port};

/// A replica: its own server and limiter, the budget in Redis at `url`.
fn replica(url: &str, ns: &str, unavailable: Unavailable) -> Server {
    let limit = RateLimit::builder()
        .rule(
            Rule::tool("search")
                .rate(1, Duration::from_secs(3600))
                .burst(3),
        )
        .redis(
            RedisOptions::new(url)
                .namespace(ns)
                .timeout(Duration::from_millis(300)),
            unavailable,
        )
        .build()
        .unwrap();
    Server::builder(server_info!())
        .tool(search::TOOL)
        .layer(limit)
        .build()
        .unwrap()
}

fn found(r: &Value) -> &str {
    r["result"]["content"][0]["text"].as_str().unwrap_or("-")
}

#[tokio::test]
async fn two_replicas_on_one_redis_share_one_budget() {
    let redis = RedisServer::start().await;
    let mut a = replica(&redis.url(), "shared", Unavailable::Refuse).connect_in_memory();
    let mut b = replica(&redis.url(), "shared", Unavailable::Refuse).connect_in_memory();
    a.initialize("2025-11-25").await;
    b.initialize("2025-11-25").await;
    assert_eq!(found(&a.call_tool("search", json!({})).await), "found");
    assert_eq!(found(&b.call_tool("search", json!({})).await), "found");
    assert_eq!(found(&a.call_tool("search", json!({})).await), "found");
    // The fourth call, on either replica, is over the burst of 3.
    let r = b.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["code"], ERROR_CODE);
    assert_eq!(r["error"]["data"]["reason"], "rate_limited");
    assert_eq!(r["error"]["data"]["rule"], "tool:search");
    let wait = r["error"]["data"]["retryAfterMs"].as_u64().unwrap();
    assert!((3_590_000..=3_600_000).contains(&wait), "{wait}");
    assert_eq!(
        a.call_tool("search", json!({})).await["error"]["code"],
        ERROR_CODE
    );
    // One hash per (rule, key), expiring.
    assert_eq!(
        redis
            .command(&["HGET", "shared:limit:tool:search:anonymous", "ws"])
            .await
            .as_deref(),
        Some("$1\r\n0")
    );
    let ttl = redis
        .command(&["PTTL", "shared:limit:tool:search:anonymous"])
        .await
        .unwrap();
    let ttl: u64 = ttl.trim_start_matches(':').parse().unwrap();
    assert!((10_700_000..=10_800_001).contains(&ttl), "{ttl}");

    // Another namespace is another budget; a flushed script cache is loaded again.
    let mut c = replica(&redis.url(), "other", Unavailable::Refuse).connect_in_memory();
    c.initialize("2025-11-25").await;
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    assert_eq!(
        redis.command(&["SCRIPT", "FLUSH"]).await.as_deref(),
        Some("+OK")
    );
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    assert_eq!(found(&c.call_tool("search", json!({})).await), "found");
    assert_eq!(
        c.call_tool("search", json!({})).await["error"]["code"],
        ERROR_CODE
    );
}

#[tokio::test]
async fn with_redis_down_each_fallback_applies() {
    // Nothing listens there.
    let url = format!("redis://127.0.0.1:{}", free_port());

    let mut local = replica(&url, "down", Unavailable::Local).connect_in_memory();
    local.initialize("2025-11-25").await;
    for _ in 0..3 {
        assert_eq!(found(&local.call_tool("search", json!({})).await), "found");
    }
    let r = local.call_tool("search", json!({})).await;
    assert_eq!(r["error"]["data"]["reason"], "rate_limited");
    assert_eq!(r["error"]["data"]["rule"], "tool:search");

    let mut allow = replica(&url, "down", Unavailable::Allow).connect_in_memory();
    allow.initialize("2025-11-25").await;
    for _ in 0..5 {
        assert_eq!(found(&allow.call_tool("search", json!({})).await), "found");
    }

    let mut refuse = replica(&url, "down", Unavailable::Refuse).connect_in_memory();
    refuse.initialize("2025-11-25").await;
    let r = refuse.call_tool("search", json!({})).await;
    let id = r["id"].clone();
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": ERROR_CODE,
            "message": "rate limiter unavailable: retry in 1000 ms",
            "data": {"reason": "limiter_unavailable", "retryAfterMs": 1000}}})
    );
}
