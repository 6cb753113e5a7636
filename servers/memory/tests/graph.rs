//! The memory server through the real client, in-process: concurrent writers keep every
//! entity, a failed call writes nothing, and the file is in the original's format.

use std::path::PathBuf;
use std::sync::Arc;

use mcp_runtime::serde_json::{Value, json};
use mcp_runtime::testing::{self, CallError};

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-server-memory-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("memory.jsonl")
}

fn entity(name: &str) -> Value {
    json!({"name": name, "entityType": "t", "observations": [format!("about {name}")]})
}

#[mcp_runtime::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_creates_keep_every_entity() {
    let path = temp_file("concurrent");
    let server = mcp_server_memory::server(&path).build().unwrap();
    let session = Arc::new(testing::connect(&server).await.unwrap());
    let mut calls = mcp_runtime::tokio::task::JoinSet::new();
    for i in 0..20 {
        let session = Arc::clone(&session);
        calls.spawn(async move {
            let args = json!({"entities": [entity(&format!("E{i:02}"))]});
            session
                .call::<Value>("create_entities", args)
                .await
                .unwrap()
        });
    }
    let mut created = Vec::new();
    while let Some(done) = calls.join_next().await {
        let out = done.unwrap();
        created.push(out["entities"][0]["name"].as_str().unwrap().to_owned());
    }
    created.sort();
    let expected: Vec<String> = (0..20).map(|i| format!("E{i:02}")).collect();
    assert_eq!(created, expected);
    let graph: Value = session.call("read_graph", json!({})).await.unwrap();
    let mut names: Vec<&str> = graph["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, expected);
    let lines = std::fs::read_to_string(&path).unwrap();
    assert_eq!(lines.lines().count(), 20);
}

#[mcp_runtime::test]
async fn the_file_is_the_originals_and_a_failed_call_writes_nothing() {
    let path = temp_file("format");
    // A file the original wrote: entities, then relations, no newline at the end; a blank line
    // and a line of another type are skipped.
    std::fs::write(
        &path,
        "{\"type\":\"entity\",\"name\":\"Ann\",\"entityType\":\"person\",\"observations\":[]}\n\n{\"type\":\"note\"}",
    )
    .unwrap();
    let server = mcp_server_memory::server(&path).build().unwrap();
    let session = testing::connect(&server).await.unwrap();
    let args = json!({"observations": [
        {"entityName": "Ann", "contents": ["likes tea"]},
        {"entityName": "Zed", "contents": ["x"]}
    ]});
    let err = session
        .call::<Value>("add_observations", args)
        .await
        .unwrap_err();
    match err {
        CallError::Tool { message, .. } => assert_eq!(message, "Entity with name Zed not found"),
        other => panic!("{other}"),
    }
    let text = session
        .call_text(
            "create_relations",
            json!({"relations": [{"from": "Ann", "to": "Bob", "relationType": "knows"}]}),
        )
        .await
        .unwrap();
    assert_eq!(
        text,
        "[\n  {\n    \"from\": \"Ann\",\n    \"to\": \"Bob\",\n    \"relationType\": \"knows\"\n  }\n]"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"type\":\"entity\",\"name\":\"Ann\",\"entityType\":\"person\",\"observations\":[]}\n\
         {\"type\":\"relation\",\"from\":\"Ann\",\"to\":\"Bob\",\"relationType\":\"knows\"}"
    );
    let found: Value = session
        .call("open_nodes", json!({"names": ["Bob"]}))
        .await
        .unwrap();
    // Bob is no entity, so nothing of him is found, not even the relation that names him.
    assert_eq!(found, json!({"entities": [], "relations": []}));
    let deleted = session
        .call_text("delete_entities", json!({"entityNames": ["Ann"]}))
        .await
        .unwrap();
    assert_eq!(deleted, "Entities deleted successfully");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
}

#[test]
fn the_memory_file_path_follows_the_original() {
    let home = temp_file("home").parent().unwrap().to_path_buf();
    std::fs::write(home.join("memory.json"), "legacy").unwrap();
    let path = mcp_server_memory::memory_file_path(None, &home);
    assert_eq!(path, home.join("memory.jsonl"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "legacy");
    assert!(!home.join("memory.json").exists());
    let abs = mcp_server_memory::memory_file_path(Some("/data/g.jsonl".as_ref()), &home);
    assert_eq!(abs, PathBuf::from("/data/g.jsonl"));
}

#[mcp_runtime::test]
async fn a_change_tells_the_graphs_subscribers() {
    use mcp_runtime::client::ServerNotification;
    let path = temp_file("subscribe");
    let server = mcp_server_memory::server(&path).build().unwrap();
    let session = testing::connect(&server).await.unwrap();
    let client = session.client();
    let mut notifications = client.notifications();
    client
        .subscribe(mcp_server_memory::GRAPH_URI)
        .await
        .unwrap();
    // The subscriber hears of the create (a read before it changes nothing to hear of).
    session
        .call::<Value>("read_graph", json!({}))
        .await
        .unwrap();
    session
        .call::<Value>("create_entities", json!({"entities": [entity("Ann")]}))
        .await
        .unwrap();
    let wait = std::time::Duration::from_secs(10);
    let next = mcp_runtime::tokio::time::timeout(wait, notifications.next())
        .await
        .expect("a notification")
        .unwrap();
    let ServerNotification::ResourceUpdated(updated) = next else {
        panic!("{next:?}")
    };
    assert_eq!(updated.uri, "memory://knowledge-graph");
}
