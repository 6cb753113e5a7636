//! One client connection's protocol state: the requests in flight (bounded), the routing of what
//! the server sends (answers, questions, notifications, progress), and cancellation.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use mcp_core::jsonrpc::{self, Message, RequestId};
use mcp_core::meta::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROGRESS_TOKEN_KEY,
    PROTOCOL_VERSION_KEY,
};
use mcp_core::method::Method;
use mcp_core::{
    ClientCapabilities, ErrorObject, Implementation, LoggingLevel,
    LoggingMessageNotificationParams, ProgressNotificationParams, ProtocolVersion,
    ServerCapabilities,
};
use mcp_io::lock;
use serde_json::{Map, Value, json};
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::error::{ClientError, TransportError};
use crate::handler::ClientHandler;
use crate::headers::ParamHeader;
use crate::limits::Limits;
use crate::link::Link;
use crate::notification::{Notifications, Queue};
use crate::outgoing::{Answer, Incoming, Outgoing};
pub(crate) use crate::outgoing::{LogFn, Options, ProgressFn};

/// How many of the server's questions are answered at once at most.
const MAX_ANSWERING: usize = 16;

/// What the client was configured with.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) info: Implementation,
    pub(crate) capabilities: ClientCapabilities,
    pub(crate) timeout: Option<Duration>,
    pub(crate) max_in_flight: usize,
    pub(crate) limits: Limits,
    /// The middleware layers, outermost first (`ClientBuilder::layer`).
    pub(crate) layers: crate::middleware::Layers,
    /// What the connection runs over (the layers see it).
    pub(crate) transport: crate::middleware::TransportKind,
    /// Whether `tools/call` results are checked against the tools' `outputSchema`
    /// (`ClientBuilder::validate_output`).
    pub(crate) validate_output: bool,
}

/// What the connection learnt from the server.
#[derive(Debug, Clone)]
pub(crate) struct State {
    pub(crate) version: ProtocolVersion,
    /// `initialize` answered, or the stateless era chosen.
    pub(crate) ready: bool,
    pub(crate) server_info: Option<Implementation>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) instructions: Option<String>,
    pub(crate) log_level: Option<LoggingLevel>,
    /// Each listed tool's mirrored parameters (HTTP, stateless era).
    pub(crate) tool_headers: HashMap<String, Vec<ParamHeader>>,
    /// Each listed tool's `outputSchema` compiled (`None`: it has none, or it does not compile),
    /// kept with `ClientBuilder::validate_output` only.
    pub(crate) output_checks: crate::output::Checks,
}

struct Waiting {
    tx: oneshot::Sender<Result<Answer, ClientError>>,
    progress: Option<ProgressFn>,
    handler: Option<Arc<dyn ClientHandler>>,
    log: Option<LogFn>,
}

/// Why the connection ended.
#[derive(Debug, Clone)]
enum Ended {
    /// Closed by the client.
    Closed,
    /// The transport failed.
    Transport(TransportError),
    /// A message over this bound arrived on a message transport.
    TooLarge(usize),
}

impl Ended {
    fn error(&self) -> ClientError {
        match self {
            Self::Closed => ClientError::Closed,
            Self::Transport(why) => ClientError::Transport(why.clone()),
            Self::TooLarge(limit) => ClientError::MessageTooLarge { limit: *limit },
        }
    }
}

pub(crate) struct Engine {
    pub(crate) link: Link,
    pub(crate) config: Config,
    pub(crate) state: Mutex<State>,
    handler: Arc<dyn ClientHandler>,
    waiting: Mutex<HashMap<RequestId, Waiting>>,
    answering: Mutex<HashMap<RequestId, tokio::task::AbortHandle>>,
    answer_slots: Arc<Semaphore>,
    next_id: AtomicI64,
    notifications: Mutex<Option<Queue>>,
    closed: Mutex<Option<Ended>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("link", &self.link)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the reader of `inbound` for a new engine over `link`.
    pub(crate) fn start(
        link: Link,
        inbound: mpsc::Receiver<Incoming>,
        config: Config,
        handler: Arc<dyn ClientHandler>,
        version: ProtocolVersion,
    ) -> Arc<Self> {
        let notes = Queue::new(config.limits.max_notifications);
        let engine = Arc::new(Self {
            link,
            config,
            state: Mutex::new(State {
                version,
                ready: false,
                server_info: None,
                capabilities: ServerCapabilities::default(),
                instructions: None,
                log_level: None,
                tool_headers: HashMap::new(),
                output_checks: HashMap::new(),
            }),
            handler,
            waiting: Mutex::new(HashMap::new()),
            answering: Mutex::new(HashMap::new()),
            answer_slots: Arc::new(Semaphore::new(MAX_ANSWERING)),
            next_id: AtomicI64::new(1),
            notifications: Mutex::new(Some(notes)),
            closed: Mutex::new(None),
        });
        tokio::spawn(read(Arc::downgrade(&engine), inbound));
        engine
    }

    pub(crate) fn handler(&self) -> Arc<dyn ClientHandler> {
        self.handler.clone()
    }

    /// Who answers a question of the server (handshake era), which does not say what request it
    /// belongs to: the handler of the one request in flight that has its own (a forwarded call
    /// of a mount) and takes questions now (`ClientHandler::takes_questions`), the client's
    /// handler when none has; with several, nobody can tell whose question it is, and it is
    /// refused.
    fn handler_for(&self) -> Result<Arc<dyn ClientHandler>, ErrorObject> {
        let waiting = lock(&self.waiting);
        let mut own = waiting
            .values()
            .filter_map(|w| w.handler.as_ref())
            .filter(|h| h.takes_questions());
        match (own.next(), own.next()) {
            (None, _) => Ok(self.handler.clone()),
            (Some(h), None) => Ok(h.clone()),
            (Some(_), Some(_)) => Err(ErrorObject::internal(
                "this client has several forwarded requests in flight and cannot tell which one \
                 the question belongs to",
            )),
        }
    }

    pub(crate) fn subscribe(&self) -> Notifications {
        match &*lock(&self.notifications) {
            Some(queue) => queue.subscribe(),
            None => Queue::closed(),
        }
    }

    fn is_stateless(&self) -> bool {
        lock(&self.state).version.is_stateless()
    }

    /// The `MCP-Protocol-Version` of the next message: none before `initialize` is answered.
    fn header_version(&self) -> Option<ProtocolVersion> {
        let s = lock(&self.state);
        (s.ready || s.version.is_stateless()).then_some(s.version)
    }

    /// Sends a request and waits for its answer; the request is cancelled when the returned
    /// future is dropped or its time runs out.
    pub(crate) async fn request(
        self: &Arc<Self>,
        method: &str,
        params: Map<String, Value>,
        options: Options,
    ) -> Result<Answer, ClientError> {
        let layers = &self.config.layers;
        if layers.is_empty() {
            return self.send_request(method, params, options, None).await;
        }
        let version = lock(&self.state).version;
        // Numbered before the layers, so they see the id the request is sent with.
        let id = self.next_request_id();
        let session = match &self.link {
            Link::Http(h) => h.session(),
            Link::Messages(_) => None,
        };
        let request = crate::middleware::Request::new(
            method,
            &params,
            version,
            &id,
            self.config.transport,
            session,
        );
        let sent_id = id.clone();
        let mut sent = params.clone();
        let endpoint: crate::middleware::Endpoint<'_> = Box::new(move |meta| {
            if !meta.is_empty() {
                let bag = sent
                    .entry("_meta")
                    .or_insert_with(|| Value::Object(Map::new()));
                if !bag.is_object() {
                    *bag = Value::Object(Map::new());
                }
                if let Value::Object(bag) = bag {
                    bag.extend(meta);
                }
            }
            Box::pin(async move {
                crate::middleware::Outcome(
                    self.send_request(method, sent, options, Some(sent_id))
                        .await,
                )
            })
        });
        layers.run(&request, endpoint).await
    }

    /// The id of the next request.
    fn next_request_id(&self) -> RequestId {
        RequestId::Number(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// [`request`](Self::request) past the layers (`id`: the one the layers saw, if any).
    async fn send_request(
        self: &Arc<Self>,
        method: &str,
        mut params: Map<String, Value>,
        options: Options,
        id: Option<RequestId>,
    ) -> Result<Answer, ClientError> {
        if let Some(ended) = &*lock(&self.closed) {
            return Err(ended.error());
        }
        let id = id.unwrap_or_else(|| self.next_request_id());
        self.stamp(&mut params, &options, &id);
        let (tx, rx) = oneshot::channel();
        {
            let mut waiting = lock(&self.waiting);
            if waiting.len() >= self.config.max_in_flight {
                return Err(ClientError::TooManyInFlight(self.config.max_in_flight));
            }
            waiting.insert(
                id.clone(),
                Waiting {
                    tx,
                    progress: options.progress.clone(),
                    handler: options.handler.clone(),
                    log: options.log.clone(),
                },
            );
        }
        let mut guard = Cancel {
            engine: self.clone(),
            id: Some(id.clone()),
        };
        let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let out = Outgoing {
            bytes: text.to_string().into_bytes(),
            id: Some(id.clone()),
            method: Some(method.to_owned()),
            version: self.header_version(),
            headers: options.headers,
            max_bytes: options.max_bytes,
        };
        if let Err(why) = self.link.send(out).await {
            guard.id = None;
            lock(&self.waiting).remove(&id);
            return Err(why.into());
        }
        let limit = options.timeout.or(self.config.timeout);
        let outcome = match limit {
            Some(limit) => match tokio::time::timeout(limit, rx).await {
                Ok(r) => r,
                Err(_) => return Err(ClientError::Timeout(limit)), // the guard cancels
            },
            None => rx.await,
        };
        guard.id = None;
        outcome.unwrap_or(Err(ClientError::Closed))
    }

    /// Adds the stateless era's `_meta` and the progress token.
    fn stamp(&self, params: &mut Map<String, Value>, options: &Options, id: &RequestId) {
        let stateless = self.is_stateless();
        if !stateless && options.progress.is_none() {
            return;
        }
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(meta) = meta else { return };
        if options.progress.is_some() {
            meta.insert(PROGRESS_TOKEN_KEY.into(), json!(id));
        }
        if stateless {
            let state = lock(&self.state);
            meta.insert(PROTOCOL_VERSION_KEY.into(), json!(state.version.as_str()));
            meta.insert(
                CLIENT_CAPABILITIES_KEY.into(),
                serde_json::to_value(&self.config.capabilities).unwrap_or_default(),
            );
            meta.insert(
                CLIENT_INFO_KEY.into(),
                serde_json::to_value(&self.config.info).unwrap_or_default(),
            );
            if let Some(level) = options.log_level.or(state.log_level) {
                meta.insert(LOG_LEVEL_KEY.into(), json!(level));
            }
        }
    }

    /// Sends a notification.
    pub(crate) async fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        let text = json!({"jsonrpc": "2.0", "method": method, "params": params});
        let out = Outgoing {
            bytes: text.to_string().into_bytes(),
            id: None,
            method: Some(method.to_owned()),
            version: self.header_version(),
            headers: Vec::new(),
            max_bytes: None,
        };
        self.link.send(out).await.map_err(ClientError::Transport)
    }

    fn complete(&self, id: &RequestId, outcome: Result<Answer, ClientError>) {
        if let Some(w) = lock(&self.waiting).remove(id) {
            let _ = w.tx.send(outcome);
        }
    }

    /// Fails every request in flight and stops the notification stream (`why`: the transport
    /// failed; `None`: the client closed it).
    pub(crate) fn shut(&self, why: Option<TransportError>) {
        self.end(why.map_or(Ended::Closed, Ended::Transport));
    }

    fn end(&self, ended: Ended) {
        lock(&self.closed).get_or_insert(ended.clone());
        let waiting: Vec<_> = lock(&self.waiting).drain().collect();
        for (_, w) in waiting {
            let _ = w.tx.send(Err(ended.error()));
        }
        for (_, task) in lock(&self.answering).drain() {
            task.abort();
        }
        lock(&self.notifications).take();
    }

    /// One message from the server; an answer keeps its text, read later by its caller. A
    /// notification that is to pass the layers is handed back, unhandled.
    fn receive(self: &Arc<Self>, text: String) -> Option<(String, Option<Value>)> {
        let message = match jsonrpc::parse_message(&text) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("mcp client: ignored a message that is not JSON-RPC: {e}");
                return None;
            }
        };
        match message {
            Message::Response(r) => {
                let Some(id) = r.id else {
                    if let Err(e) = r.outcome {
                        tracing::warn!(
                            code = e.code,
                            "mcp client: error without an id: {}",
                            e.message
                        );
                    }
                    return None;
                };
                let outcome = match r.outcome {
                    Ok(_) => Ok(()),
                    Err(e) => Err(ClientError::Rpc(e)),
                };
                self.complete(&id, outcome.map(|()| Answer(text)));
            }
            Message::Request(r) => {
                let params = r.params.and_then(|p| serde_json::from_str(p.get()).ok());
                self.answer(r.id, r.method.into_owned(), params);
            }
            Message::Notification(n) => {
                let params: Option<Value> =
                    n.params.and_then(|p| serde_json::from_str(p.get()).ok());
                if self.config.layers.sees_incoming() {
                    return Some((n.method.into_owned(), params));
                }
                self.notified(&n.method, params);
            }
        }
        None
    }

    pub(crate) fn notified(&self, method: &str, params: Option<Value>) {
        match Method::server_notification(method) {
            Method::Cancelled => {
                let id = params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(|v| serde_json::from_value::<RequestId>(v.clone()).ok());
                if let Some(task) = id.and_then(|id| lock(&self.answering).remove(&id)) {
                    task.abort();
                }
                return;
            }
            // A log message has no request id: it goes to the request that takes log messages
            // when one alone in flight does.
            Method::LogMessage => {
                let callback = {
                    let waiting = lock(&self.waiting);
                    let mut takers = waiting.values().filter_map(|w| w.log.as_ref());
                    match (takers.next(), takers.next()) {
                        (Some(f), None) => Some(f.clone()),
                        _ => None,
                    }
                };
                let parsed = params.clone().and_then(|p| {
                    serde_json::from_value::<LoggingMessageNotificationParams>(p).ok()
                });
                if let (Some(callback), Some(p)) = (callback, parsed) {
                    callback(p);
                    return;
                }
            }
            Method::Progress => {
                let parsed = params
                    .clone()
                    .and_then(|p| serde_json::from_value::<ProgressNotificationParams>(p).ok());
                if let Some(p) = parsed {
                    let id = match &p.progress_token {
                        mcp_core::ProgressToken::Number(n) => RequestId::Number(*n),
                        mcp_core::ProgressToken::String(s) => RequestId::String(s.clone()),
                    };
                    let callback = lock(&self.waiting)
                        .get(&id)
                        .and_then(|w| w.progress.clone());
                    if let Some(callback) = callback {
                        callback(p);
                        return;
                    }
                }
            }
            _ => {}
        }
        if let Some(queue) = &*lock(&self.notifications) {
            queue.push(method, params);
        }
    }

    /// Answers a question of the server (handshake era) with the handler, in a task of its own.
    fn answer(self: &Arc<Self>, id: RequestId, method: String, params: Option<Value>) {
        let Ok(permit) = self.answer_slots.clone().try_acquire_owned() else {
            let engine = self.clone();
            let err = ErrorObject::internal(format!(
                "the client answers at most {MAX_ANSWERING} requests at once"
            ));
            tokio::spawn(async move { engine.reply(&id, Err(err)).await });
            return;
        };
        let engine = self.clone();
        let task_id = id.clone();
        let handler = self.handler_for();
        let mut answering = lock(&self.answering);
        let task = tokio::spawn(async move {
            let outcome = match handler {
                Ok(handler) => {
                    engine
                        .answer_through_layers(&*handler, &task_id, &method, params)
                        .await
                }
                Err(refused) => Err(refused),
            };
            lock(&engine.answering).remove(&task_id);
            engine.reply(&task_id, outcome).await;
            drop(permit);
        });
        answering.insert(id, task.abort_handle());
    }

    async fn reply(&self, id: &RequestId, outcome: Result<Value, ErrorObject>) {
        let mut buf = Vec::new();
        match outcome {
            Ok(v) => jsonrpc::write_response(&mut buf, id, &v.to_string()),
            Err(e) => jsonrpc::write_error(&mut buf, Some(id), &e),
        }
        let out = Outgoing {
            bytes: buf,
            id: None,
            method: None,
            version: self.header_version(),
            headers: Vec::new(),
            max_bytes: None,
        };
        let _ = self.link.send(out).await;
    }

    /// Forgets request `id` and tells the server (except on stateless HTTP, where dropping the
    /// POST is the cancellation).
    fn cancel(self: &Arc<Self>, id: RequestId) {
        if lock(&self.waiting).remove(&id).is_none() {
            return;
        }
        self.link.abandon(&id);
        let stateless_http = matches!(self.link, Link::Http(_)) && self.is_stateless();
        if stateless_http || lock(&self.closed).is_some() {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let engine = self.clone();
        rt.spawn(async move {
            let params = json!({"requestId": id, "reason": "the client stopped waiting"});
            let _ = engine.notify("notifications/cancelled", params).await;
        });
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Link::Http(h) = &self.link {
            h.stop();
        }
    }
}

/// Cancels a request whose future is dropped before its answer.
struct Cancel {
    engine: Arc<Engine>,
    id: Option<RequestId>,
}

impl Drop for Cancel {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.engine.cancel(id);
        }
    }
}

async fn read(engine: Weak<Engine>, mut inbound: mpsc::Receiver<Incoming>) {
    while let Some(item) = inbound.recv().await {
        let Some(engine) = engine.upgrade() else {
            return;
        };
        match item {
            Incoming::Message(text) => {
                if let Some((method, params)) = engine.receive(text) {
                    engine.notified_through_layers(method, params).await;
                }
            }
            Incoming::Failed(id, e) => engine.complete(&id, Err(e)),
            Incoming::Closed(why) => {
                engine.shut(Some(why));
                return;
            }
            Incoming::TooLarge(limit) => {
                tracing::warn!(
                    limit,
                    "mcp client: the server sent a message over the size bound; the connection is closed"
                );
                engine.end(Ended::TooLarge(limit));
                engine.link.close().await;
                return;
            }
        }
    }
}
