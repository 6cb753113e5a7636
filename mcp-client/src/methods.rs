//! The typed requests of a [`Client`]: one method per client-to-server request, lists with
//! automatic pagination, and the stateless era's `input_required` loop.

use std::future::IntoFuture;
use std::marker::PhantomData;
use std::time::Duration;

use mcp_core::jsonrpc::error_codes;
use mcp_core::method::{Method, headers as codec};
use mcp_core::{
    CallToolResult, CompleteRequestParams, CompleteResult, GetPromptResult, InputRequiredResult,
    LoggingLevel, ProgressNotificationParams, ReadResourceResult, SubscriptionFilter,
};
use mcp_io::{BoxFuture, lock};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::Client;
use crate::engine::{Options, ProgressFn};
use crate::error::ClientError;
use crate::handler::answer;
use crate::headers::{encode, param_values};
use crate::link::Link;
use crate::outgoing::Answer;

/// How many `input_required` rounds one request goes through at most.
pub(crate) const MAX_ROUNDS: usize = 8;

/// A value as a JSON object (`params` must be one).
pub(crate) fn to_map(value: &impl Serialize) -> Result<Map<String, Value>, ClientError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(ClientError::protocol(format!(
            "params must be an object, not {other}"
        ))),
        Err(e) => Err(ClientError::Encode(e)),
    }
}

/// One request on its way: set a progress callback or a time limit, then `.await` it.
///
/// ```no_run
/// use std::time::Duration;
/// use mcp_runtime_client::Client;
///
/// # async fn f(client: Client) -> Result<(), mcp_runtime_client::ClientError> {
/// let result = client
///     .call_tool("slow", serde_json::json!({}))
///     .progress(|p| println!("{} of {:?}", p.progress, p.total))
///     .timeout(Duration::from_secs(5))
///     .await?;
/// assert_eq!(result.content[0].as_text(), Some("done"));
/// # Ok(()) }
/// ```
#[must_use = "a request does nothing until it is awaited"]
pub struct Call<T> {
    client: Client,
    method: Method,
    params: Result<Map<String, Value>, ClientError>,
    options: Options,
    /// `tools/call`, `prompts/get`, `resources/read`: answers `input_required` and retries.
    rounds: bool,
    _out: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Call<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("method", &self.method)
            .finish_non_exhaustive()
    }
}

impl<T> Call<T> {
    pub(crate) fn new(
        client: &Client,
        method: Method,
        params: Result<Map<String, Value>, ClientError>,
    ) -> Self {
        Self {
            client: client.clone(),
            method,
            params,
            options: Options::default(),
            rounds: false,
            _out: PhantomData,
        }
    }

    /// The method's name, as sent.
    fn name(&self) -> &'static str {
        self.method.name().unwrap_or_default()
    }

    /// Calls `f` with each progress notification of this request (a progress token is sent).
    pub fn progress(
        mut self,
        f: impl Fn(ProgressNotificationParams) + Send + Sync + 'static,
    ) -> Self {
        let f: ProgressFn = std::sync::Arc::new(f);
        self.options.progress = Some(f);
        self
    }

    /// How long this request waits for its answer (each round, in the stateless era).
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.options.timeout = Some(limit);
        self
    }

    /// Asks for this request's log messages at `level` and above (stateless era: its `_meta`
    /// log level, over the one [`Client::set_level`] set). The handshake era's level belongs to
    /// the session ([`Client::set_level`]): there this does nothing.
    ///
    /// ```no_run
    /// use mcp_runtime_client::Client;
    /// use mcp_runtime_client::protocol::LoggingLevel;
    ///
    /// # async fn f(client: Client) -> Result<(), mcp_runtime_client::ClientError> {
    /// let result = client
    ///     .call_tool("import", serde_json::json!({}))
    ///     .log_level(LoggingLevel::Warning)
    ///     .await?;
    /// # let _ = result; Ok(()) }
    /// ```
    pub fn log_level(mut self, level: LoggingLevel) -> Self {
        self.options.log_level = Some(level);
        self
    }

    /// Calls `f` with the log messages (`notifications/message`) that belong to this request,
    /// instead of queueing them on [`Client::notifications`]. The protocol gives a log message
    /// no request id: a message is this request's when this request is the only one in flight
    /// that takes them (with several, the messages are queued as usual). A gateway passes a
    /// forwarded request's messages on this way.
    ///
    /// ```no_run
    /// use mcp_runtime_client::Client;
    /// use mcp_runtime_client::protocol::LoggingLevel;
    ///
    /// # async fn f(client: Client) -> Result<(), mcp_runtime_client::ClientError> {
    /// let result = client
    ///     .call_tool("import", serde_json::json!({}))
    ///     .log_level(LoggingLevel::Info)
    ///     .on_log(|m| eprintln!("{:?}: {}", m.level, m.data))
    ///     .await?;
    /// # let _ = result; Ok(()) }
    /// ```
    pub fn on_log(
        mut self,
        f: impl Fn(mcp_core::LoggingMessageNotificationParams) + Send + Sync + 'static,
    ) -> Self {
        let f: crate::engine::LogFn = std::sync::Arc::new(f);
        self.options.log = Some(f);
        self
    }

    /// Reads at most `bytes` of the answer over HTTP (what is left of a list's bound).
    pub(crate) fn max_bytes(mut self, bytes: usize) -> Self {
        self.options.max_bytes = Some(bytes);
        self
    }

    /// The answer as received, its `result` not read yet.
    pub(crate) async fn answer(self) -> Result<Answer, ClientError> {
        let name = self.name();
        let params = self.params?;
        self.client.raw(name, params, self.options).await
    }

    /// Answers this request's questions (elicitation, sampling, roots) with `handler` instead of
    /// the client's: a gateway relays them to the caller of the request it forwards. In the
    /// handshake era a server's question does not say which request it is for: with one request
    /// with a handler of its own in flight, its handler answers; with several, the question is
    /// refused (the stateless era's questions belong to their request, so there is no such limit).
    ///
    /// ```no_run
    /// use mcp_runtime_client::{Client, NoHandler};
    ///
    /// # async fn f(client: Client) -> Result<(), mcp_runtime_client::ClientError> {
    /// let result = client
    ///     .call_tool("book_table", serde_json::json!({"guests": 4}))
    ///     .handler(NoHandler) // declines whatever the server asks during this call
    ///     .await?;
    /// # let _ = result; Ok(()) }
    /// ```
    pub fn handler(mut self, handler: impl crate::ClientHandler) -> Self {
        self.options.handler = Some(std::sync::Arc::new(handler));
        self
    }
}

impl<T: DeserializeOwned + Send + 'static> IntoFuture for Call<T> {
    type Output = Result<T, ClientError>;
    type IntoFuture = BoxFuture<'static, Result<T, ClientError>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let name = self.name();
            let params = self.params?;
            // `ClientBuilder::validate_output`: the called tool's name, to check its result.
            let checked = (self.method == Method::CallTool && self.client.validates_output())
                .then(|| {
                    params
                        .get("name")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .flatten();
            let answer = if self.rounds {
                let first = self
                    .client
                    .with_rounds(name, params.clone(), self.options.clone())
                    .await;
                match first {
                    // The tool's `Mcp-Param-*` headers did not match (it was never listed, or
                    // its schema changed): list the tools once and send it again.
                    Err(ClientError::Rpc(e))
                        if e.code == error_codes::HEADER_MISMATCH
                            && self.method == Method::CallTool =>
                    {
                        self.client.list_tools().await?;
                        let mut options = self.options;
                        let tool = params
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        options.headers = self.client.headers_for(tool, params.get("arguments"));
                        self.client.with_rounds(name, params, options).await?
                    }
                    other => other?,
                }
            } else {
                self.client.raw(name, params, self.options).await?
            };
            if let Some(tool) = checked {
                self.client.check_output(&tool, &answer).await?;
            }
            answer.decode().map_err(|e| ClientError::decode(name, e))
        })
    }
}

/// An open `subscriptions/listen` request (stateless era): the notifications it asked for
/// arrive on [`Client::notifications`] until it is dropped, which cancels it.
#[derive(Debug)]
pub struct Listener {
    task: tokio::task::JoinHandle<Result<Answer, ClientError>>,
}

impl Listener {
    /// Whether the server ended the subscription.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Client {
    /// Headers of a request on stateless HTTP: `Mcp-Name`, and for `tools/call` the tool's
    /// `Mcp-Param-*`.
    fn headers_for(&self, name: &str, tool_args: Option<&Value>) -> Vec<(String, String)> {
        if !matches!(self.engine.link, Link::Http(_)) {
            return Vec::new();
        }
        let mut headers = vec![(codec::NAME.to_owned(), encode(name))];
        if let Some(args) = tool_args
            && let Some(params) = lock(&self.engine.state).tool_headers.get(name)
        {
            headers.extend(param_values(params, args));
        }
        headers
    }

    /// A request answered through `input_required` rounds: each round's questions go to the
    /// handler, and the request is sent again (a new id) with `inputResponses` and the
    /// `requestState` exactly as received.
    async fn with_rounds(
        &self,
        method: &str,
        mut params: Map<String, Value>,
        options: Options,
    ) -> Result<Answer, ClientError> {
        #[derive(serde::Deserialize)]
        struct Kind {
            #[serde(rename = "resultType")]
            result_type: Option<String>,
        }
        for _ in 0..MAX_ROUNDS {
            let result = self.raw(method, params.clone(), options.clone()).await?;
            let kind = result
                .decode::<Kind>()
                .map_err(|e| ClientError::decode(method, e))?;
            if kind.result_type.as_deref() != Some("input_required") {
                return Ok(result);
            }
            let round: InputRequiredResult = result
                .decode()
                .map_err(|e| ClientError::decode(format!("{method} (input_required)"), e))?;
            let mut responses = Map::new();
            let handler = options
                .handler
                .clone()
                .unwrap_or_else(|| self.engine.handler());
            for (key, request) in round.input_requests.unwrap_or_default() {
                let answer = answer(&*handler, &request.method, request.params)
                    .await
                    .map_err(ClientError::Rpc)?;
                responses.insert(key, answer);
            }
            params.remove("inputResponses");
            params.remove("requestState");
            if !responses.is_empty() {
                params.insert("inputResponses".into(), Value::Object(responses));
            }
            if let Some(state) = round.request_state {
                params.insert("requestState".into(), Value::String(state));
            }
        }
        Err(ClientError::protocol(format!(
            "{method} asked for input more than {MAX_ROUNDS} times"
        )))
    }

    /// Calls a tool.
    pub fn call_tool(&self, name: &str, arguments: impl Serialize) -> Call<CallToolResult> {
        let args = serde_json::to_value(arguments).map_err(ClientError::Encode);
        let params = args.map(|args| {
            let mut p = Map::new();
            p.insert("name".into(), json!(name));
            p.insert("arguments".into(), args);
            p
        });
        let mut call = Call::new(self, Method::CallTool, params);
        call.rounds = true;
        if let Ok(p) = &call.params {
            call.options.headers = self.headers_for(name, p.get("arguments"));
        }
        call
    }

    /// Calls a tool with typed arguments and reads back the value its declared return type
    /// promises (see [`ToolArguments`](crate::ToolArguments), generated by `mcp-runtime`'s
    /// `#[typed_tool]` next to the tool's definition); an `isError` result is
    /// [`ClientError::Tool`], a result that does not fit [`ClientError::Output`].
    ///
    /// ```no_run
    /// use mcp_runtime_client::{Client, ToolArguments};
    ///
    /// /// What `#[typed_tool]` generates for `async fn add(a: i64, b: i64) -> String`.
    /// #[derive(serde::Serialize)]
    /// struct AddArgs {
    ///     a: i64,
    ///     b: i64,
    /// }
    ///
    /// impl ToolArguments for AddArgs {
    ///     const NAME: &'static str = "add";
    ///     type Output = String;
    /// }
    ///
    /// # async fn f(client: Client) -> Result<(), mcp_runtime_client::ClientError> {
    /// let sum: String = client.call(AddArgs { a: 2, b: 3 }).await?;
    /// assert_eq!(sum, "5");
    /// # Ok(()) }
    /// ```
    pub async fn call<A>(
        &self,
        arguments: A,
    ) -> Result<<A::Output as crate::ToolOutput>::Value, ClientError>
    where
        A: crate::ToolArguments,
        A::Output: crate::ToolOutput,
    {
        let result = self.call_tool(A::NAME, &arguments).await?;
        if result.is_error == Some(true) {
            let texts: Vec<&str> = result.content.iter().filter_map(|c| c.as_text()).collect();
            return Err(ClientError::Tool(texts.join("\n")));
        }
        <A::Output as crate::ToolOutput>::read(result).map_err(|source| ClientError::Output {
            tool: A::NAME,
            source,
        })
    }

    /// Reads a resource.
    pub fn read_resource(&self, uri: &str) -> Call<ReadResourceResult> {
        let mut call = Call::new(
            self,
            Method::ReadResource,
            Ok(json_map(json!({"uri": uri}))),
        );
        call.rounds = true;
        call.options.headers = self.headers_for(uri, None);
        call
    }

    /// Gets a prompt with its arguments (an object of strings).
    pub fn get_prompt(&self, name: &str, arguments: impl Serialize) -> Call<GetPromptResult> {
        let params = serde_json::to_value(arguments)
            .map_err(ClientError::Encode)
            .map(|args| json_map(json!({"name": name, "arguments": args})));
        let mut call = Call::new(self, Method::GetPrompt, params);
        call.rounds = true;
        call.options.headers = self.headers_for(name, None);
        call
    }

    /// Asks for completions of an argument.
    pub fn complete(&self, params: &CompleteRequestParams) -> Call<CompleteResult> {
        Call::new(self, Method::Complete, to_map(params))
    }

    /// Checks the server is alive.
    pub fn ping(&self) -> Call<Value> {
        Call::new(self, Method::Ping, Ok(Map::new()))
    }

    /// Subscribes to updates of a resource (handshake era; the stateless era uses
    /// [`listen`](Self::listen)).
    pub fn subscribe(&self, uri: &str) -> Call<Value> {
        Call::new(self, Method::Subscribe, Ok(json_map(json!({"uri": uri}))))
    }

    /// Ends a subscription made with [`subscribe`](Self::subscribe).
    pub fn unsubscribe(&self, uri: &str) -> Call<Value> {
        Call::new(self, Method::Unsubscribe, Ok(json_map(json!({"uri": uri}))))
    }

    /// Sets the level of the server's log messages: `logging/setLevel` in the handshake era, the
    /// `_meta` of every later request in the stateless era.
    pub async fn set_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        if self.protocol_version().is_stateless() {
            lock(&self.engine.state).log_level = Some(level);
            return Ok(());
        }
        let params = json_map(json!({"level": level}));
        self.raw("logging/setLevel", params, Options::default())
            .await
            .map(drop)
    }

    /// Opens a `subscriptions/listen` request (stateless era) for the notifications `filter`
    /// names; they arrive on [`notifications`](Self::notifications).
    pub fn listen(&self, filter: SubscriptionFilter) -> Result<Listener, ClientError> {
        if !self.protocol_version().is_stateless() {
            return Err(ClientError::Unsupported(
                "subscriptions/listen before 2026-07-28",
            ));
        }
        let params = json_map(json!({"notifications": filter}));
        let client = self.clone();
        let options = Options {
            timeout: Some(Duration::MAX),
            ..Options::default()
        };
        let task =
            tokio::spawn(async move { client.raw("subscriptions/listen", params, options).await });
        Ok(Listener { task })
    }
}

fn json_map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

pub(crate) fn cursor_params(cursor: Option<&str>) -> Map<String, Value> {
    let mut p = Map::new();
    if let Some(c) = cursor {
        p.insert("cursor".into(), json!(c));
    }
    p
}
