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
            Self::ReadResource | Self::Subscribe | Self::Unsubscribe => Some(Target::Uri),
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

/// The stateless era's routing headers: `Mcp-Method` carries the method's name, `Mcp-Name` its
/// mirrored target, and `Mcp-Param-*` mirrored tool arguments; a value that is not plain visible
/// ASCII travels as `=?base64?…?=` (Base64 of its UTF-8).
///
/// ```
/// use mcp_runtime_core::method::headers;
///
/// assert_eq!(headers::encode("get_weather"), "get_weather");
/// assert_eq!(headers::encode("café"), "=?base64?Y2Fmw6k=?=");
/// assert_eq!(headers::decode("=?base64?Y2Fmw6k=?=").unwrap(), "café");
/// assert_eq!(headers::decode("plain").unwrap(), "plain");
/// assert!(headers::decode("=?base64?!!?=").is_err());
/// ```
pub mod headers {
    use std::borrow::Cow;

    /// The header naming the method.
    pub const METHOD: &str = "mcp-method";
    /// The header naming the target.
    pub const NAME: &str = "mcp-name";
    /// The prefix of the headers mirroring tool arguments.
    pub const PARAM_PREFIX: &str = "mcp-param-";

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// Whether a value can travel as it is: visible ASCII and inner spaces, nothing at either end
    /// that a header parser would trim, and not itself of the encoded form.
    pub fn is_plain(value: &str) -> bool {
        !value.is_empty()
            && value.bytes().all(|b| (b' '..=b'~').contains(&b))
            && !value.starts_with(' ')
            && !value.ends_with(' ')
            && !value.starts_with("=?")
    }

    /// A value as it travels in a header.
    pub fn encode(value: &str) -> Cow<'_, str> {
        if is_plain(value) {
            return Cow::Borrowed(value);
        }
        let bytes = value.as_bytes();
        let mut out = String::with_capacity(12 + bytes.len().div_ceil(3) * 4);
        out.push_str("=?base64?");
        for chunk in bytes.chunks(3) {
            let n = match chunk {
                [a, b, c] => u32::from(*a) << 16 | u32::from(*b) << 8 | u32::from(*c),
                [a, b] => u32::from(*a) << 16 | u32::from(*b) << 8,
                [a] => u32::from(*a) << 16,
                _ => 0,
            };
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out.push_str("?=");
        Cow::Owned(out)
    }

    /// Why a header value could not be decoded.
    #[derive(Debug, Clone, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct DecodeError;

    impl std::fmt::Display for DecodeError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("not valid Base64 of UTF-8 text")
        }
    }

    impl std::error::Error for DecodeError {}

    /// A header value as sent: `=?base64?…?=` decoded (strict padding, UTF-8), any other value
    /// as it is.
    pub fn decode(value: &str) -> Result<Cow<'_, str>, DecodeError> {
        let Some(b64) = value
            .strip_prefix("=?base64?")
            .and_then(|v| v.strip_suffix("?="))
        else {
            return Ok(Cow::Borrowed(value));
        };
        let b64 = b64.as_bytes();
        if b64.len() % 4 != 0 {
            return Err(DecodeError);
        }
        let mut out = Vec::with_capacity(b64.len() / 4 * 3);
        for (i, quad) in b64.chunks(4).enumerate() {
            let last = i + 1 == b64.len() / 4;
            let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
            if pad > 2 || (pad > 0 && !last) {
                return Err(DecodeError);
            }
            let mut n = 0u32;
            for &c in &quad[..4 - pad] {
                let v = ALPHABET.iter().position(|&a| a == c).ok_or(DecodeError)?;
                n = n << 6 | v as u32;
            }
            n <<= 6 * pad as u32;
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            let keep = 3 - pad;
            // Non-canonical encodings (bits set in the padding) are refused.
            if bytes[keep..].iter().any(|&b| b != 0) {
                return Err(DecodeError);
            }
            out.extend_from_slice(&bytes[..keep]);
        }
        String::from_utf8(out)
            .map(Cow::Owned)
            .map_err(|_| DecodeError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_parses_back_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for m in Method::all() {
            let name = m.name().unwrap();
            assert!(names.insert(name), "{name} twice");
            assert_eq!(Method::parse(name), m);
        }
        assert_eq!(names.len(), TABLE.len());
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.1 as usize, i, "{} out of order", row.0);
        }
        assert_eq!(Method::Unknown as usize, TABLE.len());
        assert_eq!(Method::parse(""), Method::Unknown);
        assert_eq!(Method::parse("tasks/other"), Method::Unknown);
    }

    #[test]
    fn directions() {
        let client_requests: Vec<_> = Method::all()
            .filter(|m| Method::client_request(m.name().unwrap()) == *m)
            .collect();
        assert_eq!(client_requests.len(), 20);
        assert!(client_requests.iter().all(|m| m.is_request()));
        assert_eq!(Method::client_request("ping"), Method::Ping);
        assert_eq!(Method::server_request("ping"), Method::Ping);
        assert_eq!(Method::server_request("tasks/get"), Method::TaskGet);
        assert_eq!(
            Method::client_request("elicitation/create"),
            Method::Unknown
        );
        assert_eq!(
            Method::client_notification("notifications/roots/list_changed"),
            Method::RootsListChanged
        );
        assert_eq!(
            Method::server_notification("notifications/progress"),
            Method::Progress
        );
        assert_eq!(
            Method::client_request("notifications/progress"),
            Method::Unknown
        );
        assert_eq!(Method::client_notification("tools/call"), Method::Unknown);
    }

    #[test]
    fn era_rules_and_targets() {
        assert!(Method::TaskResult.handshake_only() && Method::TaskResult.is_task());
        assert!(!Method::TaskUpdate.handshake_only());
        assert_eq!(Method::TaskList.target(), None);
        assert_eq!(Method::GetPrompt.mirrored_target(), Some(Target::Name));
        assert_eq!(Method::Unsubscribe.mirrored_target(), None);
        assert_eq!(Target::TaskId.member(), "taskId");
    }

    #[test]
    fn header_values_round_trip() {
        for v in [
            "a",
            "ab",
            "abc",
            "abcd",
            "café",
            " lead",
            "trail ",
            "=?base64?x?=",
            "日本語",
            "tab\there",
            "",
        ] {
            let enc = headers::encode(v);
            assert!(enc.bytes().all(|b| (b' '..=b'~').contains(&b)), "{enc}");
            assert_eq!(headers::decode(&enc).unwrap(), v, "{enc}");
        }
        assert_eq!(headers::encode("foo"), "foo");
        assert_eq!(headers::encode(""), "=?base64??=");
        assert_eq!(headers::encode(" f"), "=?base64?IGY=?=");
        assert_eq!(headers::encode("\u{e9}"), "=?base64?w6k=?=");
        for bad in [
            "=?base64?Zg=?=",
            "=?base64?Zh==?=",
            "=?base64?Z===?=",
            "=?base64?Zg==Zg==?=",
            "=?base64?/w==?=",
            "=?base64?****?=",
        ] {
            assert!(headers::decode(bad).is_err(), "{bad}");
        }
    }
}
