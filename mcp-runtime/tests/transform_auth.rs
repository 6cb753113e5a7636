//! Visibility per principal over HTTP (features `auth` and `client`), with
//! `Authorization::hide_unpermitted_items` too: each verified caller's lists leave out what its
//! view hides and what its scopes do not cover, and a tool its view hides is unknown to its
//! calls with the error of a tool that does not exist.
//!
//! A token is the subject it speaks for; `alice` and `carol` are granted `notes:read`, every
//! other none.
#![cfg(all(feature = "auth", feature = "client"))]

use mcp_runtime::BoxFuture;
use mcp_runtime::auth::{AuthError, Authorization, Claims, TokenVerifier};
use mcp_runtime::client::{Client, ClientError};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ProtocolVersion;
use mcp_runtime::transform::{ToolTransform, View, Visibility};
use serde_json::json;

/// Audits everything.
#[tool]
async fn audit() -> String {
    "audited".into()
}

/// Reads the notes.
#[tool(scopes = ["notes:read"])]
async fn read_notes() -> String {
    "notes".into()
}

/// Searches.
#[tool]
async fn search() -> String {
    "found".into()
}

struct Subjects;

impl TokenVerifier for Subjects {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _: &'a axum::http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(async move {
            let scopes: &[&str] = if matches!(token, "alice" | "carol") {
                &["notes:read"]
            } else {
                &[]
            };
            Ok(Claims::new(token).with_scopes(scopes.iter().copied()))
        })
    }
}

async fn serve() -> (String, mcp_runtime::ShutdownHandle) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let auth = Authorization::new(&url, Subjects)
        .authorization_server("https://auth.example.com")
        .hide_unpermitted_items(true);
    let server = Server::builder(server_info!())
        .tool(audit::TOOL)
        .tool(read_notes::TOOL)
        .tool(search::TOOL)
        .transform(ToolTransform::new("audit").tags(["admin"]))
        .visibility(Visibility::by_principal(
            [("token:0:0:alice", View::everything())],
            View::everything().hiding(["admin"]),
        ))
        .auth(auth)
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    (url, stop)
}

async fn client(url: &str, token: &str, version: ProtocolVersion) -> Client {
    Client::builder()
        .protocol_version(version)
        .header("authorization", format!("Bearer {token}"))
        .connect_http(url)
        .await
        .unwrap()
}

async fn names(client: &Client) -> Vec<String> {
    let tools = client.list_tools().await.unwrap();
    tools.into_iter().map(|t| t.name).collect()
}

#[tokio::test]
async fn each_principal_sees_its_view_less_what_its_scopes_do_not_cover() {
    let (url, _stop) = serve().await;
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let alice = client(&url, "alice", version).await;
        assert_eq!(
            names(&alice).await,
            ["audit", "read_notes", "search"],
            "{version:?}"
        );
        let r = alice.call_tool("audit", json!({})).await.unwrap();
        assert_eq!(r.content[0].as_text(), Some("audited"));
        let bob = client(&url, "bob", version).await;
        assert_eq!(names(&bob).await, ["search"], "{version:?}");
        for name in ["audit", "nothing"] {
            match bob.call_tool(name, json!({})).await.unwrap_err() {
                ClientError::Rpc(e) => assert_eq!(
                    (e.code, e.message),
                    (-32602, format!("unknown tool '{name}'")),
                    "{version:?}"
                ),
                other => panic!("{other}"),
            }
        }
        // Carol has Bob's view and Alice's scopes: the view's pages are kept per permissions,
        // so neither sees the other's (Bob asks again after Carol).
        let carol = client(&url, "carol", version).await;
        assert_eq!(names(&carol).await, ["read_notes", "search"], "{version:?}");
        assert_eq!(names(&bob).await, ["search"], "{version:?}");
        assert_eq!(names(&carol).await, ["read_notes", "search"], "{version:?}");
    }
}
