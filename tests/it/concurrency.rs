//! Concurrency: slow tools do not block, cancellation drops the handler and sends nothing.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fixtures::{fresh, handshake, started, was_dropped};
use crate::{error_message, messages_within, meta_with, only_text, ping_is_next, result};

fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

#[tokio::test]
async fn a_slow_tool_does_not_block_ping_or_other_calls() {
    let mut client = handshake("2025-11-25").await;
    client
        .send(&call(
            10,
            "sleepy",
            json!({"ms": 3000, "key": "not-blocking"}),
        ))
        .await;
    started("not-blocking").await;
    // Order, not time: the ping's answer and the fast call's are the next two messages, before
    // the slow call's (which a blocked connection would send first, 3 s on).
    ping_is_next(&mut client, 11).await;
    client
        .send(&call(12, "echo", json!({"text": "fast"})))
        .await;
    let fast = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&fast, json!(12))), "fast");
    // The slow one still finishes.
    let slow = client.response(&json!(10)).await;
    assert_eq!(only_text(&result(&slow, json!(10))), "slept 3000 ms");
}

#[tokio::test]
async fn slow_calls_run_concurrently() {
    let mut client = handshake("2025-11-25").await;
    for id in 1..=4 {
        client
            .send(&call(
                100 + id,
                "sleepy",
                json!({"ms": 3000, "key": format!("concurrent-{id}")}),
            ))
            .await;
    }
    // Order, not time: all four run before any has answered (one at a time, the first would
    // have answered before the second started).
    for id in 1..=4 {
        started(&format!("concurrent-{id}")).await;
    }
    assert_eq!(messages_within(&mut client, 0).await, Vec::<Value>::new());
    for id in 1..=4 {
        let r = client.response(&json!(100 + id)).await;
        assert_eq!(only_text(&result(&r, json!(100 + id))), "slept 3000 ms");
    }
}

#[tokio::test]
async fn a_cancelled_request_gets_no_response_and_its_handler_is_dropped() {
    let mut client = handshake("2025-11-25").await;
    client
        .send(&call(20, "sleepy", json!({"ms": 600, "key": "cancel-me"})))
        .await;
    started("cancel-me").await;
    ping_is_next(&mut client, 21).await;
    client
        .notify(
            "notifications/cancelled",
            json!({"requestId": 20, "reason": "user gave up"}),
        )
        .await;
    ping_is_next(&mut client, 22).await;
    // Wait past the time the tool would have finished: nothing may arrive for id 20.
    let late = messages_within(&mut client, 1200).await;
    assert_eq!(late, Vec::<Value>::new());
    assert!(
        was_dropped("cancel-me"),
        "the handler's future was not dropped"
    );
    // The connection keeps serving, and the id can be used again.
    client
        .send(&call(20, "echo", json!({"text": "again"})))
        .await;
    assert_eq!(
        only_text(&result(&client.recv().await.unwrap(), json!(20))),
        "again"
    );
}

#[tokio::test]
async fn a_string_request_id_can_be_cancelled() {
    let mut client = handshake("2025-11-25").await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": "slow-1", "method": "tools/call", "params": {"name": "sleepy", "arguments": {"ms": 400, "key": "cancel-str"}}}))
        .await;
    started("cancel-str").await;
    client
        .notify("notifications/cancelled", json!({"requestId": "slow-1"}))
        .await;
    assert_eq!(messages_within(&mut client, 900).await, Vec::<Value>::new());
    assert!(was_dropped("cancel-str"));
}

#[tokio::test]
async fn cancelling_a_stateless_request_works_too() {
    let mut client = fresh();
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "sleepy", "arguments": {"ms": 400, "key": "cancel-stateless"}, "_meta": meta_with(Value::Null)
        }}))
        .await;
    started("cancel-stateless").await;
    client
        .notify("notifications/cancelled", json!({"requestId": 1}))
        .await;
    assert_eq!(messages_within(&mut client, 900).await, Vec::<Value>::new());
    assert!(was_dropped("cancel-stateless"));
}

#[tokio::test]
async fn cancelling_another_id_changes_nothing() {
    let mut client = handshake("2025-11-25").await;
    client
        .send(&call(
            30,
            "sleepy",
            json!({"ms": 200, "key": "not-cancelled"}),
        ))
        .await;
    client
        .notify("notifications/cancelled", json!({"requestId": 31}))
        .await;
    let r = client.response(&json!(30)).await;
    assert_eq!(only_text(&result(&r, json!(30))), "slept 200 ms");
    assert!(!was_dropped("not-cancelled"));
}

#[tokio::test]
async fn a_duplicate_id_in_flight_is_refused() {
    let mut client = handshake("2025-11-25").await;
    client
        .send(&call(40, "sleepy", json!({"ms": 300, "key": "dup-1"})))
        .await;
    client.send(&call(40, "echo", json!({"text": "dup"}))).await;
    let first = client.recv().await.unwrap();
    assert_eq!(
        error_message(&first, -32600, json!(40)),
        "a request with this id is already in flight"
    );
    let second = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&second, json!(40))), "slept 300 ms");
}

#[tokio::test]
async fn requests_over_the_in_flight_limit_wait_for_a_slot() {
    let server = crate::fixtures::builder().max_in_flight(2).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    for id in 50..=52 {
        client
            .send(&call(
                id,
                "sleepy",
                json!({"ms": 300, "key": format!("limit-{id}")}),
            ))
            .await;
    }
    // The third call is not refused: it waits until one of the first two is done, so it is
    // answered last, and every call succeeds.
    let mut order = Vec::new();
    for _ in 50..=52 {
        let r = client.recv().await.unwrap();
        let id = r["id"].as_i64().unwrap();
        assert_eq!(only_text(&result(&r, json!(id))), "slept 300 ms");
        order.push(id);
    }
    assert_eq!(order.last(), Some(&52), "answers in order {order:?}");
    order.sort_unstable();
    assert_eq!(order, [50, 51, 52]);
}

#[tokio::test]
async fn the_in_flight_limit_makes_the_extra_call_wait() {
    let server = crate::fixtures::builder().max_in_flight(1).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let started = Instant::now();
    client
        .send(&call(60, "sleepy", json!({"ms": 400, "key": "wait-60"})))
        .await;
    client
        .send(&call(61, "sleepy", json!({"ms": 400, "key": "wait-61"})))
        .await;
    let first = client.recv().await.unwrap();
    assert_eq!(first["id"], 60, "{first}");
    let second = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&second, json!(61))), "slept 400 ms");
    // One at a time: two rounds of 400 ms.
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_call_waiting_for_a_slot_does_not_block_cancellation_or_ping() {
    // At the limit, the cancellation that would free a slot must still be read: otherwise the
    // connection stalls until the slow call ends on its own (or forever).
    let server = crate::fixtures::builder().max_in_flight(1).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client
        .send(&call(70, "sleepy", json!({"ms": 60000, "key": "hol-70"})))
        .await;
    started("hol-70").await;
    client
        .send(&call(71, "echo", json!({"text": "after the slot frees"})))
        .await;
    client
        .notify("notifications/cancelled", json!({"requestId": 70}))
        .await;
    // Order, not time: the waiting call is answered, so the cancellation was read and freed the
    // slot (the slow call would hold it for a minute), and the slow call sends nothing.
    let next = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&next, json!(71))), "after the slot frees");
    assert!(was_dropped("hol-70"));
    ping_is_next(&mut client, 72).await;
    assert_eq!(messages_within(&mut client, 300).await, Vec::<Value>::new());
}

#[tokio::test]
async fn max_concurrency_queues_calls_of_one_tool_only() {
    let mut client = handshake("2025-11-25").await;
    let started = Instant::now();
    client
        .send(&call(80, "single_file", json!({"ms": 1000})))
        .await;
    client
        .send(&call(81, "single_file", json!({"ms": 1000})))
        .await;
    // Other tools and ping are not held up by the queue. Order, not time: both answers come
    // before the first queued call's (due a second on).
    client
        .send(&call(82, "echo", json!({"text": "not queued"})))
        .await;
    let first = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&first, json!(82))), "not queued");
    ping_is_next(&mut client, 83).await;
    for id in [80, 81] {
        let r = client.recv().await.unwrap();
        assert_eq!(only_text(&result(&r, json!(id))), "done after 1000 ms");
    }
    // One after the other (a lower bound: a loaded machine only makes it longer).
    assert!(
        started.elapsed() >= Duration::from_millis(2000),
        "ran at once: {:?}",
        started.elapsed()
    );
}

/// Blocks its thread (a synchronous tool doing slow work in place). Kept out of the default
/// registry, which another test lists exactly.
#[mcp_runtime::tool(server = "blocking")]
fn block(
    /// How long to block, in milliseconds
    ms: u64,
) -> String {
    std::thread::sleep(std::time::Duration::from_millis(ms));
    format!("blocked {ms} ms")
}

fn blocking_server(inline: bool) -> mcp_runtime::Server {
    crate::fixtures::builder()
        .tool(block::TOOL)
        .inline_first_poll(inline)
        .build()
        .unwrap()
}

/// Sends a call that blocks for 800 ms, then a ping: the order of the answers tells whether the
/// call's first poll ran in place (its reply first: the ping was read only after it) or in a
/// task of its own (the ping first).
async fn blocking_call_is_polled_in_place(
    client: &mut mcp_runtime::transport::memory::TestClient,
    id: i64,
) -> bool {
    client.send(&call(id, "block", json!({"ms": 800}))).await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": id + 1, "method": "ping"}))
        .await;
    let first = client.recv().await.unwrap();
    let second = client.recv().await.unwrap();
    let (reply, ping) = if first["id"] == id {
        (&first, &second)
    } else {
        (&second, &first)
    };
    assert_eq!(only_text(&result(reply, json!(id))), "blocked 800 ms");
    assert_eq!(*ping, json!({"jsonrpc": "2.0", "id": id + 1, "result": {}}));
    first["id"] == id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_repeated_blocking_handlers_the_connection_runs_each_request_in_its_own_task() {
    let server = blocking_server(true);
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    // Three blocking calls in a row hold up the connection, and switch it over.
    for _ in 0..3 {
        let r = client.call_tool("block", json!({"ms": 120})).await;
        assert_eq!(only_text(&result(&r, r["id"].clone())), "blocked 120 ms");
    }
    // From now on a blocking call runs in a task of its own: the ping sent after it is
    // answered first.
    assert!(!blocking_call_is_polled_in_place(&mut client, 90).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_blocking_handler_does_not_switch_the_connection() {
    let server = blocking_server(true);
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let r = client.call_tool("block", json!({"ms": 120})).await;
    assert_eq!(only_text(&result(&r, r["id"].clone())), "blocked 120 ms");
    // One outlier changes nothing: the next call is still polled in place (and, being the
    // second slow one, does not switch either).
    assert!(blocking_call_is_polled_in_place(&mut client, 94).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_request_does_not_switch_the_connection() {
    let server = blocking_server(true);
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    // 3 MB of text: reading, routing and parsing it is not the handler blocking.
    let big = "x".repeat(3 * 1024 * 1024);
    let r = client.call_tool("echo", json!({"text": big})).await;
    assert_eq!(only_text(&result(&r, r["id"].clone())).len(), big.len());
    let r = client.call_tool("block", json!({"ms": 120})).await;
    assert_eq!(only_text(&result(&r, r["id"].clone())), "blocked 120 ms");
    assert!(blocking_call_is_polled_in_place(&mut client, 96).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_run_of_fast_handlers_the_connection_polls_in_place_again() {
    let server = blocking_server(true);
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    for _ in 0..3 {
        client.call_tool("block", json!({"ms": 120})).await;
    }
    assert!(!blocking_call_is_polled_in_place(&mut client, 97).await);
    // 64 fast handlers in a row (measured in their tasks) bring the fast path back.
    for i in 0..64 {
        let r = client
            .call_tool("echo", json!({"text": format!("fast {i}")}))
            .await;
        assert_eq!(only_text(&result(&r, r["id"].clone())), format!("fast {i}"));
    }
    assert!(blocking_call_is_polled_in_place(&mut client, 99).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_inline_polls_even_the_first_blocking_handler_does_not_hold_up_ping() {
    let server = blocking_server(false);
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client.send(&call(92, "block", json!({"ms": 800}))).await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 93, "method": "ping"}))
        .await;
    let first = client.recv().await.unwrap();
    assert_eq!(first, json!({"jsonrpc": "2.0", "id": 93, "result": {}}));
    let second = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&second, json!(92))), "blocked 800 ms");
}
