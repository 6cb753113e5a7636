//! One backend call per client call across eras: a 2026-07-28 client calls, through a gateway
//! (`ServerBuilder::mount`), a tool of a 2025-11-25 backend that asks questions. The gateway
//! answers each question with an `input_required` round but keeps the backend's call open, and
//! the retry (`inputResponses` and the round's `requestState`) joins it: the backend tool runs
//! once (its counters say so). Held calls are released when their time runs out or the retry
//! that joined them is cancelled (the backend's tool is dropped), bounded in number (an excess
//! call is refused, and cancelled on the backend), and a state that is not the round's is
//! refused without running anything.
#![cfg(feature = "client")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_runtime::client::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{ClientCapabilities, ProtocolVersion};
use mcp_runtime::transform::MountOptions;
use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};

/// Hang guard for anything awaited here.
const WAIT: Duration = Duration::from_secs(20);

/// What the backend's tools did: runs started, runs that got every answer, runs whose future
/// ended (finished or dropped).
#[derive(Default, Clone)]
struct Runs(Arc<(AtomicUsize, AtomicUsize, AtomicUsize, tokio::sync::Notify)>);

impl Runs {
    fn started(&self) -> usize {
        self.0.0.load(Ordering::SeqCst)
    }
    fn finished(&self) -> usize {
        self.0.1.load(Ordering::SeqCst)
    }
    fn ended(&self) -> usize {
        self.0.2.load(Ordering::SeqCst)
    }
    /// Waits until `n` runs ended.
    async fn until_ended(&self, n: usize) {
        let wait = async {
            loop {
                let notified = self.0.3.notified();
                if self.ended() >= n {
                    return;
                }
                notified.await;
            }
        };
        tokio::time::timeout(WAIT, wait).await.unwrap();
    }
}

/// Counts a run's end when dropped.
struct Ended(Runs);

impl Drop for Ended {
    fn drop(&mut self) {
        (self.0).0.2.fetch_add(1, Ordering::SeqCst);
        (self.0).0.3.notify_waiters();
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Size {
    size: String,
}

/// Takes an order: asks the name, then the size.
#[tool]
async fn order(item: String, ctx: Context, runs: State<Runs>) -> Result<String, ToolError> {
    runs.0.0.fetch_add(1, Ordering::SeqCst);
    let _ended = Ended(Runs::clone(&runs));
    let Some(who) = ctx.elicit::<Name>("Your name?").await?.accepted() else {
        return Ok("no name".into());
    };
    let Some(size) = ctx.elicit::<Size>("Which size?").await?.accepted() else {
        return Ok("no size".into());
    };
    runs.0.1.fetch_add(1, Ordering::SeqCst);
    Ok(format!("{} {item} for {}", size.size, who.name))
}

/// Asks the name, then waits until cancelled.
#[tool]
async fn linger(ctx: Context, runs: State<Runs>) -> Result<String, ToolError> {
    runs.0.0.fetch_add(1, Ordering::SeqCst);
    let _ended = Ended(Runs::clone(&runs));
    let _ = ctx.elicit::<Name>("Your name?").await?;
    std::future::pending::<()>().await;
    runs.0.1.fetch_add(1, Ordering::SeqCst);
    Ok("never".into())
}

/// The backend (2025-11-25, its client declaring elicitation) mounted as `up` with `options`,
/// and its counters.
async fn gateway(options: MountOptions) -> (Server, Runs) {
    let runs = Runs::default();
    let backend = Server::builder(server_info!())
        .tool(order::TOOL)
        .tool(linger::TOOL)
        .state(runs.clone())
        .build()
        .unwrap();
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
    let link = backend
        .connect_client(
            Client::builder()
                .protocol_version(ProtocolVersion::V2025_11_25)
                .capabilities(caps)
                .timeout(Some(WAIT)),
        )
        .await
        .unwrap();
    let gateway = Server::builder(server_info!())
        .mount_with("up", link, options)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, gateway.mounted()).await.unwrap();
    (gateway, runs)
}

/// A 2026-07-28 `tools/call` of `name` with `arguments`, the client declaring elicitation.
fn call(name: &str, arguments: Value) -> Value {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    });
    json!({"name": name, "arguments": arguments, "_meta": meta})
}

/// `call` retried with the state of `round` (an `input_required` response) and `answers`.
fn retry(call: &Value, round: &Value, answers: Value) -> Value {
    let mut retry = call.clone();
    retry["requestState"] = round["result"]["requestState"].clone();
    retry["inputResponses"] = answers;
    retry
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// The one question of an `input_required` response: its key and message.
fn asked(r: &Value) -> (String, String) {
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    let requests = r["result"]["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1, "{r}");
    let (key, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create", "{r}");
    (
        key.clone(),
        request["params"]["message"].as_str().unwrap().to_owned(),
    )
}

fn text(r: &Value) -> &str {
    r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

fn error(r: &Value) -> (i64, &str) {
    (
        r["error"]["code"].as_i64().unwrap_or_default(),
        r["error"]["message"].as_str().unwrap_or_default(),
    )
}

async fn connect(gateway: &Server) -> TestClient {
    gateway.connect_in_memory().with_timeout(Some(WAIT))
}

#[tokio::test]
async fn each_round_answers_the_one_backend_call() {
    let (gateway, runs) = gateway(MountOptions::new()).await;
    let mut c = connect(&gateway).await;
    let first = call("up.order", json!({"item": "tea"}));
    let r1 = c.request("tools/call", first.clone()).await;
    assert_eq!(asked(&r1), ("elicit-0".into(), "Your name?".into()));
    // The backend asks its second question in the same call: another round.
    let second = retry(
        &first,
        &r1,
        json!({"elicit-0": accept(json!({"name": "Ada"}))}),
    );
    let r2 = c.request("tools/call", second.clone()).await;
    assert_eq!(asked(&r2), ("elicit-1".into(), "Which size?".into()));
    assert_ne!(r2["result"]["requestState"], r1["result"]["requestState"]);
    let third = retry(
        &first,
        &r2,
        json!({"elicit-1": accept(json!({"size": "large"}))}),
    );
    let r3 = c.request("tools/call", third).await;
    assert_eq!(r3["result"]["resultType"], "complete", "{r3}");
    assert_eq!(text(&r3), "large tea for Ada");
    assert_eq!(
        (runs.started(), runs.finished()),
        (1, 1),
        "the tool ran once"
    );
    // A state opens once: the same retry again is refused, and runs nothing.
    let again = c.request("tools/call", second).await;
    assert_eq!(
        error(&again),
        (-32602, "invalid requestState: it was used already")
    );
    assert_eq!(runs.started(), 1);
}

#[tokio::test]
async fn a_held_call_whose_time_runs_out_is_cancelled_on_the_backend() {
    let options = MountOptions::new().hold_for(Duration::from_millis(50));
    let (gateway, runs) = gateway(options).await;
    let mut c = connect(&gateway).await;
    let first = call("up.order", json!({"item": "tea"}));
    let r1 = c.request("tools/call", first.clone()).await;
    assert_eq!(asked(&r1).0, "elicit-0");
    // Released: the backend's tool is dropped while it waits for its answer.
    runs.until_ended(1).await;
    assert_eq!((runs.started(), runs.finished()), (1, 0));
    let late = c
        .request(
            "tools/call",
            retry(
                &first,
                &r1,
                json!({"elicit-0": accept(json!({"name": "Ada"}))}),
            ),
        )
        .await;
    assert_eq!(
        error(&late),
        (
            -32602,
            "invalid requestState: the call it continues has ended (it was not retried in time, or was cancelled)"
        )
    );
    assert_eq!(late["error"]["data"]["reason"], "held_call_ended");
    assert_eq!(runs.started(), 1, "not run again");
}

#[tokio::test]
async fn a_cancelled_retry_cancels_the_call_it_joined() {
    let (gateway, runs) = gateway(MountOptions::new()).await;
    let mut c = connect(&gateway).await;
    let first = call("up.linger", json!({}));
    let r1 = c.request("tools/call", first.clone()).await;
    assert_eq!(asked(&r1), ("elicit-0".into(), "Your name?".into()));
    let joined = retry(
        &first,
        &r1,
        json!({"elicit-0": accept(json!({"name": "Ada"}))}),
    );
    c.send(&json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": joined}))
        .await;
    c.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 77, "reason": "changed my mind"}}),
    )
    .await;
    runs.until_ended(1).await;
    assert_eq!((runs.started(), runs.finished()), (1, 0));
}

#[tokio::test]
async fn calls_beyond_the_bound_are_refused_and_cancelled_not_run_again() {
    let options = MountOptions::new().held_calls(1, 1);
    let (gateway, runs) = gateway(options).await;
    let mut c = connect(&gateway).await;
    let tea = call("up.order", json!({"item": "tea"}));
    let r1 = c.request("tools/call", tea.clone()).await;
    assert_eq!(asked(&r1).0, "elicit-0");
    // The bound is reached: the next call whose backend asks is refused, and cancelled there.
    let coffee = c
        .request("tools/call", call("up.order", json!({"item": "coffee"})))
        .await;
    assert_eq!(coffee["result"]["isError"], true, "{coffee}");
    assert_eq!(
        text(&coffee),
        "this gateway holds as many calls waiting for input as it may (1 in all, 1 per client): try again later"
    );
    runs.until_ended(1).await;
    assert_eq!((runs.started(), runs.finished()), (2, 0));
    // The held call goes on.
    let r2 = c
        .request(
            "tools/call",
            retry(
                &tea,
                &r1,
                json!({"elicit-0": accept(json!({"name": "Ada"}))}),
            ),
        )
        .await;
    assert_eq!(asked(&r2).0, "elicit-1");
    let r3 = c
        .request(
            "tools/call",
            retry(
                &tea,
                &r2,
                json!({"elicit-1": accept(json!({"size": "small"}))}),
            ),
        )
        .await;
    assert_eq!(text(&r3), "small tea for Ada");
    // Its place is given back: another call is held.
    let r4 = c
        .request("tools/call", call("up.order", json!({"item": "cocoa"})))
        .await;
    assert_eq!(asked(&r4).0, "elicit-0");
    assert_eq!((runs.started(), runs.finished()), (3, 1));
}

#[tokio::test]
async fn a_state_that_is_not_the_rounds_is_refused_and_runs_nothing() {
    let (gateway, runs) = gateway(MountOptions::new()).await;
    let (other, other_runs) = self::gateway(MountOptions::new()).await;
    let mut c = connect(&gateway).await;
    let tea = call("up.order", json!({"item": "tea"}));
    let r1 = c.request("tools/call", tea.clone()).await;
    assert_eq!(asked(&r1).0, "elicit-0");
    let name = json!({"elicit-0": accept(json!({"name": "Ada"}))});
    // Tampered.
    let mut forged = retry(&tea, &r1, name.clone());
    let state = forged["requestState"].as_str().unwrap().to_owned();
    forged["requestState"] = json!(format!("{}A", state));
    let r = c.request("tools/call", forged).await;
    assert_eq!(
        error(&r),
        (-32602, "invalid requestState: integrity check failed")
    );
    // Another call's (other arguments).
    let coffee = call("up.order", json!({"item": "coffee"}));
    let r = c
        .request("tools/call", retry(&coffee, &r1, name.clone()))
        .await;
    assert_eq!(
        error(&r),
        (
            -32602,
            "invalid requestState: it belongs to another request"
        )
    );
    // Another gateway's round, brought here.
    let mut o = connect(&other).await;
    let foreign = o.request("tools/call", tea.clone()).await;
    assert_eq!(asked(&foreign).0, "elicit-0");
    let r = c
        .request("tools/call", retry(&tea, &foreign, name.clone()))
        .await;
    assert_eq!(
        error(&r),
        (-32602, "invalid requestState: integrity check failed")
    );
    assert_eq!((runs.started(), other_runs.started()), (1, 1));
    // The round's own state still joins its call.
    let r2 = c.request("tools/call", retry(&tea, &r1, name)).await;
    assert_eq!(asked(&r2).0, "elicit-1");
    assert_eq!(runs.started(), 1);
}
