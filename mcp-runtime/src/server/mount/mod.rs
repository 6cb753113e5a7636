//! Composition (feature `client`): a server that serves another server's tools, resources and
//! prompts under a prefix ([`ServerBuilder::mount`]), forwarding each request through a
//! [`Client`] of `mcp-runtime-client`.
//!
//! The remote lists are read once when the server is built and again whenever the remote says
//! that one changed; each read builds the renamed descriptors once (`registry::mounted`), swaps
//! them into the catalog and tells our clients what changed. A forwarded request carries the
//! caller's progress back, is cancelled on the remote when the caller cancels it, and relays the
//! remote's questions (elicitation, sampling, roots) to the caller, in either era on either side
//! (`forward`, `relay`); a stateless caller's call whose remote asks is held open between the
//! caller's `input_required` rounds, and its retry joins it, so that the remote runs it once
//! (`held`). Completion is forwarded for the mounted prompts and templates; the
//! remote's log messages reach the sessions that set a level, and the request they belong to
//! where that can be told (`logs`); resource subscriptions are held on the remote while one of
//! our sessions or listeners holds them (`subs`). What the remote does not declare is not
//! declared for it (`server::Live::build`).

mod forward;
mod held;
mod logs;
mod relay;
mod subs;

use std::sync::{Arc, Weak};

use mcp_core::ErrorObject;
use mcp_core::method::Method;

use mcp_client::{Client, ClientError, NotificationsError, ServerNotification};

use crate::error::{HandlerError, ToolError};
use crate::registry::mounted::{Declared, Forward, MountedItems, RemoteLists};
use crate::server::{Server, ServerBuilder, ServerInner};

/// How many items of each list one mount serves at most.
const MAX_ITEMS: usize = 10_000;
/// How long a mount waits for a `subscriptions/listen` of its own to be acknowledged.
const ACK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

impl ServerBuilder {
    /// Serves the tools, resources and prompts of the server `client` is connected to, under
    /// `prefix`: its tool `echo` is our `prefix.echo`, its prompt `greet` our `prefix.greet`,
    /// its resource `file:///a.md` our `prefix+file:///a.md` (templates alike). Calls, reads,
    /// gets and completions are forwarded with their progress, cancellation, log messages and
    /// questions; resource subscriptions are held on the remote while one of our sessions holds
    /// them, and its updates passed on; `logging/setLevel` reaches it, and its log messages the
    /// sessions that set a level; the remote's list changes become ours. The server declares for
    /// the mount only what the remote declared (`docs/client.md`, "Composing servers").
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
        let (subs, worker) = subs::Subs::new();
        let remote = Remote {
            stateless: client.protocol_version().is_stateless(),
            client,
            prefix: Arc::clone(&prefix),
            transforms: Arc::new(options.transforms),
            validate_output: !options.unchecked_output,
            shared: Arc::new(Shared {
                held: Arc::new(held::Held::new(options.held_calls, options.hold_for)),
                logs: logs::Logs::default(),
                subs,
                listener: std::sync::Mutex::new(None),
            }),
        };
        let index = self.records.mounts.len();
        let forward: Arc<dyn Forward> = Arc::new(remote.clone());
        // Until the first lists are in, the capabilities follow what the remote declared.
        let items = MountedItems::new(
            prefix,
            forward,
            None,
            remote.lists(),
            RemoteLists::default(),
        )
        .with_declared(remote.declared());
        self.records.mounts.push(Arc::new(items));
        self.on_build.push(Box::new(move |server: &Server| {
            tokio::spawn(worker.run(remote.clone()));
            tokio::spawn(watch(Arc::downgrade(&server.inner), remote, index));
        }));
        self
    }
}

/// One mounted server, reached through its client (cheap to clone: what its requests share is
/// behind an `Arc`).
#[derive(Clone)]
struct Remote {
    client: Client,
    prefix: Arc<str>,
    /// Whether the remote speaks the stateless era.
    stateless: bool,
    /// What becomes of its items (`ServerBuilder::mount_with`).
    transforms: Arc<crate::transform::Transforms>,
    /// Whether its tools' structured results are checked (`MountOptions::validate_output`).
    validate_output: bool,
    shared: Arc<Shared>,
}

/// What every request forwarded to one remote shares.
struct Shared {
    /// Calls of stateless callers held open between their rounds.
    held: Arc<held::Held>,
    logs: logs::Logs,
    subs: subs::Subs,
    /// The stateless era's `subscriptions/listen` to the remote: its list changes, and the
    /// resources our clients subscribed to (replaced whenever those change).
    listener: std::sync::Mutex<Option<mcp_client::Listener>>,
}

impl Remote {
    /// Whether the remote declared tools, resources and prompts.
    fn lists(&self) -> [bool; 3] {
        let caps = self.client.server_capabilities();
        [
            caps.tools.is_some(),
            caps.resources.is_some(),
            caps.prompts.is_some(),
        ]
    }

    /// What else the remote declared: what our capabilities may say for it.
    fn declared(&self) -> Declared {
        let caps = self.client.server_capabilities();
        Declared {
            logging: caps.logging.is_some(),
            completions: caps.completions.is_some(),
            subscribe: caps
                .resources
                .as_ref()
                .is_some_and(|r| r.subscribe == Some(true)),
            list_changed: [
                caps.tools
                    .as_ref()
                    .is_some_and(|t| t.list_changed == Some(true)),
                caps.resources
                    .as_ref()
                    .is_some_and(|r| r.list_changed == Some(true)),
                caps.prompts
                    .as_ref()
                    .is_some_and(|p| p.list_changed == Some(true)),
            ],
        }
    }

    /// Reads the remote lists (those its server declared), at most [`MAX_ITEMS`] each.
    async fn read_lists(&self) -> Result<(RemoteLists, [bool; 3]), ClientError> {
        let declared = self.lists();
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

    /// Opens the stateless era's `subscriptions/listen` to the remote (its list changes).
    fn listen(&self) -> bool {
        subs::listen(&self.client, &self.shared, Vec::new())
    }

    /// A remote log message no forwarded request took (`logs`): a handshake-era remote's goes
    /// to our sessions that set a level; a stateless one's belongs to no session.
    fn relay_log(&self, inner: &ServerInner, message: mcp_core::LoggingMessageNotificationParams) {
        if !self.stateless {
            inner.hub.log(message.level.severity(), &message);
        }
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
async fn watch(server: Weak<ServerInner>, remote: Remote, index: usize) {
    let mut notes = remote.client.notifications();
    // The stateless era sends list changes on a `subscriptions/listen` stream only.
    let listening = remote.stateless && remote.listen();
    let Some((shutdown, mut alive)) = server
        .upgrade()
        .map(|s| (s.shutdown.clone(), s.mounts_pending.subscribe()))
    else {
        return;
    };
    // Ends when the last handle on the server is dropped (the sender goes with it).
    let dropped = async move { while alive.changed().await.is_ok() {} };
    tokio::pin!(dropped);
    if listening {
        // Lists read after the acknowledgment miss no change (bounded: read anyway after it).
        acknowledged(&mut notes).await;
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
            Ok(ServerNotification::Log(p)) => {
                let Some(inner) = server.upgrade() else {
                    return;
                };
                remote.relay_log(&inner, p);
            }
            Ok(_) => {}
            Err(_) => {
                tracing::warn!(prefix = %remote.prefix, "the connection to a mounted server closed: its items fail until it is mounted again");
                return;
            }
        }
    }
}

/// Waits (a bounded time) for the acknowledgement of a `subscriptions/listen`: the first message
/// of its stream.
async fn acknowledged(notes: &mut mcp_client::Notifications) {
    let wait = async {
        while let Ok(note) = notes.next().await {
            if matches!(&note, ServerNotification::Other { method, .. }
                if Method::server_notification(method) == Method::SubscriptionsAcknowledged)
            {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(ACK_WAIT, wait).await;
}

/// Reads the lists once and swaps them in (a failure keeps the items of the last read).
async fn refresh(server: &Weak<ServerInner>, remote: &Remote, index: usize) {
    let (lists, declared) = match remote.read_lists().await {
        Ok(read) => read,
        Err(e) => {
            tracing::warn!(prefix = %remote.prefix, "reading a mounted server's lists failed: {e}");
            return;
        }
    };
    let Some(inner) = server.upgrade() else {
        return;
    };
    let forward: Arc<dyn Forward> = Arc::new(remote.clone());
    let (prefix, transforms) = (Arc::clone(&remote.prefix), &remote.transforms);
    // Checked unless the mount or the server turned it off (`MountOptions::validate_output`,
    // `ServerBuilder::validate_output`).
    let checked = remote.validate_output && inner.options.validate_output;
    let items = MountedItems::transformed(prefix, forward, None, declared, lists, transforms)
        .with_output_checks(checked)
        .with_declared(remote.declared());
    if let Err(e) = (Server { inner }).replace_mount(index, items) {
        tracing::warn!(prefix = %remote.prefix, "a mounted server's lists do not fit: {e}");
    }
}
