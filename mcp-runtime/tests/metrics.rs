//! The server's metrics (`mcp_runtime::metrics`): exact counts and labels after known calls on
//! the in-memory pair, refusals counted by cause, the bound on series, the in-flight gauge, the
//! session histogram, and `/metrics` on the standalone HTTP server (off, on the listener, on a
//! listener of its own, refused when it cannot be served).

use std::time::Duration;

use mcp_runtime::metrics::Metrics;
use mcp_runtime::middleware::{Outcome, from_fn};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ErrorObject;
use serde_json::{Value, json};

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

/// Takes a while.
#[tool]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_millis(400)).await;
    "done".into()
}

const V: &str = "2025-11-25";

fn server(metrics: &Metrics) -> Server {
    Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        .tool(slow::TOOL)
        .metrics(metrics)
        .build()
        .unwrap()
}

/// The `_count` lines of the operation histogram, in the exposition's order.
fn counts(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("mcp_server_operation_duration_seconds_count"))
        .collect()
}

fn line<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// Polls `check` on the rendered text every 10 ms, for at most 5 s.
async fn eventually(metrics: &Metrics, check: impl Fn(&str) -> bool) -> String {
    for _ in 0..500 {
        let text = metrics.render();
        if check(&text) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    metrics.render()
}

#[tokio::test]
async fn known_calls_give_exact_counts_and_labels() {
    let metrics = Metrics::new();
    let mut c = server(&metrics).connect_in_memory();
    c.initialize(V).await;
    for i in 0..3 {
        let r = c.call_tool("add", json!({"a": i, "b": 1})).await;
        assert_eq!(
            r["result"]["content"][0]["text"],
            json!((i + 1).to_string())
        );
    }
    let r = c.call_tool("fails", json!({})).await;
    assert_eq!(r["result"]["isError"], json!(true));
    let r = c.request("no/such/method", Value::Null).await;
    assert_eq!(r["error"]["code"], json!(-32601));
    let text = metrics.render();
    assert_eq!(
        counts(&text),
        [
            r#"mcp_server_operation_duration_seconds_count{mcp_method_name="_OTHER",error_type="-32601",rpc_response_status_code="-32601",mcp_protocol_version="2025-11-25"} 1"#,
            r#"mcp_server_operation_duration_seconds_count{mcp_method_name="initialize"} 1"#,
            r#"mcp_server_operation_duration_seconds_count{mcp_method_name="notifications/initialized",mcp_protocol_version="2025-11-25"} 1"#,
            r#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="add",gen_ai_operation_name="execute_tool",mcp_protocol_version="2025-11-25"} 3"#,
            r#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",error_type="tool_error",gen_ai_tool_name="fails",gen_ai_operation_name="execute_tool",mcp_protocol_version="2025-11-25"} 1"#,
        ]
    );
    // Fast calls: every one is in the first bucket, and `+Inf` is the count.
    assert_eq!(
        line(
            &text,
            r#"mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call",gen_ai_tool_name="add",gen_ai_operation_name="execute_tool",mcp_protocol_version="2025-11-25",le=""#
        )
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect::<Vec<_>>(),
        ["3"; 15]
    );
    assert!(text.contains("# TYPE mcp_server_operation_duration_seconds histogram\n"));
    assert_eq!(
        line(&text, "mcp_server_refusals_total"),
        [
            r#"mcp_server_refusals_total{cause="auth"} 0"#,
            r#"mcp_server_refusals_total{cause="quota"} 0"#,
            r#"mcp_server_refusals_total{cause="rate_limit"} 0"#,
        ]
    );
    assert_eq!(
        line(&text, "mcp_server_requests_in_flight"),
        ["mcp_server_requests_in_flight 0"]
    );
}

#[tokio::test]
async fn refusals_are_counted_by_cause_even_when_an_inner_layer_refuses() {
    let metrics = Metrics::new();
    // The refusing layer is added first: the metrics layer still runs outside it.
    let refuse = from_fn(|request, next| {
        Box::pin(async move {
            let reason = match request.target() {
                Some("add") => "rate_limited",
                Some("fails") => "quota_exceeded",
                _ => return next.run().await,
            };
            let mut err = ErrorObject::new(-32000, "refused");
            err.data = Some(json!({"reason": reason, "retryAfterMs": 1000}));
            Outcome::error(err)
        })
    });
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        .layer(refuse)
        .metrics(&metrics)
        .build()
        .unwrap();
    let mut c = server.connect_in_memory();
    c.initialize(V).await;
    for _ in 0..2 {
        let r = c.call_tool("add", json!({"a": 1, "b": 1})).await;
        assert_eq!(r["error"]["data"]["reason"], json!("rate_limited"));
    }
    let r = c.call_tool("fails", json!({})).await;
    assert_eq!(r["error"]["data"]["reason"], json!("quota_exceeded"));
    let text = metrics.render();
    assert_eq!(
        line(&text, "mcp_server_refusals_total"),
        [
            r#"mcp_server_refusals_total{cause="auth"} 0"#,
            r#"mcp_server_refusals_total{cause="quota"} 1"#,
            r#"mcp_server_refusals_total{cause="rate_limit"} 2"#,
        ]
    );
    assert!(counts(&text).contains(
        &r#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",error_type="-32000",rpc_response_status_code="-32000",gen_ai_tool_name="add",gen_ai_operation_name="execute_tool",mcp_protocol_version="2025-11-25"} 2"#
    ));
}

#[tokio::test]
async fn series_past_the_bound_go_to_one_other_series() {
    let metrics = Metrics::with_max_series(3);
    let mut c = server(&metrics).connect_in_memory();
    c.initialize(V).await; // `initialize`, `notifications/initialized`: two series
    c.call_tool("add", json!({"a": 1, "b": 2})).await; // the third
    c.call_tool("fails", json!({})).await; // past the bound
    for name in ["made-up-1", "made-up-2"] {
        c.call_tool(name, json!({})).await; // past the bound
    }
    let text = metrics.render();
    let other = r#"mcp_server_operation_duration_seconds_count{mcp_method_name="_OTHER",error_type="_OTHER",rpc_response_status_code="_OTHER",gen_ai_tool_name="_OTHER",gen_ai_prompt_name="_OTHER",gen_ai_operation_name="_OTHER",mcp_protocol_version="_OTHER",network_transport="_OTHER",network_protocol_name="_OTHER"} 3"#;
    assert_eq!(counts(&text).len(), 4, "{text}");
    assert_eq!(counts(&text)[3], other);
}

#[tokio::test]
async fn in_flight_requests_and_session_durations() {
    let metrics = Metrics::new();
    let mut c = server(&metrics).connect_in_memory();
    c.initialize(V).await;
    c.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "slow", "arguments": {}}}))
        .await;
    let text = eventually(&metrics, |t| {
        t.contains("mcp_server_requests_in_flight 1\n")
    })
    .await;
    assert!(text.contains("mcp_server_requests_in_flight 1\n"), "{text}");
    let r = c.recv().await.unwrap();
    assert_eq!(r["result"]["content"][0]["text"], json!("done"));
    let text = eventually(&metrics, |t| {
        t.contains("mcp_server_requests_in_flight 0\n")
    })
    .await;
    assert!(text.contains("mcp_server_requests_in_flight 0\n"), "{text}");
    // No session has ended yet; once the client goes, one has.
    assert_eq!(
        line(&text, "mcp_server_session_duration_seconds_count"),
        [""; 0]
    );
    drop(c);
    let count = r#"mcp_server_session_duration_seconds_count{mcp_protocol_version="2025-11-25"} 1"#;
    let text = eventually(&metrics, |t| t.contains(count)).await;
    assert_eq!(
        line(&text, "mcp_server_session_duration_seconds_count"),
        [count]
    );
}

#[cfg(feature = "http")]
mod http {
    use super::*;
    use mcp_runtime::http::HttpOptions;

    fn client() -> reqwest::Client {
        reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap()
    }

    fn with_http(metrics: &Metrics, options: HttpOptions) -> Server {
        Server::builder(server_info!())
            .tool(add::TOOL)
            .http(options)
            .metrics(metrics)
            .build()
            .unwrap()
    }

    async fn serve(server: &Server) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = server.clone();
        tokio::spawn(async move { server.serve_http_on(listener).await });
        base
    }

    /// A stateless-era `tools/call` of `add`.
    async fn call_add(base: &str) {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
        });
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": meta}});
        let r = client()
            .post(format!("{base}/mcp"))
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "add")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let answer: Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
        assert_eq!(answer["result"]["content"][0]["text"], json!("3"));
    }

    const HTTP_COUNT: &str = r#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="add",gen_ai_operation_name="execute_tool",mcp_protocol_version="2026-07-28",network_transport="tcp",network_protocol_name="http"} 2"#;

    #[tokio::test]
    async fn metrics_are_off_by_default() {
        let metrics = Metrics::new();
        let base = serve(&with_http(&metrics, HttpOptions::new())).await;
        call_add(&base).await;
        let r = client()
            .get(format!("{base}/metrics"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404);
    }

    #[tokio::test]
    async fn metrics_on_the_listener() {
        let metrics = Metrics::new();
        let base = serve(&with_http(&metrics, HttpOptions::new().metrics("/metrics"))).await;
        call_add(&base).await;
        call_add(&base).await;
        let r = client()
            .get(format!("{base}/metrics"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(
            r.headers()["content-type"],
            "text/plain; version=0.0.4; charset=utf-8"
        );
        let text = r.text().await.unwrap();
        assert_eq!(counts(&text), [HTTP_COUNT]);
    }

    #[tokio::test]
    async fn metrics_on_a_listener_of_their_own() {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = free.local_addr().unwrap();
        drop(free);
        let options = HttpOptions::new().metrics_address(addr.to_string(), "/scrape");
        let metrics = Metrics::new();
        let base = serve(&with_http(&metrics, options)).await;
        call_add(&base).await;
        call_add(&base).await;
        let r = client().get(format!("{base}/scrape")).send().await.unwrap();
        assert_eq!(r.status(), 404, "not on the MCP listener");
        let text = client()
            .get(format!("http://{addr}/scrape"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(counts(&text), [HTTP_COUNT]);
    }

    #[tokio::test]
    async fn metrics_that_cannot_be_served_refuse_to_start() {
        let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = taken.local_addr().unwrap();
        let options = HttpOptions::new().metrics_address(addr.to_string(), "/metrics");
        let server = with_http(&Metrics::new(), options);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let err = server.serve_http_on(listener).await.unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("cannot listen for metrics on {addr}")),
            "{err}"
        );

        // Without metrics kept, `/metrics` cannot be served.
        let server = Server::builder(server_info!())
            .http(HttpOptions::new().metrics("/metrics"))
            .build()
            .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let err = server.serve_http_on(listener).await.unwrap_err();
        assert!(
            err.to_string().contains("the server keeps no metrics"),
            "{err}"
        );

        // A path taken by the MCP endpoint.
        let server = with_http(&Metrics::new(), HttpOptions::new().metrics("/mcp"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let err = server.serve_http_on(listener).await.unwrap_err();
        assert!(err.to_string().contains("is taken"), "{err}");
    }

    #[cfg(feature = "cli")]
    #[tokio::test]
    async fn the_two_cli_flags_exclude_each_other() {
        let server = with_http(&Metrics::new(), HttpOptions::new());
        let cli = mcp_runtime::cli::Cli::new(&server).name("srv");
        let out = cli
            .execute([
                "http",
                "127.0.0.1:0",
                "--metrics",
                "--metrics-address",
                "127.0.0.1:0",
            ])
            .await;
        assert_eq!(out.code(), 2);
        assert_eq!(
            out.stderr,
            "srv: `--metrics` and `--metrics-address` exclude each other\n"
        );
    }
}

/// With feature `otel`, the same measurements reach OpenTelemetry instruments made from the
/// global meter provider, under the conventions' names, boundaries and attributes.
#[cfg(feature = "otel")]
#[tokio::test]
async fn opentelemetry_instruments_get_the_same_measurements() {
    use opentelemetry::Value as OtelValue;
    use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
    use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};

    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    opentelemetry::global::set_meter_provider(provider.clone());
    let metrics = Metrics::new().opentelemetry();
    let mut c = server(&metrics).connect_in_memory();
    c.initialize(V).await;
    for _ in 0..2 {
        c.call_tool("add", json!({"a": 1, "b": 2})).await;
    }
    provider.force_flush().unwrap();
    let finished = exporter.get_finished_metrics().unwrap();
    let mut found = Vec::new();
    for resource in &finished {
        for scope in resource.scope_metrics() {
            for metric in scope.metrics() {
                if metric.name() != "mcp.server.operation.duration" {
                    continue;
                }
                assert_eq!(metric.unit(), "s");
                let AggregatedMetrics::F64(MetricData::Histogram(h)) = metric.data() else {
                    panic!("not an f64 histogram");
                };
                for point in h.data_points() {
                    let tool = point
                        .attributes()
                        .find(|kv| kv.key.as_str() == "gen_ai.tool.name")
                        .map(|kv| kv.value.clone());
                    if tool == Some(OtelValue::from("add")) {
                        let bounds: Vec<f64> = point.bounds().collect();
                        found.push((point.count(), bounds));
                    }
                }
            }
        }
    }
    let seconds = vec![
        0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
    ];
    assert_eq!(found, [(2, seconds)]);
}
