//! One trace across three processes, received by an OTLP/HTTP receiver in this test and
//! decoded with the official `opentelemetry-proto` definitions: a client (this test binary,
//! as a child) → the `mcp-proxy` binary → a mounted server over stdio (this test binary again,
//! `Server::run`'s command line, spawned by the proxy). Each exports to the receiver through
//! `OTEL_EXPORTER_OTLP_ENDPOINT`; the client sends its context in `params._meta`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use mcp_runtime::prelude::*;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message;

/// Upper-cases a text, in a span of its own.
#[tool]
async fn shout(text: String) -> String {
    tracing::info_span!("shout.upper").in_scope(|| text.to_uppercase())
}

/// One span as received: its process (`service.name`), ids, name, kind and attributes.
#[derive(Debug, Clone)]
struct Got {
    service: String,
    trace: Vec<u8>,
    id: Vec<u8>,
    parent: Vec<u8>,
    name: String,
    kind: i32,
    attributes: HashMap<String, String>,
}

type Received = Arc<Mutex<Vec<Got>>>;

fn text(value: Option<&opentelemetry_proto::tonic::common::v1::AnyValue>) -> String {
    match value.and_then(|v| v.value.as_ref()) {
        Some(Any::StringValue(s)) => s.clone(),
        Some(Any::IntValue(i)) => i.to_string(),
        Some(Any::BoolValue(b)) => b.to_string(),
        other => format!("{other:?}"),
    }
}

fn take(received: &Received, body: &[u8]) {
    let Ok(request) = ExportTraceServiceRequest::decode(body) else {
        return;
    };
    let mut got = received.lock().unwrap();
    for resource in request.resource_spans {
        let service = resource
            .resource
            .iter()
            .flat_map(|r| &r.attributes)
            .find(|kv| kv.key == "service.name")
            .map(|kv| text(kv.value.as_ref()))
            .unwrap_or_default();
        for span in resource.scope_spans.into_iter().flat_map(|s| s.spans) {
            got.push(Got {
                service: service.clone(),
                trace: span.trace_id,
                id: span.span_id,
                parent: span.parent_span_id,
                name: span.name,
                kind: span.kind,
                attributes: span
                    .attributes
                    .iter()
                    .map(|kv| (kv.key.clone(), text(kv.value.as_ref())))
                    .collect(),
            });
        }
    }
}

/// The receiver: `POST /v1/traces` decoded, anything else (metrics) answered 200 and dropped.
async fn receiver() -> (SocketAddr, Received) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let received = Received::default();
    let store = received.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let store = store.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                    let store = store.clone();
                    async move {
                        let traces = req.uri().path() == "/v1/traces";
                        let body = req.into_body().collect().await?.to_bytes();
                        if traces {
                            take(&store, &body);
                        }
                        let answer = hyper::Response::builder()
                            .header("content-type", "application/x-protobuf")
                            .body(Full::new(Bytes::new()))
                            .unwrap();
                        Ok::<_, hyper::Error>(answer)
                    }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    });
    (addr, received)
}

/// The children's environment: the receiver, a short batch delay, their service name.
fn otel_env(command: &mut Command, addr: SocketAddr, service: &str) {
    command
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{addr}"))
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
        .env("OTEL_SERVICE_NAME", service)
        .env("OTEL_TRACES_SAMPLER", "parentbased_always_on")
        .env("OTEL_BSP_SCHEDULE_DELAY", "50")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
        .env_remove("RUST_LOG");
}

/// The test binary (its own harness): the test, or one of its children (`MCP_OTEL_CHILD`).
fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    match std::env::var("MCP_OTEL_CHILD").as_deref() {
        Ok("server") => runtime.block_on(server_child()),
        Ok("client") => runtime.block_on(client_child()),
        _ => {
            println!("test one_trace_across_client_proxy_and_mounted_server ...");
            runtime.block_on(one_trace_across_client_proxy_and_mounted_server());
            println!("test one_trace_across_client_proxy_and_mounted_server ... ok");
            println!("1 passed, 0 failed");
        }
    }
}

/// The mounted server: `Server::run`'s command line (`stdio`), which exports by itself.
async fn server_child() {
    let server = Server::builder(server_info!())
        .tool(shout::TOOL)
        .build()
        .unwrap();
    mcp_runtime::cli::Cli::new(&server)
        .run_with(["stdio"])
        .await
        .unwrap();
}

/// The client: a root span of its own, and the call in it, with the client's CLIENT spans.
async fn client_child() {
    use opentelemetry::trace::{FutureExt, TraceContextExt, Tracer};
    let url = std::env::var("MCP_OTEL_URL").unwrap();
    let telemetry = mcp_runtime::cli::Telemetry::from_env("client")
        .unwrap()
        .unwrap();
    let client = mcp_runtime::client::Client::builder()
        .otel()
        .connect_http(&url)
        .await
        .unwrap();
    let tracer = opentelemetry::global::tracer("otel-test");
    let cx = opentelemetry::Context::current_with_span(tracer.start("test.client"));
    let result = async {
        client
            .call_tool("shout", serde_json::json!({"text": "hi"}))
            .await
    }
    .with_context(cx.clone())
    .await
    .unwrap();
    assert_eq!(result.content[0].as_text(), Some("HI"));
    cx.span().end();
    drop(client);
    telemetry.shutdown().await;
}

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn one_trace_across_client_proxy_and_mounted_server() {
    let (addr, received) = receiver().await;
    let me = std::env::current_exe().unwrap();
    let mut proxy = Command::new(env!("CARGO_BIN_EXE_mcp-proxy"));
    proxy
        .args([
            "http",
            "127.0.0.1:0",
            "--",
            "env",
            "OTEL_SERVICE_NAME=server",
        ])
        .arg(&me)
        .env("MCP_OTEL_CHILD", "server")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    otel_env(&mut proxy, addr, "mcp-proxy");
    // The mounted server inherits the proxy's environment but its service name.
    let mut proxy = Kill(proxy.spawn().unwrap());
    let stdout = proxy.0.stdout.take().unwrap();
    let line = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        let mut lines = std::io::BufReader::new(stdout).lines();
        lines.find_map(|l| l.ok()?.strip_prefix("listening on ").map(str::to_owned))
    });
    let url = tokio::time::timeout(Duration::from_secs(60), line)
        .await
        .unwrap()
        .unwrap()
        .expect("the proxy's address");

    let mut client = Command::new(&me);
    client
        .env("MCP_OTEL_CHILD", "client")
        .env("MCP_OTEL_URL", &url)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    otel_env(&mut client, addr, "client");
    let status = tokio::task::spawn_blocking(move || client.status());
    let status = tokio::time::timeout(Duration::from_secs(60), status)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(status.success(), "the client child failed");

    // The six spans of the trace: the exports come every 50 ms; 60 s is far over.
    let deadline = Instant::now() + Duration::from_secs(60);
    let trace = loop {
        let got = received.lock().unwrap().clone();
        if let Some(root) = got
            .iter()
            .find(|s| s.name == "test.client")
            .map(|s| s.trace.clone())
        {
            let trace: Vec<Got> = got.into_iter().filter(|s| s.trace == root).collect();
            if trace.len() >= 6 {
                break trace;
            }
        }
        assert!(
            Instant::now() < deadline,
            "spans so far: {:#?}",
            received.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    drop(proxy);
    let find = |service: &str, name: &str, kind: SpanKind| {
        let all: Vec<&Got> = trace
            .iter()
            .filter(|s| s.service == service && s.name == name && s.kind == kind as i32)
            .collect();
        assert_eq!(all.len(), 1, "{service} {name} {kind:?} in {trace:#?}");
        all[0].clone()
    };
    let root = find("client", "test.client", SpanKind::Internal);
    let call = find("client", "tools/call shout", SpanKind::Client);
    let proxied = find("mcp-proxy", "tools/call shout", SpanKind::Server);
    let forward = find("mcp-proxy", "tools/call shout", SpanKind::Client);
    let served = find("server", "tools/call shout", SpanKind::Server);
    let inner = find("server", "shout.upper", SpanKind::Internal);
    assert_eq!(trace.len(), 6, "{trace:#?}");
    assert!(root.parent.is_empty());
    assert_eq!(call.parent, root.id);
    assert_eq!(proxied.parent, call.id);
    assert_eq!(forward.parent, proxied.id);
    assert_eq!(served.parent, forward.id);
    assert_eq!(inner.parent, served.id);

    let attrs = |span: &Got| {
        let mut a: Vec<(String, String)> = span
            .attributes
            .iter()
            .filter(|(k, _)| {
                !k.starts_with("code.")
                    && !k.starts_with("thread.")
                    && k.as_str() != "busy_ns"
                    && k.as_str() != "idle_ns"
                    && k.as_str() != "target"
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        a.sort();
        a
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = list
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        v.sort();
        v
    };
    // Each CLIENT span names the id it sent and the transport: the SERVER span on the other
    // side of the hop saw the same id (below).
    let client_side = pairs(&[
        ("mcp.method.name", "tools/call"),
        ("mcp.protocol.version", "2026-07-28"),
        ("jsonrpc.request.id", "4"),
        ("gen_ai.tool.name", "shout"),
        ("gen_ai.operation.name", "execute_tool"),
        ("network.transport", "pipe"),
    ]);
    assert_eq!(attrs(&forward), client_side, "the proxy's forwarded call");
    assert_eq!(
        attrs(&call),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2026-07-28"),
            ("jsonrpc.request.id", "2"),
            ("gen_ai.tool.name", "shout"),
            ("gen_ai.operation.name", "execute_tool"),
            ("network.transport", "tcp"),
            ("network.protocol.name", "http"),
        ])
    );
    assert_eq!(
        attrs(&proxied),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2026-07-28"),
            ("jsonrpc.request.id", "2"),
            ("gen_ai.tool.name", "shout"),
            ("gen_ai.operation.name", "execute_tool"),
            ("network.transport", "tcp"),
            ("network.protocol.name", "http"),
        ])
    );
    assert_eq!(
        attrs(&served),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2026-07-28"),
            ("jsonrpc.request.id", "4"),
            ("gen_ai.tool.name", "shout"),
            ("gen_ai.operation.name", "execute_tool"),
            ("network.transport", "pipe"),
        ])
    );
}
