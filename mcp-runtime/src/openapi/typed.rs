//! A document's API called from Rust: [`HttpApi`], what the typed clients and tools that
//! [`tools`](super::tools) generates call through (the requests and results of the run-time
//! path, from the same plans).

use std::sync::Arc;

use mcp_core::CallToolResult;
use serde::Serialize;
use serde_json::Value;

use super::call::{self, Backend, CallError};
use super::{LoadError, OpenApi};
use crate::error::HandlerError;

/// A document's operations, ready to send: base URL, credentials and HTTP client resolved.
///
/// ```
/// use mcp_runtime::openapi::{HttpApi, OpenApi, Options};
///
/// let doc = r#"{"openapi": "3.1.0", "servers": [{"url": "http://127.0.0.1:9"}],
///   "paths": {"/pets": {"get": {"operationId": "listPets"}}}}"#;
/// let api = HttpApi::new(&OpenApi::from_text(doc, &Options::new()).unwrap()).unwrap();
/// assert_eq!(api.tools().collect::<Vec<_>>(), ["listPets"]);
/// ```
#[derive(Clone)]
pub struct HttpApi {
    backend: Arc<Backend>,
}

impl std::fmt::Debug for HttpApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpApi")
            .field("base_url", &self.backend.base_url())
            .finish_non_exhaustive()
    }
}

/// An HTTP response of an operation, whatever its status.
///
/// ```
/// # fn demo(response: mcp_runtime::openapi::Response) {
/// if response.is_success() {
///     let pets: Vec<mcp_runtime::serde_json::Value> = response.json().unwrap();
///     # let _ = pets;
/// } else {
///     eprintln!("HTTP {}: {}", response.status, response.text());
/// }
/// # }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` header (empty when absent).
    pub content_type: String,
    /// The body, at most [`OpenApi::max_response`] bytes.
    pub body: Vec<u8>,
}

impl Response {
    /// Whether the status is 2xx.
    ///
    /// ```
    /// # fn demo(r: mcp_runtime::openapi::Response) { let _ = r.is_success(); }
    /// ```
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body read as JSON into `T`.
    ///
    /// ```
    /// # fn demo(r: mcp_runtime::openapi::Response) -> Result<(), mcp_runtime::serde_json::Error> {
    /// let value: mcp_runtime::serde_json::Value = r.json()?;
    /// # let _ = value; Ok(()) }
    /// ```
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_slice(&self.body)
    }

    /// The body as text (invalid UTF-8 replaced).
    ///
    /// ```
    /// # fn demo(r: mcp_runtime::openapi::Response) { println!("{}", r.text()); }
    /// ```
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }
}

impl HttpApi {
    /// The API as `api` configures it: fails when no absolute base URL is known or the HTTP
    /// client cannot be made.
    ///
    /// ```
    /// use mcp_runtime::openapi::{HttpApi, OpenApi, Options};
    ///
    /// let doc = r#"{"openapi": "3.1.0", "paths": {"/pets": {"get": {}}}}"#;
    /// let api = OpenApi::from_text(doc, &Options::new()).unwrap();
    /// assert!(HttpApi::new(&api).is_err());
    /// assert!(HttpApi::new(&api.with_base_url("http://127.0.0.1:9")).is_ok());
    /// ```
    pub fn new(api: &OpenApi) -> Result<Self, LoadError> {
        Ok(Self {
            backend: Arc::new(Backend::from_api(api)?),
        })
    }

    /// The tool names of its operations, in the document's order.
    ///
    /// ```
    /// # fn demo(api: mcp_runtime::openapi::HttpApi) { for name in api.tools() { println!("{name}"); } }
    /// ```
    pub fn tools(&self) -> impl Iterator<Item = &str> {
        self.backend.names()
    }

    /// Sends the operation named `tool` with `arguments` (an object of its parameters and
    /// body members, as its tool takes them) and returns the response, whatever its status.
    ///
    /// ```
    /// # async fn demo(api: mcp_runtime::openapi::HttpApi) -> Result<(), mcp_runtime::openapi::CallError> {
    /// let response = api.send("showPetById", &mcp_runtime::serde_json::json!({"petId": "7"})).await?;
    /// println!("{}", response.status);
    /// # Ok(()) }
    /// ```
    pub async fn send<A: Serialize + ?Sized>(
        &self,
        tool: &str,
        arguments: &A,
    ) -> Result<Response, CallError> {
        let args =
            serde_json::to_value(arguments).map_err(|e| CallError::Arguments(e.to_string()))?;
        let (request, _) = self.backend.request(tool, &args)?;
        let answer = self
            .backend
            .exchange(request)
            .await
            .map_err(CallError::Http)?;
        Ok(Response {
            status: answer.status.as_u16(),
            content_type: answer.content_type,
            body: answer.body,
        })
    }

    /// The tool `tool` called with `arguments`: the result the run-time path answers
    /// (module [`openapi`](super)).
    ///
    /// ```
    /// # async fn demo(api: mcp_runtime::openapi::HttpApi) {
    /// let result = api.call_tool("listPets", &mcp_runtime::serde_json::json!({})).await;
    /// # let _ = result;
    /// # }
    /// ```
    pub async fn call_tool<A: Serialize + ?Sized>(
        &self,
        tool: &str,
        arguments: &A,
    ) -> Result<CallToolResult, HandlerError> {
        let args: Value = serde_json::to_value(arguments)
            .map_err(|e| HandlerError::InvalidArguments(e.to_string()))?;
        let (request, wrap) = self.backend.request(tool, &args).map_err(|e| match e {
            CallError::Arguments(m) => HandlerError::InvalidArguments(m),
            other => HandlerError::InvalidArguments(other.to_string()),
        })?;
        Ok(match self.backend.exchange(request).await {
            Ok(answer) => call::result_of(answer, wrap),
            Err(message) => CallToolResult::error_text(message),
        })
    }
}
