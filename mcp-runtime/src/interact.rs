//! Asking the client: elicitation, sampling and roots, with one handler body for both eras.
//!
//! In the handshake era each call is a JSON-RPC request to the client, sent on the stream of the
//! request being handled, and its answer is awaited (with a timeout). In the stateless era
//! (2026-07-28) the runtime answers `input_required` instead, and runs the handler again when the
//! client retries with the answers; see the crate docs, "Asking the client".

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mcp_core::jsonrpc::{Response, error_codes};
use mcp_core::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, ErrorObject, ForVersion, InputRequest, ListRootsResult, ProtocolVersion,
    RequestId, Root,
};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::oneshot;

use crate::context::Context;
use crate::error::{HandlerError, IntoHandlerError, ToolError};
use crate::mrtr::{Kind, Round};
use crate::schema::SchemaProfile;

type Answer = Result<Box<RawValue>, ErrorObject>;
type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Requests this side sent to the client, awaiting their responses (bounded).
pub(crate) struct Pending {
    next: AtomicI64,
    map: Mutex<HashMap<RequestId, oneshot::Sender<Answer>>>,
    limit: usize,
    pub(crate) timeout: Duration,
}

impl Pending {
    pub(crate) fn new(limit: usize, timeout: Duration) -> Self {
        Self {
            next: AtomicI64::new(1),
            map: Mutex::new(HashMap::new()),
            limit,
            timeout,
        }
    }

    fn register(&self) -> Result<(RequestId, oneshot::Receiver<Answer>), InteractionError> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.limit {
            return Err(InteractionError::Disconnected);
        }
        let id = RequestId::String(format!("s-{}", self.next.fetch_add(1, Ordering::Relaxed)));
        let (tx, rx) = oneshot::channel();
        map.insert(id.clone(), tx);
        Ok((id, rx))
    }

    fn forget(&self, id: &RequestId) {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Routes a response from the client to the request waiting for it.
    pub(crate) fn complete(&self, response: Response<'_>) {
        let Some(id) = response.id else { return };
        let waiter = self
            .map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        if let Some(tx) = waiter {
            let _ = tx.send(response.outcome.map(RawValue::to_owned));
        } else {
            tracing::debug!(%id, "response to an unknown or expired server request");
        }
    }

    /// Fails every waiting request (the connection is closing).
    pub(crate) fn clear(&self) {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

/// Removes a pending entry when the waiting future is dropped (cancelled handler).
struct Forget<'a>(&'a Pending, RequestId);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.0.forget(&self.1);
    }
}

/// How a handler's interactions reach the client.
#[derive(Clone, Default)]
pub(crate) enum Interact {
    /// Not available (command line, `completion/complete`, list methods).
    #[default]
    None,
    /// Handshake era: JSON-RPC requests on the request's stream.
    Peer(Arc<Pending>),
    /// Stateless era: `input_required` rounds.
    Rounds(Arc<Round>),
}

/// Why asking the client failed.
///
/// The `?` operator turns it into a [`ToolError`] (text for the model) or, in a handler returning
/// `Result<_, HandlerError>`, into the fitting protocol error. When the client did not declare the
/// capability, the request fails with -32021 and `data.requiredCapabilities` whatever the handler
/// returns as an error.
///
/// ```
/// use mcp_runtime::InteractionError;
/// let err = InteractionError::Unsupported { capability: "sampling" };
/// assert_eq!(err.to_string(), "the client does not support `sampling`");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InteractionError {
    /// The client did not declare the capability (or mode) this needs.
    Unsupported {
        /// `elicitation`, `elicitation.url`, `sampling`, `sampling.tools` or `roots`.
        capability: &'static str,
    },
    /// This request cannot ask the client anything (a command-line call, `completion/complete`).
    NotAvailable,
    /// The client answered with a JSON-RPC error.
    Rejected(ErrorObject),
    /// The client's answer does not have the expected shape.
    InvalidResponse(String),
    /// No answer within the server's client-request timeout.
    TimedOut,
    /// The connection closed, or too many requests to the client are pending.
    Disconnected,
}

impl fmt::Display for InteractionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported { capability } => {
                write!(f, "the client does not support `{capability}`")
            }
            Self::NotAvailable => f.write_str("this request cannot ask the client for input"),
            Self::Rejected(err) => write!(f, "the client refused: {} ({})", err.message, err.code),
            Self::InvalidResponse(msg) => write!(f, "invalid answer from the client: {msg}"),
            Self::TimedOut => f.write_str("the client did not answer in time"),
            Self::Disconnected => f.write_str("the client is not reachable"),
        }
    }
}

impl From<InteractionError> for ToolError {
    fn from(err: InteractionError) -> Self {
        ToolError::new(err.to_string())
    }
}

impl IntoHandlerError for InteractionError {
    fn into_handler_error(self) -> HandlerError {
        match self {
            Self::Unsupported { capability } => {
                HandlerError::Protocol(missing_capability(capability))
            }
            Self::InvalidResponse(msg) => HandlerError::Protocol(ErrorObject::invalid_params(msg)),
            other => HandlerError::Tool(other.into()),
        }
    }
}

/// -32021 with `data.requiredCapabilities` (`{"sampling":{}}`, `{"elicitation":{"url":{}}}`).
pub(crate) fn missing_capability(capability: &str) -> ErrorObject {
    let required = match capability.split_once('.') {
        Some((outer, inner)) => serde_json::json!({ outer: { inner: {} } }),
        None => serde_json::json!({ capability: {} }),
    };
    ErrorObject::new(
        error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!("MissingRequiredClientCapabilityError: this request needs the client capability `{capability}`"),
    )
    .with_data(serde_json::json!({ "requiredCapabilities": required }))
}

/// The user's answer to a form elicitation.
///
/// ```
/// use mcp_runtime::Elicitation;
/// let answer: Elicitation<String> = Elicitation::Accept("Ada".into());
/// assert_eq!(answer.accepted(), Some("Ada".to_string()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user submitted the form.
    Accept(T),
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request.
    Cancel,
}

impl<T> Elicitation<T> {
    /// The submitted value, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accept(v) => Some(v),
            _ => None,
        }
    }
}

/// Which capability an interaction needs, checked against the client's declaration.
fn check(ctx: &Context, what: Need) -> Result<(), InteractionError> {
    let caps = ctx.client_capabilities();
    let v = ctx.protocol_version();
    let ok = match what {
        Need::ElicitForm => {
            v.has_elicitation()
                && caps
                    .and_then(|c| c.elicitation.as_ref())
                    .is_some_and(|e| e.supports_form())
        }
        Need::ElicitUrl => {
            v >= ProtocolVersion::V2025_11_25
                && caps
                    .and_then(|c| c.elicitation.as_ref())
                    .is_some_and(|e| e.supports_url())
        }
        Need::Sampling => caps.is_some_and(|c| c.sampling.is_some()),
        Need::SamplingTools => caps
            .and_then(|c| c.sampling.as_ref())
            .is_some_and(|s| s.tools.is_some()),
        Need::Roots => caps.is_some_and(|c| c.roots.is_some()),
    };
    if ok {
        return Ok(());
    }
    let capability = what.capability();
    ctx.record_fault(missing_capability(capability));
    Err(InteractionError::Unsupported { capability })
}

#[derive(Clone, Copy)]
enum Need {
    ElicitForm,
    ElicitUrl,
    Sampling,
    SamplingTools,
    Roots,
}

impl Need {
    fn capability(self) -> &'static str {
        match self {
            Need::ElicitForm => "elicitation",
            Need::ElicitUrl => "elicitation.url",
            Need::Sampling => "sampling",
            Need::SamplingTools => "sampling.tools",
            Need::Roots => "roots",
        }
    }
}

impl Context {
    /// Sends one request to the client (or finds its answer in this round) and returns the raw
    /// result.
    async fn ask(
        &self,
        kind: Kind,
        key: Option<String>,
        method: &'static str,
        params: Value,
    ) -> Result<Box<RawValue>, InteractionError> {
        match &self.inner.interact {
            Interact::None => Err(InteractionError::NotAvailable),
            Interact::Peer(pending) => {
                let Some(peer) = &self.inner.peer else {
                    return Err(InteractionError::NotAvailable);
                };
                let (id, rx) = pending.register()?;
                let _forget = Forget(pending, id.clone());
                if peer
                    .send(crate::wire::request(&id, method, &params))
                    .await
                    .is_err()
                {
                    return Err(InteractionError::Disconnected);
                }
                match tokio::time::timeout(pending.timeout, rx).await {
                    Ok(Ok(Ok(raw))) => Ok(raw),
                    Ok(Ok(Err(err))) => Err(InteractionError::Rejected(err)),
                    Ok(Err(_)) => Err(InteractionError::Disconnected),
                    Err(_) => Err(InteractionError::TimedOut),
                }
            }
            Interact::Rounds(round) => {
                let key = round.key(kind, key);
                if let Some(raw) = round.answer(&key) {
                    return Ok(raw);
                }
                round.ask(key, InputRequest::new(method, Some(params)));
                // The runtime drops this future as soon as the handler is pending.
                std::future::pending().await
            }
        }
    }

    /// Parses an answer; in the stateless era a malformed answer fails the request with -32602.
    fn parse_answer<T: DeserializeOwned>(
        &self,
        raw: &RawValue,
        what: &str,
    ) -> Result<T, InteractionError> {
        serde_json::from_str(raw.get()).map_err(|e| {
            let msg = format!(
                "the client's {what} result is invalid: {}",
                strip_position(&e)
            );
            if matches!(self.inner.interact, Interact::Rounds(_)) {
                self.record_fault(ErrorObject::invalid_params(msg.clone()));
            }
            InteractionError::InvalidResponse(msg)
        })
    }

    /// Asks the user to fill in a form whose fields are the properties of `T` (form-mode
    /// elicitation). `T` should be a flat struct of strings, numbers, booleans and string enums.
    ///
    /// Needs the client's `elicitation` capability (2025-06-18+, or 2026-07-28).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::Elicitation;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Contact {
    ///     /// Your name
    ///     name: String,
    ///     /// Your email address
    ///     email: String,
    /// }
    ///
    /// /// Registers the caller.
    /// #[tool]
    /// async fn register(ctx: Context) -> Result<String, ToolError> {
    ///     match ctx.elicit::<Contact>("Who are you?").await? {
    ///         Elicitation::Accept(c) => Ok(format!("registered {} <{}>", c.name, c.email)),
    ///         Elicitation::Decline | Elicitation::Cancel => Ok("not registered".into()),
    ///     }
    /// }
    /// # fn main() {}
    /// ```
    pub fn elicit<T: DeserializeOwned + JsonSchema + Send + 'static>(
        &self,
        message: impl Into<String>,
    ) -> Elicit<'_, T> {
        Elicit {
            ctx: self,
            message: message.into(),
            schema: None,
            key: None,
            _t: PhantomData,
        }
    }

    /// Sends the user to a URL (URL-mode elicitation, 2025-11-25+): for credentials, payments and
    /// anything that must not pass through the client. Resolves to the user's action (consent,
    /// not completion).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::ElicitAction;
    ///
    /// /// Connects the user's calendar.
    /// #[tool]
    /// async fn connect_calendar(ctx: Context) -> Result<String, ToolError> {
    ///     let action = ctx.elicit_url("Sign in to your calendar", "https://example.com/oauth").await?;
    ///     Ok(if action == ElicitAction::Accept { "opened".into() } else { "skipped".into() })
    /// }
    /// # fn main() {}
    /// ```
    pub fn elicit_url(&self, message: impl Into<String>, url: impl Into<String>) -> ElicitUrl<'_> {
        ElicitUrl {
            ctx: self,
            message: message.into(),
            url: url.into(),
            key: None,
        }
    }

    /// Asks the client's model for a completion (`sampling/createMessage`). Needs the client's
    /// `sampling` capability.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::{CreateMessageRequestParams, SamplingMessage};
    ///
    /// /// Asks the model.
    /// #[tool]
    /// async fn ask_model(ctx: Context, question: String) -> Result<String, ToolError> {
    ///     let request = CreateMessageRequestParams::new(vec![SamplingMessage::user(question)], 100);
    ///     let answer = ctx.sample(request).await?;
    ///     Ok(format!("{:?}", answer.content))
    /// }
    /// # fn main() {}
    /// ```
    pub fn sample(&self, request: CreateMessageRequestParams) -> Sample<'_> {
        Sample {
            ctx: self,
            request,
            key: None,
        }
    }

    /// Asks the client for its roots (`roots/list`). Needs the client's `roots` capability.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Counts the client's roots.
    /// #[tool]
    /// async fn count_roots(ctx: Context) -> Result<String, ToolError> {
    ///     Ok(format!("{} root(s)", ctx.roots().await?.len()))
    /// }
    /// # fn main() {}
    /// ```
    pub fn roots(&self) -> Roots<'_> {
        Roots {
            ctx: self,
            key: None,
        }
    }
}

fn strip_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    msg.rfind(" at line ")
        .map_or(msg.clone(), |i| msg[..i].to_owned())
}

/// The `requestedSchema` of `T`, generated once per type.
fn form_schema<T: JsonSchema + 'static>() -> Arc<Value> {
    static CACHE: OnceLock<Mutex<HashMap<TypeId, Arc<Value>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(s) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&TypeId::of::<T>())
    {
        return Arc::clone(s);
    }
    let profile = SchemaProfile::Portable;
    let mut generator = profile.generator();
    let mut value = profile.finish(generator.root_schema_for::<T>());
    if let Value::Object(map) = &mut value {
        map.remove("title");
        map.remove("$defs");
    }
    let value = Arc::new(value);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(TypeId::of::<T>(), Arc::clone(&value));
    value
}

/// A form elicitation being prepared; `.await` it. See [`Context::elicit`].
#[must_use = "an elicitation does nothing until awaited"]
pub struct Elicit<'a, T> {
    ctx: &'a Context,
    message: String,
    schema: Option<Value>,
    key: Option<String>,
    _t: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Elicit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicit")
            .field("message", &self.message)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<T> Elicit<'_, T> {
    /// Uses this `requestedSchema` instead of the one generated from `T` (for `default`s,
    /// titled enums and other details a derive cannot say).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let schema = serde_json::json!({"type": "object", "properties": {"ok": {"type": "boolean", "default": true}}});
    /// let _ = ctx.elicit::<serde_json::Map<String, serde_json::Value>>("Continue?").schema(schema).await;
    /// # }
    /// ```
    pub fn schema(mut self, schema: Value) -> Self {
        self.schema = Some(schema);
        self
    }

    /// Names this request in a stateless-era `inputRequests` map (default: `elicit-0`,
    /// `elicit-1`, … in call order).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let _ = ctx.elicit::<String>("Your name?").key("user_name").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a, T: DeserializeOwned + JsonSchema + Send + 'static> IntoFuture for Elicit<'a, T> {
    type Output = Result<Elicitation<T>, InteractionError>;
    type IntoFuture = LocalBoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::ElicitForm)?;
            let schema = match self.schema {
                Some(s) => s,
                None => Value::clone(&form_schema::<T>()),
            };
            let mut params = ElicitRequestParams::form(self.message, schema);
            params.for_version(ctx.protocol_version());
            let params = serde_json::to_value(params).unwrap_or_default();
            let raw = ctx
                .ask(
                    Kind::Elicit,
                    self.key,
                    mcp_core::client::ELICIT_METHOD,
                    params,
                )
                .await?;
            let result: ElicitResult = ctx.parse_answer(&raw, "elicitation")?;
            match result.action {
                ElicitAction::Accept => {
                    let content = Value::Object(result.content.unwrap_or_default());
                    let value = T::deserialize(content).map_err(|e| {
                        let msg =
                            format!("the submitted form does not fit: {}", strip_position(&e));
                        if matches!(ctx.inner.interact, Interact::Rounds(_)) {
                            ctx.record_fault(ErrorObject::invalid_params(msg.clone()));
                        }
                        InteractionError::InvalidResponse(msg)
                    })?;
                    Ok(Elicitation::Accept(value))
                }
                ElicitAction::Decline => Ok(Elicitation::Decline),
                _ => Ok(Elicitation::Cancel),
            }
        })
    }
}

/// A URL elicitation being prepared; `.await` it. See [`Context::elicit_url`].
#[derive(Debug)]
#[must_use = "an elicitation does nothing until awaited"]
pub struct ElicitUrl<'a> {
    ctx: &'a Context,
    message: String,
    url: String,
    key: Option<String>,
}

impl ElicitUrl<'_> {
    /// Names this request in a stateless-era `inputRequests` map (default `elicit-N`).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let _ = ctx.elicit_url("Pay", "https://example.com/pay").key("payment").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for ElicitUrl<'a> {
    type Output = Result<ElicitAction, InteractionError>;
    type IntoFuture = LocalBoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::ElicitUrl)?;
            let mut params =
                ElicitRequestParams::url(self.message, self.url, crate::random::token());
            params.for_version(ctx.protocol_version());
            let params = serde_json::to_value(params).unwrap_or_default();
            let raw = ctx
                .ask(
                    Kind::Elicit,
                    self.key,
                    mcp_core::client::ELICIT_METHOD,
                    params,
                )
                .await?;
            let result: ElicitResult = ctx.parse_answer(&raw, "elicitation")?;
            Ok(result.action)
        })
    }
}

/// A sampling request being prepared; `.await` it. See [`Context::sample`].
#[derive(Debug)]
#[must_use = "a sampling request does nothing until awaited"]
pub struct Sample<'a> {
    ctx: &'a Context,
    request: CreateMessageRequestParams,
    key: Option<String>,
}

impl Sample<'_> {
    /// Names this request in a stateless-era `inputRequests` map (default `sample-N`).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # use mcp_runtime::protocol::{CreateMessageRequestParams, SamplingMessage};
    /// # async fn demo(ctx: Context) {
    /// let request = CreateMessageRequestParams::new(vec![SamplingMessage::user("Hi")], 10);
    /// let _ = ctx.sample(request).key("greeting").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for Sample<'a> {
    type Output = Result<CreateMessageResult, InteractionError>;
    type IntoFuture = LocalBoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::Sampling)?;
            let mut request = self.request;
            if request.tools.is_some() {
                check(ctx, Need::SamplingTools)?;
            }
            request.for_version(ctx.protocol_version());
            let params = serde_json::to_value(request).unwrap_or_default();
            let raw = ctx
                .ask(
                    Kind::Sample,
                    self.key,
                    mcp_core::client::CREATE_MESSAGE_METHOD,
                    params,
                )
                .await?;
            ctx.parse_answer(&raw, "sampling")
        })
    }
}

/// A roots request being prepared; `.await` it. See [`Context::roots`].
#[derive(Debug)]
#[must_use = "a roots request does nothing until awaited"]
pub struct Roots<'a> {
    ctx: &'a Context,
    key: Option<String>,
}

impl Roots<'_> {
    /// Names this request in a stateless-era `inputRequests` map (default `roots-N`).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let _ = ctx.roots().key("client_roots").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for Roots<'a> {
    type Output = Result<Vec<Root>, InteractionError>;
    type IntoFuture = LocalBoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::Roots)?;
            let raw = ctx
                .ask(
                    Kind::Roots,
                    self.key,
                    mcp_core::client::LIST_ROOTS_METHOD,
                    serde_json::json!({}),
                )
                .await?;
            let result: ListRootsResult = ctx.parse_answer(&raw, "roots")?;
            Ok(result.roots)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Contact {
        /// Your name
        name: String,
        age: Option<u32>,
    }

    #[test]
    fn form_schema_is_flat_and_cached() {
        let s = form_schema::<Contact>();
        assert_eq!(s["type"], "object");
        assert_eq!(s["properties"]["name"]["type"], "string");
        assert_eq!(s["required"], serde_json::json!(["name"]));
        assert!(s.get("title").is_none() && s.get("$schema").is_none());
        assert!(Arc::ptr_eq(&s, &form_schema::<Contact>()));
    }

    #[test]
    fn missing_capability_names_it() {
        let e = missing_capability("sampling");
        assert_eq!(e.code, -32021);
        assert_eq!(
            e.data.unwrap()["requiredCapabilities"],
            serde_json::json!({"sampling": {}})
        );
        let e = missing_capability("elicitation.url");
        assert_eq!(
            e.data.unwrap()["requiredCapabilities"],
            serde_json::json!({"elicitation": {"url": {}}})
        );
    }

    #[test]
    fn pending_is_bounded_and_routes_responses() {
        let pending = Pending::new(1, Duration::from_secs(1));
        let (id, mut rx) = pending.register().unwrap();
        assert!(pending.register().is_err());
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"roots":[]}}}}"#,
            serde_json::to_string(&id).unwrap()
        );
        let mcp_core::jsonrpc::Message::Response(r) =
            mcp_core::jsonrpc::parse_message(&text).unwrap()
        else {
            panic!()
        };
        pending.complete(r);
        assert_eq!(rx.try_recv().unwrap().unwrap().get(), r#"{"roots":[]}"#);
        assert!(pending.register().is_ok());
    }
}
