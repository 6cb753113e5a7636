//! Micro-benchmarks of the hot paths of one `tools/call` and of `tools/list`, through
//! mcp-runtime's public API (`cargo bench` in bench/):
//!
//! - `envelope`: one `tools/call` message parsed (`jsonrpc::parse_message`, borrowed, one pass);
//! - `route`: a `ping` through a connection (envelope, route, scope, typed reply, bytes): the
//!   cheapest routed request, so the cost of routing a message with nothing else to do;
//! - `arguments`: the `add` tool's arguments deserialised the way generated code does
//!   (`parse_args` into the hidden argument struct);
//! - `result`: a text result made (`IntoToolResult`) and serialised into a response envelope;
//! - `call`: one whole `tools/call` of `add` through a connection;
//! - `call_layered`: the same with one middleware layer that only calls `next` (what the seam
//!   costs once a layer is installed; `call` has none, so it measures the path without one);
//! - `tools_list`: the first page of `tools/list` with 10 and with 10,000 tools registered (page
//!   size 10, so both pages hold 10 tools): its cost must not depend on how many tools exist.
//!
//! The connection benchmarks use the in-memory transport on a current-thread runtime: a request
//! is sent, the server's task answers it, the reply's bytes are received.

use std::hint::black_box;

use divan::Bencher;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::CallToolResult;
use mcp_runtime::protocol::jsonrpc::parse_message;
use mcp_runtime::registry::{InputSchema, ToolRecord};
use mcp_runtime::serde_json::value::RawValue;
use mcp_runtime::transport::memory::{self, MemoryRx, MemoryTx};
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport};
use mcp_runtime::{BoxFuture, HandlerError, IntoToolResult, Server};

fn main() {
    divan::main();
}

const CALL: &str = r#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2}}}"#;

/// Adds two integers.
#[tool]
async fn add(
    /// The first addend
    a: i64,
    /// The second addend
    b: i64,
) -> String {
    (a + b).to_string()
}

#[divan::bench]
fn envelope() -> usize {
    match parse_message(black_box(CALL)) {
        Ok(msg) => msg.method().map_or(0, str::len),
        Err(_) => 0,
    }
}

/// The argument struct `#[tool]` generates for `add`, deserialised as generated code does.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[divan::bench]
fn arguments(bencher: Bencher<'_, '_>) {
    let raw = RawValue::from_string(r#"{"a":40,"b":2}"#.to_owned()).expect("JSON");
    bencher.bench(|| {
        let args: AddArgs = mcp_runtime::__private::parse_args(Some(black_box(&raw)))
            .unwrap_or(AddArgs { a: 0, b: 0 });
        args.a + args.b
    });
}

#[divan::bench]
fn result() -> usize {
    let Ok(result) = black_box("42".to_owned()).into_tool_result() else {
        return 0;
    };
    let mut buf = Vec::with_capacity(256);
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","id":42,"result":"#);
    let _ = serde_json::to_writer(&mut buf, &result);
    buf.push(b'}');
    buf.len()
}

/// A client end of an in-memory connection to `server`, initialised.
struct Client {
    rt: tokio::runtime::Runtime,
    rx: MemoryRx,
    tx: MemoryTx,
}

impl Client {
    fn new(server: Server) -> Self {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let (server_end, client_end) = memory::pair(64);
        rt.spawn(async move {
            let _ = server.serve(server_end).await;
        });
        let (rx, tx) = client_end.split();
        let mut client = Self { rt, rx, tx };
        client.round_trip(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"micro","version":"0"}}}"#);
        client.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        client
    }

    fn send(&mut self, text: &str) {
        let tx = &mut self.tx;
        let _ = self.rt.block_on(tx.send(text.as_bytes().to_vec()));
    }

    /// Sends one request and returns the length of the reply.
    fn round_trip(&mut self, text: &str) -> usize {
        let (rx, tx) = (&mut self.rx, &mut self.tx);
        self.rt.block_on(async {
            let _ = tx.send(text.as_bytes().to_vec()).await;
            match rx.receive().await {
                Some(Ok(Inbound::Message(m))) => m.len(),
                _ => panic!("the server closed the connection"),
            }
        })
    }
}

fn server_with_add() -> Server {
    Server::from_registry(server_info!())
        .build()
        .expect("server")
}

#[divan::bench]
fn route(bencher: Bencher<'_, '_>) {
    let mut client = Client::new(server_with_add());
    bencher.bench_local(|| client.round_trip(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#));
}

#[divan::bench]
fn call(bencher: Bencher<'_, '_>) {
    let mut client = Client::new(server_with_add());
    bencher.bench_local(|| client.round_trip(black_box(CALL)));
}

#[divan::bench]
fn call_layered(bencher: Bencher<'_, '_>) {
    let server = Server::from_registry(server_info!())
        .layer(mcp_runtime::middleware::from_fn(|_request, next| {
            next.run()
        }))
        .build()
        .expect("server");
    let mut client = Client::new(server);
    bencher.bench_local(|| client.round_trip(black_box(CALL)));
}

fn noop(
    _: Context,
    _: Option<Box<RawValue>>,
) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
    Box::pin(async { "ok".into_tool_result() })
}

/// A server with `n` tools named `tool_00000` … and a page size of 10.
fn server_with(n: usize) -> Server {
    let mut builder = Server::builder(server_info!()).page_size(10);
    for i in 0..n {
        let name: &'static str = Box::leak(format!("tool_{i:05}").into_boxed_str());
        let schema = InputSchema::Raw(
            r#"{"type":"object","properties":{"text":{"type":"string","description":"Some text"}},"required":["text"]}"#,
        );
        builder = builder.tool(
            ToolRecord::new(name, schema, noop)
                .with_description("A tool of the listing benchmark."),
        );
    }
    builder.build().expect("server")
}

#[divan::bench(args = [10, 10_000])]
fn tools_list(bencher: Bencher<'_, '_>, tools: usize) {
    let mut client = Client::new(server_with(tools));
    bencher.bench_local(|| {
        client.round_trip(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#)
    });
}
