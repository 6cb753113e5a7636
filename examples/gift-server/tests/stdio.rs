//! The real `gift-server` binary, spawned and spoken to over stdio in both protocol eras, and
//! the checked-in `tools/list` snapshot (the command line's tests are in `cli.rs`).
//!
//! Run with `UPDATE_SNAPSHOTS=1` to rewrite `tests/snapshots/tools-list.json` after an
//! intended change (and review the diff).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_gift-server");
const WAIT: Duration = Duration::from_secs(10);

/// A running `gift-server` on stdio.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
}

impl Server {
    fn spawn() -> Self {
        Self::spawn_with(&[])
    }

    fn spawn_with(env: &[(&str, &str)]) -> Self {
        let mut cmd = Command::new(BIN);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("gift-server starts");
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
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            stdout,
            stderr,
            next_id: 1,
        }
    }

    /// Spawns and initializes at `version`.
    fn handshake(version: &str) -> Self {
        let mut server = Self::spawn();
        let init = server.request(
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "stdio-test", "version": "1.0.0"}}),
        );
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    /// Writes one line (a newline is added).
    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Writes bytes as they are.
    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line on stdout, which must be one JSON-RPC message.
    fn recv(&mut self) -> Value {
        match self.stdout.recv_timeout(WAIT) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line:?}")),
            Err(e) => panic!(
                "no message from gift-server ({e:?}); stderr:\n{}",
                self.stderr()
            ),
        }
    }

    /// Sends a request and returns the response with its id.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_null() {
            msg["params"] = params;
        }
        self.send(&msg.to_string());
        let reply = self.recv();
        assert_eq!(reply["id"], id, "replies come in order here: {reply}");
        reply
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let reply = self.request(method, params);
        assert!(reply.get("error").is_none(), "{method}: {reply}");
        reply["result"].clone()
    }

    fn call(&mut self, arguments: Value) -> Value {
        self.result(
            "tools/call",
            json!({"name": "suggest_gifts", "arguments": arguments}),
        )
    }

    /// Closes stdin and waits for the process to exit.
    fn close(&mut self) -> (ExitStatus, Duration) {
        self.stdin = None;
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, started.elapsed());
            }
            assert!(
                started.elapsed() < WAIT,
                "gift-server did not exit on stdin EOF"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A stateless-era (2026-07-28) `_meta`.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "stdio-test", "version": "1.0.0"}
    })
}

fn with_meta(mut params: Value) -> Value {
    params["_meta"] = meta();
    params
}

fn text(result: &Value) -> &str {
    let content = result["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no content: {result}"));
    assert_eq!(content.len(), 1, "{result}");
    content[0]["text"].as_str().unwrap()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("gift-server runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

// ---- the snapshot ----

/// `value` with the keys of every object in sorted order, whatever serde_json's map type is.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[test]
fn tools_list_matches_the_snapshot() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/tools-list.json"
    );
    let mut server = Server::handshake("2025-11-25");
    let live = server.result("tools/list", Value::Null);
    let pretty = serde_json::to_string_pretty(&sorted(&live)).unwrap() + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(path, &pretty).unwrap();
    }
    let stored =
        std::fs::read_to_string(path).expect("the snapshot exists (UPDATE_SNAPSHOTS=1 writes it)");
    let stored_value: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(
        live, stored_value,
        "tools/list changed; rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    );
    assert_eq!(
        pretty, stored,
        "the snapshot is not in canonical form; rerun with UPDATE_SNAPSHOTS=1"
    );
    // `gift-server list` shows the same.
    let (_, stdout, _) = run(&["list"]);
    let listing: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(listing["tools/list"], live);
}

// ---- stdio, handshake era ----

#[test]
fn handshake_clients_list_and_call() {
    let mut server = Server::handshake("2025-11-25");
    let init_again = server.result("ping", Value::Null);
    assert_eq!(init_again, json!({}));
    let r = server.call(json!({"occasion": "birthday", "budget": 50, "recipient": "my sister"}));
    assert_eq!(
        r["structuredContent"]["summary"],
        "8 gift ideas for my sister within $50"
    );
    assert_eq!(
        r["structuredContent"]["gifts"][0],
        json!({"id": 24, "name": "Chocolate tasting box", "category": "food", "price": 12.0, "occasions": ["birthday", "holiday", "anniversary", "graduation"]})
    );
    let r = server.call(json!({"occasion": "wedding", "budget": 5}));
    assert_eq!(r["isError"], true);
    assert_eq!(
        text(&r),
        "no wedding gift fits a budget of $5; the cheapest is Cast-iron skillet at $55"
    );
}

#[test]
fn at_2025_11_25_invalid_arguments_are_tool_errors_naming_the_property() {
    let mut server = Server::handshake("2025-11-25");
    let cases = [
        (
            json!({"occasion": "birthday"}),
            "missing required property 'budget'",
        ),
        (
            json!({"occasion": "birthday", "budget": "ten"}),
            "property 'budget': expected a number, got string \"ten\"",
        ),
        (
            json!({"occasion": "funeral", "budget": 10}),
            "property 'occasion': 'funeral' is not an allowed value; expected 'birthday', 'wedding', 'anniversary', 'graduation', 'housewarming', 'holiday'",
        ),
        (
            json!({"occasion": "birthday", "budget": -5}),
            "property 'budget': must be at least 0, got -5",
        ),
        (
            json!({"occasion": "birthday", "budget": 50, "recipient": 7}),
            "property 'recipient': expected a string, got integer 7",
        ),
    ];
    for (arguments, expected) in cases {
        let r = server.call(arguments.clone());
        assert_eq!(
            r,
            json!({"content": [{"type": "text", "text": format!("invalid arguments for tool 'suggest_gifts': {expected}")}], "isError": true}),
            "{arguments}"
        );
    }
}

#[test]
fn at_2025_06_18_invalid_arguments_are_invalid_params() {
    let mut server = Server::handshake("2025-06-18");
    let r = server.request(
        "tools/call",
        json!({"name": "suggest_gifts", "arguments": {"occasion": "birthday"}}),
    );
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "invalid arguments for tool 'suggest_gifts': missing required property 'budget'"})
    );
    let r = server.request(
        "tools/call",
        json!({"name": "suggest_gift", "arguments": {}}),
    );
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "unknown tool 'suggest_gift'"})
    );
}

const SKILL_MD: &str = include_str!("../skills/choosing-a-gift/SKILL.md");

#[test]
fn resources_templates_prompts_and_completion() {
    let mut server = Server::handshake("2025-11-25");
    assert_eq!(
        server.result("resources/list", Value::Null),
        json!({"resources": [{
            "uri": "ui://gift-server/gift-cards.html",
            "name": "gift_cards",
            "description": "Gift ideas as cards, each with a \"More ideas like this\" button (MCP Apps widget; hosts\nwithout apps show the tools' text instead).",
            "mimeType": "text/html;profile=mcp-app",
            "_meta": {"ui": {"prefersBorder": true}}
        }, {
            "uri": "mcp://gift-server/resources/gift_catalog",
            "name": "gift_catalog",
            "description": "Base catalog of gifts with categories and prices",
            "mimeType": "application/json"
        }, {
            "uri": "skill://choosing-a-gift/SKILL.md",
            "name": "choosing-a-gift",
            "description": "Choose a gift within a budget with the gift server's catalog and suggest_gifts tool",
            "mimeType": "text/markdown",
            "size": SKILL_MD.len()
        }, {
            "uri": "skill://choosing-a-gift/budget.md",
            "name": "budget.md",
            "mimeType": "text/markdown",
            "size": include_str!("../skills/choosing-a-gift/budget.md").len()
        }]})
    );
    assert_eq!(
        server.result("resources/templates/list", Value::Null),
        json!({"resourceTemplates": [{
            "uriTemplate": "gifts://item/{id}",
            "name": "gift",
            "description": "One gift of the catalog, by id",
            "mimeType": "application/json"
        }]})
    );
    let catalog = server.result(
        "resources/read",
        json!({"uri": "mcp://gift-server/resources/gift_catalog"}),
    );
    let contents = catalog["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 1);
    assert_eq!(
        contents[0]["uri"],
        "mcp://gift-server/resources/gift_catalog"
    );
    assert_eq!(contents[0]["mimeType"], "application/json");
    let parsed: Value = serde_json::from_str(contents[0]["text"].as_str().unwrap()).unwrap();
    let gifts = parsed["gifts"].as_array().unwrap();
    assert_eq!(gifts.len(), 24);
    assert_eq!(
        gifts[4],
        json!({"id": 5, "name": "Espresso machine", "category": "kitchen", "price": 420.0, "occasions": ["wedding", "housewarming"]})
    );

    assert_eq!(
        server.result("resources/read", json!({"uri": "gifts://item/4"})),
        json!({"contents": [{
            "uri": "gifts://item/4",
            "mimeType": "application/json",
            "text": r#"{"id":4,"name":"Chef's knife","category":"kitchen","price":120.0,"occasions":["wedding","housewarming","anniversary"]}"#
        }]})
    );
    let missing = server.request("resources/read", json!({"uri": "gifts://item/99"}));
    assert_eq!(
        missing["error"],
        json!({"code": -32002, "message": "resource not found: gifts://item/99", "data": {"uri": "gifts://item/99"}})
    );

    assert_eq!(
        server.result("prompts/get", json!({"name": "gift_congrats_style", "arguments": {"name": "Ann", "occasion": "wedding", "tone": "formal"}})),
        json!({
            "description": "Style guide for congratulations that go with a gift",
            "messages": [{"role": "user", "content": {"type": "text", "text":
                "Write a short, formal wedding congratulation for Ann to go with a gift. Two or three sentences, no clichés, mention the gift only in passing."}}]
        })
    );
    let r = server.request(
        "prompts/get",
        json!({"name": "gift_congrats_style", "arguments": {}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");

    let c = server.result("completion/complete", json!({"ref": {"type": "ref/resource", "uri": "gifts://item/{id}"}, "argument": {"name": "id", "value": "2"}}));
    assert_eq!(
        c,
        json!({"completion": {"values": ["2", "20", "21", "22", "23", "24"]}})
    );
    let c = server.result("completion/complete", json!({"ref": {"type": "ref/prompt", "name": "gift_congrats_style"}, "argument": {"name": "occasion", "value": "h"}}));
    assert_eq!(
        c,
        json!({"completion": {"values": ["holiday", "housewarming"]}})
    );
}

// ---- stdio, stateless era ----

#[test]
fn stateless_clients_discover_list_and_call() {
    let mut server = Server::spawn();
    let discover = server.result("server/discover", json!({"_meta": meta()}));
    assert_eq!(discover["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(discover["resultType"], "complete");
    assert_eq!(discover["cacheScope"], "public");
    assert_eq!(discover["ttlMs"], 300_000);
    assert_eq!(
        discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "gift-server"
    );
    assert_eq!(
        discover["instructions"],
        "Suggests gifts for an occasion and budget. Read the gift catalog resource for what exists; use the gift_congrats_style prompt for a card text. The skill skill://choosing-a-gift/SKILL.md says how to choose within a budget."
    );

    assert_eq!(
        discover["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/ui": {}, "io.modelcontextprotocol/skills": {"directoryRead": true}})
    );

    // The skill: its entry, and both files as `skills/list` describes them.
    let skills = server.result("skills/list", json!({"_meta": meta()}));
    let entry = &skills["skills"][0];
    assert_eq!(entry["uri"], "skill://choosing-a-gift/SKILL.md");
    assert_eq!(
        entry["frontmatter"],
        json!({"name": "choosing-a-gift",
               "description": "Choose a gift within a budget with the gift server's catalog and suggest_gifts tool",
               "metadata": {"server": "gift-server"}})
    );
    let files: Vec<(&str, u64)> = entry["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["uri"].as_str().unwrap(), f["size"].as_u64().unwrap()))
        .collect();
    let budget = include_str!("../skills/choosing-a-gift/budget.md");
    assert_eq!(
        files,
        [
            ("skill://choosing-a-gift/SKILL.md", SKILL_MD.len() as u64),
            ("skill://choosing-a-gift/budget.md", budget.len() as u64)
        ]
    );
    let read = server.result(
        "resources/read",
        with_meta(json!({"uri": "skill://choosing-a-gift/SKILL.md"})),
    );
    assert_eq!(read["contents"][0]["text"], SKILL_MD);

    let list = server.result("tools/list", json!({"_meta": meta()}));
    assert_eq!(list["tools"][0]["name"], "more_like_this");
    assert_eq!(list["tools"][1]["name"], "suggest_gifts");
    assert_eq!(
        (&list["resultType"], &list["ttlMs"], &list["cacheScope"]),
        (&json!("complete"), &json!(300_000), &json!("public"))
    );

    let r = server.result(
        "tools/call",
        with_meta(json!({"name": "suggest_gifts", "arguments": {"occasion": "birthday"}})),
    );
    assert_eq!(r["isError"], true);
    assert_eq!(
        text(&r),
        "invalid arguments for tool 'suggest_gifts': missing required property 'budget'"
    );
    assert_eq!(r["resultType"], "complete");

    let r = server.result(
        "tools/call",
        with_meta(
            json!({"name": "suggest_gifts", "arguments": {"occasion": "holiday", "budget": 15}}),
        ),
    );
    assert_eq!(r["structuredContent"]["summary"], "1 gift ideas within $15");
    assert_eq!(
        r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "gift-server"
    );

    let missing = server.request(
        "resources/read",
        with_meta(json!({"uri": "gifts://item/0"})),
    );
    assert_eq!(
        missing["error"],
        json!({"code": -32602, "message": "resource not found: gifts://item/0", "data": {"uri": "gifts://item/0"}})
    );
}

#[test]
fn stateless_errors() {
    let mut server = Server::spawn();
    let r = server.request("tools/list", json!({}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = server.request(
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    );
    assert_eq!(
        r["error"],
        json!({"code": -32602, "message": "missing required `_meta[\"io.modelcontextprotocol/clientCapabilities\"]`"})
    );
    let mut old = meta();
    old["io.modelcontextprotocol/protocolVersion"] = json!("2024-01-01");
    let r = server.request("server/discover", json!({"_meta": old}));
    assert_eq!(r["error"]["code"], -32022);
    assert_eq!(
        r["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2024-01-01"})
    );
    let r = server.request("ping", json!({"_meta": meta()}));
    assert_eq!(
        r["error"],
        json!({"code": -32601, "message": "Method not found: ping"})
    );
}

// ---- stdio framing ----

#[test]
fn a_malformed_line_gets_a_parse_error_and_the_next_line_is_served() {
    let mut server = Server::handshake("2025-11-25");
    server.send(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list""#);
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}})
    );
    server.send(r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#);
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": 6, "result": {}})
    );
    // Blank lines are skipped, CRLF is accepted.
    server.send_bytes(b"\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\r\n");
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": 7, "result": {}})
    );
}

#[test]
fn an_oversized_line_is_refused_and_serving_goes_on() {
    let mut server = Server::handshake("2025-11-25");
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"suggest_gifts","arguments":{{"recipient":"{}"}}}}}}"#,
        "x".repeat(5 << 20)
    );
    server.send(&big);
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "message exceeds the limit of 4194304 bytes"}})
    );
    server.send(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#);
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": 9, "result": {}})
    );
}

#[test]
fn stdin_eof_exits_zero_promptly() {
    let mut server = Server::handshake("2025-11-25");
    let (status, took) = server.close();
    assert!(status.success(), "{status:?}; stderr:\n{}", server.stderr());
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert_eq!(
        server.stdout.recv_timeout(Duration::from_millis(100)),
        Err(RecvTimeoutError::Disconnected)
    );
}

#[test]
fn a_last_line_without_a_newline_is_served_before_exit() {
    let mut server = Server::handshake("2025-11-25");
    server.send_bytes(br#"{"jsonrpc":"2.0","id":"last","method":"ping"}"#);
    let (status, _) = server.close();
    assert!(status.success());
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": "last", "result": {}})
    );
}

#[test]
fn a_burst_of_requests_gets_one_line_per_reply_in_order() {
    let mut server = Server::handshake("2025-11-25");
    let burst: String = (100..300)
        .map(|id| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n"))
        .collect();
    server.send_bytes(burst.as_bytes());
    for id in 100..300 {
        assert_eq!(
            server.recv(),
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        );
    }
}

#[test]
fn calls_pipelined_before_eof_are_all_answered() {
    let mut server = Server::handshake("2025-11-25");
    let mut lines = String::new();
    for id in 10..60 {
        let budget = id * 3;
        lines.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"suggest_gifts\",\"arguments\":{{\"occasion\":\"holiday\",\"budget\":{budget}}}}}}}\n"
        ));
    }
    server.send_bytes(lines.as_bytes());
    let (status, _) = server.close();
    assert!(status.success());
    let mut ids: Vec<i64> = (10..60)
        .map(|_| {
            let reply = server.recv();
            assert!(reply.get("result").is_some(), "{reply}");
            reply["id"].as_i64().unwrap()
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (10..60).collect::<Vec<_>>());
}

#[test]
fn the_raw_message_log_goes_to_stderr_only() {
    let mut server = Server::spawn_with(&[("MCP_LOG_MESSAGES", "1")]);
    server.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!(
        server.recv(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    let (status, _) = server.close();
    assert!(status.success());
    let log = server.stderr();
    assert!(
        log.contains("--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"),
        "{log}"
    );
    assert!(
        log.contains("<-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"),
        "{log}"
    );
}

#[test]
fn nothing_but_protocol_messages_on_stdout() {
    // A quiet run writes nothing on stderr either (warnings only by default).
    let mut server = Server::handshake("2025-06-18");
    server.call(json!({"occasion": "graduation", "budget": 100}));
    server.send("garbage");
    server.recv();
    let (status, _) = server.close();
    assert!(status.success());
    // Every stdout line was parsed as JSON by `recv`; no line is left over.
    assert!(server.stdout.try_recv().is_err());
    assert_eq!(server.stderr(), "");
}
