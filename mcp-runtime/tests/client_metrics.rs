//! The client's metrics by the OpenTelemetry MCP semantic conventions
//! (`mcp_runtime::client::metrics::Metrics`, feature `otel`): `mcp.client.operation.duration`
//! per request with the conventions' attributes, and `mcp.client.session.duration` once the
//! client is dropped, read back from the SDK's in-memory exporter (this binary's one global
//! meter provider).
#![cfg(all(feature = "client", feature = "otel"))]

use std::collections::BTreeMap;

use mcp_runtime::client::Client;
use mcp_runtime::client::metrics::Metrics;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ProtocolVersion;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
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

/// Each data point of histogram `name`: its attributes (sorted) → (count, bounds).
type Points = BTreeMap<Vec<(String, String)>, (u64, Vec<f64>)>;

fn points(finished: &[ResourceMetrics], name: &str) -> Points {
    let mut found = Points::new();
    for resource in finished {
        for scope in resource.scope_metrics() {
            for metric in scope.metrics().filter(|m| m.name() == name) {
                assert_eq!(metric.unit(), "s");
                let AggregatedMetrics::F64(MetricData::Histogram(h)) = metric.data() else {
                    panic!("{name} is not an f64 histogram");
                };
                for point in h.data_points() {
                    let mut attributes: Vec<(String, String)> = point
                        .attributes()
                        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
                        .collect();
                    attributes.sort();
                    found.insert(attributes, (point.count(), point.bounds().collect()));
                }
            }
        }
    }
    found
}

fn attrs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    v.sort();
    v
}

#[tokio::test]
async fn the_client_records_its_operations_and_its_session_by_the_conventions() {
    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    opentelemetry::global::set_meter_provider(provider.clone());

    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        .build()
        .unwrap();
    let client = server
        .connect_client(
            Client::builder()
                .protocol_version(ProtocolVersion::V2025_11_25)
                .layer(Metrics::new()),
        )
        .await
        .unwrap();
    for _ in 0..2 {
        client
            .call_tool("add", json!({"a": 2, "b": 3}))
            .await
            .unwrap();
    }
    let failed = client.call_tool("fails", json!({})).await.unwrap();
    assert_eq!(failed.is_error, Some(true));
    let unknown = client.call_tool("nope", json!({})).await.unwrap_err();
    assert!(unknown.to_string().contains("-32602"), "{unknown}");

    provider.force_flush().unwrap();
    let seconds = vec![
        0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
    ];
    let v = ("mcp.protocol.version", "2025-11-25");
    let call = ("mcp.method.name", "tools/call");
    let execute = ("gen_ai.operation.name", "execute_tool");
    let expected: Points = [
        (attrs(&[("mcp.method.name", "initialize"), v]), 1),
        (attrs(&[call, v, ("gen_ai.tool.name", "add"), execute]), 2),
        (
            attrs(&[
                call,
                v,
                ("gen_ai.tool.name", "fails"),
                execute,
                ("error.type", "tool_error"),
            ]),
            1,
        ),
        (
            attrs(&[
                call,
                v,
                ("gen_ai.tool.name", "nope"),
                execute,
                ("error.type", "-32602"),
                ("rpc.response.status_code", "-32602"),
            ]),
            1,
        ),
    ]
    .into_iter()
    .map(|(a, n)| (a, (n, seconds.clone())))
    .collect();
    let finished = exporter.get_finished_metrics().unwrap();
    assert_eq!(points(&finished, "mcp.client.operation.duration"), expected);
    assert_eq!(
        points(&finished, "mcp.client.session.duration"),
        Points::new(),
        "no session ended yet"
    );

    // The session ends with the client (its layer is dropped with it).
    drop(client);
    let session: Points = [(attrs(&[v]), (1, seconds.clone()))].into_iter().collect();
    let mut got = Points::new();
    for _ in 0..200 {
        exporter.reset();
        provider.force_flush().unwrap();
        got = points(
            &exporter.get_finished_metrics().unwrap(),
            "mcp.client.session.duration",
        );
        if !got.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(got, session);
}
