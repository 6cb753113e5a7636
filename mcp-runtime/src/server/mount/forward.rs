//! The requests a mount forwards (`Forward`, implemented by [`Remote`]): each awaited inside our
//! handler's future with its progress, log messages and questions passed on to our client, and
//! cancelled on the remote when our client cancels it (the client's request is dropped).

use std::future::IntoFuture;
use std::sync::Arc;

use mcp_core::meta::SERVER_INFO_KEY;
use mcp_core::{
    CallToolResult, CompleteRequestParams, CompleteResult, ErrorObject, GetPromptResult, Meta,
    ProgressNotificationParams, ResourceContents,
};
use serde_json::json;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use mcp_client::{BoxFuture, Call, ClientError};

use super::Remote;
use super::held::{Full, Open, drive_round};
use super::logs::{Passed, log};
use super::relay::{Question, Relay, ask};
use crate::error::{HandlerError, ToolError};
use crate::handler::context::Context;
use crate::handler::peer::Interact;
use crate::handler::rounds::Round;
use crate::registry::PromptArguments;
use crate::registry::mounted::{Forward, Held};

/// How many progress notifications of one forwarded request wait at most (more are dropped).
const PROGRESS_QUEUE: usize = 32;

impl Remote {
    /// A request made ready to go: the subscriptions asked before it are in place on the
    /// remote, its log messages are asked for at the caller's level (in the request's `_meta`
    /// for a stateless remote, by `logging/setLevel` for a handshake-era one) and watched for,
    /// its progress queued when the caller asked for progress.
    async fn prepare<T>(&self, ctx: &Context, call: Call<T>) -> (Call<T>, Passed) {
        self.shared.subs.settled().await;
        let threshold = ctx.log_threshold();
        // A stateless caller's messages belong to its request, as do all of a stateless remote's.
        let per_request = self.stateless || ctx.protocol_version().is_stateless();
        let (taker, logs) = self
            .shared
            .logs
            .watch(threshold.filter(|_| per_request), &self.shared);
        let call = match taker {
            Some(tx) => call.on_log(move |m| {
                let _ = tx.try_send(m);
            }),
            None => call,
        };
        let call = if self.stateless {
            match threshold.and_then(mcp_core::LoggingLevel::from_severity) {
                Some(level) => call.log_level(level),
                None => call,
            }
        } else {
            if self.declared().logging {
                self.shared.logs.ensure_level(&self.client).await;
            }
            call
        };
        let (progress, updates) = progress_queue(ctx);
        let call = match progress {
            Some(f) => call.progress(f),
            None => call,
        };
        (call, Passed { updates, logs })
    }

    /// Sends `call` with its questions relayed and awaits it, its result made ours.
    async fn forward<T: serde::de::DeserializeOwned + Send + 'static>(
        &self,
        ctx: &Context,
        call: Call<T>,
        tool: bool,
    ) -> Result<T, HandlerError> {
        // A stateless caller's call is held open between its rounds (`held`).
        if let Interact::Rounds(round) = &ctx.inner.interact {
            return self.forward_in_rounds(ctx, round, call, tool).await;
        }
        let (call, passed) = self.prepare(ctx, call).await;
        let (relay, questions) = Relay::channel();
        drive(ctx, call.handler(relay).into_future(), passed, questions)
            .await
            .map_err(|e| self.failure(e, tool))
    }

    /// [`forward`](Self::forward) for a stateless caller: a first round sends `call`; a retry
    /// whose state continues a held call joins it instead (and `call` is not sent).
    async fn forward_in_rounds<T: serde::de::DeserializeOwned + Send + 'static>(
        &self,
        ctx: &Context,
        round: &Round,
        call: Call<T>,
        tool: bool,
    ) -> Result<T, HandlerError> {
        let client = crate::principal::current().unwrap_or_else(|| Arc::from("unknown"));
        let open = if round.held() {
            drop(call);
            self.shared
                .held
                .take(round, &client)
                .map_err(HandlerError::Protocol)?
        } else {
            let (call, passed) = self.prepare(ctx, call).await;
            let parked = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let (relay, questions) = Relay::channel_held(Arc::clone(&parked));
            let request = call.handler(relay).into_future();
            Open::new(request, passed, questions, client, parked)
        };
        match drive_round(ctx, round, &self.shared.held, open).await {
            Ok(outcome) => outcome.map_err(|e| self.failure(e, tool)),
            Err(Full(message)) if tool => Err(HandlerError::Tool(ToolError::new(message))),
            Err(Full(message)) => Err(HandlerError::Protocol(ErrorObject::internal(message))),
        }
    }
}

impl Forward for Remote {
    fn call_tool(
        &self,
        ctx: Context,
        name: Arc<str>,
        arguments: Option<Box<RawValue>>,
    ) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
        let remote = self.clone();
        Box::pin(async move {
            let call = match &arguments {
                Some(args) => remote.client.call_tool(&name, &**args),
                None => remote.client.call_tool(&name, json!({})),
            };
            let mut result = remote.forward(&ctx, call, true).await?;
            own_result(&mut result.result_type, &mut result.meta);
            Ok(result)
        })
    }

    fn read_resource(
        &self,
        ctx: Context,
        uri: String,
    ) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
        let remote = self.clone();
        Box::pin(async move {
            let read = remote.client.read_resource(&uri);
            let result = remote.forward(&ctx, read, false).await?;
            // Our URIs, not the remote's.
            let mut contents = result.contents;
            for c in &mut contents {
                let uri = match c {
                    ResourceContents::Text(t) => &mut t.uri,
                    ResourceContents::Blob(b) => &mut b.uri,
                };
                if !remote.prefix.is_empty() {
                    *uri = format!("{}+{uri}", remote.prefix);
                }
            }
            Ok(contents)
        })
    }

    fn get_prompt(
        &self,
        ctx: Context,
        name: Arc<str>,
        arguments: PromptArguments,
    ) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>> {
        let remote = self.clone();
        Box::pin(async move {
            let get = remote.client.get_prompt(&name, &arguments.0);
            let mut result = remote.forward(&ctx, get, false).await?;
            own_result(&mut result.result_type, &mut result.meta);
            Ok(result)
        })
    }

    fn complete(
        &self,
        ctx: Context,
        params: CompleteRequestParams,
    ) -> BoxFuture<'static, Result<CompleteResult, HandlerError>> {
        let remote = self.clone();
        Box::pin(async move {
            let complete = remote.client.complete(&params);
            let mut result = remote.forward(&ctx, complete, false).await?;
            own_result(&mut result.result_type, &mut result.meta);
            Ok(result)
        })
    }

    fn subscribe(&self, uri: String) -> Result<Held, ErrorObject> {
        if !self.declared().subscribe {
            return Err(ErrorObject::invalid_params(format!(
                "mounted server '{}' does not support resource subscriptions",
                self.prefix
            )));
        }
        self.shared.subs.hold(uri)
    }

    fn log_levels_changed(&self, least: u8) {
        self.shared.logs.sessions_set(least);
        if !self.stateless && self.declared().logging {
            let remote = self.clone();
            tokio::spawn(async move { remote.shared.logs.ensure_level(&remote.client).await });
        }
    }
}

/// A remote result made ours: its `resultType` and server identity go (the dispatcher writes
/// this server's).
fn own_result(result_type: &mut Option<mcp_core::ResultType>, meta: &mut Option<Meta>) {
    *result_type = None;
    if let Some(m) = meta {
        m.remove(SERVER_INFO_KEY);
        if m.is_empty() {
            *meta = None;
        }
    }
}

/// The callback that queues a forwarded request's progress (when our client asked for it).
#[allow(clippy::type_complexity)]
fn progress_queue(
    ctx: &Context,
) -> (
    Option<impl Fn(ProgressNotificationParams) + Send + Sync + 'static>,
    mpsc::Receiver<ProgressNotificationParams>,
) {
    let (tx, rx) = mpsc::channel(PROGRESS_QUEUE);
    let f = ctx
        .wants_progress()
        .then_some(move |p: ProgressNotificationParams| {
            let _ = tx.try_send(p);
        });
    (f, rx)
}

/// Awaits a forwarded request inside our handler's future, passing its progress and log
/// messages on and asking our client its questions there (so that, in the stateless era, a
/// question of ours stops the handler with `input_required` as any handler's would).
async fn drive<T>(
    ctx: &Context,
    request: impl std::future::Future<Output = Result<T, ClientError>>,
    mut passed: Passed,
    mut questions: mpsc::Receiver<Question>,
) -> Result<T, ClientError> {
    tokio::pin!(request);
    loop {
        tokio::select! {
            outcome = &mut request => {
                // What the remote sent before its answer: pass on what is still queued.
                while let Ok(m) = passed.logs.rx.try_recv() {
                    log(ctx, m).await;
                }
                while let Ok(p) = passed.updates.try_recv() {
                    ctx.progress(p.progress, p.total, p.message.as_deref()).await;
                }
                return outcome;
            }
            Some(p) = passed.updates.recv() => {
                ctx.progress(p.progress, p.total, p.message.as_deref()).await;
            }
            Some(m) = passed.logs.rx.recv() => log(ctx, m).await,
            Some(mut q) = questions.recv() => {
                // The remote may cancel its question: then ours is dropped too (and our client
                // told), while the request goes on.
                tokio::select! {
                    answer = ask(ctx, q.asked, None) => drop(q.reply.send(answer)),
                    () = q.reply.closed() => {}
                }
            }
        }
    }
}
