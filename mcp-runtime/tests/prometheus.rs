//! Debian's Prometheus (`/usr/bin/prometheus`; `.ci/run` installs the `prometheus` package when
//! it is missing) scrapes a running server's `/metrics`, and the histogram is read back from
//! Prometheus' HTTP API after known calls. Without the binary the test fails: it never skips.
#![cfg(feature = "http")]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_runtime::http::HttpOptions;
use mcp_runtime::metrics::Metrics;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

const PROMETHEUS: &str = "/usr/bin/prometheus";

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Prometheus and its scratch directory, both gone when dropped.
struct Running {
    child: Child,
    dir: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Starts Prometheus scraping `target` (`127.0.0.1:PORT`) every second; its API on `web`.
fn start_prometheus(target: &str, web: u16) -> Running {
    assert!(
        std::path::Path::new(PROMETHEUS).exists(),
        "{PROMETHEUS} is missing: install Debian's `prometheus` package (`apt-get install prometheus`; .ci/run does)"
    );
    let dir = std::env::temp_dir().join(format!("mcp-prometheus-{}-{}", std::process::id(), web));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n\
             scrape_configs:\n  - job_name: mcp\n    metrics_path: /metrics\n    \
             static_configs:\n      - targets: ['{target}']\n"
        ),
    )
    .unwrap();
    let child = Command::new(PROMETHEUS)
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{web}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start prometheus");
    Running { child, dir }
}

/// A stateless-era `tools/call` of `add`.
async fn call_add(http: &reqwest::Client, base: &str, a: i64) {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": a, "b": 1}, "_meta": meta}});
    let r = http
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
    let answer: Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
    assert_eq!(
        answer["result"]["content"][0]["text"],
        json!((a + 1).to_string())
    );
}

/// The instant vector of `query`: each series' labels and value.
async fn query(http: &reqwest::Client, web: u16, query: &str) -> Option<Vec<(Value, String)>> {
    let r = http
        .get(format!("http://127.0.0.1:{web}/api/v1/query"))
        .query(&[("query", query)])
        .send()
        .await
        .ok()?;
    let body: Value = serde_json::from_str(&r.text().await.ok()?).ok()?;
    let result = body["data"]["result"].as_array()?;
    Some(
        result
            .iter()
            .map(|s| {
                (
                    s["metric"].clone(),
                    s["value"][1].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect(),
    )
}

#[tokio::test]
async fn prometheus_scrapes_the_histogram_and_reads_it_back() {
    let metrics = Metrics::new();
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .http(HttpOptions::new().metrics("/metrics"))
        .metrics(&metrics)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let target = listener.local_addr().unwrap().to_string();
    let base = format!("http://{target}");
    let serving = server.clone();
    tokio::spawn(async move { serving.serve_http_on(listener).await });
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    for a in 0..3 {
        call_add(&http, &base, a).await;
    }

    let web = free_port();
    let _prometheus = start_prometheus(&target, web);
    let count = r#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"}"#;
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = None;
    while Instant::now() < deadline {
        last = query(&http, web, count).await;
        if last.as_ref().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let series = last.expect("Prometheus answered no query within 30 s");
    assert_eq!(series.len(), 1, "{series:?}");
    let (labels, value) = &series[0];
    assert_eq!(value, "3");
    assert_eq!(
        labels["__name__"],
        "mcp_server_operation_duration_seconds_count"
    );
    assert_eq!(labels["gen_ai_tool_name"], "add");
    assert_eq!(labels["gen_ai_operation_name"], "execute_tool");
    assert_eq!(labels["mcp_protocol_version"], "2026-07-28");
    assert_eq!(labels["network_transport"], "tcp");
    assert_eq!(labels["network_protocol_name"], "http");
    assert_eq!(labels["job"], "mcp");

    // The buckets, as Prometheus read them: cumulative, `+Inf` the count.
    let inf =
        r#"mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call",le="+Inf"}"#;
    let buckets = query(&http, web, inf).await.expect("the bucket query");
    assert_eq!(buckets.len(), 1, "{buckets:?}");
    assert_eq!(buckets[0].1, "3");
    let n = query(
        &http,
        web,
        r#"count(mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call"})"#,
    )
    .await
    .unwrap();
    assert_eq!(n[0].1, "15", "14 boundaries and +Inf");
}
