//! `mcp_runtime::testing` fails when it should, with the message it should: a typed call of a
//! failing tool, a changed or missing snapshot of the lists, a transcript the server departs
//! from; and a snapshot is written when `MCP_UPDATE_SNAPSHOTS=1` says so (in a child process:
//! the tests cannot set the variable in their own).
#![cfg(all(feature = "testing", feature = "macros"))]

use std::path::PathBuf;

use mcp_runtime::client::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ProtocolVersion;
use mcp_runtime::testing::{self, CallError, Snapshot, SnapshotError, Transcript, TranscriptError};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A sum.
#[derive(Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
struct Sum {
    /// The total.
    total: i64,
}

/// Adds two numbers.
#[tool(server = "testing")]
async fn add(a: i64, b: i64) -> Json<Sum> {
    Json(Sum { total: a + b })
}

/// Adds two whole numbers.
#[tool(server = "testing", name = "add")]
async fn add_renamed(a: i64, b: i64) -> Json<Sum> {
    Json(Sum { total: a + b })
}

/// Greets someone.
#[tool(server = "testing")]
async fn greet(name: String) -> String {
    format!("hello, {name}")
}

fn server() -> Server {
    Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(greet::TOOL)
        .build()
        .unwrap()
}

/// A file path of its own in a fresh folder of the temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-testing-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("snapshots").join(format!("{name}.json"))
}

#[tokio::test]
async fn typed_calls_read_values_and_type_their_failures() {
    for version in [ProtocolVersion::LATEST_HANDSHAKE, ProtocolVersion::LATEST] {
        let session = testing::connect_at(&server(), version).await.unwrap();
        let sum: Sum = session.call("add", json!({"a": 2, "b": 3})).await.unwrap();
        assert_eq!(sum, Sum { total: 5 });
        let text = session
            .call_text("greet", json!({"name": "Ann"}))
            .await
            .unwrap();
        assert_eq!(text, "hello, Ann");

        let err = session
            .call::<Sum>("add", json!({"a": "two"}))
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 'add' failed: invalid arguments for tool 'add': 2 problems:\n\
             - property 'a': expected an integer, got string \"two\"\n\
             - missing required property 'b'"
        );
        let err = session
            .call::<Sum>("greet", json!({"name": "Ann"}))
            .await
            .unwrap_err();
        assert!(matches!(err, CallError::NotStructured { .. }));
        assert_eq!(
            err.to_string(),
            "tool 'greet' returned no structured content (its text: \"hello, Ann\")"
        );
        let err = session
            .call::<String>("add", json!({"a": 1, "b": 1}))
            .await
            .unwrap_err();
        assert!(matches!(err, CallError::Decode { .. }));
        assert_eq!(
            err.to_string(),
            "the structured content of tool 'add' does not fit the type asked for"
        );
        let err = session.call_text("nope", json!({})).await.unwrap_err();
        assert!(matches!(err, CallError::Client(_)), "{err:?}");
    }
    // Before 2025-11-25, invalid arguments are a JSON-RPC error.
    let old = Client::builder().protocol_version(ProtocolVersion::V2025_06_18);
    let session = server().connect_client(old).await.unwrap();
    let err = session.call_tool("add", json!({"a": 1})).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "the server answered error -32602: invalid arguments for tool 'add': missing required property 'b'"
    );
}

#[test]
fn a_missing_snapshot_fails_telling_how_to_make_it() {
    let path = scratch("missing");
    let err = Snapshot::new(&path)
        .update(false)
        .check_lists(&server())
        .unwrap_err();
    assert!(matches!(err, SnapshotError::Missing { .. }));
    assert_eq!(
        err.to_string(),
        format!(
            "the snapshot {} does not exist: run the tests with MCP_UPDATE_SNAPSHOTS=1 to write it, then commit it",
            path.display()
        )
    );
    assert!(!path.exists());
}

#[test]
fn a_changed_list_fails_with_the_lines_that_differ() {
    let path = scratch("changed");
    Snapshot::new(&path)
        .update(true)
        .check_lists(&server())
        .unwrap();
    Snapshot::new(&path)
        .update(false)
        .check_lists(&server())
        .unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.starts_with("{\n  \"2025-11-25\": {\n"), "{saved}");

    let changed = Server::builder(server_info!())
        .tool(add_renamed::TOOL)
        .tool(greet::TOOL)
        .build()
        .unwrap();
    let err = Snapshot::new(&path)
        .update(false)
        .check_lists(&changed)
        .unwrap_err();
    let hunk = |line: usize| {
        format!(
            "@@ line {line} @@\n\
             \x20       \"tools\": [\n\
             \x20         {{\n\
             -           \"description\": \"Adds two numbers.\",\n\
             +           \"description\": \"Adds two whole numbers.\",\n\
             \x20           \"inputSchema\": {{\n\
             \x20             \"properties\": {{"
        )
    };
    assert_eq!(
        err.to_string(),
        format!(
            "the snapshot {} differs from what the code makes now (- snapshot, + now):\n{}\n{}\n\
             if the change is meant, run the tests with MCP_UPDATE_SNAPSHOTS=1 to update the file",
            path.display(),
            hunk(13),
            hunk(75)
        )
    );
}

/// Run by `the_update_variable_writes_the_snapshot` as a child process; passes at once
/// otherwise.
#[test]
fn snapshot_child() {
    let Some(path) = std::env::var_os("MCP_TESTING_CHILD_SNAPSHOT") else {
        return;
    };
    testing::assert_lists_snapshot(&server(), PathBuf::from(path));
}

#[test]
fn the_update_variable_writes_the_snapshot() {
    let path = scratch("updated");
    let run = |update: Option<&str>| {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap());
        child
            .args(["--exact", "snapshot_child", "--test-threads=1"])
            .env("MCP_TESTING_CHILD_SNAPSHOT", &path)
            .env_remove("MCP_UPDATE_SNAPSHOTS");
        if let Some(value) = update {
            child.env("MCP_UPDATE_SNAPSHOTS", value);
        }
        child.output().unwrap()
    };
    let refused = run(None);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stdout)
            .contains("does not exist: run the tests with MCP_UPDATE_SNAPSHOTS=1"),
        "{refused:?}"
    );
    assert!(!run(Some("0")).status.success(), "0 is no update");
    assert!(!path.exists());
    assert!(run(Some("1")).status.success());
    assert!(path.exists());
    assert!(run(None).status.success(), "the written snapshot matches");
}

const HANDSHAKE: &str = r#"{"send": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}}
{"expect": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "serverInfo": {"name": "mcp-runtime"}}}, "ignore": ["/result/capabilities", "/result/serverInfo/version", "/result/serverInfo/description"]}
{"send": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
"#;

#[tokio::test]
async fn a_transcript_replays_and_fails_at_the_first_difference() {
    let good = format!(
        "{HANDSHAKE}# a call\n{}\n{}\n",
        r#"{"send": {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "greet", "arguments": {"name": "Ann"}}}}"#,
        r#"{"expect": {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "hello, Ann"}]}}}"#,
    );
    Transcript::parse(&good)
        .unwrap()
        .replay(&server())
        .await
        .unwrap();

    let bad = good.replace("\"text\": \"hello, Ann\"", "\"text\": \"hi, Ann\"");
    let err = Transcript::parse(&bad)
        .unwrap()
        .replay(&server())
        .await
        .unwrap_err();
    assert!(matches!(err, TranscriptError::Mismatch { line: 6, .. }));
    assert_eq!(
        err.to_string(),
        "line 6: the server sent another message than expected (- expected, + received):\n\
         @@ line 5 @@\n\
         \x20     \"content\": [\n\
         \x20       {\n\
         -         \"text\": \"hi, Ann\",\n\
         +         \"text\": \"hello, Ann\",\n\
         \x20         \"type\": \"text\"\n\
         \x20       }"
    );
}

#[test]
fn a_transcript_line_that_is_no_entry_is_named() {
    let err = Transcript::parse("{\"send\": {}, \"ignore\": [\"/x\"]}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1: an entry is {\"send\": MESSAGE} or {\"expect\": MESSAGE}, with \"ignore\": [JSON Pointers] after an expect"
    );
    let err = Transcript::parse("\n{not json").unwrap_err();
    assert!(matches!(err, TranscriptError::Json { line: 2, .. }));
    assert_eq!(err.to_string(), "line 2: not JSON");
}
