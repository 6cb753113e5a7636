//! Generated skills (`resources: "dynamic"`): the entry as `skills/list` and `skills/get` give
//! it, each read made by the skill's function (fresh every time, never cached), a failure an
//! internal error that keeps its reason to the server's log, the directory read that finds
//! the files, our client loading and reading such a skill, and the refusals.
#![cfg(feature = "client")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_runtime::client::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ProtocolVersion;
use mcp_runtime::protocol::skills::SkillFiles;
use mcp_runtime::skills::{GeneratedSkill, Skills};
use serde_json::{Value, json};

const NOTES: &str = "---\nname: notes\ndescription: Take notes\n---\n";
const ROTA: &str = "---\nname: rota\ndescription: Who is on call\n---\nRead week.md.\n";

fn skills(reads: Arc<AtomicUsize>) -> Skills {
    let rota = GeneratedSkill::new("team/rota", ROTA, move |path: String| {
        let n = reads.fetch_add(1, Ordering::SeqCst) + 1;
        async move {
            match path.as_str() {
                "broken.md" => Err("the rota database is down".into()),
                "data/today.json" => Ok(br#"{"on_call":"Ann"}"#.to_vec()),
                _ => Ok(format!("{path} #{n}").into_bytes()),
            }
        }
    })
    .file("week.md")
    .file("data/today.json")
    .file("broken.md");
    Skills::from_files([("notes/SKILL.md", NOTES.as_bytes().to_vec())])
        .unwrap()
        .with_generated(rota)
        .unwrap()
}

fn server(reads: Arc<AtomicUsize>) -> Server {
    Server::builder(server_info!())
        .skills(skills(reads))
        .build()
        .unwrap()
}

fn with_meta(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    params
}

#[tokio::test]
async fn the_entry_is_dynamic_and_every_read_is_made_afresh() {
    let reads = Arc::new(AtomicUsize::new(0));
    let server = server(Arc::clone(&reads));
    let mut c = server.connect_in_memory();
    let list = c.request("skills/list", with_meta(json!({}))).await;
    let rota = json!({"uri": "skill://team/rota/SKILL.md",
        "frontmatter": {"description": "Who is on call", "name": "rota"}, "resources": "dynamic"});
    assert_eq!(list["result"]["skills"][1], rota);
    let get = c
        .request(
            "skills/get",
            with_meta(json!({"uri": "skill://team/rota/SKILL.md"})),
        )
        .await;
    assert_eq!(get["result"]["skill"], rota);

    let read = |uri: &'static str| with_meta(json!({ "uri": uri }));
    let first = c
        .request("resources/read", read("skill://team/rota/week.md"))
        .await;
    let second = c
        .request("resources/read", read("skill://team/rota/week.md"))
        .await;
    assert_eq!(
        first["result"]["contents"],
        json!([{"uri": "skill://team/rota/week.md", "mimeType": "text/markdown", "text": "week.md #1"}])
    );
    // Not cached, by the server or by the client it tells.
    assert_eq!(second["result"]["contents"][0]["text"], "week.md #2");
    assert_eq!(
        (&second["result"]["ttlMs"], &second["result"]["cacheScope"]),
        (&json!(0), &json!("private"))
    );
    let json_file = c
        .request("resources/read", read("skill://team/rota/data/today.json"))
        .await;
    assert_eq!(
        json_file["result"]["contents"],
        json!([{"uri": "skill://team/rota/data/today.json", "mimeType": "application/json",
                "text": r#"{"on_call":"Ann"}"#}])
    );
    // The SKILL.md is the one given: its function is not asked.
    let md = c
        .request("resources/read", read("skill://team/rota/SKILL.md"))
        .await;
    assert_eq!(md["result"]["contents"][0]["text"], ROTA);
    assert_eq!(reads.load(Ordering::SeqCst), 3);

    let broken = c
        .request("resources/read", read("skill://team/rota/broken.md"))
        .await;
    assert_eq!(
        broken["error"],
        json!({"code": -32603, "message": "skill://team/rota/broken.md could not be generated"})
    );
    let unknown = c
        .request("resources/read", read("skill://team/rota/other.md"))
        .await;
    // Not found, as the stateless era says it (-32602; -32002 before).
    assert_eq!(unknown["error"]["code"], -32602);

    let dir = c
        .request(
            "resources/directory/read",
            with_meta(json!({"uri": "skill://team/rota"})),
        )
        .await;
    let uris: Vec<(&str, &str)> = dir["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uri"].as_str().unwrap(), r["mimeType"].as_str().unwrap()))
        .collect();
    assert_eq!(
        uris,
        [
            ("skill://team/rota/SKILL.md", "text/markdown"),
            ("skill://team/rota/broken.md", "text/markdown"),
            ("skill://team/rota/data", "inode/directory"),
            ("skill://team/rota/week.md", "text/markdown"),
        ]
    );
    // A generated file has no size to show.
    assert_eq!(dir["result"]["resources"][3].get("size"), None);
    assert_eq!(dir["result"]["resources"][0]["size"], ROTA.len());
}

#[tokio::test]
async fn our_client_loads_a_generated_skill_and_reads_inside_it_only() {
    let server = server(Arc::new(AtomicUsize::new(0)));
    let client = server
        .connect_client(Client::builder().protocol_version(ProtocolVersion::V2026_07_28))
        .await
        .unwrap();
    let entries = client.list_skills().await.unwrap();
    let entry = entries.iter().find(|e| e.uri.contains("rota")).unwrap();
    assert_eq!(entry.resources, SkillFiles::Dynamic);
    let skill = client.load_skill(entry).await.unwrap();
    assert_eq!(skill.text, ROTA);
    let week = client
        .read_skill_file(&skill, "skill://team/rota/week.md")
        .await
        .unwrap();
    assert_eq!(week, b"week.md #1");
    for outside in [
        "skill://notes/SKILL.md",
        "skill://team/rota/../../notes/SKILL.md",
    ] {
        let err = client.read_skill_file(&skill, outside).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "verification failed: {outside} is not inside the skill skill://team/rota/SKILL.md"
            ),
        );
    }
}

#[tokio::test]
async fn the_handshake_era_reads_generated_files_as_resources() {
    let server = server(Arc::new(AtomicUsize::new(0)));
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    let read = c
        .request(
            "resources/read",
            json!({"uri": "skill://team/rota/week.md"}),
        )
        .await;
    assert_eq!(
        read["result"],
        json!({"contents": [{"uri": "skill://team/rota/week.md", "mimeType": "text/markdown", "text": "week.md #1"}]})
    );
    let list = c.request("resources/list", json!({})).await;
    let uris: Vec<&str> = list["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://notes/SKILL.md",
            "skill://team/rota/SKILL.md",
            "skill://team/rota/broken.md",
            "skill://team/rota/data/today.json",
            "skill://team/rota/week.md",
        ]
    );
}

#[test]
fn a_generated_skill_that_does_not_fit_is_refused() {
    let make = |_p: String| async { Ok(Vec::new()) };
    let fixed = || Skills::from_files([("notes/SKILL.md", NOTES.as_bytes().to_vec())]).unwrap();
    let err = |r: Result<Skills, mcp_runtime::skills::SkillsError>| r.unwrap_err().to_string();
    let inner = "---\nname: inner\ndescription: d\n---\n";
    assert_eq!(
        err(fixed().with_generated(GeneratedSkill::new("notes/inner", inner, make))),
        "skill file notes/inner/SKILL.md: a generated skill can neither hold nor be inside another skill"
    );
    assert_eq!(
        err(fixed().with_generated(GeneratedSkill::new("x", "---\nname: x\n---\n", make))),
        "skill file x/SKILL.md: the frontmatter has no `description`"
    );
    let twice = GeneratedSkill::new("inner", inner, make)
        .file("a.md")
        .file("a.md");
    assert_eq!(
        err(fixed().with_generated(twice)),
        "skill file inner/a.md: the file is given twice"
    );
    let bad = GeneratedSkill::new("inner", inner, make).file("a b.md");
    assert_eq!(
        err(fixed().with_generated(bad)),
        "skill file inner/a b.md: the path segment `a b.md` is not a plain URI path segment"
    );
}
