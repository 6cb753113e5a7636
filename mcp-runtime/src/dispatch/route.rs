//! The dispatcher's view of the method table (`mcp_core::method`): a request's [`Route`] is the
//! [`Method`](mcp_core::Method) it names, read once at the edge with
//! [`Method::client_request`](mcp_core::Method::client_request) (anything a client may not send
//! a server is `Unknown`: -32601); nothing further in compares strings.

#[cfg(any(feature = "http", test))]
pub(crate) use mcp_core::method::Target;

/// A client→server request method (`Unknown` for anything else).
pub(crate) type Route = mcp_core::Method;

/// Methods that run a handler (the user's code, or a stream) or wait (on the task store, on a
/// task): they run concurrently, under the connection's limits, and may be cancelled. The rest
/// are answered at once, in order.
pub(crate) fn runs_handler(route: Route) -> bool {
    matches!(
        route,
        Route::CallTool | Route::ReadResource | Route::GetPrompt | Route::Complete | Route::Listen
    ) || route.is_task()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handler_methods() {
        for r in [
            Route::CallTool,
            Route::ReadResource,
            Route::GetPrompt,
            Route::Complete,
            Route::Listen,
            Route::TaskGet,
            Route::TaskResult,
            Route::TaskList,
            Route::TaskCancel,
            Route::TaskUpdate,
        ] {
            assert!(runs_handler(r), "{r:?}");
        }
        for r in [
            Route::Initialize,
            Route::Ping,
            Route::ListTools,
            Route::SetLevel,
            Route::Subscribe,
            Route::Unknown,
        ] {
            assert!(!runs_handler(r), "{r:?}");
        }
        assert_eq!(Route::client_request("tools/call"), Route::CallTool);
        assert_eq!(Route::client_request("roots/list"), Route::Unknown);
        assert_eq!(Route::ReadResource.mirrored_target(), Some(Target::Uri));
    }
}
