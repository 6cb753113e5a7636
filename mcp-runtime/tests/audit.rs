//! The audit layer (`mcp_runtime::audit`): one record per call with exact values for a good
//! call, a tool error, a protocol error, a call refused by an inner layer and a cancelled
//! call; arguments absent by default, recorded and redacted when asked; the trace id from
//! `_meta.traceparent`; the principal and session over HTTP; the `tracing` event's fields.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use mcp_runtime::audit::{Audit, AuditOutcome, AuditRecord, ChannelSink};
use mcp_runtime::middleware::{Outcome, TransportKind, from_fn};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{ErrorObject, Method, ProtocolVersion, RequestId};
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

/// Logs in (its password is redacted).
#[tool]
async fn login(user: String, password: String) -> String {
    format!("{user}:{}", password.len())
}

fn started() -> &'static tokio::sync::Notify {
    static STARTED: OnceLock<tokio::sync::Notify> = OnceLock::new();
    STARTED.get_or_init(tokio::sync::Notify::new)
}

/// Says it started, then waits an hour (it is cancelled before).
#[tool]
async fn slow() -> String {
    started().notify_one();
    tokio::time::sleep(Duration::from_secs(3600)).await;
    "late".into()
}

/// The records a sink received.
#[derive(Clone, Default)]
struct Records(Arc<Mutex<Vec<AuditRecord>>>);

impl Records {
    fn take(&self) -> Vec<AuditRecord> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }

    fn sink(&self) -> impl Fn(AuditRecord) + Send + Sync + 'static {
        let records = self.clone();
        move |r| records.0.lock().unwrap().push(r)
    }
}

fn server(audit: Audit) -> Server {
    Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        .tool(login::TOOL)
        .tool(slow::TOOL)
        .layer(audit)
        // Inside the audit layer: refuses `forbidden`.
        .layer(from_fn(|request, next| {
            Box::pin(async move {
                if request.target() == Some("forbidden") {
                    return Outcome::error(ErrorObject::new(-32000, "refused by a layer"));
                }
                next.run().await
            })
        }))
        .build()
        .unwrap()
}

fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
        "params":{"name":name,"arguments":arguments}})
}

/// What every record of the in-memory tests has, with `method`, `target`, `outcome`, `id`.
fn check(r: &AuditRecord, method: Method, target: Option<&str>, outcome: AuditOutcome, id: i64) {
    assert_eq!(r.method, method);
    assert_eq!(r.target.as_deref(), target);
    assert_eq!(r.outcome, outcome);
    assert_eq!(r.request_id, Some(RequestId::Number(id)));
    assert_eq!(r.transport, TransportKind::Memory);
    assert_eq!(r.principal, None, "none in memory");
    assert_eq!(r.session_id, None);
    assert_eq!(r.trace_id, None);
    assert_eq!(r.arguments, None, "not recorded unless asked");
}

#[tokio::test]
async fn one_record_per_call_with_its_outcome() {
    let records = Records::default();
    let mut c = server(Audit::new().sink(records.sink())).connect_in_memory();
    let before = SystemTime::now();
    c.initialize("2025-11-25").await;
    for msg in [
        call(2, "add", json!({"a": 2, "b": 3})),
        call(3, "fails", json!({})),
        call(4, "missing", json!({})),
        call(5, "forbidden", json!({})),
    ] {
        c.send(&msg).await;
        c.response(&msg["id"]).await;
    }
    let after = SystemTime::now();
    let r = records.take();
    assert_eq!(
        r.len(),
        5,
        "initialize and four calls; no notification: {r:#?}"
    );
    assert_eq!(r[0].method, Method::Initialize);
    assert_eq!(r[0].outcome, AuditOutcome::Result);
    assert_eq!(r[0].version, None);
    assert_eq!(r[0].request_id, Some(RequestId::Number(1)));
    check(
        &r[1],
        Method::CallTool,
        Some("add"),
        AuditOutcome::Result,
        2,
    );
    check(
        &r[2],
        Method::CallTool,
        Some("fails"),
        AuditOutcome::ToolError,
        3,
    );
    check(
        &r[3],
        Method::CallTool,
        Some("missing"),
        AuditOutcome::Error {
            code: -32602,
            message: "unknown tool 'missing'".into(),
        },
        4,
    );
    check(
        &r[4],
        Method::CallTool,
        Some("forbidden"),
        AuditOutcome::Error {
            code: -32000,
            message: "refused by a layer".into(),
        },
        5,
    );
    for record in &r {
        assert!(record.time >= before && record.time <= after, "{record:?}");
        assert!(record.duration <= after.duration_since(before).unwrap());
    }
    assert_eq!(r[1].version, Some(ProtocolVersion::V2025_11_25));
    assert_eq!(r[1].method_name(), "tools/call");
}

#[tokio::test]
async fn notifications_are_recorded_only_when_asked() {
    let records = Records::default();
    let audit = Audit::new().notifications(true).sink(records.sink());
    let mut c = server(audit).connect_in_memory();
    c.initialize("2025-11-25").await;
    c.send(&json!({"jsonrpc":"2.0","id":2,"method":"ping"}))
        .await;
    c.response(&json!(2)).await;
    let r = records.take();
    let seen: Vec<_> = r.iter().map(|r| (r.method, r.outcome.clone())).collect();
    assert_eq!(
        seen,
        [
            (Method::Initialize, AuditOutcome::Result),
            (Method::Initialized, AuditOutcome::Notified),
            (Method::Ping, AuditOutcome::Result),
        ]
    );
    assert_eq!(r[1].request_id, None);
}

#[tokio::test]
async fn a_cancelled_call_is_recorded_when_its_future_is_dropped() {
    let records = Records::default();
    let mut c = server(Audit::new().sink(records.sink())).connect_in_memory();
    c.initialize("2025-11-25").await;
    let running = started().notified();
    c.send(&call(9, "slow", json!({}))).await;
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the tool started");
    c.notify("notifications/cancelled", json!({"requestId": 9}))
        .await;
    let mut found = None;
    for _ in 0..500 {
        found = records
            .take()
            .into_iter()
            .find(|r| r.target.as_deref() == Some("slow"));
        if found.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let r = found.expect("the cancelled call's record");
    check(
        &r,
        Method::CallTool,
        Some("slow"),
        AuditOutcome::Cancelled,
        9,
    );
    assert!(r.duration < Duration::from_secs(60));
}

#[tokio::test]
async fn arguments_are_recorded_when_asked_after_the_redaction_hook() {
    let records = Records::default();
    let audit = Audit::new()
        .with_arguments()
        .redact(|method, target, args| {
            if method == Method::CallTool && target == Some("login") {
                args["password"] = json!("***");
            }
        })
        .sink(records.sink());
    let mut c = server(audit).connect_in_memory();
    c.initialize("2025-11-25").await;
    let login = call(2, "login", json!({"user": "ann", "password": "hunter2"}));
    c.send(&login).await;
    let answer = c.response(&json!(2)).await;
    assert_eq!(
        answer["result"]["content"][0]["text"], "ann:7",
        "the tool saw the password"
    );
    let read = json!({"jsonrpc":"2.0","id":3,"method":"prompts/list",
        "params":{"cursor":"abc","_meta":{"k":"v"}}});
    c.send(&read).await;
    c.response(&json!(3)).await;
    let r = records.take();
    assert_eq!(
        r[0].arguments,
        Some(json!({"protocolVersion":"2025-11-25",
        "capabilities":{},"clientInfo":{"name":"test-client","version":"0.0.0"}}))
    );
    assert_eq!(
        r[1].arguments,
        Some(json!({"user": "ann", "password": "***"}))
    );
    assert_eq!(
        r[2].arguments,
        Some(json!({"cursor": "abc"})),
        "other methods: the params without `_meta`"
    );
}

#[tokio::test]
async fn the_trace_id_is_read_from_a_valid_traceparent() {
    let records = Records::default();
    let mut c = server(Audit::new().sink(records.sink())).connect_in_memory();
    c.initialize("2025-11-25").await;
    let with = |id: i64, traceparent: &str| {
        json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"add",
            "arguments":{"a":1,"b":1},"_meta":{"traceparent":traceparent}}})
    };
    for msg in [
        with(2, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
        with(3, "00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
    ] {
        c.send(&msg).await;
        c.response(&msg["id"]).await;
    }
    let r = records.take();
    assert_eq!(
        r[1].trace_id.as_deref(),
        Some("4bf92f3577b34da6a3ce929d0e0e4736")
    );
    assert_eq!(r[2].trace_id, None, "an all-zero trace id is not valid");
}

#[tokio::test]
async fn a_full_channel_sink_drops_and_counts() {
    let (sink, mut rx) = ChannelSink::new(2);
    let counter = sink.clone();
    let mut c = server(Audit::new().tracing(false).sink(sink)).connect_in_memory();
    c.initialize("2025-11-25").await;
    for id in 2..6 {
        c.send(&json!({"jsonrpc":"2.0","id":id,"method":"ping"}))
            .await;
        c.response(&json!(id)).await;
    }
    assert_eq!(counter.dropped(), 3, "5 records, room for 2");
    assert_eq!(rx.recv().await.unwrap().method, Method::Initialize);
    assert_eq!(
        rx.recv().await.unwrap().request_id,
        Some(RequestId::Number(2))
    );
    assert!(rx.try_recv().is_err());
}

#[cfg(feature = "http")]
#[tokio::test]
async fn over_http_the_principal_is_the_peer_and_the_session_is_recorded() {
    let records = Records::default();
    let server = server(Audit::new().sink(records.sink()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { server.serve_http_on(listener).await });
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let post = |sid: Option<&str>, body: Value| {
        let mut req = http
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json");
        if let Some(sid) = sid {
            req = req
                .header("mcp-session-id", sid)
                .header("mcp-protocol-version", "2025-11-25");
        }
        req.body(body.to_string()).send()
    };
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}});
    let r = post(None, init).await.unwrap();
    let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let _ = r.text().await.unwrap();
    let r = post(
        Some(&sid),
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 202);
    let r = post(Some(&sid), call(2, "add", json!({"a": 1, "b": 2})))
        .await
        .unwrap();
    let _ = r.text().await.unwrap();
    let r = records.take();
    assert_eq!(r.len(), 2);
    for record in &r {
        assert_eq!(record.principal.as_deref(), Some("peer:127.0.0.1"));
        assert_eq!(record.transport, TransportKind::StreamableHttp);
    }
    assert_eq!(r[0].session_id, None, "initialize hands the session out");
    assert_eq!(r[1].session_id.as_deref(), Some(sid.as_str()));
    assert_eq!(r[1].outcome, AuditOutcome::Result);
    assert_eq!(r[1].target.as_deref(), Some("add"));
}

/// The fields of the `mcp::audit` events, as text, with the thread that emitted them.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<(std::thread::ThreadId, Event)>>>);

/// One event: its level and fields.
type Event = (tracing::Level, BTreeMap<String, String>);

impl Events {
    /// The binary's one collector, installed as the global subscriber on first use. A scoped
    /// (`set_default`) subscriber is not enough: tracing caches each call site's interest across
    /// every live dispatcher, and a call site first reached on another test's thread can be cached
    /// as uninteresting while this one is being registered.
    fn global() -> &'static Events {
        static EVENTS: std::sync::OnceLock<Events> = std::sync::OnceLock::new();
        EVENTS.get_or_init(|| {
            use tracing_subscriber::layer::SubscriberExt;
            let events = Events::default();
            tracing::subscriber::set_global_default(
                tracing_subscriber::registry().with(events.clone()),
            )
            .expect("the only global subscriber of this binary");
            events
        })
    }

    /// Takes the events emitted on the calling thread.
    fn take_this_threads(&self) -> Vec<Event> {
        let me = std::thread::current().id();
        let mut all = self.0.lock().unwrap();
        let (mine, rest) = std::mem::take(&mut *all)
            .into_iter()
            .partition::<Vec<_>, _>(|(t, _)| *t == me);
        *all = rest;
        mine.into_iter().map(|(_, e)| e).collect()
    }
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_i64(&mut self, field: &tracing::field::Field, value: i64) {
        self.0.insert(field.name().into(), value.to_string());
    }
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        self.0.insert(field.name().into(), value.to_string());
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().into(), format!("{value:?}"));
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Events {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().target() != mcp_runtime::audit::TARGET {
            return;
        }
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let level = *event.metadata().level();
        let thread = std::thread::current().id();
        self.0.lock().unwrap().push((thread, (level, fields)));
    }
}

#[tokio::test]
async fn the_tracing_sink_emits_the_structured_fields() {
    let events = Events::global();
    let mut c = server(Audit::new().with_arguments()).connect_in_memory();
    c.initialize("2025-11-25").await;
    let msg = json!({"jsonrpc":"2.0","id":"x-7","method":"tools/call","params":{"name":"missing",
        "arguments":{"q":1},
        "_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}});
    c.send(&msg).await;
    c.response(&msg["id"]).await;
    // A current-thread runtime: the server's events are emitted on this test's thread.
    let mut seen = events.take_this_threads();
    assert_eq!(seen.len(), 2, "{seen:#?}");
    let (level, mut fields) = seen.remove(1);
    assert_eq!(level, tracing::Level::INFO);
    let time = fields.remove("time").unwrap();
    assert_eq!(
        (time.len(), &time[10..11], &time[26..]),
        (27, "T", "Z"),
        "{time}"
    );
    let duration = fields.remove("duration_us").unwrap();
    assert!(duration.parse::<u64>().is_ok(), "{duration}");
    let expected: BTreeMap<String, String> = [
        ("message", "audit"),
        ("method", "tools/call"),
        ("target", "missing"),
        ("outcome", "error"),
        ("error_code", "-32602"),
        ("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736"),
        ("transport", "memory"),
        ("version", "2025-11-25"),
        ("request_id", "x-7"),
        ("arguments", r#"{"q":1}"#),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    assert_eq!(
        fields, expected,
        "no principal nor session in memory: left out"
    );
}

/// Inside `otel::Tracing`, a call without a `traceparent` is recorded with its SERVER span's
/// trace id.
#[cfg(feature = "otel")]
#[tokio::test]
async fn inside_the_otel_layer_the_trace_id_is_the_spans() {
    use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    // The only test of this binary that installs a provider.
    opentelemetry::global::set_tracer_provider(provider);
    let records = Records::default();
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .layer(mcp_runtime::otel::Tracing::new())
        .layer(Audit::new().sink(records.sink()))
        .build()
        .unwrap();
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    c.send(&call(2, "add", json!({"a": 1, "b": 2}))).await;
    c.response(&json!(2)).await;
    let spans = exporter.get_finished_spans().unwrap();
    let span = spans
        .iter()
        .find(|s| s.name == "tools/call add")
        .expect("the SERVER span");
    let r = records.take();
    assert_eq!(r[1].target.as_deref(), Some("add"));
    assert_eq!(
        r[1].trace_id,
        Some(span.span_context.trace_id().to_string())
    );
    assert_ne!(r[0].trace_id, r[1].trace_id, "two root spans, two traces");
}
