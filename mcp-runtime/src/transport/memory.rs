//! An in-memory transport pair (`mcp-runtime-io`'s), and a small client for tests.

use std::collections::HashMap;
use std::time::Duration;

pub use mcp_io::memory::{MemoryRx, MemoryTransport, MemoryTx, pair};
use serde_json::Value;

use super::{Inbound, Inbox, Outbox, Transport};

/// A minimal MCP client over an in-memory pair, for unit tests of your own servers.
///
/// It speaks raw JSON so that tests can assert exact wire contents.
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
/// let mut client = server.connect_in_memory();
/// client.initialize("2025-11-25").await;
/// let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await;
/// assert_eq!(result["result"]["content"][0]["text"], "5");
/// # });
/// ```
#[derive(Debug)]
pub struct TestClient {
    tx: MemoryTx,
    rx: MemoryRx,
    next_id: i64,
    notifications: Vec<Value>,
    responses: HashMap<String, Value>,
    timeout: Option<Duration>,
}

impl TestClient {
    pub(crate) fn new(end: MemoryTransport) -> Self {
        let (rx, tx) = end.split();
        Self {
            tx,
            rx,
            next_id: 1,
            notifications: Vec::new(),
            responses: HashMap::new(),
            timeout: Some(Self::DEFAULT_TIMEOUT),
        }
    }

    /// How long [`recv`](Self::recv) waits for a message unless told otherwise: 10 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

    /// Sets how long [`recv`](Self::recv) (and so every request) waits for a message: `Some`
    /// limit, or `None` to wait as long as the server takes.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_runtime::prelude::*;
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let mut client = server.connect_in_memory();
    /// assert_eq!(client.timeout(), Some(Duration::from_secs(10)));
    /// client.set_timeout(None); // a slow tool under test gets all the time it needs
    /// assert_eq!(client.timeout(), None);
    /// # });
    /// ```
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    /// The client with this receive timeout (see [`set_timeout`](Self::set_timeout)).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_runtime::prelude::*;
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let client = server.connect_in_memory().with_timeout(Some(Duration::from_secs(60)));
    /// assert_eq!(client.timeout(), Some(Duration::from_secs(60)));
    /// # });
    /// ```
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// How long [`recv`](Self::recv) waits for a message; `None` is no limit.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Sends raw text (valid JSON or not) as one message.
    pub async fn send_raw(&mut self, text: &str) {
        let _ = self.tx.send(text.as_bytes().to_vec()).await;
    }

    /// Sends a JSON value as one message.
    pub async fn send(&mut self, message: &Value) {
        self.send_raw(&message.to_string()).await;
    }

    /// The next message the server sends, whatever it is: `None` when the server closed the
    /// connection or the [`timeout`](Self::timeout) (10 s unless set) elapsed first.
    pub async fn recv(&mut self) -> Option<Value> {
        let inbound = match self.timeout {
            Some(limit) => tokio::time::timeout(limit, self.rx.receive())
                .await
                .ok()??,
            None => self.rx.receive().await?,
        };
        match inbound {
            Ok(Inbound::Message(text)) => serde_json::from_str(&text).ok(),
            _ => None,
        }
    }

    /// Sends a request and waits for the response with its id (notifications that arrive meanwhile
    /// are kept; see [`notifications`](Self::notifications)).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_null() {
            msg["params"] = params;
        }
        self.send(&msg).await;
        self.response(&Value::from(id)).await
    }

    /// Waits for the response to request `id`.
    pub async fn response(&mut self, id: &Value) -> Value {
        let key = id.to_string();
        loop {
            if let Some(r) = self.responses.remove(&key) {
                return r;
            }
            let Some(msg) = self.recv().await else {
                return Value::Null;
            };
            match msg.get("id") {
                Some(got) if msg.get("method").is_none() => {
                    self.responses.insert(got.to_string(), msg);
                }
                _ => self.notifications.push(msg),
            }
        }
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &str, params: Value) {
        let mut msg = serde_json::json!({"jsonrpc": "2.0", "method": method});
        if !params.is_null() {
            msg["params"] = params;
        }
        self.send(&msg).await;
    }

    /// `initialize` at `version`, then `notifications/initialized`; returns the response.
    pub async fn initialize(&mut self, version: &str) -> Value {
        let r = self
            .request(
                "initialize",
                serde_json::json!({
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "test-client", "version": "0.0.0"}
                }),
            )
            .await;
        self.notify("notifications/initialized", Value::Null).await;
        r
    }

    /// `tools/call` (handshake era); returns the whole response.
    pub async fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        self.request(
            "tools/call",
            serde_json::json!({"name": name, "arguments": arguments}),
        )
        .await
    }

    /// A stateless-era (2026-07-28) request: `_meta` with the version and empty capabilities is
    /// added to `params`.
    pub async fn stateless(&mut self, method: &str, mut params: Value) -> Value {
        if params.is_null() {
            params = serde_json::json!({});
        }
        params["_meta"] = serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "test-client", "version": "0.0.0"}
        });
        self.request(method, params).await
    }

    /// Notifications received so far (drained).
    pub fn notifications(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.notifications)
    }
}
