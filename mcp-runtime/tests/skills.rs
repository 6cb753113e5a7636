//! Skills served (the `io.modelcontextprotocol/skills` extension): our own client lists, gets
//! and loads our server's skills and reads every file with its digest verified; the exact JSON
//! of `skills/list`, `skills/get`, `resources/directory/read`, the capability and the files as
//! resources; the handshake era (files as ordinary resources, the methods -32601); the errors
//! the extension names; `Skills::from_dir` and `skills!` agree.
#![cfg(all(feature = "client", feature = "macros"))]

use mcp_runtime::client::{Client, ClientError, SkillEntry};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ProtocolVersion;
use mcp_runtime::protocol::skills::SkillFiles;
use mcp_runtime::skills::Skills;
use serde_json::{Value, json};

const REFUNDS: &str = "---\nname: refunds\ndescription: Refund per policy\nmetadata:\n  version: \"2\"\n  tags: [a, b]\n---\n# Refunds\n";
const EMAIL: &str = "Dear customer";
const NOTES: &str = "---\nname: notes\ndescription: Take notes\n---\n";

fn skills() -> Skills {
    Skills::from_files([
        ("acme/refunds/SKILL.md", REFUNDS.as_bytes().to_vec()),
        ("acme/refunds/examples/email.md", EMAIL.as_bytes().to_vec()),
        ("acme/refunds/logo.png", vec![0x89, b'P', b'N', b'G', 0xff]),
        ("notes/SKILL.md", NOTES.as_bytes().to_vec()),
    ])
    .unwrap()
}

fn server(page_size: usize) -> Server {
    Server::builder(server_info!())
        .skills(skills())
        .page_size(page_size)
        .build()
        .unwrap()
}

fn digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    let hex: String = sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

async fn stateless_client(server: &Server) -> Client {
    server
        .connect_client(Client::builder().protocol_version(ProtocolVersion::V2026_07_28))
        .await
        .unwrap()
}

#[tokio::test]
async fn our_client_lists_gets_and_loads_every_skill_with_digests_verified() {
    // A page size of 1: the client reads both pages of `skills/list`.
    let server = server(1);
    let client = stateless_client(&server).await;
    let caps = client.server_capabilities();
    assert_eq!(
        caps.extensions.unwrap()["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );
    let entries = client.list_skills().await.unwrap();
    let uris: Vec<&str> = entries.iter().map(|e| e.uri.as_str()).collect();
    assert_eq!(
        uris,
        ["skill://acme/refunds/SKILL.md", "skill://notes/SKILL.md"]
    );
    let mut read = 0;
    for entry in &entries {
        assert_eq!(&client.get_skill(&entry.uri).await.unwrap(), entry);
        let skill = client.load_skill(entry).await.unwrap();
        for file in entry.resources.files() {
            let bytes = client.read_skill_file(&skill, &file.uri).await.unwrap();
            assert_eq!(digest(&bytes), file.digest);
            assert_eq!(bytes.len() as u64, file.size);
            read += 1;
        }
    }
    assert_eq!(read, 4);
    let refunds = &entries[0];
    assert_eq!(
        Value::Object(refunds.frontmatter.clone()),
        json!({"name": "refunds", "description": "Refund per policy",
               "metadata": {"version": "2", "tags": ["a", "b"]}})
    );
    let png = client
        .read_skill_file(
            &client.load_skill(refunds).await.unwrap(),
            "skill://acme/refunds/logo.png",
        )
        .await
        .unwrap();
    assert_eq!(png, [0x89, b'P', b'N', b'G', 0xff]);
    // A skill the server does not serve: -32602.
    let err = client
        .get_skill("skill://acme/chargebacks/SKILL.md")
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ClientError::Rpc(e) if e.code == -32602
            && e.message == "No skill is served at skill://acme/chargebacks/SKILL.md"),
        "{err:?}"
    );
}

#[tokio::test]
async fn the_client_refuses_what_does_not_match_its_entry() {
    let server = server(10);
    let client = stateless_client(&server).await;
    let mut entry: SkillEntry = client.get_skill("skill://notes/SKILL.md").await.unwrap();
    entry.frontmatter.insert("license".into(), json!("MIT"));
    let err = client.load_skill(&entry).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        ClientError::Verification(
            "skill://notes/SKILL.md: frontmatter `license` is absent, its entry says \"MIT\""
                .into()
        )
        .to_string()
    );
    let skill = client
        .load_skill(&client.get_skill("skill://notes/SKILL.md").await.unwrap())
        .await
        .unwrap();
    // A file of another skill is not a file of this one.
    let err = client
        .read_skill_file(&skill, "skill://acme/refunds/examples/email.md")
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Verification(_)), "{err:?}");
    let mut wrong = skill.clone();
    wrong.entry.resources = SkillFiles::Listed(vec![mcp_runtime::client::SkillFile::new(
        "skill://notes/SKILL.md",
        digest(b"other"),
        NOTES.len() as u64,
    )]);
    let err = client.load_skill(&wrong.entry).await.unwrap_err();
    assert!(
        err.to_string().contains("does not match its digest"),
        "{err}"
    );
}

/// The stateless `_meta` of a 2026-07-28 request.
fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": {}})
}

fn with_meta(mut params: Value) -> Value {
    params["_meta"] = meta();
    params
}

fn server_info_meta() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": env!("CARGO_PKG_NAME"),
        "version": env!("CARGO_PKG_VERSION"), "description": env!("CARGO_PKG_DESCRIPTION")}})
}

fn file(uri: &str, bytes: &[u8]) -> Value {
    json!({"uri": uri, "digest": digest(bytes), "size": bytes.len()})
}

#[tokio::test]
async fn the_wire_of_the_stateless_era() {
    let server = server(1);
    let mut c = server.connect_in_memory();
    let discover = c.request("server/discover", with_meta(json!({}))).await;
    let caps = &discover["result"]["capabilities"];
    assert_eq!(
        caps["extensions"],
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}})
    );
    // Skill files are fixed: a server whose only resources they are offers no subscriptions.
    assert_eq!(caps["resources"], json!({"listChanged": true}));

    let refunds = json!({
        "uri": "skill://acme/refunds/SKILL.md",
        "frontmatter": {"description": "Refund per policy", "metadata": {"tags": ["a", "b"], "version": "2"}, "name": "refunds"},
        "resources": [
            file("skill://acme/refunds/SKILL.md", REFUNDS.as_bytes()),
            file("skill://acme/refunds/examples/email.md", EMAIL.as_bytes()),
            file("skill://acme/refunds/logo.png", &[0x89, b'P', b'N', b'G', 0xff]),
        ]
    });
    let list = c.request("skills/list", with_meta(json!({}))).await;
    assert_eq!(
        list["result"],
        json!({"skills": [refunds], "nextCursor": "p1", "ttlMs": 300000, "cacheScope": "public",
               "resultType": "complete", "_meta": server_info_meta()})
    );
    let next = c
        .request("skills/list", with_meta(json!({"cursor": "p1"})))
        .await;
    assert_eq!(next["result"]["skills"][0]["uri"], "skill://notes/SKILL.md");
    assert_eq!(next["result"].get("nextCursor"), None);
    let bad = c
        .request("skills/list", with_meta(json!({"cursor": "p9"})))
        .await;
    assert_eq!(
        bad["error"],
        json!({"code": -32602, "message": "invalid cursor"})
    );

    let get = c
        .request(
            "skills/get",
            with_meta(json!({"uri": "skill://acme/refunds/SKILL.md"})),
        )
        .await;
    assert_eq!(
        get["result"],
        json!({"skill": refunds, "ttlMs": 300000, "cacheScope": "public",
               "resultType": "complete", "_meta": server_info_meta()})
    );
    let unknown = c
        .request(
            "skills/get",
            with_meta(json!({"uri": "skill://acme/chargebacks/SKILL.md"})),
        )
        .await;
    assert_eq!(
        unknown["error"],
        json!({"code": -32602, "message": "No skill is served at skill://acme/chargebacks/SKILL.md",
               "data": {"uri": "skill://acme/chargebacks/SKILL.md"}})
    );

    // Directories, a page at a time (page size 1).
    let root = c
        .request(
            "resources/directory/read",
            with_meta(json!({"uri": "skill://acme/refunds"})),
        )
        .await;
    assert_eq!(
        root["result"],
        json!({"resources": [{"uri": "skill://acme/refunds/SKILL.md", "name": "refunds",
                              "description": "Refund per policy", "mimeType": "text/markdown",
                              "size": REFUNDS.len()}],
               "nextCursor": "p1", "resultType": "complete", "_meta": server_info_meta()})
    );
    let second = c
        .request(
            "resources/directory/read",
            with_meta(json!({"uri": "skill://acme/refunds", "cursor": "p1"})),
        )
        .await;
    assert_eq!(
        second["result"]["resources"],
        json!([{"uri": "skill://acme/refunds/examples", "name": "examples", "mimeType": "inode/directory"}])
    );
    let prefix = c
        .request(
            "resources/directory/read",
            with_meta(json!({"uri": "skill://acme"})),
        )
        .await;
    assert_eq!(
        prefix["result"]["resources"],
        json!([{"uri": "skill://acme/refunds", "name": "refunds", "mimeType": "inode/directory"}])
    );
    for (uri, message) in [
        (
            "skill://acme/refunds/SKILL.md",
            "skill://acme/refunds/SKILL.md is not a directory resource",
        ),
        (
            "skill://acme/billing",
            "No directory resource is served at skill://acme/billing",
        ),
    ] {
        let r = c
            .request("resources/directory/read", with_meta(json!({"uri": uri})))
            .await;
        assert_eq!(r["error"], json!({"code": -32602, "message": message}));
    }

    // Every file is a resource; SKILL.md as text/markdown with the frontmatter's name and
    // description, a binary file as a blob.
    let resources = c.request("resources/list", with_meta(json!({}))).await;
    let uris: Vec<&str> = resources["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["skill://acme/refunds/SKILL.md"]);
    let read = c
        .request(
            "resources/read",
            with_meta(json!({"uri": "skill://acme/refunds/SKILL.md"})),
        )
        .await;
    assert_eq!(
        read["result"],
        json!({"contents": [{"uri": "skill://acme/refunds/SKILL.md", "mimeType": "text/markdown", "text": REFUNDS}],
               "resultType": "complete", "ttlMs": 300000, "cacheScope": "public", "_meta": server_info_meta()})
    );
    let png = c
        .request(
            "resources/read",
            with_meta(json!({"uri": "skill://acme/refunds/logo.png"})),
        )
        .await;
    assert_eq!(
        png["result"]["contents"],
        json!([{"uri": "skill://acme/refunds/logo.png", "mimeType": "image/png", "blob": "iVBOR/8="}])
    );
    let missing = c
        .request(
            "resources/read",
            with_meta(json!({"uri": "skill://acme/refunds/other.md"})),
        )
        .await;
    assert_eq!(missing["error"]["code"], -32602);
}

#[tokio::test]
async fn the_handshake_era_gets_the_files_as_resources_and_no_skills_methods() {
    let server = server(100);
    let mut c = server.connect_in_memory();
    let init = c.initialize("2025-11-25").await;
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps.get("extensions"), None);
    // Skill files are fixed: a server whose only resources they are offers no subscriptions.
    assert_eq!(caps["resources"], json!({"listChanged": true}));
    for (method, params) in [
        ("skills/list", json!({})),
        ("skills/get", json!({"uri": "skill://notes/SKILL.md"})),
        ("resources/directory/read", json!({"uri": "skill://notes"})),
    ] {
        let r = c.request(method, params).await;
        assert_eq!(r["error"]["code"], -32601, "{method}: {r}");
    }
    let list = c.request("resources/list", json!({})).await;
    let resources = list["result"]["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 4);
    assert_eq!(
        resources[3],
        json!({"uri": "skill://notes/SKILL.md", "name": "notes", "description": "Take notes",
               "mimeType": "text/markdown", "size": NOTES.len()})
    );
    let read = c
        .request("resources/read", json!({"uri": "skill://notes/SKILL.md"}))
        .await;
    assert_eq!(
        read["result"],
        json!({"contents": [{"uri": "skill://notes/SKILL.md", "mimeType": "text/markdown", "text": NOTES}]})
    );
    let missing = c
        .request("resources/read", json!({"uri": "skill://notes/other.md"}))
        .await;
    assert_eq!(missing["error"]["code"], -32002);
}

#[tokio::test]
async fn a_server_without_skills_knows_no_skills_methods() {
    let server = Server::builder(server_info!()).build().unwrap();
    let mut c = server.connect_in_memory();
    let r = c.request("skills/list", with_meta(json!({}))).await;
    assert_eq!(r["error"]["code"], -32601);
}

#[test]
fn from_dir_and_the_macro_agree_and_bad_skills_refuse_to_start() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../mcp-macros/tests/skills");
    let read = Skills::from_dir(dir).unwrap();
    let embedded = mcp_runtime::skills!("../../mcp-macros/tests/skills");
    assert_eq!(read.entries(), embedded.entries());
    assert_eq!(read.entries().len(), 1);
    let bad = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../mcp-macros/tests/ui/skills/fixtures/name-path-mismatch"
    );
    assert_eq!(
        Skills::from_dir(bad).unwrap_err().to_string(),
        "skill file refunds/SKILL.md: its `name` is `refund`, but its directory is `refunds` (they must be equal)"
    );
    // A registered resource may not take a skill file's URI.
    let err = Server::builder(server_info!())
        .skills(skills())
        .resource(notes_resource::RESOURCE)
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("is a skill file's"), "{err}");
}

/// Not the skill's.
#[resource(uri = "skill://notes/SKILL.md")]
async fn notes_resource() -> String {
    String::new()
}
