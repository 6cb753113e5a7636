//! How the client answers the server's questions: one [`ClientHandler`] for both eras (the
//! handshake era's server-to-client requests and the stateless era's `input_required` rounds).

use mcp_core::method::Method;
use mcp_core::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, ErrorObject, ListRootsResult,
};
use mcp_io::BoxFuture;
use serde_json::Value;

/// Answers the server's questions: elicitation, sampling and roots.
///
/// Every method has a default: elicitation is declined, sampling is refused with -32601 and the
/// roots are an empty list. The same implementation serves both eras: in the handshake era the
/// server asks with a request, in the stateless era with an `input_required` result whose
/// answers the client sends back in a retry; the client does that loop itself. Defaults given in
/// an elicitation's schema fill the fields an accepted answer leaves out (SEP-1034).
///
/// ```
/// use mcp_runtime_client::protocol::{ElicitAction, ElicitRequestParams, ElicitResult, ErrorObject};
/// use mcp_runtime_client::{BoxFuture, ClientHandler};
///
/// struct AlwaysYes;
///
/// impl ClientHandler for AlwaysYes {
///     fn elicit(
///         &self,
///         _request: ElicitRequestParams,
///     ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
///         Box::pin(async { Ok(ElicitResult::new(ElicitAction::Accept)) })
///     }
/// }
/// ```
pub trait ClientHandler: Send + Sync + 'static {
    /// Answers `elicitation/create`.
    fn elicit(
        &self,
        request: ElicitRequestParams,
    ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
        let _ = request;
        Box::pin(async { Ok(ElicitResult::new(ElicitAction::Decline)) })
    }

    /// Answers `sampling/createMessage`.
    fn create_message(
        &self,
        request: CreateMessageRequestParams,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ErrorObject>> {
        let _ = request;
        Box::pin(async { Err(ErrorObject::method_not_found("sampling/createMessage")) })
    }

    /// Answers `roots/list`.
    fn list_roots(&self) -> BoxFuture<'_, Result<ListRootsResult, ErrorObject>> {
        Box::pin(async { Ok(ListRootsResult::new(Vec::new())) })
    }

    /// Whether this handler, as a request's own ([`Call::handler`](crate::Call::handler)),
    /// takes a question of the server now. A handshake-era question names no request: the
    /// client gives it to the one request in flight with a handler of its own, and a handler
    /// that says no here is passed over (a request that waits on an answer of its own, such as
    /// a mount's call held open while its caller answers; see `mcp-runtime`'s `docs/client.md`).
    /// Default: yes.
    ///
    /// ```
    /// use mcp_runtime_client::ClientHandler;
    /// struct Busy;
    /// impl ClientHandler for Busy {
    ///     fn takes_questions(&self) -> bool {
    ///         false
    ///     }
    /// }
    /// assert!(!Busy.takes_questions());
    /// ```
    fn takes_questions(&self) -> bool {
        true
    }
}

/// The handler of a client that answers nothing itself: the defaults of [`ClientHandler`].
///
/// ```
/// let _ = mcp_runtime_client::NoHandler;
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHandler;

impl ClientHandler for NoHandler {}

/// Answers one question by method name with `handler`, returning the result as JSON; a name
/// that is not a server's request (unknown, or one of the other direction) is -32601.
pub(crate) async fn answer(
    handler: &dyn ClientHandler,
    method: &str,
    params: Option<Value>,
) -> Result<Value, ErrorObject> {
    fn parse<T: serde::de::DeserializeOwned>(params: Option<Value>) -> Result<T, ErrorObject> {
        serde_json::from_value(params.unwrap_or(Value::Null))
            .map_err(|e| ErrorObject::invalid_params(format!("invalid params: {e}")))
    }
    fn json<T: serde::Serialize>(v: T) -> Result<Value, ErrorObject> {
        serde_json::to_value(v).map_err(|e| ErrorObject::internal(e.to_string()))
    }
    match Method::server_request(method) {
        Method::Elicit => {
            let request: ElicitRequestParams = parse(params)?;
            let schema = request.requested_schema.clone();
            let mut result = handler.elicit(request).await?;
            if let Some(schema) = &schema {
                apply_defaults(&mut result, schema);
            }
            json(result)
        }
        Method::CreateMessage => json(handler.create_message(parse(params)?).await?),
        Method::ListRoots => json(handler.list_roots().await?),
        Method::Ping => Ok(Value::Object(Default::default())),
        _ => Err(ErrorObject::method_not_found(method)),
    }
}

/// Fills the fields an accepted elicitation left out with the defaults of its schema.
pub(crate) fn apply_defaults(result: &mut ElicitResult, schema: &Value) {
    if result.action != ElicitAction::Accept {
        return;
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    let content = result.content.get_or_insert_with(Default::default);
    for (name, prop) in props {
        if let Some(default) = prop.get("default")
            && !content.contains_key(name)
        {
            content.insert(name.clone(), default.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_only_missing_fields_of_an_accept() {
        let schema = json!({"type":"object","properties":{
            "name":{"type":"string","default":"John Doe"},
            "age":{"type":"integer","default":30},
            "plain":{"type":"string"}
        }});
        let mut r = ElicitResult::new(ElicitAction::Accept);
        r.content = Some(serde_json::from_value(json!({"age": 41})).unwrap());
        apply_defaults(&mut r, &schema);
        assert_eq!(
            serde_json::to_value(&r.content).unwrap(),
            json!({"age": 41, "name": "John Doe"})
        );
        let mut declined = ElicitResult::new(ElicitAction::Decline);
        apply_defaults(&mut declined, &schema);
        assert_eq!(declined.content, None);
    }
}
