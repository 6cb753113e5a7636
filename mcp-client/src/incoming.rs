//! What the server sends the client through the client's layers (for layers that ask,
//! `middleware::Layer::sees_incoming`): its questions around the [`ClientHandler`] that
//! answers them, and its notifications before the engine handles them.

use mcp_core::{ErrorObject, ProtocolVersion, RequestId};
use serde_json::{Map, Value};

use crate::engine::Engine;
use crate::error::ClientError;
use crate::handler::{ClientHandler, answer};
use crate::link::Link;
use crate::middleware::{Endpoint, Outcome, Request};
use crate::outgoing::Answer;
use mcp_io::lock;

impl Engine {
    /// What the layers see of a message of the server's: its params (an object, else none),
    /// revision and session.
    fn incoming_view(
        &self,
        params: Option<&Value>,
    ) -> (Map<String, Value>, ProtocolVersion, Option<String>) {
        let map = match params {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        let session = match &self.link {
            Link::Http(h) => h.session(),
            Link::Messages(_) => None,
        };
        (map, lock(&self.state).version, session)
    }

    /// A notification of the server's through the layers (a layer that does not go on drops
    /// it), then handled.
    pub(crate) async fn notified_through_layers(&self, method: String, params: Option<Value>) {
        let (map, version, session) = self.incoming_view(params.as_ref());
        let request =
            Request::incoming(&method, &map, version, None, self.config.transport, session);
        let endpoint: Endpoint<'_> = Box::new(|_meta| {
            self.notified(&method, params);
            Box::pin(std::future::ready(Outcome::notified()))
        });
        let _ = self.config.layers.run(&request, endpoint).await;
    }

    /// A question of the server's answered by `handler`, through the layers when there are
    /// some (a layer's answer is the client's).
    pub(crate) async fn answer_through_layers(
        &self,
        handler: &dyn ClientHandler,
        id: &RequestId,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, ErrorObject> {
        let layers = &self.config.layers;
        if !layers.sees_incoming() {
            return answer(handler, method, params).await;
        }
        let (map, version, session) = self.incoming_view(params.as_ref());
        let request = Request::incoming(
            method,
            &map,
            version,
            Some(id),
            self.config.transport,
            session,
        );
        let endpoint: Endpoint<'_> = Box::new(move |_meta| {
            Box::pin(async move {
                Outcome(match answer(handler, method, params).await {
                    Ok(v) => Ok(Answer(format!(
                        r#"{{"jsonrpc":"2.0","id":null,"result":{v}}}"#
                    ))),
                    Err(e) => Err(ClientError::Rpc(e)),
                })
            })
        });
        match layers.run(&request, endpoint).await {
            Ok(answer) if answer.text().is_empty() => Err(ErrorObject::internal(
                "a layer answered the request without a result",
            )),
            Ok(answer) => answer
                .value(method)
                .map_err(|e| ErrorObject::internal(e.to_string())),
            Err(ClientError::Rpc(e)) => Err(e),
            Err(other) => Err(ErrorObject::internal(other.to_string())),
        }
    }
}
