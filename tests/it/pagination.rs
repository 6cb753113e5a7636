//! List pagination: pages of the configured size, `nextCursor`, invalid cursors.

use serde_json::{Value, json};

use crate::fixtures;
use crate::{error_message, result};

/// Follows `nextCursor` from the first page; returns the names and the number of pages.
async fn walk(
    client: &mut mcp_runtime::transport::memory::TestClient,
    method: &str,
    field: &str,
    stateless: bool,
) -> (Vec<String>, usize) {
    let mut names = Vec::new();
    let mut pages = 0;
    let mut cursor: Option<String> = None;
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => Value::Null,
        };
        let r = if stateless {
            client.stateless(method, params).await
        } else {
            client.request(method, params).await
        };
        let id = r["id"].clone();
        let page = result(&r, id);
        pages += 1;
        let items = page[field].as_array().unwrap();
        assert!(items.len() <= 1, "page size 1: {page}");
        names.extend(items.iter().map(|t| t["name"].as_str().unwrap().to_owned()));
        if stateless {
            assert_eq!(page["resultType"], "complete");
        }
        match page.get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().expect("cursors are strings").to_owned()),
            None => break,
        }
        assert!(pages < 100, "the cursor chain does not end");
    }
    (names, pages)
}

#[tokio::test]
async fn lists_are_paged_and_the_cursor_chain_visits_every_item_once() {
    let server = fixtures::builder().page_size(1).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let (tools, pages) = walk(&mut client, "tools/list", "tools", false).await;
    let expected = [
        "add",
        "broken",
        "chatty",
        "count",
        "echo",
        "explode",
        "greet",
        "paint",
        "refuse",
        "single_file",
        "sleepy",
        "too_slow",
    ];
    assert_eq!(tools, expected);
    assert_eq!(pages, expected.len());
    let (prompts, _) = walk(&mut client, "prompts/list", "prompts", false).await;
    assert_eq!(prompts, ["card", "many", "toned"]);
    let (resources, _) = walk(&mut client, "resources/list", "resources", false).await;
    assert_eq!(resources, ["broken_resource", "static_text"]);
    let (stateless, _) = walk(&mut client, "tools/list", "tools", true).await;
    assert_eq!(stateless, expected);
}

#[tokio::test]
async fn a_single_page_has_no_next_cursor() {
    let mut client = fixtures::handshake("2025-11-25").await;
    let page = result(&client.request("tools/list", Value::Null).await, json!(2));
    assert!(page.get("nextCursor").is_none());
    assert_eq!(page["tools"].as_array().unwrap().len(), 12);
}

#[tokio::test]
async fn an_invalid_cursor_is_invalid_params() {
    let server = fixtures::builder().page_size(1).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    for (n, cursor) in ["bogus", "p0", "p999", "", "p-1"].into_iter().enumerate() {
        let r = client
            .request("tools/list", json!({"cursor": cursor}))
            .await;
        assert_eq!(
            error_message(&r, -32602, json!(n + 2)),
            "invalid cursor",
            "{cursor:?}"
        );
    }
    // A null cursor is the first page.
    let r = client.request("tools/list", json!({"cursor": null})).await;
    assert_eq!(result(&r, json!(7))["tools"][0]["name"], "add");
}

#[tokio::test]
async fn a_page_size_of_zero_is_refused() {
    let err = fixtures::builder().page_size(0).build().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid configuration: page size must be at least 1"
    );
}
