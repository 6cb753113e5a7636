//! SIGTERM during a slow call, against the real `everything-server` binary over stdio and over
//! HTTP: the call's reply is delivered, then the process exits 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_everything-server");
const WAIT: Duration = Duration::from_secs(10);

fn sigterm(child: &Child) {
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// Waits for the process to exit, at most `WAIT`.
fn exit_status(child: &mut Child) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > WAIT {
            let _ = child.kill();
            panic!("the server did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Lines of a child's stdout, read on a thread.
fn lines(out: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

#[test]
fn sigterm_over_stdio_delivers_the_reply_of_a_slow_call_then_exits_0() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = lines(child.stdout.take().unwrap());
    let mut send = |v: Value| writeln!(stdin, "{v}").unwrap();
    send(
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}),
    );
    let init: Value = serde_json::from_str(&out.recv_timeout(WAIT).unwrap()).unwrap();
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    send(
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{
        "name":"test_slow_call","arguments":{"duration_ms":1500},"_meta":{"progressToken":"slow"}}}),
    );
    let progress: Value = serde_json::from_str(&out.recv_timeout(WAIT).unwrap()).unwrap();
    assert_eq!(progress["method"], "notifications/progress", "{progress}");
    assert_eq!(progress["params"]["progressToken"], "slow");

    // The call is running. stdin stays open: only the signal ends the server.
    sigterm(&child);
    let reply: Value = serde_json::from_str(&out.recv_timeout(WAIT).unwrap()).unwrap();
    assert_eq!(reply["id"], 2, "{reply}");
    assert_eq!(
        reply["result"]["content"][0]["text"],
        "Slow call completed after 1500 ms"
    );
    let status = exit_status(&mut child);
    assert!(status.success(), "{status:?}");
    drop(stdin);
}

/// A raw HTTP/1.1 exchange on its own connection (`Connection: close`).
struct Exchange {
    tcp: TcpStream,
    text: String,
}

impl Exchange {
    fn post(addr: &str, headers: &[(&str, &str)], body: &Value) -> Self {
        let body = body.to_string();
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        Self::send(addr, &format!("{head}\r\n{body}"))
    }

    fn get(addr: &str, path: &str) -> Self {
        Self::send(
            addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        )
    }

    fn send(addr: &str, request: &str) -> Self {
        let mut tcp = TcpStream::connect(addr).unwrap();
        tcp.set_read_timeout(Some(WAIT)).unwrap();
        tcp.write_all(request.as_bytes()).unwrap();
        Self {
            tcp,
            text: String::new(),
        }
    }

    /// Reads until `needle` has arrived.
    fn until(&mut self, needle: &str) -> &str {
        let mut buf = [0u8; 4096];
        while !self.text.contains(needle) {
            let n = self.tcp.read(&mut buf).unwrap();
            assert!(n > 0, "closed before {needle:?}: {}", self.text);
            self.text.push_str(std::str::from_utf8(&buf[..n]).unwrap());
        }
        &self.text
    }

    /// Reads to the end of the connection.
    fn finish(mut self) -> String {
        let mut rest = Vec::new();
        self.tcp.read_to_end(&mut rest).unwrap();
        self.text.push_str(std::str::from_utf8(&rest).unwrap());
        self.text
    }
}

#[test]
fn sigterm_over_http_delivers_the_reply_of_a_slow_call_then_exits_0() {
    let mut child = Command::new(BIN)
        .args(["http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap();
    let log = lines(child.stderr.take().unwrap());
    let addr = loop {
        let line = log.recv_timeout(WAIT).expect("the server logs its address");
        if let Some(url) = line.split("http://").nth(1) {
            break url.trim_end_matches("/mcp").to_owned();
        }
    };
    assert!(
        Exchange::get(&addr, "/readyz")
            .finish()
            .starts_with("HTTP/1.1 200 ")
    );

    let init = Exchange::post(
        &addr,
        &[],
        &json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
            "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}),
    )
    .finish();
    let sid = init
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .expect("a session id");
    let session = [
        ("Mcp-Session-Id", sid.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let mut call = Exchange::post(
        &addr,
        &session,
        &json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{
            "name":"test_slow_call","arguments":{"duration_ms":3000},"_meta":{"progressToken":"slow"}}}),
    );
    call.until("notifications/progress");
    assert!(
        call.text.starts_with("HTTP/1.1 200 OK\r\n"),
        "{}",
        call.text
    );
    assert!(call.text.contains("text/event-stream"), "{}", call.text);

    sigterm(&child);
    // Draining: readiness fails while the call runs.
    let started = Instant::now();
    while !Exchange::get(&addr, "/readyz")
        .finish()
        .starts_with("HTTP/1.1 503 ")
    {
        assert!(started.elapsed() < WAIT, "readiness never turned 503");
        std::thread::sleep(Duration::from_millis(20));
    }
    let rest = call.finish();
    assert!(
        rest.contains(r#""text":"Slow call completed after 3000 ms""#),
        "{rest}"
    );
    assert!(
        rest.ends_with("0\r\n\r\n"),
        "the stream ends cleanly: {rest}"
    );
    let status = exit_status(&mut child);
    assert!(status.success(), "{status:?}");
    assert!(
        TcpStream::connect(&addr).is_err(),
        "nothing listens any more"
    );
}
