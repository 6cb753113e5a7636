//! Every stream transport of the runtime refuses a message that is not UTF-8 (-32700, `null`
//! id) and reads on, never repairing it: the in-memory transport here, stdio in
//! `transport/stdio.rs` and `examples/gift-server/tests/hostile.rs`.

use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::pair;
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport};
use serde_json::{Value, json};

/// Echoes its text.
#[tool]
async fn echo(text: String) -> String {
    text
}

async fn answer(rx: &mut impl Inbox) -> Value {
    match rx.receive().await {
        Some(Ok(Inbound::Message(text))) => serde_json::from_str(&text).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_memory_transport_refuses_bytes_that_are_not_utf8() {
    let server = Server::builder(server_info!())
        .tool(echo::TOOL)
        .build()
        .unwrap();
    let (ours, theirs) = pair(8);
    let serving = tokio::spawn(async move { server.serve(theirs).await });
    let (mut rx, mut tx) = ours.split();
    tx.send(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_vec())
        .await
        .unwrap();
    assert_eq!(
        answer(&mut rx).await["result"]["protocolVersion"],
        "2025-11-25"
    );
    for (bytes, offset) in [
        (&b"{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\",\"method\":\"ping\"}"[..], 23),
        (&b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"\xff\"}}}"[..], 91),
        (&b"\xc3"[..], 0),
    ] {
        tx.send(bytes.to_vec()).await.unwrap();
        assert_eq!(
            answer(&mut rx).await,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
                   "message": format!("Parse error: the message is not valid UTF-8 (byte {offset})")}}),
            "{bytes:?}"
        );
    }
    tx.send(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}"#.to_vec())
        .await
        .unwrap();
    let reply = answer(&mut rx).await;
    assert_eq!(
        reply["result"]["content"][0]["text"], "still here",
        "{reply}"
    );
    tx.close().await.unwrap();
    drop(tx);
    assert!(serving.await.unwrap().is_ok());
}
