//! The metrics layer (`ServerBuilder::metrics`): exact counts and labels in the Prometheus
//! text after known calls, refusals counted by cause whichever layer answered them, and the
//! bound on label sets.

use mcp_runtime::metrics::Metrics;
use mcp_runtime::middleware::{Outcome, from_fn};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ErrorObject;
use serde_json::json;

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Always fails (a business error: `isError`).
#[tool]
async fn fails() -> Result<String, ToolError> {
    Err(ToolError::new("nope"))
}

/// The line of `text` that starts with `prefix`, its value.
fn value(text: &str, prefix: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
}

/// A layer inside the metrics' one refusing `limited` as a rate limit would and `greedy` as a
/// quota would.
fn refuser() -> impl mcp_runtime::middleware::Layer {
    from_fn(|request, next| {
        Box::pin(async move {
            let reason = match request.target() {
                Some("limited") => "rate_limited",
                Some("greedy") => "quota_exceeded",
                _ => return next.run().await,
            };
            Outcome::error(
                ErrorObject::new(-32000, "refused").with_data(json!({ "reason": reason })),
            )
        })
    })
}

#[tokio::test]
async fn known_calls_give_exact_counts_labels_and_refusals() {
    let metrics = Metrics::new();
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        // Added before the metrics: still inside them.
        .layer(refuser())
        .metrics(&metrics)
        .build()
        .unwrap();
    let client = server
        .connect_client(mcp_runtime::client::Client::builder())
        .await
        .unwrap();
    for i in 0..3 {
        let r = client
            .call_tool("add", json!({"a": i, "b": 1}))
            .await
            .unwrap();
        assert_eq!(r.content[0].as_text(), Some((i + 1).to_string().as_str()));
    }
    let r = client.call_tool("fails", json!({})).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    for _ in 0..2 {
        client.call_tool("limited", json!({})).await.unwrap_err();
    }
    client.call_tool("greedy", json!({})).await.unwrap_err();
    let text = metrics.render();
    std::fs::write("/tmp/m/render.txt", &text).unwrap();
    let add = "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\",gen_ai_tool_name=\"add\"";
    assert_eq!(value(&text, add), Some(3.0), "{text}");
    let fails = "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\",error_type=\"tool_error\",gen_ai_tool_name=\"fails\"";
    assert_eq!(value(&text, fails), Some(1.0), "{text}");
    assert_eq!(
        value(&text, "mcp_server_refusals_total{cause=\"rate_limit\"}"),
        Some(2.0),
        "{text}"
    );
    assert_eq!(
        value(&text, "mcp_server_refusals_total{cause=\"quota\"}"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        value(&text, "mcp_server_refusals_total{cause=\"auth\"}"),
        None,
        "{text}"
    );
    assert_eq!(
        value(&text, "mcp_server_requests_in_flight"),
        Some(0.0),
        "{text}"
    );
    assert!(
        text.contains("# TYPE mcp_server_operation_duration_seconds histogram\n"),
        "{text}"
    );
}

#[tokio::test]
async fn label_sets_are_bounded_and_overflow_is_other() {
    let metrics = Metrics::with_max_series(3);
    assert_eq!(metrics.max_series(), 3);
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .metrics(&metrics)
        .build()
        .unwrap();
    let client = server
        .connect_client(mcp_runtime::client::Client::builder())
        .await
        .unwrap();
    for i in 0..20 {
        client
            .call_tool(&format!("made-up-{i}"), json!({}))
            .await
            .unwrap_err();
    }
    let text = metrics.render();
    std::fs::write("/tmp/m/bounded.txt", &text).unwrap();
    let series = text
        .lines()
        .filter(|l| l.starts_with("mcp_server_operation_duration_seconds_count{"))
        .count();
    assert_eq!(series, 3, "{text}");
    let other: f64 = text
        .lines()
        .filter(|l| {
            l.starts_with("mcp_server_operation_duration_seconds_count{") && l.contains("_OTHER")
        })
        .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!(other > 0.0, "{text}");
}
