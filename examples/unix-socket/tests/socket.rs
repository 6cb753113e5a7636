//! The Unix socket transport, driven by a real Unix socket client speaking newline-delimited
//! JSON-RPC: initialize, tools/list and tools/call, two clients at once, an oversized line.
#![cfg(unix)]

use std::path::PathBuf;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};

/// A socket path of this test process's own.
fn socket_path(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("mcp-unix-{}-{name}.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Binds `path` and serves the example server on it in the background.
fn start(path: &PathBuf, max_line: Option<usize>) {
    let server = unix_socket::server().build().unwrap();
    let listener = tokio::net::UnixListener::bind(path).unwrap();
    let Some(limit) = max_line else {
        tokio::spawn(async move { unix_socket::serve_unix(&server, listener).await });
        return;
    };
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let transport = unix_socket::UnixSocket::new(stream).max_line(limit);
            let server = server.clone();
            tokio::spawn(async move { server.serve(transport).await });
        }
    });
}

struct Client {
    lines: Lines<BufReader<OwnedReadHalf>>,
    write: OwnedWriteHalf,
}

impl Client {
    async fn connect(path: &PathBuf) -> Self {
        let (read, write) = UnixStream::connect(path).await.unwrap().into_split();
        Self {
            lines: BufReader::new(read).lines(),
            write,
        }
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = self.lines.next_line().await.unwrap().expect("a reply line");
        serde_json::from_str(&line).unwrap()
    }

    async fn request(&mut self, id: u32, method: &str, params: Value) -> Value {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&msg.to_string()).await;
        let reply = self.recv().await;
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    async fn initialize(&mut self) {
        let init = self
            .request(
                1,
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "socket-test", "version": "1.0.0"}}),
            )
            .await;
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
        assert_eq!(init["result"]["serverInfo"]["name"], "unix-socket");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }
}

#[tokio::test]
async fn a_socket_client_initializes_lists_and_calls() {
    let path = socket_path("call");
    start(&path, None);
    let mut client = Client::connect(&path).await;
    client.initialize().await;
    let list = client.request(2, "tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(
        (&tools[0]["name"], &tools[0]["description"]),
        (&json!("count_words"), &json!("Counts the words of a text."))
    );
    assert_eq!(
        tools[0]["inputSchema"]["properties"],
        json!({"text": {"type": "string", "description": "The text"}})
    );
    assert_eq!(tools[0]["annotations"], json!({"readOnlyHint": true}));
    let call = client
        .request(
            3,
            "tools/call",
            json!({"name": "count_words", "arguments": {"text": "one two  three"}}),
        )
        .await;
    assert_eq!(
        call["result"],
        json!({"content": [{"type": "text", "text": "3"}]})
    );
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn each_connection_is_a_session_of_its_own() {
    let path = socket_path("two");
    start(&path, None);
    let mut first = Client::connect(&path).await;
    let mut second = Client::connect(&path).await;
    first.initialize().await;
    // The second client has not initialized: its session is not the first one's.
    let early = second
        .request(
            7,
            "tools/call",
            json!({"name": "count_words", "arguments": {"text": "a"}}),
        )
        .await;
    assert!(early.get("error").is_some(), "{early}");
    second.initialize().await;
    let r = second
        .request(
            8,
            "tools/call",
            json!({"name": "count_words", "arguments": {"text": "a b"}}),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "2");
    let r = first.request(9, "ping", json!({})).await;
    assert_eq!(r["result"], json!({}));
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn an_oversized_line_is_refused_and_the_connection_goes_on() {
    let path = socket_path("big");
    start(&path, Some(256));
    let mut client = Client::connect(&path).await;
    client.initialize().await;
    client
        .send(&format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"ping","params":{{"pad":"{}"}}}}"#,
            "x".repeat(400)
        ))
        .await;
    assert_eq!(
        client.recv().await,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "message exceeds the limit of 256 bytes"}})
    );
    // Blank and CRLF-terminated lines are fine.
    client.send("\r").await;
    client
        .send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\r")
        .await;
    assert_eq!(
        client.recv().await,
        json!({"jsonrpc": "2.0", "id": 5, "result": {}})
    );
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn a_line_that_is_not_utf8_is_refused_never_repaired() {
    let path = socket_path("utf8");
    start(&path, None);
    let mut client = Client::connect(&path).await;
    client.initialize().await;
    // A lone surrogate half (ED A0 80) in a string id: a repaired reading would answer id "\u{FFFD}…".
    client
        .write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\",\"method\":\"ping\"}\n")
        .await
        .unwrap();
    assert_eq!(
        client.recv().await,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
               "message": "Parse error: the message is not valid UTF-8 (byte 23)"}})
    );
    // A stray continuation byte in a tool's argument: the tool never sees it.
    client
        .write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"count_words\",\"arguments\":{\"text\":\"a \x80 b\"}}}\n")
        .await
        .unwrap();
    let reply = client.recv().await;
    assert_eq!(reply["id"], Value::Null, "{reply}");
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    // The connection goes on.
    let reply = client
        .request(
            8,
            "tools/call",
            json!({"name": "count_words", "arguments": {"text": "a b c"}}),
        )
        .await;
    assert_eq!(reply["result"]["content"][0]["text"], "3", "{reply}");
    let _ = std::fs::remove_file(&path);
}
