//! The protocol methods, one module per spec area; [`answer_now`] and [`run_handler`] pick one
//! by [`Route`].

mod complete;
mod exposed;
mod lifecycle;
mod listen;
mod lists;
mod outcome;
mod prompts;
mod resources;
mod skills;
mod tasks;
mod tools;

use mcp_core::ErrorObject;

use crate::dispatch::call::MethodCall;
use crate::dispatch::reply::Payload;
use crate::dispatch::route::Route;
use crate::dispatch::scope::Resolver;
use crate::registry::ListKind;

/// Answers a method that runs no handler: at once, in order.
pub(crate) fn answer_now(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    match call.route {
        Route::Initialize => lifecycle::initialize(call),
        Route::Ping => Ok(Payload::empty()),
        Route::Discover => lifecycle::discover(call),
        Route::SetLevel => lifecycle::set_level(call),
        Route::ListTools => lists::list(call, ListKind::Tools),
        Route::ListResources => lists::list(call, ListKind::Resources),
        Route::ListTemplates => lists::list(call, ListKind::Templates),
        Route::ListPrompts => lists::list(call, ListKind::Prompts),
        Route::Subscribe => resources::subscribe(call, true),
        Route::Unsubscribe => resources::subscribe(call, false),
        Route::ListSkills => skills::list(call),
        Route::GetSkill => skills::get(call),
        Route::ReadDirectory => skills::read_directory(call),
        Route::CallTool
        | Route::ReadResource
        | Route::GetPrompt
        | Route::Complete
        | Route::Listen
        | Route::TaskGet
        | Route::TaskResult
        | Route::TaskList
        | Route::TaskCancel
        | Route::TaskUpdate
        | Route::Unknown => Err(ErrorObject::method_not_found(call.method())),
        // Not a client request: `Route::client_request` never gives these.
        _ => Err(ErrorObject::method_not_found(call.method())),
    }
}

/// Runs a method whose route runs a handler (see `route::runs_handler`).
pub(crate) async fn run_handler(call: MethodCall<'_>) -> Result<Payload, ErrorObject> {
    match call.route {
        Route::CallTool => tools::call(call).await,
        Route::ReadResource => resources::read(call).await,
        // Boxed: larger than `tools/call`'s state, which would otherwise carry their space (and
        // so would every future around it, copied into the heap once per request).
        Route::GetPrompt => Box::pin(prompts::get(call)).await,
        Route::Complete => Box::pin(complete::complete(call)).await,
        Route::Listen => listen::listen(call).await,
        route if route.is_task() => Box::pin(tasks::method(call)).await,
        _ => answer_now(&call),
    }
}

/// Runs `tools/call` reading its params and the request's `_meta` in one pass, the scope resolved
/// from that `_meta` (see [`Open`](crate::dispatch::call::Open)).
pub(crate) async fn call_tool_with_meta(
    call: MethodCall<'_, Resolver>,
) -> Result<Payload, ErrorObject> {
    tools::call(call).await
}
