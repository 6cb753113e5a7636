//! The client against servers that send too much: a list whose pages never end (over HTTP,
//! where each page is read no further than the bound leaves, and over a message transport,
//! where a page is refused once received), a message over the bound (JSON body, SSE event,
//! message transport), too many pages, and bounds that cannot serve. What the client held is
//! read from the error it answers with; `client_list_memory.rs` measures its peak resident
//! memory.
#![cfg(feature = "client")]

use std::sync::atomic::Ordering;

use mcp_runtime::client::{Client, ClientError};
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport};
use serde_json::{Value, json};

mod hostile_server;

use hostile_server::{MIB, handshake, page_parts, serve, tools_array};

/// A list of pages that never end, each about 1 MiB (100 of them would hold over 100 MiB),
/// against a bound of 8 MiB: the client stops at the page that would pass the bound. A page is
/// counted by what it decodes to (here about 1.16 times its text), and while it is decoded its
/// text is held too: the client keeps 5 pages whole and refuses the sixth.
#[tokio::test(flavor = "current_thread")]
async fn a_list_that_never_ends_holds_no_more_than_its_bound() {
    let (url, hostile) = serve(false).await;
    let (head, tail) = page_parts(&json!(2), 1);
    let page = head.len() + hostile.tools.len() + tail.len();
    assert!((MIB..MIB + MIB / 8).contains(&page), "{page}");
    let bound = 8 * MIB;
    let client = handshake()
        .max_list_bytes(bound)
        .connect_http(&url)
        .await
        .unwrap();
    let err = client.list_tools().await.unwrap_err();

    let whole = 5;
    match err {
        ClientError::ListTooLarge {
            method,
            limit,
            held,
            pages,
        } => {
            assert_eq!(method, "tools/list");
            assert_eq!(limit, bound);
            assert_eq!(pages, whole);
            within(held, pages, page, bound);
        }
        other => panic!("expected ListTooLarge, got {other:?}"),
    }
    assert_eq!(hostile.pages.load(Ordering::SeqCst), whole + 1);
    // The connection is still usable: the refusal was the list's, not the link's.
    client.ping().await.unwrap();
    client.close().await;
}

/// Without a bound of its own the same list is refused at the default 16 MiB.
#[tokio::test(flavor = "current_thread")]
async fn the_default_list_bound_is_16_mib() {
    let (url, hostile) = serve(false).await;
    let (head, tail) = page_parts(&json!(2), 1);
    let page = head.len() + hostile.tools.len() + tail.len();
    let client = handshake().connect_http(&url).await.unwrap();
    let err = client.list_tools().await.unwrap_err();
    let ClientError::ListTooLarge {
        limit, held, pages, ..
    } = err
    else {
        panic!("expected ListTooLarge, got {err:?}")
    };
    assert_eq!(limit, 16 * MIB);
    assert_eq!(pages, 11);
    within(held, pages, page, limit);
    client.close().await;
}

/// The same pages as SSE events: the second event is refused.
#[tokio::test(flavor = "current_thread")]
async fn a_list_over_sse_is_bounded_the_same_way() {
    let (url, hostile) = serve(true).await;
    let (head, tail) = page_parts(&json!(2), 1);
    let page = head.len() + hostile.tools.len() + tail.len();
    let bound = 4 * MIB;
    let client = handshake()
        .max_list_bytes(bound)
        .connect_http(&url)
        .await
        .unwrap();
    let err = client.list_tools().await.unwrap_err();
    let ClientError::ListTooLarge { held, pages, .. } = err else {
        panic!("expected ListTooLarge, got {err:?}")
    };
    assert_eq!(pages, 1);
    within(held, pages, page, bound);
    assert_eq!(hostile.pages.load(Ordering::SeqCst), 2);
    client.close().await;
}

/// One JSON body or SSE event over `max_message_bytes` fails its request with the bound.
#[tokio::test(flavor = "current_thread")]
async fn a_message_over_the_bound_fails_its_request() {
    for sse in [false, true] {
        let (url, _) = serve(sse).await;
        let client = handshake()
            .max_message_bytes(MIB / 2)
            .connect_http(&url)
            .await
            .unwrap();
        let err = client.list_tools_page(None).await.unwrap_err();
        assert!(
            matches!(err, ClientError::MessageTooLarge { limit } if limit == MIB / 2),
            "sse {sse}: {err:?}"
        );
        client.ping().await.unwrap();
        client.close().await;
    }
}

/// A hostile server over a message transport: every page has a next one.
fn message_server(end: mcp_runtime::transport::memory::MemoryTransport, tools: String) {
    let (mut rx, mut tx) = end.split();
    tokio::spawn(async move {
        let mut n = 0;
        while let Some(Ok(Inbound::Message(text))) = rx.receive().await {
            let msg: Value = serde_json::from_str(&text).unwrap();
            let Some(id) = msg.get("id").cloned() else {
                continue;
            };
            let answer = match msg["method"].as_str().unwrap_or("") {
                "initialize" => json!({"jsonrpc":"2.0","id":id,"result":{
                    "protocolVersion":"2025-11-25","capabilities":{"tools":{}},
                    "serverInfo":{"name":"hostile","version":"1"}}})
                .to_string(),
                "tools/list" => {
                    n += 1;
                    let (head, tail) = page_parts(&id, n);
                    format!("{head}{tools}{tail}")
                }
                _ => json!({"jsonrpc":"2.0","id":id,"result":{}}).to_string(),
            };
            if tx.send(answer.into_bytes()).await.is_err() {
                return;
            }
        }
    });
}

#[tokio::test(flavor = "current_thread")]
async fn a_list_over_a_message_transport_is_refused_at_the_page_that_passes() {
    let tools = tools_array();
    let (server_end, client_end) = mcp_runtime::transport::memory::pair(8);
    message_server(server_end, tools.clone());
    let client = handshake()
        .max_list_bytes(4 * MIB)
        .connect(client_end)
        .await
        .unwrap();
    let (head, tail) = page_parts(&json!(2), 1);
    let page = head.len() + tools.len() + tail.len();
    let err = client.list_tools().await.unwrap_err();
    let ClientError::ListTooLarge { held, pages, .. } = err else {
        panic!("expected ListTooLarge, got {err:?}")
    };
    assert_eq!(pages, 1);
    within(held, pages, page, 4 * MIB);
    client.ping().await.unwrap();
    client.close().await;
}

/// Over a message transport a message over the bound cannot be matched to its request: the
/// connection ends, and every request fails with the bound.
#[tokio::test(flavor = "current_thread")]
async fn a_message_over_the_bound_ends_a_message_connection() {
    let (server_end, client_end) = mcp_runtime::transport::memory::pair(8);
    message_server(server_end, tools_array());
    let client = handshake()
        .max_message_bytes(MIB / 2)
        .connect(client_end)
        .await
        .unwrap();
    let err = client.list_tools_page(None).await.unwrap_err();
    assert!(
        matches!(err, ClientError::MessageTooLarge { limit } if limit == MIB / 2),
        "{err:?}"
    );
    let err = client.ping().await.unwrap_err();
    assert!(
        matches!(err, ClientError::MessageTooLarge { limit } if limit == MIB / 2),
        "{err:?}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_list_stops_at_its_page_count() {
    let (server_end, client_end) = mcp_runtime::transport::memory::pair(8);
    message_server(server_end, "[]".into());
    let client = handshake()
        .max_list_pages(3)
        .connect(client_end)
        .await
        .unwrap();
    let err = client.list_tools().await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "unexpected answer: tools/list has more than 3 pages"
    );
    client.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_zero_bound_refuses_to_connect() {
    for (builder, name) in [
        (Client::builder().max_message_bytes(0), "max_message_bytes"),
        (Client::builder().max_list_bytes(0), "max_list_bytes"),
        (Client::builder().max_list_pages(0), "max_list_pages"),
    ] {
        // Port 9 on loopback: nothing is asked, the configuration is refused first.
        let err = builder
            .connect_http("http://127.0.0.1:9/mcp")
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("invalid client configuration: {name} must be at least 1")
        );
    }
}

/// What a refused list held: within the bound, each page counted by more than its text (what
/// it decodes to), and too much to take one more page of `page` bytes with twice its text and
/// its weight (the page being decoded holds both, and the buffers it arrived in).
fn within(held: usize, pages: usize, page: usize, bound: usize) {
    assert!(held <= bound, "{held} held over the bound {bound}");
    assert!(
        held > pages * page,
        "{held} for {pages} pages of {page} bytes"
    );
    let per_page = held / pages;
    assert!(
        held + 2 * page + per_page > bound,
        "{held} held: one more page of {page} bytes would have fitted in {bound}"
    );
}
