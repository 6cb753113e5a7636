//! The remote's questions (elicitation, sampling, roots) during a forwarded request, asked of
//! our client through the request's [`Context`].

use mcp_client::{BoxFuture, ClientHandler};
use mcp_core::client::ElicitMode;
use mcp_core::{ElicitAction, ElicitRequestParams, ElicitResult, ErrorObject, ListRootsResult};
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};

use crate::handler::ask::{InteractionError, missing_capability};
use crate::handler::context::Context;

/// How many questions of one forwarded request wait at most.
const QUESTION_QUEUE: usize = 4;

/// A question of the remote server, waiting for our client's answer.
pub(super) struct Question {
    pub(super) asked: Asked,
    pub(super) reply: oneshot::Sender<Result<Value, ErrorObject>>,
}

pub(super) enum Asked {
    Elicit(ElicitRequestParams),
    Sample(mcp_core::CreateMessageRequestParams),
    Roots,
}

/// Asks our client what the remote asked, through the request's [`Context`].
pub(super) async fn ask(ctx: &Context, asked: Asked) -> Result<Value, ErrorObject> {
    let json =
        |v: Result<Value, serde_json::Error>| v.map_err(|e| ErrorObject::internal(e.to_string()));
    match asked {
        Asked::Elicit(p) if p.mode == Some(ElicitMode::Url) => {
            let url = p.url.unwrap_or_default();
            let action = ctx.elicit_url(p.message, url).await.map_err(refused)?;
            json(serde_json::to_value(ElicitResult::new(action)))
        }
        Asked::Elicit(p) => {
            let schema = p
                .requested_schema
                .unwrap_or_else(|| json!({"type": "object"}));
            let answer = ctx
                .elicit::<Map<String, Value>>(p.message)
                .schema(schema)
                .await
                .map_err(refused)?;
            let result = match answer {
                crate::Elicitation::Accept(content) => {
                    ElicitResult::new(ElicitAction::Accept).with_content(content)
                }
                crate::Elicitation::Decline => ElicitResult::new(ElicitAction::Decline),
                crate::Elicitation::Cancel => ElicitResult::new(ElicitAction::Cancel),
            };
            json(serde_json::to_value(result))
        }
        Asked::Sample(p) => json(serde_json::to_value(ctx.sample(p).await.map_err(refused)?)),
        Asked::Roots => {
            let roots = ctx.roots().await.map_err(refused)?;
            json(serde_json::to_value(ListRootsResult::new(roots)))
        }
    }
}

/// Why our client did not answer, as the error the remote gets.
fn refused(err: InteractionError) -> ErrorObject {
    match err {
        InteractionError::Rejected(e) => e,
        InteractionError::Unsupported { capability } => missing_capability(capability),
        other => ErrorObject::internal(other.to_string()),
    }
}

/// The handler of one forwarded request: hands each question to the request's [`drive`].
pub(super) struct Relay(mpsc::Sender<Question>);

impl Relay {
    pub(super) fn channel() -> (Relay, mpsc::Receiver<Question>) {
        let (tx, rx) = mpsc::channel(QUESTION_QUEUE);
        (Relay(tx), rx)
    }

    async fn relay<T: serde::de::DeserializeOwned>(&self, asked: Asked) -> Result<T, ErrorObject> {
        let (reply, answer) = oneshot::channel();
        let gone = || ErrorObject::internal("the forwarded request has ended");
        self.0
            .send(Question { asked, reply })
            .await
            .map_err(|_| gone())?;
        let value = answer.await.map_err(|_| gone())??;
        serde_json::from_value(value).map_err(|e| ErrorObject::internal(e.to_string()))
    }
}

impl ClientHandler for Relay {
    fn elicit(
        &self,
        request: ElicitRequestParams,
    ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
        Box::pin(self.relay(Asked::Elicit(request)))
    }

    fn create_message(
        &self,
        request: mcp_core::CreateMessageRequestParams,
    ) -> BoxFuture<'_, Result<mcp_core::CreateMessageResult, ErrorObject>> {
        Box::pin(self.relay(Asked::Sample(request)))
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<ListRootsResult, ErrorObject>> {
        Box::pin(self.relay(Asked::Roots))
    }
}
