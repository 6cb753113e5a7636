//! A tool's outcome as the result a client sees, for plain calls and tasks alike.

use mcp_core::{CallToolResult, ErrorObject, ProtocolVersion};

use crate::error::{HandlerError, IntoHandlerError};
use crate::handler::invoke::mask;
use crate::server::options::ValidationErrors;

/// A tool's outcome as its result: failures the model sees (`isError`), or the protocol error
/// of a handler that returned one (or, before 2025-11-25, of invalid arguments).
pub(super) fn tool_result(
    server: &crate::server::ServerInner,
    name: &str,
    v: ProtocolVersion,
    outcome: Result<CallToolResult, HandlerError>,
) -> Result<CallToolResult, ErrorObject> {
    Ok(match outcome {
        Ok(r) => r,
        Err(HandlerError::InvalidArguments(msg)) => {
            let as_result = match server.options.validation {
                ValidationErrors::ToolResult => true,
                ValidationErrors::ProtocolError => false,
                _ => v >= ProtocolVersion::V2025_11_25,
            };
            let text = format!("invalid arguments for tool '{name}': {msg}");
            if !as_result {
                return Err(ErrorObject::invalid_params(text));
            }
            CallToolResult::error_text(text)
        }
        Err(HandlerError::Tool(err)) => match err.into_handler_error() {
            HandlerError::Internal(err) => CallToolResult::error_text(mask(name, &err)),
            other => CallToolResult::error_text(other.to_string()),
        },
        Err(HandlerError::Protocol(err)) => return Err(err),
        Err(HandlerError::ResourceNotFound) => CallToolResult::error_text("resource not found"),
        Err(HandlerError::Internal(err)) => CallToolResult::error_text(mask(name, &err)),
    })
}
