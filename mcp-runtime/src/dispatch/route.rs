//! Method names, parsed once at the edge into a [`Route`]; nothing further in compares strings.

/// A client→server request method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Route {
    Initialize,
    Ping,
    Discover,
    ListTools,
    ListResources,
    ListTemplates,
    ListPrompts,
    CallTool,
    ReadResource,
    GetPrompt,
    Complete,
    SetLevel,
    Subscribe,
    Unsubscribe,
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
    /// Anything else: -32601.
    Unknown,
}

/// The params member that names a request's target.
#[cfg(any(feature = "http", test))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// `name`: a tool or a prompt.
    Name,
    /// `uri`: a resource.
    Uri,
    /// `taskId`: a task.
    TaskId,
}

/// A client→server notification method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notice {
    Cancelled,
    /// `notifications/initialized`, `notifications/roots/list_changed` and unknown ones: no action.
    Other,
}

impl Route {
    /// The route of a request method.
    pub(crate) fn parse(method: &str) -> Self {
        match method {
            "initialize" => Self::Initialize,
            "ping" => Self::Ping,
            "server/discover" => Self::Discover,
            "tools/list" => Self::ListTools,
            "resources/list" => Self::ListResources,
            "resources/templates/list" => Self::ListTemplates,
            "prompts/list" => Self::ListPrompts,
            "tools/call" => Self::CallTool,
            "resources/read" => Self::ReadResource,
            "prompts/get" => Self::GetPrompt,
            "completion/complete" => Self::Complete,
            "logging/setLevel" => Self::SetLevel,
            "resources/subscribe" => Self::Subscribe,
            "resources/unsubscribe" => Self::Unsubscribe,
            "subscriptions/listen" => Self::Listen,
            "tasks/get" => Self::TaskGet,
            "tasks/result" => Self::TaskResult,
            "tasks/list" => Self::TaskList,
            "tasks/cancel" => Self::TaskCancel,
            "tasks/update" => Self::TaskUpdate,
            _ => Self::Unknown,
        }
    }

    /// The method name (`None` for the families that have several).
    pub(crate) fn name(self) -> Option<&'static str> {
        Some(match self {
            Self::Initialize => "initialize",
            Self::Ping => "ping",
            Self::Discover => "server/discover",
            Self::ListTools => "tools/list",
            Self::ListResources => "resources/list",
            Self::ListTemplates => "resources/templates/list",
            Self::ListPrompts => "prompts/list",
            Self::CallTool => "tools/call",
            Self::ReadResource => "resources/read",
            Self::GetPrompt => "prompts/get",
            Self::Complete => "completion/complete",
            Self::SetLevel => "logging/setLevel",
            Self::Subscribe => "resources/subscribe",
            Self::Unsubscribe => "resources/unsubscribe",
            Self::Listen => "subscriptions/listen",
            Self::TaskGet => "tasks/get",
            Self::TaskResult => "tasks/result",
            Self::TaskList => "tasks/list",
            Self::TaskCancel => "tasks/cancel",
            Self::TaskUpdate => "tasks/update",
            Self::Unknown => return None,
        })
    }

    /// Methods of the handshake era only: -32601 in a stateless request.
    pub(crate) fn handshake_only(self) -> bool {
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

    /// Methods of the stateless era only: a handshake-era request must carry the `_meta`.
    pub(crate) fn stateless_only(self) -> bool {
        matches!(self, Self::Discover | Self::Listen)
    }

    /// Methods that run a handler (the user's code, or a stream) or wait (on the task store,
    /// on a task): they run concurrently, under the connection's limits, and may be cancelled.
    /// The rest are answered at once, in order.
    pub(crate) fn runs_handler(self) -> bool {
        matches!(
            self,
            Self::CallTool | Self::ReadResource | Self::GetPrompt | Self::Complete | Self::Listen
        ) || self.is_task()
    }

    /// The methods of tasks.
    pub(crate) fn is_task(self) -> bool {
        matches!(
            self,
            Self::TaskGet | Self::TaskResult | Self::TaskList | Self::TaskCancel | Self::TaskUpdate
        )
    }

    /// Methods whose target (tool, prompt, resource or task) the stateless era mirrors in the
    /// `Mcp-Name` header, with the params member that holds it.
    #[cfg(any(feature = "http", test))]
    pub(crate) fn named_by(self) -> Option<Target> {
        match self {
            Self::CallTool | Self::GetPrompt => Some(Target::Name),
            Self::ReadResource => Some(Target::Uri),
            // `tasks/result` is of the handshake era alone, which has no such headers.
            Self::TaskGet | Self::TaskCancel | Self::TaskUpdate => Some(Target::TaskId),
            _ => None,
        }
    }
}

impl Notice {
    /// The route of a notification method.
    pub(crate) fn parse(method: &str) -> Self {
        match method {
            "notifications/cancelled" => Self::Cancelled,
            _ => Self::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_route_parses_back() {
        let all = [
            Route::Initialize,
            Route::Ping,
            Route::Discover,
            Route::ListTools,
            Route::ListResources,
            Route::ListTemplates,
            Route::ListPrompts,
            Route::CallTool,
            Route::ReadResource,
            Route::GetPrompt,
            Route::Complete,
            Route::SetLevel,
            Route::Subscribe,
            Route::Unsubscribe,
            Route::Listen,
            Route::TaskGet,
            Route::TaskResult,
            Route::TaskList,
            Route::TaskCancel,
            Route::TaskUpdate,
        ];
        for r in all {
            assert_eq!(Route::parse(r.name().unwrap()), r);
        }
        assert_eq!(Route::parse("tasks/get"), Route::TaskGet);
        assert_eq!(Route::parse("tasks/other"), Route::Unknown);
        assert!(Route::TaskResult.handshake_only() && Route::TaskResult.runs_handler());
        assert_eq!(Route::TaskUpdate.named_by(), Some(Target::TaskId));
        assert_eq!(Route::TaskList.named_by(), None);
        assert_eq!(Route::parse("tools/call "), Route::Unknown);
        assert_eq!(Route::parse("Tools/Call"), Route::Unknown);
        assert_eq!(Notice::parse("notifications/cancelled"), Notice::Cancelled);
        assert_eq!(Notice::parse("notifications/initialized"), Notice::Other);
    }

    #[test]
    fn era_rules() {
        assert!(Route::Ping.handshake_only() && !Route::Ping.stateless_only());
        assert!(Route::Listen.stateless_only() && Route::Listen.runs_handler());
        assert!(!Route::ListTools.runs_handler());
        assert_eq!(Route::ReadResource.named_by(), Some(Target::Uri));
        assert_eq!(Route::ListTools.named_by(), None);
    }
}
