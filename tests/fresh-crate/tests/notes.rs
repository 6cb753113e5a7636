//! The notes server through the in-memory client, as a user tests their own server; only
//! `mcp-runtime` is a dependency (`serde_json` comes through it).

use mcp_runtime::cli::Cli;
use mcp_runtime::serde_json::{Value, json};
use mcp_runtime::testing::{self, CallError};
use mcp_runtime::transport::memory::TestClient;
use notes_server::{Found, Note, Tagged};

async fn client() -> TestClient {
    let server = notes_server::server().build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client
}

async fn call(client: &mut TestClient, name: &str, arguments: Value) -> Value {
    let response = client.call_tool(name, arguments).await;
    response["result"].clone()
}

#[mcp_runtime::test]
async fn the_schemas_say_what_the_types_say() {
    let mut client = client().await;
    let list = client.request("tools/list", Value::Null).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["add_note", "delete_note", "list_notes", "tag_notes"]
    );
    let add = &tools[0]["inputSchema"];
    assert_eq!(add["required"], json!(["text", "priority"]));
    assert_eq!(
        add["properties"]["priority"],
        json!({"type": "string", "enum": ["low", "normal", "high"],
            // The variants' doc comments, listed (a portable enum has no room for them).
            "description": "How urgent it is\n- low: Whenever.\n- normal: Soon.\n- high: Now."})
    );
    assert_eq!(add["properties"]["tags"]["default"], json!(["inbox"]));
    assert_eq!(add["properties"]["tags"]["type"], "array");
    assert_eq!(add["properties"]["due"]["type"], "object");
    assert_eq!(add["properties"]["due"]["required"], json!(["date"]));
    assert_eq!(tools[0]["outputSchema"]["required"][0], "id");
    let list_notes = &tools[2]["inputSchema"];
    assert_eq!(list_notes["properties"]["limit"]["maximum"], 50);
    assert_eq!(list_notes["required"], Value::Null);
}

#[mcp_runtime::test]
async fn notes_are_added_listed_read_and_deleted() {
    let mut client = client().await;
    let first = call(
        &mut client,
        "add_note",
        json!({"text": "buy milk", "priority": "low"}),
    )
    .await;
    assert_eq!(
        first["structuredContent"],
        json!({"id": 1, "text": "buy milk", "priority": "low", "tags": ["inbox"], "due": null})
    );
    let second = call(
        &mut client,
        "add_note",
        json!({"text": "file taxes", "priority": "high", "tags": ["admin"], "due": {"date": "2025-04-30", "remindMinutes": 60}}),
    )
    .await;
    assert_eq!(second["structuredContent"]["id"], 2);

    let found = call(&mut client, "list_notes", json!({})).await;
    let ids: Vec<u64> = found["structuredContent"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [2, 1], "most urgent first");
    let found = call(&mut client, "list_notes", json!({"tag": "admin"})).await;
    assert_eq!(found["structuredContent"]["total"], 1);
    let too_many = call(&mut client, "list_notes", json!({"limit": 51})).await;
    assert_eq!(too_many["isError"], true);
    assert_eq!(
        too_many["content"][0]["text"],
        "invalid arguments for tool 'list_notes': property 'limit': must be at most 50, got 51"
    );

    let read = client
        .request("resources/read", json!({"uri": "notes://note/2"}))
        .await;
    assert_eq!(
        read["result"]["contents"],
        json!([{"uri": "notes://note/2", "mimeType": "text/plain", "text": "file taxes"}])
    );
    let all = client
        .request("resources/read", json!({"uri": "notes://all"}))
        .await;
    let all: Value =
        mcp_runtime::serde_json::from_str(all["result"]["contents"][0]["text"].as_str().unwrap())
            .unwrap();
    assert_eq!(all.as_array().unwrap().len(), 2);

    let deleted = call(&mut client, "delete_note", json!({"id": 1})).await;
    assert_eq!(deleted["content"][0]["text"], "deleted note 1: buy milk");
    let again = call(&mut client, "delete_note", json!({"id": 1})).await;
    assert_eq!(
        (&again["isError"], &again["content"][0]["text"]),
        (&json!(true), &json!("there is no note 1"))
    );
    let gone = client
        .request("resources/read", json!({"uri": "notes://note/1"}))
        .await;
    assert_eq!(gone["error"]["code"], -32002);
}

#[mcp_runtime::test]
async fn the_prompt_has_three_messages_and_completes_its_style() {
    let mut client = client().await;
    call(
        &mut client,
        "add_note",
        json!({"text": "plant tomatoes", "priority": "normal"}),
    )
    .await;
    let prompt = client
        .request(
            "prompts/get",
            json!({"name": "plan", "arguments": {"id": "1", "style": "detailed"}}),
        )
        .await;
    assert_eq!(
        prompt["result"]["messages"],
        json!([
            {"role": "user", "content": {"type": "text", "text": "Here is a note of mine: plant tomatoes"}},
            {"role": "assistant", "content": {"type": "text", "text": "Understood. What should I do with it?"}},
            {"role": "user", "content": {"type": "text", "text": "Turn it into a detailed plan of steps."}}
        ])
    );
    let completion = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "plan"}, "argument": {"name": "style", "value": "d"}}),
        )
        .await;
    assert_eq!(
        completion["result"]["completion"]["values"],
        json!(["detailed"])
    );
}

#[mcp_runtime::test]
async fn note_ids_complete_from_the_store_and_each_reads() {
    let mut client = client().await;
    let complete = json!({"ref": {"type": "ref/resource", "uri": "notes://note/{id}"},
        "argument": {"name": "id", "value": ""}});
    let empty = client
        .request("completion/complete", complete.clone())
        .await;
    assert_eq!(empty["result"]["completion"]["values"], json!([]));
    for text in ["plant tomatoes", "water basil"] {
        call(
            &mut client,
            "add_note",
            json!({"text": text, "priority": "normal"}),
        )
        .await;
    }
    let offered = client.request("completion/complete", complete).await;
    assert_eq!(offered["result"]["completion"]["values"], json!(["1", "2"]));
    for (id, text) in [("1", "plant tomatoes"), ("2", "water basil")] {
        let read = client
            .request(
                "resources/read",
                json!({"uri": format!("notes://note/{id}")}),
            )
            .await;
        assert_eq!(read["result"]["contents"][0]["text"], text);
    }
}

#[mcp_runtime::test]
async fn the_command_line_calls_a_tool() {
    let server = notes_server::server().build().unwrap();
    let cli = Cli::new(&server).name("notes-server");
    let out = cli
        .execute([
            "call",
            "add_note",
            r#"{"text": "call mum", "priority": "high"}"#,
        ])
        .await;
    assert_eq!(out.code(), 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "{\n  \"id\": 1,\n  \"text\": \"call mum\",\n  \"priority\": \"high\",\n  \"tags\": [\n    \"inbox\"\n  ],\n  \"due\": null\n}\n"
    );
    let out = cli.execute(["read", "notes://note/1"]).await;
    assert_eq!((out.code(), out.stdout.as_str()), (0, "call mum\n"));
}

/// The binary's `main` is `#[mcp_runtime::main]`: it runs the command line.
#[test]
fn the_binary_runs_its_command_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
        .args(["schema", "delete_note"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let schema: Value = mcp_runtime::serde_json::from_slice(&out.stdout).unwrap();
    let input = &schema["inputSchema"];
    assert_eq!(
        (&input["type"], &input["required"]),
        (&json!("object"), &json!(["id"]))
    );
    assert_eq!(
        input["properties"],
        json!({"id": {"type": "integer", "minimum": 0, "description": "The note's id"}})
    );
    assert_eq!(schema.get("outputSchema"), None);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
        .args(["call", "delete_note", r#"{"id": 7}"#])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "notes-server: tool 'delete_note' reported an error: there is no note 7\n"
    );
}

#[mcp_runtime::test]
async fn typed_calls_with_camel_case_names_and_a_chosen_text() {
    let server = notes_server::server().build().unwrap();
    let session = testing::connect(&server).await.unwrap();
    for text in ["buy milk", "file taxes"] {
        let note: Note = session
            .call("add_note", json!({"text": text, "priority": "low"}))
            .await
            .unwrap();
        assert_eq!(note.text, text);
    }
    let arguments = json!({"noteIds": [2, 9], "newTag": "today"});
    let tagged: Tagged = session.call("tag_notes", &arguments).await.unwrap();
    assert_eq!(
        tagged,
        Tagged {
            tagged_ids: vec![2],
            unknown_ids: vec![9]
        }
    );
    let text = session.call_text("tag_notes", &arguments).await.unwrap();
    assert_eq!(text, "tagged 1 note(s) 'today'; 1 unknown");
    let found: Found = session
        .call("list_notes", json!({"tag": "today"}))
        .await
        .unwrap();
    assert_eq!((found.total, found.notes[0].id), (1, 2));
    // The snake_case name is not the wire name.
    let err = session
        .call::<Tagged>("tag_notes", json!({"note_ids": [1], "newTag": "x"}))
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::Tool { .. }), "{err}");
}

/// The text block of a `Json<T>` result is its compact JSON, members in the struct's order.
#[mcp_runtime::test]
async fn the_text_block_keeps_the_declared_order() {
    let server = notes_server::server().build().unwrap();
    let session = testing::connect(&server).await.unwrap();
    let text = session
        .call_text(
            "add_note",
            json!({"text": "buy milk", "priority": "low", "due": {"date": "2026-12-24", "remindMinutes": 5}}),
        )
        .await
        .unwrap();
    assert_eq!(
        text,
        r#"{"id":1,"text":"buy milk","priority":"low","tags":["inbox"],"due":{"date":"2026-12-24","remindMinutes":5}}"#
    );
}

/// `tests/snapshots/lists.json` is what `notes-server list --json` prints; a change to a tool,
/// resource or prompt fails here until the file is updated (`MCP_UPDATE_SNAPSHOTS=1`).
#[test]
fn the_lists_match_their_snapshot() {
    let server = notes_server::server().build().unwrap();
    testing::assert_lists_snapshot(&server, "tests/snapshots/lists.json");
}

/// A recorded session: the handshake, a note added, and a tool refused.
#[mcp_runtime::test]
async fn the_recorded_transcript_replays() {
    let server = notes_server::server().build().unwrap();
    testing::assert_transcript(&server, "tests/transcripts/add-and-refuse.jsonl").await;
}
