//! What the server sends the client, through its layers: the requests a handler makes of the
//! client (`elicitation/create`, `sampling/createMessage`, `roots/list`) and the notifications
//! (progress, log messages, `list_changed`, `resources/updated`), each as a
//! [`Direction::Outgoing`](crate::middleware::Direction) request a layer that asks to
//! ([`Layer::sees_outgoing`](crate::middleware::Layer::sees_outgoing)) sees and may answer
//! or drop. Taken only when a layer asked: without one, messages go out as before.

use std::sync::{Arc, Mutex};

use mcp_core::jsonrpc::{Message, error_codes, parse_message};
use mcp_core::{ErrorObject, Method, ProtocolVersion, RequestId};
use serde_json::value::RawValue;

use super::ServerInner;
use crate::future::BoxFuture;
use crate::handler::ask::InteractionError;
use crate::handler::context::Context;
use crate::middleware::{Endpoint, Kind, Outcome, OutcomeKind, Request, TransportKind};
use crate::outbound::{Outbound, Sink};
use crate::sync::lock;

/// The way a request came to the server: its messages to the client go the same way.
#[derive(Debug, Clone)]
pub(crate) struct Via {
    pub(crate) transport: TransportKind,
    /// The transport's session id, kept only when a layer sees what the server sends.
    pub(crate) session: Option<Arc<str>>,
}

impl ServerInner {
    /// Whether the server's messages to the client take the layered path: a layer asked to
    /// see them.
    #[inline]
    pub(crate) fn sends_through_layers(&self) -> bool {
        self.options.layers.sees_outgoing()
    }

    /// A request to the client through the layers: `send` sends it and waits for the answer,
    /// when the layers go on. A layer's answer is the client's: its result is parsed as the
    /// client's would be, its error is the client's refusal.
    pub(crate) async fn ask_through_layers<'a>(
        &'a self,
        via: &'a Via,
        version: ProtocolVersion,
        id: &'a RequestId,
        method: &'static str,
        params: &'a RawValue,
        send: BoxFuture<'a, Result<Box<RawValue>, InteractionError>>,
    ) -> Result<Box<RawValue>, InteractionError> {
        let request = Request::new(
            Kind::Request,
            Method::server_request(method),
            Some(id),
            Some(params),
            Some(version),
            via.transport,
        )
        .outgoing()
        .with_session(via.session.as_deref());
        // What failed on the way (no answer at all), as the handler should see it; the layers
        // see it as an internal error.
        let failed: Mutex<Option<(InteractionError, ErrorObject)>> = Mutex::new(None);
        let slot = &failed;
        let endpoint: Endpoint<'_> = Box::pin(async move {
            match send.await {
                Ok(raw) => Outcome::shared(Arc::from(raw.get())),
                Err(InteractionError::Rejected(err)) => Outcome::error(err),
                Err(other) => {
                    let err = ErrorObject::internal(other.to_string());
                    *lock(slot) = Some((other, err.clone()));
                    Outcome::error(err)
                }
            }
        });
        let outcome = self.options.layers.run(&request, endpoint).await;
        if let Some(text) = outcome.result_json() {
            return RawValue::from_string(text.to_owned())
                .map_err(|e| InteractionError::InvalidResponse(e.to_string()));
        }
        let failed = lock(&failed).take();
        match (outcome.error_object(), outcome.kind()) {
            (Some(err), _) => match failed {
                // The endpoint's own failure, as it gave it.
                Some((why, seen))
                    if err.code == error_codes::INTERNAL_ERROR && err.message == seen.message =>
                {
                    Err(why)
                }
                _ => Err(InteractionError::Rejected(err.clone())),
            },
            (None, OutcomeKind::Cancelled) => Err(InteractionError::Disconnected),
            (None, _) => Err(InteractionError::InvalidResponse(
                "a layer answered the request without a result".into(),
            )),
        }
    }

    /// A notification (`message`, as framed) to the client through the layers: `send` sends it
    /// when the layers go on (a layer that does not drops it).
    pub(crate) async fn notify_through_layers<'a, 's: 'a>(
        &'a self,
        via: &'a Via,
        version: Option<ProtocolVersion>,
        message: Vec<u8>,
        send: impl FnOnce(Vec<u8>) -> BoxFuture<'s, ()> + Send + 's,
    ) {
        let (method, params) = match std::str::from_utf8(&message).map(parse_message) {
            Ok(Ok(Message::Notification(n))) => (
                Method::server_notification(&n.method),
                n.params.map(RawValue::to_owned),
            ),
            // Not one of ours: the server frames what it sends.
            _ => return send(message).await,
        };
        let request = Request::new(
            Kind::Notification,
            method,
            None,
            params.as_deref(),
            version,
            via.transport,
        )
        .outgoing()
        .with_session(via.session.as_deref());
        let endpoint: Endpoint<'_> = Box::pin(async move {
            send(message).await;
            Outcome::notified()
        });
        let _ = self.options.layers.run(&request, endpoint).await;
    }
}

impl Context {
    /// Sends a notification to the client: through the server's layers, when one asked.
    pub(crate) async fn send_notification(&self, peer: &Sink, msg: Vec<u8>) {
        let server = &self.inner.server;
        if !server.sends_through_layers() {
            let _ = peer.send(Outbound::Message(msg)).await;
            return;
        }
        let send = |msg: Vec<u8>| -> BoxFuture<'_, ()> {
            Box::pin(async move {
                let _ = peer.send(Outbound::Message(msg)).await;
            })
        };
        let version = Some(self.inner.version);
        server
            .notify_through_layers(&self.inner.via, version, msg, send)
            .await;
    }
}
