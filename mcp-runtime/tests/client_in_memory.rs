//! The client against a `Server` of this process (`Server::connect_client`): what the doc
//! examples of `mcp-runtime-client` show against a URL, run here for real (that crate knows no
//! server): a call with progress and a time limit, a typed call, the list and notification
//! bounds, the end of the notification stream, and the server's task stopped with the client.
#![cfg(all(feature = "client", feature = "macros"))]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::client::{
    Client, ClientError, NotificationsError, OutputError, ServerNotification,
};
use mcp_runtime::prelude::*;
use serde_json::json;

/// Adds two numbers.
#[typed_tool]
#[tool]
async fn add(a: i64, b: i64) -> Json<i64> {
    Json(a + b)
}

/// Reports progress twice.
#[tool]
async fn slow(ctx: Context) -> String {
    ctx.progress(1.0, Some(2.0), None).await;
    ctx.progress(2.0, Some(2.0), None).await;
    "done".into()
}

/// Logs a long line, twice.
#[tool]
async fn chatty(ctx: Context) -> String {
    for _ in 0..2 {
        ctx.log(LoggingLevel::Info, json!("x".repeat(3000))).await;
    }
    "done".into()
}

/// Answers a word that is not a number.
#[typed_tool]
#[tool]
async fn not_a_number() -> Json<String> {
    Json("five".into())
}

/// `not_a_number`'s arguments, declared (wrongly) as answering a number.
#[derive(serde::Serialize)]
struct WrongArgs {}

impl mcp_runtime::ToolArguments for WrongArgs {
    const NAME: &'static str = "not_a_number";
    type Output = Json<i64>;
}

fn server() -> Server {
    Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(slow::TOOL)
        .tool(chatty::TOOL)
        .tool(not_a_number::TOOL)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_call_reports_its_progress_within_its_time_limit() {
    let client = server().connect_client(Client::builder()).await.unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let result = client
        .call_tool("slow", json!({}))
        .progress(move |p| log.lock().unwrap().push(p.progress))
        .timeout(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("done"));
    assert_eq!(*seen.lock().unwrap(), vec![1.0, 2.0]);
    client.close().await;
}

#[tokio::test]
async fn a_typed_call_reads_back_the_declared_type() {
    let client = server().connect_client(Client::builder()).await.unwrap();
    let sum: i64 = client.call(AddArgs { a: 2, b: 3 }).await.unwrap();
    assert_eq!(sum, 5);
    // `Json<String>` read as what it is; the wrong type is an `Output` error with its source.
    let word: String = client.call(NotANumberArgs {}).await.unwrap();
    assert_eq!(word, "five");
    let err = client.call(WrongArgs {}).await.unwrap_err();
    let ClientError::Output { tool, source } = &err else {
        panic!("expected an output error, got {err:?}")
    };
    assert_eq!(*tool, "not_a_number");
    assert!(matches!(source, OutputError::DoesNotFit(_)), "{source:?}");
    assert_eq!(
        err.to_string(),
        "the result of not_a_number does not read as its declared return type"
    );
    client.close().await;
}

#[tokio::test]
async fn a_list_over_its_bound_keeps_nothing() {
    let client = server()
        .connect_client(Client::builder().max_list_bytes(64))
        .await
        .unwrap();
    let err = client.list_tools().await.unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::ListTooLarge {
                limit: 64,
                held: 0,
                pages: 0,
                ..
            }
        ),
        "{err:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn a_notification_over_the_queue_bound_is_missed() {
    let client = server()
        .connect_client(Client::builder().max_notification_bytes(4096))
        .await
        .unwrap();
    client.set_level(LoggingLevel::Info).await.unwrap();
    let mut notes = client.notifications();
    client.call_tool("chatty", json!({})).await.unwrap();
    // The second line did not fit beside the first, unread.
    assert_eq!(notes.next().await, Err(NotificationsError::Lagged(1)));
    assert!(matches!(notes.next().await, Ok(ServerNotification::Log(_))));
    client.close().await;
}

#[tokio::test]
async fn closing_ends_the_notifications_and_every_request() {
    let client = server().connect_client(Client::builder()).await.unwrap();
    let mut notes = client.notifications();
    client.close().await;
    assert_eq!(notes.next().await, Err(NotificationsError::Closed));
    let err = client.ping().await.unwrap_err();
    assert!(matches!(err, ClientError::Closed), "{err:?}");
}
