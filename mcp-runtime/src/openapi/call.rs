//! One call of a generated tool: its request built from the arguments, sent with the bounded
//! client, and the response as the tool's result.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use mcp_core::{CallToolResult, GetPromptResult, ResourceContents};
use mcp_openapi::{Credential, RequestPlan};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{EXCERPT, LoadError, OpenApi};
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

/// A response's body, at most `limit` bytes (else an error), and its `Content-Type`. The error
/// says what failed without the URL (its query may carry an API key).
pub(super) async fn read_bounded(
    answer: reqwest::Response,
    limit: usize,
) -> Result<(Vec<u8>, String), String> {
    let content_type = answer
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    match mcp_io::fetch::read_body("", answer, limit).await {
        Ok(body) => Ok((body, content_type)),
        Err(mcp_io::fetch::FetchError::TooLarge { .. }) => {
            Err(format!("the response is longer than {limit} bytes"))
        }
        Err(_) => Err("reading the response failed".to_owned()),
    }
}

/// Why an operation's request was not answered.
///
/// ```
/// use mcp_runtime::openapi::CallError;
///
/// let e = CallError::UnknownOperation("nope".into());
/// assert_eq!(e.to_string(), "the document has no operation 'nope'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No operation has this tool name.
    #[error("the document has no operation '{0}'")]
    UnknownOperation(String),
    /// The arguments cannot make the request.
    #[error("{0}")]
    Arguments(String),
    /// The request failed or the response was refused (too long, timed out).
    #[error("{0}")]
    Http(String),
}

/// The generated tools of one document: what their calls share.
pub(super) struct Backend {
    plans: HashMap<Box<str>, RequestPlan>,
    /// The tool names in the document's order.
    order: Vec<Box<str>>,
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
        let order = api
            .api
            .tools
            .iter()
            .map(|t| Box::from(t.name.as_str()))
            .collect();
        Self {
            plans,
            order,
            base_url,
            credentials: Arc::new(api.all_credentials()),
            client,
            max_response: api.max_response,
        }
    }
}

impl Backend {
    /// The backend of `api`: its base URL resolved (an error when there is none) and its client
    /// made.
    pub(super) fn from_api(api: &OpenApi) -> Result<Self, LoadError> {
        let Some(base_url) = api.resolved_base() else {
            return Err(LoadError::Config(
                "the OpenAPI document names no absolute server URL: give one with OpenApi::with_base_url".into(),
            ));
        };
        let client = client(api.timeout)
            .map_err(|e| LoadError::Config(format!("the OpenAPI HTTP client: {e}")))?;
        Ok(Self::new(api, base_url, client))
    }

    /// The tool names, in the document's order.
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.order.iter().map(|n| &**n)
    }

    /// The base URL requests go to.
    pub(super) fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The request of the tool `name` for `args`, and whether its result is wrapped.
    pub(super) fn request(
        &self,
        name: &str,
        args: &Value,
    ) -> Result<(mcp_openapi::HttpRequest, bool), CallError> {
        let Some(plan) = self.plans.get(name) else {
            return Err(CallError::UnknownOperation(name.to_owned()));
        };
        let credentials = &self.credentials;
        plan.build(args, &self.base_url, &|s| credentials.get(s).cloned())
            .map(|r| (r, plan.wrap_output))
            .map_err(|e| CallError::Arguments(e.to_string()))
    }

    /// Sends `request`: the answer, or why there is none (what the tool's error result says).
    pub(super) async fn exchange(
        &self,
        request: mcp_openapi::HttpRequest,
    ) -> Result<Answer, String> {
        exchange(self.client.clone(), request, self.max_response).await
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
        Box::pin(async move {
            Ok(match exchange(client, request, limit).await {
                Ok(answer) => result_of(answer, wrap),
                Err(message) => CallToolResult::error_text(message),
            })
        })
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

/// An HTTP answer, its body read (bounded).
pub(super) struct Answer {
    pub(super) status: reqwest::StatusCode,
    pub(super) content_type: String,
    pub(super) body: Vec<u8>,
}

/// Sends the request and reads the answer; a failure to get one is told as the tool's error
/// result says it (its cause logged).
async fn exchange(
    client: reqwest::Client,
    request: mcp_openapi::HttpRequest,
    limit: usize,
) -> Result<Answer, String> {
    let Ok(method) = reqwest::Method::from_bytes(request.method.as_bytes()) else {
        return Err(format!("unknown HTTP method {}", request.method));
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
            return Err(format!("the HTTP request {why}"));
        }
    };
    let status = answer.status();
    let (body, content_type) = read_bounded(answer, limit)
        .await
        .map_err(|message| format!("HTTP {status}: {message}"))?;
    Ok(Answer {
        status,
        content_type,
        body,
    })
}

/// The tool's result of an answer: a 2xx JSON body as `structuredContent` (wrapped as
/// `{"result": ...}` when `wrap` or not an object) and text, another 2xx body as text, any
/// other status an `isError` result with the status and an excerpt of the body.
pub(super) fn result_of(answer: Answer, wrap: bool) -> CallToolResult {
    let status = answer.status;
    let body = answer.body;
    let text = String::from_utf8_lossy(&body);
    if !status.is_success() {
        return CallToolResult::error_text(format!("HTTP {status}: {}", excerpt(&text)));
    }
    let base = answer
        .content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim();
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
