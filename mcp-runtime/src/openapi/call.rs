//! One call of a generated tool: its request built from the arguments, sent with the bounded
//! client, and the response as the tool's result.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use mcp_core::{CallToolResult, GetPromptResult, ResourceContents};
use mcp_openapi::{Credential, RequestPlan};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{EXCERPT, OpenApi};
use crate::error::{HandlerError, ToolError};
use crate::future::BoxFuture;
use crate::handler::context::Context;
use crate::registry::PromptArguments;
use crate::registry::mounted::Forward;

/// The outbound client: `timeout` for a whole request, 10 s to connect, no redirects.
pub(super) fn client(timeout: Duration) -> Result<reqwest::Client, reqwest::Error> {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("mcp-runtime/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// A response's body, at most `limit` bytes (else an error), and its `Content-Type`.
pub(super) async fn read_bounded(
    mut answer: reqwest::Response,
    limit: usize,
) -> Result<(Vec<u8>, String), String> {
    let content_type = answer
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    if answer.content_length().is_some_and(|n| n > limit as u64) {
        return Err(format!("the response is longer than {limit} bytes"));
    }
    let mut body = Vec::new();
    while let Some(chunk) = answer.chunk().await.map_err(|e| e.to_string())? {
        if body.len() + chunk.len() > limit {
            return Err(format!("the response is longer than {limit} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, content_type))
}

/// The generated tools of one document: what their calls share.
pub(super) struct Backend {
    plans: HashMap<Box<str>, RequestPlan>,
    base_url: String,
    credentials: Arc<HashMap<String, Credential>>,
    client: reqwest::Client,
    max_response: usize,
}

impl Backend {
    pub(super) fn new(api: &OpenApi, base_url: String, client: reqwest::Client) -> Self {
        let plans = api
            .api
            .tools
            .iter()
            .map(|t| (Box::from(t.name.as_str()), t.plan.clone()))
            .collect();
        Self {
            plans,
            base_url,
            credentials: Arc::new(api.all_credentials()),
            client,
            max_response: api.max_response,
        }
    }
}

impl Forward for Backend {
    fn call_tool(
        &self,
        _ctx: Context,
        name: Arc<str>,
        arguments: Option<Box<RawValue>>,
    ) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
        let Some(plan) = self.plans.get(&*name) else {
            let message = format!("unknown tool '{name}'");
            return Box::pin(async move { Err(HandlerError::Tool(ToolError::new(message))) });
        };
        let args: Value = match arguments.as_deref().map(|a| serde_json::from_str(a.get())) {
            None => Value::Null,
            Some(Ok(v)) => v,
            Some(Err(e)) => {
                let message = format!("the arguments are not JSON: {e}");
                return Box::pin(async move { Err(HandlerError::InvalidArguments(message)) });
            }
        };
        let credentials = Arc::clone(&self.credentials);
        let built = plan.build(&args, &self.base_url, &|s| credentials.get(s).cloned());
        let request = match built {
            Ok(r) => r,
            Err(e) => {
                let message = e.to_string();
                return Box::pin(async move { Err(HandlerError::InvalidArguments(message)) });
            }
        };
        let (client, limit, wrap) = (self.client.clone(), self.max_response, plan.wrap_output);
        Box::pin(async move { Ok(send(client, request, limit, wrap).await) })
    }

    fn read_resource(
        &self,
        _ctx: Context,
        uri: String,
    ) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
        Box::pin(async move {
            Err(HandlerError::Protocol(
                mcp_core::ErrorObject::invalid_params(format!("no resource {uri}")),
            ))
        })
    }

    fn get_prompt(
        &self,
        _ctx: Context,
        name: Arc<str>,
        _arguments: PromptArguments,
    ) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>> {
        Box::pin(async move {
            Err(HandlerError::Protocol(
                mcp_core::ErrorObject::invalid_params(format!("no prompt {name}")),
            ))
        })
    }
}

/// Sends the request and makes the answer a result (a failure to get one is an `isError`
/// result too, its cause logged).
async fn send(
    client: reqwest::Client,
    request: mcp_openapi::HttpRequest,
    limit: usize,
    wrap: bool,
) -> CallToolResult {
    let Ok(method) = reqwest::Method::from_bytes(request.method.as_bytes()) else {
        return CallToolResult::error_text(format!("unknown HTTP method {}", request.method));
    };
    let mut builder = client.request(method, &request.url);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some(body) = request.body {
        builder = builder.body(body);
    }
    let answer = match builder.send().await {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!(url = %request.url, error = &e as &dyn std::error::Error, "an OpenAPI request failed");
            let why = if e.is_timeout() {
                "timed out"
            } else {
                "failed"
            };
            return CallToolResult::error_text(format!("the HTTP request {why}"));
        }
    };
    let status = answer.status();
    let (body, content_type) = match read_bounded(answer, limit).await {
        Ok(read) => read,
        Err(message) => return CallToolResult::error_text(format!("HTTP {status}: {message}")),
    };
    let text = String::from_utf8_lossy(&body);
    if !status.is_success() {
        return CallToolResult::error_text(format!("HTTP {status}: {}", excerpt(&text)));
    }
    let base = content_type.split(';').next().unwrap_or_default().trim();
    let json_type = base == "application/json" || base.ends_with("+json");
    match serde_json::from_slice::<Value>(&body) {
        Ok(value) if json_type => {
            let structured = match value {
                Value::Object(map) if !wrap => Value::Object(map),
                other => json!({"result": other}),
            };
            CallToolResult::structured(structured, text.into_owned())
        }
        _ if body.is_empty() => CallToolResult::text(format!("HTTP {status}")),
        _ => CallToolResult::text(text.into_owned()),
    }
}

/// The first [`EXCERPT`] bytes of `text` (cut at a character boundary), marked when cut.
fn excerpt(text: &str) -> String {
    if text.len() <= EXCERPT {
        return text.to_owned();
    }
    let mut end = EXCERPT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
