//! The one path every question to the client takes, whatever it asks: the capability check
//! (`Need`; -32021 naming the capability the client did not declare), `Context::ask` (sent on
//! the session and awaited, found in this round's answers, or recorded for `input_required`,
//! as `handler/peer` decides), the answer parsed, and what can go wrong
//! ([`InteractionError`]; a form's outcome, [`Elicitation`]). The builders users call are in
//! `handler/requests`.

use std::fmt;

use mcp_core::jsonrpc::{echo, error_codes};
use mcp_core::{ErrorObject, InputRequest, ProtocolVersion};
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::error::{HandlerError, IntoHandlerError, ToolError};
use crate::handler::context::Context;
use crate::handler::peer::{Forget, Interact, Pending, Refused};
use crate::handler::rounds::Kind;
use crate::handler::rounds::Round;
use crate::handler::task_port::InputError;
use crate::outbound::Outbound;
use mcp_core::tasks::TaskStatus;

/// A question to the client whose asker stopped waiting (its handler was dropped): the client
/// is told with `notifications/cancelled` (when the connection's queue has room).
struct Abandoned(Option<(crate::outbound::Sink, mcp_core::RequestId)>);

impl Abandoned {
    /// The client answered (or the wait ended): nothing to cancel.
    fn answered(&mut self) {
        self.0 = None;
    }
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        if let Some((peer, id)) = self.0.take() {
            let params = serde_json::json!({"requestId": id, "reason": "no longer needed"});
            let note = crate::wire::notification("notifications/cancelled", &params);
            let _ = peer.try_send(Outbound::Message(note));
        }
    }
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
    /// The connection closed (or closed meanwhile): nobody will answer.
    Disconnected,
    /// Too many requests to the client are waiting for answers already, on this session or on
    /// the whole server (see `ServerBuilder::max_client_requests`); the handler may try later.
    Busy,
}

// By hand, not `thiserror`: an `InteractionError` that were a `std::error::Error` would meet the
// blanket conversions of `ToolError` and `IntoHandlerError`, and it converts differently.
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
            Self::Busy => f.write_str("too many requests to the client are waiting for answers"),
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
pub(crate) fn check(ctx: &Context, what: Need) -> Result<(), InteractionError> {
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
pub(crate) enum Need {
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
    pub(crate) async fn ask(
        &self,
        kind: Kind,
        key: Option<String>,
        method: &'static str,
        params: Value,
    ) -> Result<Box<RawValue>, InteractionError> {
        match &self.inner.interact {
            Interact::None => Err(InteractionError::NotAvailable),
            Interact::Peer(pending) => self.ask_peer(pending, method, params).await,
            Interact::Rounds(round) => ask_round(round, kind, key, method, params).await,
            Interact::Task(port) => match (port.hooks(), &port.round, &port.pending) {
                // Stateless era, a task already: answers of the rounds before it still count.
                (Some(task), Some(round), _) => {
                    let key = round.key(kind, key);
                    if let Some(raw) = round.answer(&key) {
                        return Ok(raw);
                    }
                    task.input(key, InputRequest::new(method, Some(params)))
                        .await
                        .map_err(|e| match e {
                            InputError::Busy => InteractionError::Busy,
                            InputError::Closed => InteractionError::Disconnected,
                        })
                }
                // Not a task yet: a round of the `tools/call`.
                (None, Some(round), _) => ask_round(round, kind, key, method, params).await,
                // Handshake era: a request on the session, tagged with the task, which waits in
                // `input_required` meanwhile.
                (Some(task), None, Some(pending)) => {
                    let mut params = params;
                    if let Value::Object(map) = &mut params {
                        let meta = map
                            .entry("_meta")
                            .or_insert_with(|| Value::Object(Default::default()));
                        if let Value::Object(meta) = meta {
                            meta.extend(mcp_core::tasks::related_task_meta(task.task_id()));
                        }
                    }
                    task.status(TaskStatus::InputRequired, None).await;
                    let answer = self.ask_peer(pending, method, params).await;
                    task.status(TaskStatus::Working, None).await;
                    answer
                }
                _ => Err(InteractionError::NotAvailable),
            },
        }
    }

    /// Sends a request to the client on the session and waits for its answer.
    async fn ask_peer(
        &self,
        pending: &Pending,
        method: &'static str,
        params: Value,
    ) -> Result<Box<RawValue>, InteractionError> {
        let Some(peer) = &self.inner.peer else {
            return Err(InteractionError::NotAvailable);
        };
        let (id, rx) = pending.register().map_err(|refused| match refused {
            Refused::Closed => InteractionError::Disconnected,
            Refused::Full => InteractionError::Busy,
        })?;
        let _forget = Forget(pending, id.clone());
        let asked = id.clone();
        let request = crate::wire::request(&id, method, &params);
        // The server's layers see the params (only when there are some).
        let server = &self.inner.server;
        let layered = if server.sends_through_layers() {
            serde_json::value::to_raw_value(&params).ok()
        } else {
            None
        };
        // Waiting may take minutes: keep nothing the answer does not need.
        drop(params);
        let timeout = pending.timeout;
        let send = async move {
            if peer.send(Outbound::Message(request)).await.is_err() {
                return Err(InteractionError::Disconnected);
            }
            // Sent (not answered by a layer): from here a dropped wait is told to the client.
            let mut abandoned = Abandoned(Some((peer.clone(), asked)));
            let answer = tokio::time::timeout(timeout, rx).await;
            abandoned.answered();
            match answer {
                Ok(Ok(Ok(raw))) => Ok(raw),
                Ok(Ok(Err(err))) => Err(InteractionError::Rejected(err)),
                Ok(Err(_)) => Err(InteractionError::Disconnected),
                Err(_) => Err(InteractionError::TimedOut),
            }
        };
        match layered {
            None => send.await,
            Some(params) => {
                let via = &self.inner.via;
                let version = self.inner.version;
                let send = Box::pin(send);
                server
                    .ask_through_layers(via, version, &id, method, &params, send)
                    .await
            }
        }
    }

    /// Parses an answer; in the stateless era a malformed answer fails the request with -32602.
    pub(crate) fn parse_answer<T: DeserializeOwned>(
        &self,
        raw: &RawValue,
        what: &str,
    ) -> Result<T, InteractionError> {
        serde_json::from_str(raw.get()).map_err(|e| {
            let msg = format!(
                "the client's {what} result is invalid: {}",
                echo(&strip_position(&e))
            );
            if self.inner.interact.round().is_some() {
                self.record_fault(ErrorObject::invalid_params(msg.clone()));
            }
            InteractionError::InvalidResponse(msg)
        })
    }
}

/// Finds an answer in this round, or records the question and stops: the runtime drops the
/// handler's future as soon as it is pending.
async fn ask_round(
    round: &Round,
    kind: Kind,
    key: Option<String>,
    method: &'static str,
    params: Value,
) -> Result<Box<RawValue>, InteractionError> {
    let key = round.key(kind, key);
    if let Some(raw) = round.answer(&key) {
        return Ok(raw);
    }
    round.ask(key, InputRequest::new(method, Some(params)));
    std::future::pending().await
}

pub(crate) fn strip_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    msg.rfind(" at line ")
        .map_or(msg.clone(), |i| msg[..i].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
