//! The SERVER spans of `ServerBuilder::otel` over the in-memory transport, read back from the
//! SDK's in-memory exporter: names, kinds, the conventions' attributes with their exact
//! values, the parent taken from `params._meta`, the baggage in the handler's context, a
//! handler's own `tracing` span as a child, the errors' attributes and status; and a gateway's
//! forwarded call (`ServerBuilder::mount`, `ClientBuilder::otel`): SERVER → CLIENT → SERVER,
//! one trace, the baggage carried to the mounted server.
#![cfg(feature = "otel")]

use std::sync::OnceLock;

use tokio::sync::{Mutex, MutexGuard};

use mcp_runtime::prelude::*;
use opentelemetry::baggage::BaggageExt;
use opentelemetry::trace::{SpanKind, Status};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::json;
use tracing_subscriber::layer::SubscriberExt;

/// Says what the baggage's `user` is, in a span of its own.
#[tool]
async fn whoami() -> String {
    tracing::info_span!("whoami.lookup").in_scope(|| {
        let cx = opentelemetry::Context::current();
        cx.baggage()
            .get("user")
            .map_or("nobody".to_owned(), |v| v.to_string())
    })
}

/// Always fails (a business error: `isError`).
#[tool]
async fn fails() -> Result<String, ToolError> {
    Err(ToolError::new("nope"))
}

/// The exporter of the process's global provider, installed once; the tests run one at a time.
async fn exporter() -> (&'static InMemorySpanExporter, MutexGuard<'static, ()>) {
    static ONE: Mutex<()> = Mutex::const_new(());
    static EXPORTER: OnceLock<InMemorySpanExporter> = OnceLock::new();
    let guard = ONE.lock().await;
    let exporter = EXPORTER.get_or_init(|| {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        opentelemetry::global::set_tracer_provider(provider);
        let subscriber = tracing_subscriber::registry().with(mcp_runtime::otel::subscriber_layer());
        tracing::subscriber::set_global_default(subscriber).unwrap();
        exporter
    });
    exporter.reset();
    (exporter, guard)
}

/// The spans finished since the reset, but a gateway's `subscriptions/listen`: a mounted
/// client's listen stream (the gateway test's) ends whenever its task notices the gateway went,
/// possibly while the next test runs.
fn finished(exporter: &InMemorySpanExporter) -> Vec<SpanData> {
    let mut spans = exporter.get_finished_spans().unwrap();
    spans.retain(|s| s.name != "subscriptions/listen");
    spans
}

fn attrs(span: &SpanData) -> Vec<(String, String)> {
    let mut a: Vec<(String, String)> = span
        .attributes
        .iter()
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect();
    a.sort();
    a
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = list
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    v.sort();
    v
}

fn server() -> Server {
    Server::builder(server_info!())
        .otel()
        .tool(whoami::TOOL)
        .tool(fails::TOOL)
        .build()
        .unwrap()
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

#[tokio::test]
async fn a_call_is_a_server_span_child_of_the_meta_traceparent_with_the_handler_span_under_it() {
    let (exporter, _one) = exporter().await;
    let mut c = server().connect_in_memory();
    c.initialize("2025-06-18").await;
    let params = json!({
        "name": "whoami",
        "arguments": {},
        "_meta": {
            "traceparent": format!("00-{TRACE}-{PARENT}-01"),
            "tracestate": "rojo=00f067aa0ba902b7",
            "baggage": "user=alice"
        }
    });
    let answer = c.request("tools/call", params).await;
    assert_eq!(answer["result"]["content"][0]["text"], "alice");
    let spans = finished(exporter);
    let names: Vec<&str> = spans.iter().map(|s| s.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "initialize",
            "notifications/initialized",
            "whoami.lookup",
            "tools/call whoami"
        ]
    );
    let (init, notified, inner, call) = (&spans[0], &spans[1], &spans[2], &spans[3]);
    assert_eq!(init.span_kind, SpanKind::Server);
    assert_eq!(
        attrs(init),
        pairs(&[
            ("mcp.method.name", "initialize"),
            ("jsonrpc.request.id", "1")
        ])
    );
    assert_eq!(notified.span_kind, SpanKind::Server);
    assert_eq!(
        attrs(notified),
        pairs(&[
            ("mcp.method.name", "notifications/initialized"),
            ("mcp.protocol.version", "2025-06-18")
        ])
    );
    assert_eq!(call.span_kind, SpanKind::Server);
    assert_eq!(call.span_context.trace_id().to_string(), TRACE);
    assert_eq!(call.parent_span_id.to_string(), PARENT);
    assert!(call.parent_span_is_remote);
    assert_eq!(
        call.span_context.trace_state().header(),
        "rojo=00f067aa0ba902b7"
    );
    assert_eq!(
        attrs(call),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2025-06-18"),
            ("jsonrpc.request.id", "2"),
            ("gen_ai.tool.name", "whoami"),
            ("gen_ai.operation.name", "execute_tool"),
        ])
    );
    assert_eq!(call.status, Status::Unset);
    assert_eq!(inner.span_context.trace_id().to_string(), TRACE);
    assert_eq!(inner.parent_span_id, call.span_context.span_id());
    assert_eq!(inner.span_kind, SpanKind::Internal);
}

#[tokio::test]
async fn errors_set_error_type_the_status_code_and_the_status() {
    let (exporter, _one) = exporter().await;
    let mut c = server().connect_in_memory();
    c.initialize("2025-06-18").await;
    exporter.reset();
    let unknown = c.call_tool("nothing", json!({})).await;
    let code = unknown["error"]["code"].as_i64().unwrap();
    let message = unknown["error"]["message"].as_str().unwrap().to_owned();
    assert_eq!(code, -32602);
    let failed = c.call_tool("fails", json!({})).await;
    assert_eq!(failed["result"]["isError"], true);
    let read = c
        .request("resources/read", json!({"uri": "file:///nowhere"}))
        .await;
    assert!(read["error"]["code"].is_i64(), "{read}");
    // `notifications/initialized` may end after the reset: the first test checks it.
    let spans: Vec<SpanData> = finished(exporter)
        .into_iter()
        .filter(|s| s.name != "notifications/initialized")
        .collect();
    let names: Vec<&str> = spans.iter().map(|s| s.name.as_ref()).collect();
    assert_eq!(
        names,
        ["tools/call nothing", "tools/call fails", "resources/read"]
    );
    assert_eq!(
        attrs(&spans[0]),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2025-06-18"),
            ("jsonrpc.request.id", "2"),
            ("gen_ai.tool.name", "nothing"),
            ("gen_ai.operation.name", "execute_tool"),
            ("error.type", "-32602"),
            ("rpc.response.status_code", "-32602"),
        ])
    );
    assert_eq!(spans[0].status, Status::error(message));
    assert_eq!(
        attrs(&spans[1]),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2025-06-18"),
            ("jsonrpc.request.id", "3"),
            ("gen_ai.tool.name", "fails"),
            ("gen_ai.operation.name", "execute_tool"),
            ("error.type", "tool_error"),
        ])
    );
    assert_eq!(spans[1].status, Status::error("tool_error"));
    let read_code = read["error"]["code"].to_string();
    assert_eq!(
        attrs(&spans[2]),
        pairs(&[
            ("mcp.method.name", "resources/read"),
            ("mcp.protocol.version", "2025-06-18"),
            ("jsonrpc.request.id", "4"),
            ("mcp.resource.uri", "file:///nowhere"),
            ("error.type", read_code.as_str()),
            ("rpc.response.status_code", read_code.as_str()),
        ])
    );
    // Without a traceparent, each request is a root of its own trace.
    assert_ne!(
        spans[0].span_context.trace_id(),
        spans[1].span_context.trace_id()
    );
    assert_eq!(
        spans[0].parent_span_id,
        opentelemetry::trace::SpanId::INVALID
    );
}

#[cfg(feature = "client")]
#[tokio::test]
async fn a_gateway_call_is_one_trace_server_client_server() {
    use mcp_runtime::client::Client;
    let (exporter, _one) = exporter().await;
    let upstream = server();
    let link = upstream
        .connect_client(Client::builder().otel())
        .await
        .unwrap();
    let gateway = Server::builder(server_info!())
        .otel()
        .mount("up", link)
        .build()
        .unwrap();
    gateway.mounted().await;
    let mut c = gateway.connect_in_memory();
    c.initialize("2025-06-18").await;
    let params = json!({
        "name": "up.whoami",
        "arguments": {},
        "_meta": {"traceparent": format!("00-{TRACE}-{PARENT}-01"), "baggage": "user=bob"}
    });
    let answer = c.request("tools/call", params).await;
    assert_eq!(answer["result"]["content"][0]["text"], "bob");
    let trace: Vec<SpanData> = finished(exporter)
        .into_iter()
        .filter(|s| s.span_context.trace_id().to_string() == TRACE)
        .collect();
    let names: Vec<(&str, SpanKind)> = trace
        .iter()
        .map(|s| (s.name.as_ref(), s.span_kind.clone()))
        .collect();
    assert_eq!(
        names,
        [
            ("whoami.lookup", SpanKind::Internal),
            ("tools/call whoami", SpanKind::Server),
            ("tools/call whoami", SpanKind::Client),
            ("tools/call up.whoami", SpanKind::Server),
        ]
    );
    let (inner, served, forward, outer) = (&trace[0], &trace[1], &trace[2], &trace[3]);
    assert_eq!(outer.parent_span_id.to_string(), PARENT);
    assert_eq!(forward.parent_span_id, outer.span_context.span_id());
    assert_eq!(served.parent_span_id, forward.span_context.span_id());
    assert!(served.parent_span_is_remote);
    assert_eq!(inner.parent_span_id, served.span_context.span_id());
    // The CLIENT span names the id the request was sent with: the one the mounted server's
    // SERVER span saw.
    let id_of = |span: &SpanData| {
        attrs(span)
            .into_iter()
            .find(|(k, _)| k == "jsonrpc.request.id")
            .map(|(_, v)| v)
    };
    let sent = id_of(forward).expect("the CLIENT span has jsonrpc.request.id");
    assert_eq!(id_of(served).as_deref(), Some(sent.as_str()));
    assert_eq!(
        attrs(forward),
        pairs(&[
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2026-07-28"),
            ("jsonrpc.request.id", &sent),
            ("gen_ai.tool.name", "whoami"),
            ("gen_ai.operation.name", "execute_tool"),
        ])
    );
}
