//! Composition (feature `client`): a server that serves another server's tools, resources and
//! prompts under a prefix ([`ServerBuilder::mount`]), forwarding each request through a
//! [`Client`] of `mcp-runtime-client`.
//!
//! The remote lists are read once when the server is built and again whenever the remote says
//! that one changed; each read builds the renamed descriptors once (`registry::mounted`), swaps
//! them into the catalog and tells our clients what changed. A forwarded request carries the
//! caller's progress back, is cancelled on the remote when the caller cancels it, and relays the
//! remote's questions (elicitation, sampling, roots) to the caller, in either era on either side.

use std::future::IntoFuture;
use std::sync::{Arc, Weak};

use mcp_core::client::ElicitMode;
use mcp_core::meta::SERVER_INFO_KEY;
use mcp_core::method::Method;
use mcp_core::{
    CallToolResult, ElicitAction, ElicitRequestParams, ElicitResult, ErrorObject, GetPromptResult,
    ListRootsResult, Meta, ProgressNotificationParams, ResourceContents, SubscriptionFilter,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};

use mcp_client::{
    BoxFuture, Client, ClientError, ClientHandler, NotificationsError, ServerNotification,
};

use crate::error::{HandlerError, ToolError};
use crate::handler::ask::{InteractionError, missing_capability};
use crate::handler::context::Context;
use crate::registry::PromptArguments;
use crate::registry::mounted::{Forward, MountedItems, RemoteLists};
use crate::server::{Server, ServerBuilder, ServerInner};

/// How many items of each list one mount serves at most.
const MAX_ITEMS: usize = 10_000;
/// How many progress notifications of one forwarded request wait at most (more are dropped).
const PROGRESS_QUEUE: usize = 32;
/// How long a mount waits for its `subscriptions/listen` to be acknowledged before its first read.
const ACK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// How many questions of one forwarded request wait at most.
const QUESTION_QUEUE: usize = 4;

impl ServerBuilder {
    /// Serves the tools, resources and prompts of the server `client` is connected to, under
    /// `prefix`: its tool `echo` is our `prefix.echo`, its prompt `greet` our `prefix.greet`,
    /// its resource `file:///a.md` our `prefix+file:///a.md` (templates alike). Calls, reads and
    /// gets are forwarded with their progress, cancellation and questions; the remote's list
    /// changes become ours.
    ///
    /// The prefix is 1-32 of `A-Za-z0-9.-`, starting with a letter, or empty (names and URIs
    /// stay as they are: a proxy), and names one mount only
    /// (checked by [`build`](Self::build), which must run inside a tokio runtime when anything
    /// is mounted). A local item named like a mounted one wins. When the remote is gone, its
    /// items stay listed and fail with an error naming the mount; everything else is served as
    /// before. See [`Server::mounted`] to wait for the first lists.
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::client::Client;
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// let math = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    /// let link = math.connect_client(Client::builder()).await.unwrap();
    /// let gateway = Server::builder(server_info!()).mount("math", link).build().unwrap();
    /// gateway.mounted().await;
    ///
    /// let client = gateway.connect_client(Client::builder()).await.unwrap();
    /// assert_eq!(client.list_tools().await.unwrap()[0].name, "math.add");
    /// let sum = client.call_tool("math.add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
    /// assert_eq!(sum.content[0].as_text(), Some("5"));
    /// # });
    /// ```
    pub fn mount(self, prefix: impl Into<String>, client: Client) -> Self {
        self.mount_with(prefix, client, crate::transform::MountOptions::new())
    }

    /// [`mount`](Self::mount), with `options`: the mounted items transformed (renamed, hidden,
    /// their arguments fixed or defaulted, resources and prompts exposed as tools; see
    /// [`transform`](crate::transform)), named as on the mounted server, before the prefix.
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::client::Client;
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::transform::{ArgTransform, MountOptions, ToolTransform};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// let math = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    /// let link = math.connect_client(Client::builder()).await.unwrap();
    /// let options = MountOptions::new().transform(
    ///     ToolTransform::new("add").rename("inc").arg("b", ArgTransform::fixed(serde_json::json!(1))),
    /// );
    /// let gateway = Server::builder(server_info!()).mount_with("math", link, options).build().unwrap();
    /// gateway.mounted().await;
    ///
    /// let client = gateway.connect_client(Client::builder()).await.unwrap();
    /// let sum = client.call_tool("math.inc", serde_json::json!({"a": 2})).await.unwrap();
    /// assert_eq!(sum.content[0].as_text(), Some("3"));
    /// # });
    /// ```
    pub fn mount_with(
        mut self,
        prefix: impl Into<String>,
        client: Client,
        options: crate::transform::MountOptions,
    ) -> Self {
        let prefix: Arc<str> = Arc::from(prefix.into());
        let remote = Arc::new(Remote {
            client,
            prefix: Arc::clone(&prefix),
            transforms: Arc::new(options.transforms),
        });
        let index = self.records.mounts.len();
        let forward: Arc<dyn Forward> = remote.clone();
        // Until the first lists are in, the capabilities follow what the remote declared.
        let declared = remote.declared();
        let items = MountedItems::new(prefix, forward, None, declared, RemoteLists::default());
        self.records.mounts.push(Arc::new(items));
        self.on_build.push(Box::new(move |server: &Server| {
            tokio::spawn(watch(Arc::downgrade(&server.inner), remote, index));
        }));
        self
    }
}

/// One mounted server, reached through its client.
struct Remote {
    client: Client,
    prefix: Arc<str>,
    /// What becomes of its items (`ServerBuilder::mount_with`).
    transforms: Arc<crate::transform::Transforms>,
}

impl Remote {
    /// Whether the remote declared tools, resources and prompts.
    fn declared(&self) -> [bool; 3] {
        let caps = self.client.server_capabilities();
        [
            caps.tools.is_some(),
            caps.resources.is_some(),
            caps.prompts.is_some(),
        ]
    }

    /// Reads the remote lists (those its server declared), at most [`MAX_ITEMS`] each.
    async fn lists(&self) -> Result<(RemoteLists, [bool; 3]), ClientError> {
        let declared = self.declared();
        let mut lists = RemoteLists::default();
        if declared[0] {
            lists.tools = self.client.list_tools().await?;
        }
        if declared[1] {
            lists.resources = self.client.list_resources().await?;
            lists.templates = self.client.list_resource_templates().await?;
        }
        if declared[2] {
            lists.prompts = self.client.list_prompts().await?;
        }
        let long = lists.tools.len().max(lists.resources.len());
        let long = long.max(lists.templates.len()).max(lists.prompts.len());
        if long > MAX_ITEMS {
            tracing::warn!(prefix = %self.prefix, "a mounted server lists more than {MAX_ITEMS} items of a kind: the rest is left out");
            lists.tools.truncate(MAX_ITEMS);
            lists.resources.truncate(MAX_ITEMS);
            lists.templates.truncate(MAX_ITEMS);
            lists.prompts.truncate(MAX_ITEMS);
        }
        Ok((lists, declared))
    }

    /// A failed forwarded request as the error our client sees: the remote's own protocol error
    /// as it is, anything else (the connection, a timeout) naming the mount, its sources (an I/O
    /// or HTTP error, which may name hosts and paths of this side) logged here only.
    fn failure(&self, err: ClientError, tool: bool) -> HandlerError {
        match err {
            ClientError::Rpc(e) => HandlerError::Protocol(e),
            other => {
                tracing::warn!(
                    prefix = %self.prefix,
                    error = &other as &dyn std::error::Error,
                    "a forwarded request failed"
                );
                let message = format!("mounted server '{}' failed: {other}", self.prefix);
                if tool {
                    HandlerError::Tool(ToolError::new(message))
                } else {
                    HandlerError::Protocol(ErrorObject::internal(message))
                }
            }
        }
    }
}

/// Reads a mount's lists now and whenever its server says one changed, until the server or
/// the connection goes away.
async fn watch(server: Weak<ServerInner>, remote: Arc<Remote>, index: usize) {
    let mut notes = remote.client.notifications();
    // The stateless era sends list changes on a `subscriptions/listen` stream only.
    let listener = remote
        .client
        .protocol_version()
        .is_stateless()
        .then(|| {
            let mut filter = SubscriptionFilter::new();
            filter.tools_list_changed = Some(true);
            filter.prompts_list_changed = Some(true);
            filter.resources_list_changed = Some(true);
            remote.client.listen(filter).ok()
        })
        .flatten();
    let Some((shutdown, mut alive)) = server
        .upgrade()
        .map(|s| (s.shutdown.clone(), s.mounts_pending.subscribe()))
    else {
        return;
    };
    // Ends when the last handle on the server is dropped (the sender goes with it).
    let dropped = async move { while alive.changed().await.is_ok() {} };
    tokio::pin!(dropped);
    if listener.is_some() {
        // Lists read after the acknowledgment miss no change (bounded: read anyway after it).
        let acknowledged = async {
            while let Ok(note) = notes.next().await {
                // The first message of a `subscriptions/listen` stream.
                if matches!(&note, ServerNotification::Other { method, .. }
                    if Method::server_notification(method) == Method::SubscriptionsAcknowledged)
                {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(ACK_WAIT, acknowledged).await;
    }
    refresh(&server, &remote, index).await;
    if let Some(inner) = server.upgrade() {
        inner
            .mounts_pending
            .send_modify(|n| *n = n.saturating_sub(1));
    }
    loop {
        let note = tokio::select! {
            note = notes.next() => note,
            () = shutdown.cancelled() => return,
            () = &mut dropped => return,
        };
        match note {
            Ok(
                ServerNotification::ToolsListChanged
                | ServerNotification::ResourcesListChanged
                | ServerNotification::PromptsListChanged,
            )
            | Err(NotificationsError::Lagged(_)) => refresh(&server, &remote, index).await,
            Ok(ServerNotification::ResourceUpdated(p)) => {
                let Some(inner) = server.upgrade() else {
                    return;
                };
                let uri = match &*remote.prefix {
                    "" => p.uri,
                    prefix => format!("{prefix}+{}", p.uri),
                };
                Server { inner }.notify_resource_updated(&uri);
            }
            Ok(_) => {}
            Err(_) => {
                tracing::warn!(prefix = %remote.prefix, "the connection to a mounted server closed: its items fail until it is mounted again");
                return;
            }
        }
    }
}

/// Reads the lists once and swaps them in (a failure keeps the items of the last read).
async fn refresh(server: &Weak<ServerInner>, remote: &Arc<Remote>, index: usize) {
    let (lists, declared) = match remote.lists().await {
        Ok(read) => read,
        Err(e) => {
            tracing::warn!(prefix = %remote.prefix, "reading a mounted server's lists failed: {e}");
            return;
        }
    };
    let Some(inner) = server.upgrade() else {
        return;
    };
    let forward: Arc<dyn Forward> = remote.clone();
    let (prefix, transforms) = (Arc::clone(&remote.prefix), &remote.transforms);
    let items = MountedItems::transformed(prefix, forward, None, declared, lists, transforms);
    if let Err(e) = (Server { inner }).replace_mount(index, items) {
        tracing::warn!(prefix = %remote.prefix, "a mounted server's lists do not fit: {e}");
    }
}

impl Forward for Remote {
    fn call_tool(
        &self,
        ctx: Context,
        name: Arc<str>,
        arguments: Option<Box<RawValue>>,
    ) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
        let client = self.client.clone();
        let remote = Remote {
            client: client.clone(),
            prefix: Arc::clone(&self.prefix),
            transforms: Arc::clone(&self.transforms),
        };
        Box::pin(async move {
            let call = match &arguments {
                Some(args) => client.call_tool(&name, &**args),
                None => client.call_tool(&name, json!({})),
            };
            let (relay, questions) = Relay::channel();
            let (progress, updates) = progress_queue(&ctx);
            let call = match progress {
                Some(f) => call.progress(f),
                None => call,
            };
            let mut result = drive(&ctx, call.handler(relay).into_future(), updates, questions)
                .await
                .map_err(|e| remote.failure(e, true))?;
            own_result(&mut result.result_type, &mut result.meta);
            Ok(result)
        })
    }

    fn read_resource(
        &self,
        ctx: Context,
        uri: String,
    ) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
        let remote = Remote {
            client: self.client.clone(),
            prefix: Arc::clone(&self.prefix),
            transforms: Arc::clone(&self.transforms),
        };
        Box::pin(async move {
            let (relay, questions) = Relay::channel();
            let read = remote.client.read_resource(&uri).handler(relay);
            let (_, updates) = mpsc::channel(1);
            let result = drive(&ctx, read.into_future(), updates, questions)
                .await
                .map_err(|e| remote.failure(e, false))?;
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
        let remote = Remote {
            client: self.client.clone(),
            prefix: Arc::clone(&self.prefix),
            transforms: Arc::clone(&self.transforms),
        };
        Box::pin(async move {
            let (relay, questions) = Relay::channel();
            let get = remote.client.get_prompt(&name, &arguments.0).handler(relay);
            let (_, updates) = mpsc::channel(1);
            let mut result = drive(&ctx, get.into_future(), updates, questions)
                .await
                .map_err(|e| remote.failure(e, false))?;
            own_result(&mut result.result_type, &mut result.meta);
            Ok(result)
        })
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

/// Awaits a forwarded request inside our handler's future, passing its progress on and asking
/// our client its questions there (so that, in the stateless era, a question of ours stops the
/// handler with `input_required` as any handler's would).
async fn drive<T>(
    ctx: &Context,
    request: impl std::future::Future<Output = Result<T, ClientError>>,
    mut progress: mpsc::Receiver<ProgressNotificationParams>,
    mut questions: mpsc::Receiver<Question>,
) -> Result<T, ClientError> {
    tokio::pin!(request);
    loop {
        tokio::select! {
            outcome = &mut request => {
                // The remote's progress came before its answer: pass on what is still queued.
                while let Ok(p) = progress.try_recv() {
                    ctx.progress(p.progress, p.total, p.message.as_deref()).await;
                }
                return outcome;
            }
            Some(p) = progress.recv() => ctx.progress(p.progress, p.total, p.message.as_deref()).await,
            Some(q) = questions.recv() => {
                let answer = ask(ctx, q.asked).await;
                let _ = q.reply.send(answer);
            }
        }
    }
}

/// A question of the remote server, waiting for our client's answer.
struct Question {
    asked: Asked,
    reply: oneshot::Sender<Result<Value, ErrorObject>>,
}

enum Asked {
    Elicit(ElicitRequestParams),
    Sample(mcp_core::CreateMessageRequestParams),
    Roots,
}

/// Asks our client what the remote asked, through the request's [`Context`].
async fn ask(ctx: &Context, asked: Asked) -> Result<Value, ErrorObject> {
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
struct Relay(mpsc::Sender<Question>);

impl Relay {
    fn channel() -> (Relay, mpsc::Receiver<Question>) {
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
