//! The method table: every method of the protocol, in both directions, as one typed [`Method`],
//! with the params member that names its target ([`Target`]), its era rules, and the codec of
//! the stateless era's `Mcp-Method` / `Mcp-Name` headers ([`headers`]).
//!
//! A method name is read into a [`Method`] once, where a message enters; everything after that
//! matches on the value. Which side may send a method is part of the table
//! ([`Method::sent_by_client`], [`Method::sent_by_server`]), so that a server reads a client's
//! request with [`Method::client_request`] and never mistakes a method of the other direction for
//! one it serves.
//!
//! ```
//! use mcp_runtime_core::method::{Method, Target};
//!
//! let m = Method::client_request("tools/call");
//! assert_eq!(m, Method::CallTool);
//! assert_eq!(m.name(), Some("tools/call"));
//! assert_eq!(m.target(), Some(Target::Name));
//! // A server's request is not one a client may send to a server:
//! assert_eq!(Method::client_request("sampling/createMessage"), Method::Unknown);
//! assert_eq!(Method::parse("sampling/createMessage"), Method::CreateMessage);
//! // Names are exact: no trimming, no case folding.
//! assert_eq!(Method::parse("Tools/Call"), Method::Unknown);
//! ```

/// One method of the protocol (a request or a notification, of either direction), or
/// [`Unknown`](Method::Unknown) for any other name.
///
/// ```
/// use mcp_runtime_core::method::Method;
///
/// assert!(Method::Ping.sent_by_client() && Method::Ping.sent_by_server());
/// assert!(Method::Elicit.is_request() && !Method::Elicit.sent_by_client());
/// assert!(Method::Progress.is_notification());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// `initialize` (client → server, handshake era).
    Initialize,
    /// `ping` (either direction, handshake era).
    Ping,
    /// `server/discover` (client → server, 2026-07-28).
    Discover,
    /// `tools/list`.
    ListTools,
    /// `resources/list`.
    ListResources,
    /// `resources/templates/list`.
    ListTemplates,
    /// `prompts/list`.
    ListPrompts,
    /// `tools/call`.
    CallTool,
    /// `resources/read`.
    ReadResource,
    /// `prompts/get`.
    GetPrompt,
    /// `completion/complete`.
    Complete,
    /// `logging/setLevel` (handshake era).
    SetLevel,
    /// `resources/subscribe` (handshake era).
    Subscribe,
    /// `resources/unsubscribe` (handshake era).
    Unsubscribe,
    /// `subscriptions/listen` (2026-07-28).
    Listen,
    /// `tasks/get` (both eras).
    TaskGet,
    /// `tasks/result` (2025-11-25: blocks until the task ends).
    TaskResult,
    /// `tasks/list` (2025-11-25).
    TaskList,
    /// `tasks/cancel` (both eras).
    TaskCancel,
    /// `tasks/update` (2026-07-28).
    TaskUpdate,
    /// `sampling/createMessage` (server → client).
    CreateMessage,
    /// `elicitation/create` (server → client).
    Elicit,
    /// `roots/list` (server → client).
    ListRoots,
    /// `notifications/initialized` (client → server).
    Initialized,
    /// `notifications/cancelled` (either direction).
    Cancelled,
    /// `notifications/progress` (either direction).
    Progress,
    /// `notifications/message` (server → client): a log message.
    LogMessage,
    /// `notifications/resources/updated` (server → client).
    ResourceUpdated,
    /// `notifications/resources/list_changed` (server → client).
    ResourcesListChanged,
    /// `notifications/tools/list_changed` (server → client).
    ToolsListChanged,
    /// `notifications/prompts/list_changed` (server → client).
    PromptsListChanged,
    /// `notifications/roots/list_changed` (client → server).
    RootsListChanged,
    /// `notifications/tasks/status` (either direction).
    TaskStatus,
    /// `notifications/subscriptions/acknowledged` (server → client, 2026-07-28).
    SubscriptionsAcknowledged,
    /// `notifications/elicitation/complete` (server → client).
    ElicitationComplete,
    /// `skills/list` (the skills extension, 2026-07-28).
    ListSkills,
    /// `skills/get` (the skills extension, 2026-07-28).
    GetSkill,
    /// `resources/directory/read` (the skills extension's `directoryRead`, 2026-07-28).
    ReadDirectory,
    /// Any other name.
    Unknown,
}

/// The params member that names a request's target.
///
/// ```
/// use mcp_runtime_core::method::{Method, Target};
///
/// assert_eq!(Method::ReadResource.target(), Some(Target::Uri));
/// assert_eq!(Target::Uri.member(), "uri");
/// assert_eq!(Method::Complete.target(), Some(Target::Ref));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Target {
    /// `name`: a tool or a prompt.
    Name,
    /// `uri`: a resource.
    Uri,
    /// `taskId`: a task.
    TaskId,
    /// `ref`: the prompt (`ref/prompt`, by `name`) or resource (`ref/resource`, by `uri`) a
    /// completion is for.
    Ref,
}

impl Target {
    /// The params member that holds it.
    pub fn member(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Uri => "uri",
            Self::TaskId => "taskId",
            Self::Ref => "ref",
        }
    }
}

/// Who may send a method.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Client,
    Server,
    Both,
}

/// The table: name, method, whether it is a request, who sends it; in the order of [`Method`]'s
/// variants (a test checks it, and that [`Method::parse`] agrees with it).
const TABLE: &[(&str, Method, bool, Side)] = &[
    ("initialize", Method::Initialize, true, Side::Client),
    ("ping", Method::Ping, true, Side::Both),
    ("server/discover", Method::Discover, true, Side::Client),
    ("tools/list", Method::ListTools, true, Side::Client),
    ("resources/list", Method::ListResources, true, Side::Client),
    (
        "resources/templates/list",
        Method::ListTemplates,
        true,
        Side::Client,
    ),
    ("prompts/list", Method::ListPrompts, true, Side::Client),
    ("tools/call", Method::CallTool, true, Side::Client),
    ("resources/read", Method::ReadResource, true, Side::Client),
    ("prompts/get", Method::GetPrompt, true, Side::Client),
    ("completion/complete", Method::Complete, true, Side::Client),
    ("logging/setLevel", Method::SetLevel, true, Side::Client),
    ("resources/subscribe", Method::Subscribe, true, Side::Client),
    (
        "resources/unsubscribe",
        Method::Unsubscribe,
        true,
        Side::Client,
    ),
    ("subscriptions/listen", Method::Listen, true, Side::Client),
    // Tasks run on either side (a server may make a client's sampling a task); this runtime
    // serves them as a server and sends them as a client.
    ("tasks/get", Method::TaskGet, true, Side::Both),
    ("tasks/result", Method::TaskResult, true, Side::Both),
    ("tasks/list", Method::TaskList, true, Side::Both),
    ("tasks/cancel", Method::TaskCancel, true, Side::Both),
    ("tasks/update", Method::TaskUpdate, true, Side::Both),
    (
        "sampling/createMessage",
        Method::CreateMessage,
        true,
        Side::Server,
    ),
    ("elicitation/create", Method::Elicit, true, Side::Server),
    ("roots/list", Method::ListRoots, true, Side::Server),
    (
        "notifications/initialized",
        Method::Initialized,
        false,
        Side::Client,
    ),
    (
        "notifications/cancelled",
        Method::Cancelled,
        false,
        Side::Both,
    ),
    (
        "notifications/progress",
        Method::Progress,
        false,
        Side::Both,
    ),
    (
        "notifications/message",
        Method::LogMessage,
        false,
        Side::Server,
    ),
    (
        "notifications/resources/updated",
        Method::ResourceUpdated,
        false,
        Side::Server,
    ),
    (
        "notifications/resources/list_changed",
        Method::ResourcesListChanged,
        false,
        Side::Server,
    ),
    (
        "notifications/tools/list_changed",
        Method::ToolsListChanged,
        false,
        Side::Server,
    ),
    (
        "notifications/prompts/list_changed",
        Method::PromptsListChanged,
        false,
        Side::Server,
    ),
    (
        "notifications/roots/list_changed",
        Method::RootsListChanged,
        false,
        Side::Client,
    ),
    (
        "notifications/tasks/status",
        Method::TaskStatus,
        false,
        Side::Both,
    ),
    (
        "notifications/subscriptions/acknowledged",
        Method::SubscriptionsAcknowledged,
        false,
        Side::Server,
    ),
    (
        "notifications/elicitation/complete",
        Method::ElicitationComplete,
        false,
        Side::Server,
    ),
    ("skills/list", Method::ListSkills, true, Side::Client),
    ("skills/get", Method::GetSkill, true, Side::Client),
    (
        "resources/directory/read",
        Method::ReadDirectory,
        true,
        Side::Client,
    ),
];

impl Method {
    /// Every method of the table (all but [`Unknown`](Self::Unknown)).
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// for m in Method::all() {
    ///     assert_eq!(Method::parse(m.name().unwrap()), m);
    /// }
    /// ```
    pub fn all() -> impl Iterator<Item = Method> {
        TABLE.iter().map(|row| row.1)
    }

    /// The method of a name, whoever sends it; [`Unknown`](Self::Unknown) for any other.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert_eq!(Method::parse("notifications/progress"), Method::Progress);
    /// assert_eq!(Method::parse("tools/call "), Method::Unknown);
    /// ```
    pub fn parse(name: &str) -> Method {
        match name {
            "initialize" => Method::Initialize,
            "ping" => Method::Ping,
            "server/discover" => Method::Discover,
            "tools/list" => Method::ListTools,
            "resources/list" => Method::ListResources,
            "resources/templates/list" => Method::ListTemplates,
            "prompts/list" => Method::ListPrompts,
            "tools/call" => Method::CallTool,
            "resources/read" => Method::ReadResource,
            "prompts/get" => Method::GetPrompt,
            "completion/complete" => Method::Complete,
            "logging/setLevel" => Method::SetLevel,
            "resources/subscribe" => Method::Subscribe,
            "resources/unsubscribe" => Method::Unsubscribe,
            "subscriptions/listen" => Method::Listen,
            "tasks/get" => Method::TaskGet,
            "tasks/result" => Method::TaskResult,
            "tasks/list" => Method::TaskList,
            "tasks/cancel" => Method::TaskCancel,
            "tasks/update" => Method::TaskUpdate,
            "sampling/createMessage" => Method::CreateMessage,
            "elicitation/create" => Method::Elicit,
            "roots/list" => Method::ListRoots,
            "notifications/initialized" => Method::Initialized,
            "notifications/cancelled" => Method::Cancelled,
            "notifications/progress" => Method::Progress,
            "notifications/message" => Method::LogMessage,
            "notifications/resources/updated" => Method::ResourceUpdated,
            "notifications/resources/list_changed" => Method::ResourcesListChanged,
            "notifications/tools/list_changed" => Method::ToolsListChanged,
            "notifications/prompts/list_changed" => Method::PromptsListChanged,
            "notifications/roots/list_changed" => Method::RootsListChanged,
            "notifications/tasks/status" => Method::TaskStatus,
            "notifications/subscriptions/acknowledged" => Method::SubscriptionsAcknowledged,
            "notifications/elicitation/complete" => Method::ElicitationComplete,
            "skills/list" => Method::ListSkills,
            "skills/get" => Method::GetSkill,
            "resources/directory/read" => Method::ReadDirectory,
            _ => Method::Unknown,
        }
    }

    /// The request a client may send to a server of this name; [`Unknown`](Self::Unknown) for
    /// anything else (a notification, a server's request, an unknown name).
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert_eq!(Method::client_request("tasks/get"), Method::TaskGet);
    /// assert_eq!(Method::client_request("roots/list"), Method::Unknown);
    /// assert_eq!(Method::client_request("notifications/cancelled"), Method::Unknown);
    /// ```
    pub fn client_request(name: &str) -> Method {
        Self::pick(name, true, Side::Client)
    }

    /// The request a server may send to a client of this name; [`Unknown`](Self::Unknown)
    /// otherwise.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert_eq!(Method::server_request("elicitation/create"), Method::Elicit);
    /// assert_eq!(Method::server_request("tools/call"), Method::Unknown);
    /// ```
    pub fn server_request(name: &str) -> Method {
        Self::pick(name, true, Side::Server)
    }

    /// The notification a client may send to a server of this name; [`Unknown`](Self::Unknown)
    /// otherwise.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert_eq!(Method::client_notification("notifications/cancelled"), Method::Cancelled);
    /// assert_eq!(Method::client_notification("notifications/message"), Method::Unknown);
    /// ```
    pub fn client_notification(name: &str) -> Method {
        Self::pick(name, false, Side::Client)
    }

    /// The notification a server may send to a client of this name; [`Unknown`](Self::Unknown)
    /// otherwise.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert_eq!(Method::server_notification("notifications/message"), Method::LogMessage);
    /// assert_eq!(Method::server_notification("notifications/initialized"), Method::Unknown);
    /// ```
    pub fn server_notification(name: &str) -> Method {
        Self::pick(name, false, Side::Server)
    }

    fn pick(name: &str, request: bool, side: Side) -> Method {
        match Self::row(Self::parse(name)) {
            Some(&(_, m, r, s)) if r == request && (s == side || s == Side::Both) => m,
            _ => Method::Unknown,
        }
    }

    /// The method's row: the table lists the methods in the order of the enum.
    fn row(self) -> Option<&'static (&'static str, Method, bool, Side)> {
        TABLE.get(self as usize)
    }

    /// The method's name; `None` for [`Unknown`](Self::Unknown).
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert_eq!(Method::ListTemplates.name(), Some("resources/templates/list"));
    /// assert_eq!(Method::Unknown.name(), None);
    /// ```
    pub fn name(self) -> Option<&'static str> {
        Self::row(self).map(|row| row.0)
    }

    /// Whether it is a request (answered), as opposed to a notification.
    ///
    /// ```
    /// assert!(mcp_runtime_core::method::Method::CallTool.is_request());
    /// ```
    pub fn is_request(self) -> bool {
        Self::row(self).is_some_and(|row| row.2)
    }

    /// Whether it is a notification.
    ///
    /// ```
    /// assert!(mcp_runtime_core::method::Method::Cancelled.is_notification());
    /// ```
    pub fn is_notification(self) -> bool {
        Self::row(self).is_some_and(|row| !row.2)
    }

    /// Whether a client may send it.
    ///
    /// ```
    /// assert!(!mcp_runtime_core::method::Method::LogMessage.sent_by_client());
    /// ```
    pub fn sent_by_client(self) -> bool {
        Self::row(self).is_some_and(|row| row.3 != Side::Server)
    }

    /// Whether a server may send it.
    ///
    /// ```
    /// assert!(!mcp_runtime_core::method::Method::Initialize.sent_by_server());
    /// ```
    pub fn sent_by_server(self) -> bool {
        Self::row(self).is_some_and(|row| row.3 != Side::Client)
    }

    /// Client requests of the handshake era only: in a stateless (2026-07-28) request they are
    /// -32601.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert!(Method::SetLevel.handshake_only());
    /// assert!(!Method::CallTool.handshake_only());
    /// ```
    pub fn handshake_only(self) -> bool {
        matches!(
            self,
            Self::Initialize
                | Self::Ping
                | Self::SetLevel
                | Self::Subscribe
                | Self::Unsubscribe
                | Self::TaskResult
                | Self::TaskList
        )
    }

    /// Client requests of the stateless era only: a handshake-era request of them must carry
    /// the stateless `_meta`.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert!(Method::Discover.stateless_only() && Method::Listen.stateless_only());
    /// ```
    pub fn stateless_only(self) -> bool {
        matches!(self, Self::Discover | Self::Listen)
    }

    /// The methods of the skills extension (`skills/list`, `skills/get`,
    /// `resources/directory/read`): defined against 2026-07-28, whose `capabilities.extensions`
    /// declares them, so a server answers them only in a stateless request.
    ///
    /// ```
    /// use mcp_runtime_core::method::Method;
    ///
    /// assert!(Method::client_request("skills/get").is_skills());
    /// assert!(!Method::ReadResource.is_skills());
    /// ```
    pub fn is_skills(self) -> bool {
        matches!(
            self,
            Self::ListSkills | Self::GetSkill | Self::ReadDirectory
        )
    }

    /// The methods of tasks (`tasks/*` requests).
    ///
    /// ```
    /// assert!(mcp_runtime_core::method::Method::TaskCancel.is_task());
    /// ```
    pub fn is_task(self) -> bool {
        matches!(
            self,
            Self::TaskGet | Self::TaskResult | Self::TaskList | Self::TaskCancel | Self::TaskUpdate
        )
    }

    /// The params member that names the request's target (the tool, prompt, resource, task or
    /// completion reference it acts on), if it has one.
    ///
    /// ```
    /// use mcp_runtime_core::method::{Method, Target};
    ///
    /// assert_eq!(Method::Subscribe.target(), Some(Target::Uri));
    /// assert_eq!(Method::TaskResult.target(), Some(Target::TaskId));
    /// assert_eq!(Method::ListTools.target(), None);
    /// ```
    pub fn target(self) -> Option<Target> {
        match self {
            Self::CallTool | Self::GetPrompt => Some(Target::Name),
            Self::ReadResource
            | Self::Subscribe
            | Self::Unsubscribe
            | Self::GetSkill
            | Self::ReadDirectory => Some(Target::Uri),
            Self::TaskGet | Self::TaskResult | Self::TaskCancel | Self::TaskUpdate => {
                Some(Target::TaskId)
            }
            Self::Complete => Some(Target::Ref),
            _ => None,
        }
    }

    /// The target the stateless era mirrors in the `Mcp-Name` header (SEP-2243), if any:
    /// `tools/call`, `prompts/get`, `resources/read` and the stateless task methods.
    ///
    /// ```
    /// use mcp_runtime_core::method::{Method, Target};
    ///
    /// assert_eq!(Method::TaskUpdate.mirrored_target(), Some(Target::TaskId));
    /// // `tasks/result` is of the handshake era alone, which has no such headers.
    /// assert_eq!(Method::TaskResult.mirrored_target(), None);
    /// assert_eq!(Method::Complete.mirrored_target(), None);
    /// ```
    pub fn mirrored_target(self) -> Option<Target> {
        match self {
            Self::CallTool | Self::GetPrompt => Some(Target::Name),
            Self::ReadResource => Some(Target::Uri),
            Self::TaskGet | Self::TaskCancel | Self::TaskUpdate => Some(Target::TaskId),
            _ => None,
        }
    }
}

pub mod headers;

#[cfg(test)]
mod tests;
