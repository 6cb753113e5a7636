//! Hostile input to the real `gift-server` binary over stdio, in both eras: bytes that are not
//! UTF-8, lines over the size limit, huge names and URIs, garbage pipelined with good requests.
//! Every case gets its exact answer, and the process keeps serving. (The in-memory battery is
//! `tests/it/hostile.rs`; the table of every case is `docs/hostile-inputs.md`.)

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_gift-server");
const WAIT: Duration = Duration::from_secs(20);

/// A running `gift-server` on stdio, spoken to in raw bytes.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: Receiver<String>,
}

impl Server {
    /// Spawns the server; with `version`, initializes a session at it first.
    fn spawn(version: Option<&str>) -> Self {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .spawn()
            .expect("gift-server starts");
        let (tx, stdout) = channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut server = Self {
            child,
            stdin,
            stdout,
        };
        if let Some(v) = version {
            server.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "hostile", "version": "1"}
            }}).to_string().as_bytes());
            assert_eq!(server.recv()["result"]["protocolVersion"], v);
            server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        }
        server
    }

    /// Writes `bytes` and a newline.
    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line on stdout, parsed, with its length in bytes.
    fn recv_sized(&mut self) -> (Value, usize) {
        let line = self.stdout.recv_timeout(WAIT).expect("gift-server answers");
        let value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line:?}"));
        (value, line.len())
    }

    fn recv(&mut self) -> Value {
        self.recv_sized().0
    }

    /// Pings with `id` and expects the answer next.
    fn ping_is_next(&mut self, id: i64) {
        self.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
                .to_string()
                .as_bytes(),
        );
        assert_eq!(
            self.recv(),
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request in the given era (`None`: stateless, with `_meta`).
fn request(version: Option<&str>, id: i64, method: &str, mut params: Value) -> Vec<u8> {
    if version.is_none() {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        });
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        .to_string()
        .into_bytes()
}

const ERAS: [Option<&str>; 2] = [Some("2025-11-25"), None];

#[test]
fn lines_that_are_not_utf8_are_parse_errors_with_a_null_id() {
    for version in ERAS {
        let mut server = Server::spawn(version);
        // A UTF-8-encoded surrogate half inside a string id: never answered with a repaired id.
        server.send(b"{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\",\"method\":\"ping\"}");
        assert_eq!(
            server.recv(),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
                   "message": "Parse error: the message is not valid UTF-8 (byte 23)"}})
        );
        // Latin-1 in a tool argument.
        let mut call = request(
            version,
            7,
            "tools/call",
            json!({"name": "suggest_gifts", "arguments": {"occasion": "FIX", "budget": 50}}),
        );
        let at = call.windows(3).position(|w| w == b"FIX").unwrap();
        call.splice(at..at + 3, *b"f\xeate");
        server.send(&call);
        let message = format!(
            "Parse error: the message is not valid UTF-8 (byte {})",
            at + 1
        );
        assert_eq!(
            server.recv(),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": message}})
        );
        server.ping_is_next(8);
    }
}

#[test]
fn an_oversized_line_is_refused_unread_and_serving_goes_on() {
    for version in ERAS {
        let mut server = Server::spawn(version);
        // The default limit is 4 MiB; the line is never held whole.
        let mut line = request(
            version,
            9,
            "tools/call",
            json!({"name": "suggest_gifts", "arguments": {}}),
        );
        line.extend(std::iter::repeat_n(b' ', 4 * 1024 * 1024));
        server.send(&line);
        assert_eq!(
            server.recv(),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                   "message": "message exceeds the limit of 4194304 bytes"}})
        );
        server.ping_is_next(10);
    }
}

#[test]
fn huge_names_and_uris_come_back_shortened() {
    let big = "g".repeat(3 * 1024 * 1024);
    let shown = format!("{}… (3145728 bytes)", &big[..256]);
    for version in ERAS {
        let mut server = Server::spawn(version);
        server.send(&request(
            version,
            11,
            "tools/call",
            json!({"name": big, "arguments": {}}),
        ));
        let (reply, len) = server.recv_sized();
        assert_eq!(
            reply,
            json!({"jsonrpc": "2.0", "id": 11, "error": {"code": -32602, "message": format!("unknown tool '{shown}'")}})
        );
        assert!(len < 512, "{len} bytes");
        let uri = format!("gift://{}", &big[7..]);
        let uri_shown = format!("{}… (3145728 bytes)", &uri[..256]);
        server.send(&request(version, 12, "resources/read", json!({"uri": uri})));
        let (reply, len) = server.recv_sized();
        let code = if version.is_some() { -32002 } else { -32602 };
        assert_eq!(
            reply,
            json!({"jsonrpc": "2.0", "id": 12, "error": {"code": code,
                   "message": format!("resource not found: {uri_shown}"), "data": {"uri": uri_shown}}})
        );
        assert!(len < 1024, "{len} bytes");
        server.ping_is_next(13);
    }
}

#[test]
fn garbage_pipelined_with_good_requests_is_answered_in_order() {
    for version in ERAS {
        let mut server = Server::spawn(version);
        let mut burst = Vec::new();
        for line in [
            b"{oops".to_vec(),
            b"[]".to_vec(),
            b"\xc0\xaf".to_vec(),
            br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#.to_vec(),
            br#"{"jsonrpc":"2.0","id":"s-1","result":{}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#
                .to_vec(),
            request(
                version,
                20,
                "tools/call",
                json!({"name": "suggest_gifts", "arguments": [1]}),
            ),
            request(version, 21, "no/such/method", json!({})),
            b"{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"ping\"}".to_vec(),
        ] {
            burst.extend(line);
            burst.push(b'\n');
        }
        server.stdin.write_all(&burst).unwrap();
        server.stdin.flush().unwrap();
        let codes: Vec<(Value, Value)> = (0..7)
            .map(|_| {
                let r = server.recv();
                (r["id"].clone(), r["error"]["code"].clone())
            })
            .collect();
        assert_eq!(
            codes,
            [
                (Value::Null, json!(-32700)),
                (Value::Null, json!(-32600)),
                (Value::Null, json!(-32700)),
                (Value::Null, json!(-32600)),
                (json!(20), json!(-32602)),
                (json!(21), json!(-32601)),
                (json!(22), Value::Null),
            ]
        );
        server.ping_is_next(23);
    }
}
