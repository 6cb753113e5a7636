//! Streamable HTTP, the client's half: every message is a `POST`; an answer comes back as JSON
//! or as an SSE stream (resumed with `GET` and `Last-Event-ID` after the server's `retry` when
//! it ends early); a session (`Mcp-Session-Id`) is kept, listened to with a standalone `GET`
//! stream and ended with `DELETE`. In the stateless era every `POST` also carries `Mcp-Method`,
//! `Mcp-Name` and the tool's `Mcp-Param-*` headers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt as _;
use mcp_core::jsonrpc::RequestId;
use mcp_core::method::headers as codec;
use mcp_core::{ErrorObject, ProtocolVersion};
use mcp_io::lock;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use serde_json::value::RawValue;
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinHandle};

use crate::error::{ClientError, TransportError};
use crate::limits::Limits;
use crate::outgoing::{Incoming, Outgoing};
use crate::redirect;

mod stream;

/// How many times one request (re)authorizes at most before its refusal is final.
const MAX_AUTHORIZATIONS: u32 = 3;

/// What puts a token on the link's requests and gets a new one when the server refuses it
/// (the OAuth client of the `oauth` feature).
pub(crate) trait Authorizer: Send + Sync + std::fmt::Debug {
    /// The `Authorization` header for a `method` request to `url` (and its `DPoP` proof when
    /// the token is DPoP-bound), if a token is held.
    fn authorization(&self, method: &str, url: &reqwest::Url) -> Option<(String, Option<String>)>;
    /// Obtains a token after the server at `url` answered `status` (401, or 403 with
    /// `insufficient_scope`) with this `WWW-Authenticate` header; the error is what the request
    /// fails with.
    fn challenge<'a>(
        &'a self,
        url: &'a reqwest::Url,
        status: u16,
        www_authenticate: Option<&'a str>,
        dpop_nonce: Option<&'a str>,
    ) -> mcp_io::BoxFuture<'a, Result<(), ClientError>>;
}

/// The HTTP half of a client connection.
#[derive(Debug, Clone)]
pub(crate) struct HttpLink {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    http: reqwest::Client,
    url: reqwest::Url,
    headers: HeaderMap,
    session: Mutex<Option<String>>,
    version: Mutex<Option<ProtocolVersion>>,
    inbound: mpsc::Sender<Incoming>,
    posts: Mutex<HashMap<RequestId, AbortHandle>>,
    listener: Mutex<Option<JoinHandle<()>>>,
    auth: Option<Arc<dyn Authorizer>>,
    /// The largest JSON body or SSE event read.
    max_message: usize,
}

impl HttpLink {
    pub(crate) fn new(
        url: reqwest::Url,
        headers: HeaderMap,
        inbound: mpsc::Sender<Incoming>,
        auth: Option<Arc<dyn Authorizer>>,
        limits: Limits,
    ) -> Result<Self, TransportError> {
        // Redirects are followed by `redirect::send`, which drops the client's own headers on
        // the way to another origin.
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| TransportError::with_source("could not make the HTTP client", e))?;
        Ok(Self {
            shared: Arc::new(Shared {
                http,
                url,
                headers,
                session: Mutex::new(None),
                version: Mutex::new(None),
                inbound,
                posts: Mutex::new(HashMap::new()),
                listener: Mutex::new(None),
                auth,
                max_message: limits.max_message,
            }),
        })
    }

    /// The session id the server assigned, if any.
    pub(crate) fn session(&self) -> Option<String> {
        lock(&self.shared.session).clone()
    }

    /// Posts one message; answers and failures arrive through the inbound queue.
    pub(crate) fn send(&self, out: Outgoing) {
        if let Some(v) = out.version {
            *lock(&self.shared.version) = Some(v);
        }
        let shared = self.shared.clone();
        let id = out.id.clone();
        // Held while the task is registered, so that its own removal comes after.
        let mut posts = lock(&self.shared.posts);
        let task = tokio::spawn(async move {
            let id = out.id.clone();
            shared.post(out).await;
            if let Some(id) = id {
                lock(&shared.posts).remove(&id);
            }
        });
        if let Some(id) = id {
            posts.insert(id, task.abort_handle());
        }
    }

    /// Drops the POST (or resumed stream) waiting for `id`.
    pub(crate) fn abandon(&self, id: &RequestId) {
        if let Some(task) = lock(&self.shared.posts).remove(id) {
            task.abort();
        }
    }

    /// Opens the standalone `GET` stream of a session, for requests and notifications the
    /// server sends on its own; a server without one (405) is left alone.
    ///
    /// The stream is open (or known to be refused) when this returns, so that whatever the
    /// server sends on it after the handshake has somewhere to go, in order.
    pub(crate) async fn listen(&self) {
        let first = tokio::time::timeout(Duration::from_secs(10), self.shared.get(None)).await;
        let first = match first {
            Ok(Ok(resp)) => resp,
            Ok(Err(e)) => {
                tracing::debug!("mcp client: no standalone stream: {e}");
                return;
            }
            Err(_) => {
                tracing::debug!("mcp client: no standalone stream within 10 s");
                return;
            }
        };
        let shared = self.shared.clone();
        let task = tokio::spawn(async move { shared.standalone(first).await });
        if let Some(old) = lock(&self.shared.listener).replace(task) {
            old.abort();
        }
    }

    /// Stops every stream and POST in flight.
    pub(crate) fn stop(&self) {
        if let Some(task) = lock(&self.shared.listener).take() {
            task.abort();
        }
        for (_, task) in lock(&self.shared.posts).drain() {
            task.abort();
        }
    }

    /// Stops every stream and ends the session with `DELETE`.
    pub(crate) async fn close(&self) {
        self.stop();
        let Some(session) = lock(&self.shared.session).take() else {
            return;
        };
        let mut req = self
            .shared
            .http
            .delete(self.shared.url.clone())
            .headers(self.shared.headers.clone())
            .header("mcp-session-id", session)
            .timeout(Duration::from_secs(5));
        req = self.shared.authorize("DELETE", req);
        if let Some(v) = *lock(&self.shared.version) {
            req = req.header("mcp-protocol-version", v.as_str());
        }
        let _ = self.shared.send(req).await;
    }
}

impl Shared {
    fn fail(&self, id: &Option<RequestId>, why: impl Into<String>) -> Option<Incoming> {
        self.fail_with(id, TransportError::new(why).into())
    }

    fn fail_with(&self, id: &Option<RequestId>, error: ClientError) -> Option<Incoming> {
        id.as_ref().map(|id| Incoming::Failed(id.clone(), error))
    }

    /// Sends `req`, following its redirects (see [`redirect::send`]).
    async fn send(
        &self,
        req: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, redirect::SendError> {
        let req = req.build().map_err(redirect::SendError::Request)?;
        redirect::send(&self.http, req).await
    }

    async fn deliver(&self, item: Option<Incoming>) {
        if let Some(item) = item {
            let _ = self.inbound.send(item).await;
        }
    }

    fn remember_session(&self, headers: &HeaderMap) {
        if let Some(s) = headers.get("mcp-session-id").and_then(|v| v.to_str().ok()) {
            *lock(&self.session) = Some(s.to_owned());
        }
    }

    /// `req` with the authorizer's `Authorization` (and `DPoP`) headers, when it holds a token.
    fn authorize(&self, method: &str, mut req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if let Some((authorization, proof)) = self
            .auth
            .as_ref()
            .and_then(|a| a.authorization(method, &self.url))
        {
            req = req.header(reqwest::header::AUTHORIZATION, authorization);
            if let Some(proof) = proof {
                req = req.header("dpop", proof);
            }
        }
        req
    }

    fn request(&self, out: &Outgoing) -> reqwest::RequestBuilder {
        let mut req = self
            .http
            .post(self.url.clone())
            .headers(self.headers.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream");
        if let Some(v) = out.version {
            req = req.header("mcp-protocol-version", v.as_str());
            if v.is_stateless() {
                if let Some(m) = &out.method {
                    req = req.header(codec::METHOD, m.as_str());
                }
                for (name, value) in &out.headers {
                    req = req.header(name.as_str(), value.as_str());
                }
            }
        }
        if let Some(s) = lock(&self.session).clone() {
            req = req.header("mcp-session-id", s);
        }
        self.authorize("POST", req)
    }

    /// Sends `out`; a refusal for want of a token (401, or 403 `insufficient_scope`) is
    /// answered by the authorizer, and the request sent again, [`MAX_AUTHORIZATIONS`] times
    /// at most.
    async fn post(&self, mut out: Outgoing) {
        let mut authorizations = 0;
        let resp = loop {
            let body = if self.auth.is_some() {
                out.bytes.clone()
            } else {
                std::mem::take(&mut out.bytes)
            };
            let resp = match self.send(self.request(&out).body(body)).await {
                Ok(r) => r,
                Err(e) => {
                    let err = TransportError::with_source("POST failed", e);
                    return self.deliver(self.fail_with(&out.id, err.into())).await;
                }
            };
            let Some(auth) = &self.auth else { break resp };
            let www = resp
                .headers()
                .get(reqwest::header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let nonce = resp
                .headers()
                .get("dpop-nonce")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let status = resp.status().as_u16();
            let refused = status == 401
                || (status == 403
                    && www
                        .as_deref()
                        .is_some_and(|w| w.contains("insufficient_scope")));
            if !refused || authorizations >= MAX_AUTHORIZATIONS {
                break resp;
            }
            authorizations += 1;
            drop(resp);
            if let Err(e) = auth
                .challenge(&self.url, status, www.as_deref(), nonce.as_deref())
                .await
            {
                return self.deliver(self.fail_with(&out.id, e)).await;
            }
        };
        self.remember_session(resp.headers());
        let status = resp.status();
        let is_sse = content_type(resp.headers()).starts_with("text/event-stream");
        let limit = out
            .max_bytes
            .map_or(self.max_message, |m| m.min(self.max_message));
        if status.is_success() && is_sse {
            return self.read_stream(resp, out.id, limit).await;
        }
        if status == reqwest::StatusCode::ACCEPTED || status == reqwest::StatusCode::NO_CONTENT {
            if out.id.is_some() {
                let why = format!("the server answered a request with HTTP {status} and no body");
                self.deliver(self.fail(&out.id, why)).await;
            }
            return;
        }
        let body = match read_body(resp, limit).await {
            Ok(b) => b,
            Err(e) => return self.deliver(self.fail_with(&out.id, e)).await,
        };
        self.deliver_body(status, body, &out.id).await;
    }

    /// A JSON body: a message, a batch of messages, or an HTTP error with or without a JSON-RPC
    /// error in it. Read in place (a message goes on as the text it came as).
    async fn deliver_body(
        &self,
        status: reqwest::StatusCode,
        body: String,
        id: &Option<RequestId>,
    ) {
        /// The members of a message that matter here (`null` reads as absent).
        #[derive(serde::Deserialize)]
        struct Probe<'a> {
            #[serde(borrow)]
            jsonrpc: Option<&'a RawValue>,
            #[serde(borrow)]
            id: Option<&'a RawValue>,
            #[serde(borrow)]
            error: Option<&'a RawValue>,
        }
        let start = body.trim_start();
        if start.starts_with('[')
            && let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(&body)
        {
            for item in items {
                self.deliver(Some(Incoming::Message(item.get().to_owned())))
                    .await;
            }
            return;
        }
        let probe = if start.starts_with('{') {
            serde_json::from_str::<Probe<'_>>(&body).ok()
        } else {
            None
        };
        let message = match probe {
            Some(p) if p.error.is_some() || status.is_success() => {
                // An error about a request whose id the server could not read comes back
                // with `id: null`: it is the answer to this POST's request.
                if p.id.is_none()
                    && let (Some(id), Some(err)) = (id, p.error)
                {
                    let err = serde_json::from_str(err.get())
                        .unwrap_or_else(|_| ErrorObject::new(-32603, format!("HTTP {status}")));
                    let err = ClientError::Rpc(err);
                    return self.deliver(Some(Incoming::Failed(id.clone(), err))).await;
                }
                (p.jsonrpc.is_none()).then(|| {
                    let members = start[1..].trim_start();
                    let comma = if members.starts_with('}') { "" } else { "," };
                    format!("{{\"jsonrpc\":\"2.0\"{comma}{members}")
                })
            }
            _ => {
                let why = if status.is_success() && start.is_empty() {
                    format!("the server answered HTTP {status} with an empty body")
                } else {
                    let shown: String = body.chars().take(200).collect();
                    if status == reqwest::StatusCode::NOT_FOUND && lock(&self.session).is_some() {
                        format!("HTTP 404: the session has expired ({shown})")
                    } else {
                        format!("HTTP {status}: {shown}")
                    }
                };
                return self.deliver(self.fail(id, why)).await;
            }
        };
        let text = message.unwrap_or(body);
        self.deliver(Some(Incoming::Message(text))).await;
    }

    async fn get(&self, last_event_id: Option<&str>) -> Result<reqwest::Response, GetError> {
        let mut req = self
            .http
            .get(self.url.clone())
            .headers(self.headers.clone())
            .header(ACCEPT, "text/event-stream");
        if let Some(v) = *lock(&self.version) {
            req = req.header("mcp-protocol-version", v.as_str());
        }
        if let Some(s) = lock(&self.session).clone() {
            req = req.header("mcp-session-id", s);
        }
        if let Some(last) = last_event_id {
            req = req.header("last-event-id", last);
        }
        let req = self.authorize("GET", req);
        let resp = self.send(req).await.map_err(GetError::Send)?;
        if !resp.status().is_success() {
            return Err(GetError::Status(resp.status()));
        }
        if !content_type(resp.headers()).starts_with("text/event-stream") {
            return Err(GetError::NotStream);
        }
        Ok(resp)
    }
}

/// Why a `GET` opened no event stream.
#[derive(Debug, thiserror::Error)]
enum GetError {
    /// The request got no answer.
    #[error("GET failed")]
    Send(#[source] redirect::SendError),
    /// The server answered with this status (405: it has no standalone stream).
    #[error("GET answered HTTP {0}")]
    Status(reqwest::StatusCode),
    /// The answer is not `text/event-stream`.
    #[error("GET did not answer an event stream")]
    NotStream,
}

fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// A body of at most `limit` bytes, refused as soon as it passes (or its `Content-Length`
/// says it will).
async fn read_body(resp: reqwest::Response, limit: usize) -> Result<String, ClientError> {
    let declared = resp.content_length().unwrap_or(0);
    if declared > limit as u64 {
        return Err(ClientError::MessageTooLarge { limit });
    }
    let mut body = Vec::with_capacity(usize::try_from(declared).unwrap_or(0));
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|e| TransportError::with_source("reading the answer failed", e))?;
        let needed = body.len() + chunk.len();
        if needed > limit {
            return Err(ClientError::MessageTooLarge { limit });
        }
        // Grown by a quarter at a time (large buffers are moved by the allocator without a
        // copy), never past the limit: a body of unknown length holds at most a quarter more
        // than it needs, and never more than the limit allows.
        if needed > body.capacity() {
            let grown = body
                .capacity()
                .saturating_add(body.capacity() / 4)
                .max(64 * 1024);
            let target = needed.max(grown.min(limit));
            body.reserve_exact(target - body.len());
        }
        body.extend_from_slice(&chunk);
    }
    String::from_utf8(body).map_err(|e| ClientError::InvalidUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}
