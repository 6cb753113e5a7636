//! The remote's questions (elicitation, sampling, roots) during a forwarded request, asked of
//! our client through the request's [`Context`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

#[derive(Clone)]
pub(super) enum Asked {
    Elicit(ElicitRequestParams),
    Sample(mcp_core::CreateMessageRequestParams),
    Roots,
}

impl Asked {
    /// The prefix of its input keys in a round (`elicit-0`, `sample-0`, `roots-0`) and its
    /// counter among a call's questions.
    pub(super) fn kind(&self) -> (&'static str, usize) {
        match self {
            Asked::Elicit(_) => ("elicit", 0),
            Asked::Sample(_) => ("sample", 1),
            Asked::Roots => ("roots", 2),
        }
    }
}

/// Asks our client what the remote asked, through the request's [`Context`]; in a stateless
/// round, under the input key `key` when one is given (a held call's keys stay the same over
/// its rounds).
pub(super) async fn ask(
    ctx: &Context,
    asked: Asked,
    key: Option<String>,
) -> Result<Value, ErrorObject> {
    let json =
        |v: Result<Value, serde_json::Error>| v.map_err(|e| ErrorObject::internal(e.to_string()));
    match asked {
        Asked::Elicit(p) if p.mode == Some(ElicitMode::Url) => {
            let url = p.url.unwrap_or_default();
            let asking = ctx.elicit_url(p.message, url);
            let asking = match key {
                Some(k) => asking.key(k),
                None => asking,
            };
            let action = asking.await.map_err(refused)?;
            json(serde_json::to_value(ElicitResult::new(action)))
        }
        Asked::Elicit(p) => {
            let schema = p
                .requested_schema
                .unwrap_or_else(|| json!({"type": "object"}));
            let asking = ctx.elicit::<Map<String, Value>>(p.message).schema(schema);
            let asking = match key {
                Some(k) => asking.key(k),
                None => asking,
            };
            let answer = asking.await.map_err(refused)?;
            let result = match answer {
                crate::Elicitation::Accept(content) => {
                    ElicitResult::new(ElicitAction::Accept).with_content(content)
                }
                crate::Elicitation::Decline => ElicitResult::new(ElicitAction::Decline),
                crate::Elicitation::Cancel => ElicitResult::new(ElicitAction::Cancel),
            };
            json(serde_json::to_value(result))
        }
        Asked::Sample(p) => {
            let asking = ctx.sample(p);
            let asking = match key {
                Some(k) => asking.key(k),
                None => asking,
            };
            json(serde_json::to_value(asking.await.map_err(refused)?))
        }
        Asked::Roots => {
            let asking = ctx.roots();
            let asking = match key {
                Some(k) => asking.key(k),
                None => asking,
            };
            let roots = asking.await.map_err(refused)?;
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

/// The handler of one forwarded request: hands each question to the request's [`drive`]
/// (`forward`, or `held::drive_round`, whose call may be held: then `held` says so, and the
/// call takes no new question meanwhile: it waits on the answer to its own).
pub(super) struct Relay(mpsc::Sender<Question>, Option<Arc<AtomicBool>>);

impl Relay {
    pub(super) fn channel() -> (Relay, mpsc::Receiver<Question>) {
        let (tx, rx) = mpsc::channel(QUESTION_QUEUE);
        (Relay(tx, None), rx)
    }

    /// [`channel`](Self::channel) for a call that may be held: `held` is set while it is.
    pub(super) fn channel_held(held: Arc<AtomicBool>) -> (Relay, mpsc::Receiver<Question>) {
        let (tx, rx) = mpsc::channel(QUESTION_QUEUE);
        (Relay(tx, Some(held)), rx)
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

    fn takes_questions(&self) -> bool {
        !self.1.as_ref().is_some_and(|h| h.load(Ordering::Acquire))
    }
}
