//! `TestClient::check_apps` reads a widget served as a `blob` strictly: bytes that are not
//! UTF-8 are a problem named with their offset, never repaired into a document.
#![cfg(feature = "macros")]

use mcp_runtime::apps::AppProblem;
use mcp_runtime::prelude::*;

/// A widget whose bytes are an HTML document but for one byte that is not UTF-8 (at 24).
#[mcp_runtime::resource(
    uri = "ui://bad/bytes.html",
    mime = "text/html;profile=mcp-app",
    server = "apps-bytes"
)]
async fn bytes() -> Vec<u8> {
    b"<!doctype html><html><p>\xff</p></html>".to_vec()
}

#[tokio::test]
async fn a_blob_that_is_not_utf8_is_a_problem_with_its_offset() {
    let server = Server::from_registry_named("apps-bytes", server_info!())
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    assert_eq!(
        client.check_apps().await,
        vec![AppProblem::new(
            "ui://bad/bytes.html",
            "content",
            "`blob` is not UTF-8 (byte 24)"
        )]
    );
}
