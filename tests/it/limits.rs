//! `timeout_ms` and `max_concurrency` on resources, resource templates and prompts: the same
//! meaning as on tools (see `max_concurrency_queues_calls_of_one_tool_only` in `concurrency` and
//! `a_tool_over_its_timeout_is_a_tool_error` in `tools`), with a timeout answered as a JSON-RPC
//! internal error, since reads and gets have no `isError` result.
//!
//! The items are registered for the server named "limits", so that the "it" server, whose lists
//! other tests check exactly, does not see them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};

use crate::{ping_is_next, result};

/// How many handlers of one item run at this moment, and the most that ever ran at once.
struct Gauge {
    now: AtomicUsize,
    peak: AtomicUsize,
}

impl Gauge {
    const fn new() -> Self {
        Self {
            now: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// Counts one handler in until the guard is dropped.
    fn enter(&'static self) -> GaugeGuard {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        GaugeGuard(self)
    }

    fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }
}

struct GaugeGuard(&'static Gauge);

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::SeqCst);
    }
}

static REPORT: Gauge = Gauge::new();
static QUEUE: Gauge = Gauge::new();
static ESSAY: Gauge = Gauge::new();

/// A slow report, read one at a time.
#[resource(
    server = "limits",
    uri = "limits://report",
    mime = "text/plain",
    max_concurrency = 1
)]
async fn slow_report() -> String {
    let _in = REPORT.enter();
    tokio::time::sleep(Duration::from_millis(400)).await;
    "report after 400 ms".into()
}

/// A quick resource without limits.
#[resource(server = "limits", uri = "limits://quick", mime = "text/plain")]
async fn quick() -> String {
    "quick".into()
}

/// A slow page, one read at a time whatever its number.
#[resource(server = "limits", uri = "limits://queue/{n}", max_concurrency = 1)]
async fn queued_page(n: u32) -> String {
    let _in = QUEUE.enter();
    tokio::time::sleep(Duration::from_millis(400)).await;
    format!("page {n} after 400 ms")
}

/// A page that takes longer than its timeout (registered under another name than the fn's).
#[resource(
    server = "limits",
    uri = "limits://late/{id}",
    name = "late-page",
    timeout_ms = 50
)]
async fn late_page(id: u32) -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    format!("page {id}, never")
}

/// Writes an essay slowly, one at a time.
#[prompt(server = "limits", max_concurrency = 1)]
async fn essay() -> String {
    let _in = ESSAY.enter();
    tokio::time::sleep(Duration::from_millis(400)).await;
    "essay after 400 ms".into()
}

/// A quick prompt without limits.
#[prompt(server = "limits")]
async fn haiku() -> String {
    "haiku".into()
}

/// A prompt that takes longer than its timeout.
#[prompt(server = "limits", timeout_ms = 50)]
async fn stalling() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "never".into()
}

/// A client of the "limits" server after `initialize`.
async fn client() -> TestClient {
    let server = Server::from_registry_named("limits", server_info!())
        .build()
        .expect("the limits server builds");
    let mut client = server.connect_in_memory();
    let init = client.initialize("2025-11-25").await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    client
}

fn read(id: i64, uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri}})
}

fn get(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get", "params": {"name": name}})
}

/// The text of the only contents of a read.
#[track_caller]
fn read_text(response: &Value, id: i64) -> String {
    let r = result(response, json!(id));
    let contents = r["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1, "{r}");
    contents[0]["text"].as_str().expect("text").to_owned()
}

/// The text of the only message of a get.
#[track_caller]
fn prompt_text(response: &Value, id: i64) -> String {
    let r = result(response, json!(id));
    let messages = r["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 1, "{r}");
    messages[0]["content"]["text"]
        .as_str()
        .expect("text")
        .to_owned()
}

#[test]
fn the_records_carry_the_limits() {
    assert_eq!(slow_report::RESOURCE.max_concurrency, Some(1));
    assert_eq!(slow_report::RESOURCE.timeout_ms, None);
    assert_eq!(quick::RESOURCE.max_concurrency, None);
    assert_eq!(late_page::RESOURCE.timeout_ms, Some(50));
    assert_eq!(late_page::RESOURCE.max_concurrency, None);
    assert_eq!(queued_page::RESOURCE.max_concurrency, Some(1));
    assert_eq!(essay::PROMPT.max_concurrency, Some(1));
    assert_eq!(essay::PROMPT.timeout_ms, None);
    assert_eq!(stalling::PROMPT.timeout_ms, Some(50));
    assert_eq!(haiku::PROMPT.timeout_ms, None);
    assert_eq!(haiku::PROMPT.max_concurrency, None);
}

#[tokio::test]
async fn max_concurrency_queues_reads_of_one_resource_only() {
    let mut client = client().await;
    let started = Instant::now();
    client.send(&read(10, "limits://report")).await;
    client.send(&read(11, "limits://report")).await;
    // Other resources and ping are not held up by the queue.
    client.send(&read(12, "limits://quick")).await;
    let first = client.recv().await.unwrap();
    assert_eq!(read_text(&first, 12), "quick");
    ping_is_next(&mut client, 13).await;
    for id in [10, 11] {
        let r = client.response(&json!(id)).await;
        assert_eq!(read_text(&r, id), "report after 400 ms");
    }
    assert_eq!(REPORT.peak(), 1, "two reads ran at once");
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "ran at once: {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_template_limit_covers_every_uri_it_matches() {
    let mut client = client().await;
    let started = Instant::now();
    client.send(&read(20, "limits://queue/1")).await;
    client.send(&read(21, "limits://queue/2")).await;
    ping_is_next(&mut client, 22).await;
    for (id, n) in [(20, 1), (21, 2)] {
        let r = client.response(&json!(id)).await;
        assert_eq!(read_text(&r, id), format!("page {n} after 400 ms"));
    }
    assert_eq!(QUEUE.peak(), 1, "two reads ran at once");
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "ran at once: {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_resource_template_over_its_timeout_is_an_internal_error() {
    let mut client = client().await;
    let started = Instant::now();
    client.send(&read(30, "limits://late/7")).await;
    let r = client.response(&json!(30)).await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 30, "error": {
            "code": -32603,
            "message": "resource 'late-page' timed out after 50 ms"
        }})
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The connection keeps serving.
    ping_is_next(&mut client, 31).await;
}

#[tokio::test]
async fn max_concurrency_queues_gets_of_one_prompt_only() {
    let mut client = client().await;
    let started = Instant::now();
    client.send(&get(40, "essay")).await;
    client.send(&get(41, "essay")).await;
    // Other prompts and ping are not held up by the queue.
    client.send(&get(42, "haiku")).await;
    let first = client.recv().await.unwrap();
    assert_eq!(prompt_text(&first, 42), "haiku");
    ping_is_next(&mut client, 43).await;
    for id in [40, 41] {
        let r = client.response(&json!(id)).await;
        assert_eq!(prompt_text(&r, id), "essay after 400 ms");
    }
    assert_eq!(ESSAY.peak(), 1, "two gets ran at once");
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "ran at once: {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_prompt_over_its_timeout_is_an_internal_error() {
    let mut client = client().await;
    let started = Instant::now();
    client.send(&get(50, "stalling")).await;
    let r = client.response(&json!(50)).await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 50, "error": {
            "code": -32603,
            "message": "prompt 'stalling' timed out after 50 ms"
        }})
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The connection keeps serving.
    ping_is_next(&mut client, 51).await;
}
