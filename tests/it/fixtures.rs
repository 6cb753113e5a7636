//! The items the framework tests serve: one of each kind of behaviour a test needs.
//!
//! They are registered explicitly (`Server::builder(..).tool(x::TOOL)`), so each test decides
//! which items its server has; they are also marked `server = "it"`, so that nothing leaks into
//! the default registry of this binary.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::TestClient;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A paint colour.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Red
    Red,
    /// Green
    Green,
    /// Blue
    Blue,
}

/// Echoes the text back.
#[tool(server = "it", title = "Echo", read_only)]
pub async fn echo(
    /// The text to echo
    text: String,
) -> String {
    text
}

/// The sum of two integers.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Sum {
    /// a + b
    pub total: i64,
}

/// Adds two integers.
#[tool(server = "it")]
pub async fn add(
    /// The first addend
    a: i64,
    /// The second addend
    b: i64,
) -> Json<Sum> {
    Json(Sum { total: a + b })
}

/// Paints with a colour.
#[tool(server = "it")]
pub async fn paint(
    /// The colour
    color: Color,
    /// How many coats
    #[arg(min = 1, max = 3)]
    coats: u8,
    /// Finish, e.g. matte
    finish: Option<String>,
) -> String {
    let finish = finish.unwrap_or_else(|| "plain".into());
    format!("{coats} {finish} coat(s) of {color:?}")
}

/// Refuses politely: a business error.
#[tool(server = "it")]
pub async fn refuse() -> Result<String, ToolError> {
    Err(ToolError::new("nothing fits a budget of $1"))
}

/// Fails with an internal error whose text must never reach the client.
#[tool(server = "it")]
pub async fn broken() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("db password is hunter2"))
}

/// Panics with a message that must never reach the client.
#[tool(server = "it")]
pub async fn explode() -> String {
    panic!("secret panic detail")
}

/// Keys of `sleepy` calls that started running.
static STARTED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Keys of `sleepy` calls whose future was dropped before finishing.
static DROPPED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

fn contains(set: &Mutex<Option<HashSet<String>>>, key: &str) -> bool {
    set.lock()
        .unwrap()
        .as_ref()
        .is_some_and(|s| s.contains(key))
}

fn insert(set: &Mutex<Option<HashSet<String>>>, key: &str) {
    set.lock()
        .unwrap()
        .get_or_insert_with(HashSet::new)
        .insert(key.to_owned());
}

/// Whether the `sleepy` call with this key was dropped unfinished.
pub fn was_dropped(key: &str) -> bool {
    contains(&DROPPED, key)
}

/// Waits (up to five seconds) until the `sleepy` call with this key is running.
pub async fn started(key: &str) {
    for _ in 0..500 {
        if contains(&STARTED, key) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("`sleepy` call {key} never started");
}

struct DropFlag {
    key: String,
    finished: bool,
}

impl Drop for DropFlag {
    fn drop(&mut self) {
        if !self.finished {
            insert(&DROPPED, &self.key);
        }
    }
}

/// Sleeps, then says so; records whether it was dropped unfinished.
#[tool(server = "it")]
pub async fn sleepy(
    /// How long to sleep, in milliseconds
    ms: u64,
    /// A key to find this call in `DROPPED`
    key: String,
) -> String {
    insert(&STARTED, &key);
    let mut flag = DropFlag {
        key,
        finished: false,
    };
    tokio::time::sleep(Duration::from_millis(ms)).await;
    flag.finished = true;
    format!("slept {ms} ms")
}

/// Sleeps, one call at a time.
#[tool(server = "it", max_concurrency = 1)]
pub async fn single_file(
    /// How long to sleep, in milliseconds
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("done after {ms} ms")
}

/// Takes longer than its timeout.
#[tool(server = "it", timeout_ms = 50)]
pub async fn too_slow() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "never".into()
}

/// Logs one message at each of three levels.
#[tool(server = "it")]
pub async fn chatty(ctx: Context) -> String {
    ctx.log(LoggingLevel::Debug, "debug detail").await;
    ctx.log(LoggingLevel::Info, "info message").await;
    ctx.log_as(
        LoggingLevel::Warning,
        Some("gifts"),
        serde_json::json!({"low": "stock"}),
    )
    .await;
    "logged".into()
}

/// Counts to `n`, reporting progress at each step.
#[tool(server = "it")]
pub async fn count(
    /// How far to count
    n: u32,
    ctx: Context,
) -> String {
    for i in 1..=n {
        ctx.progress(f64::from(i), Some(f64::from(n)), Some(&format!("step {i}")))
            .await;
    }
    format!("counted to {n}")
}

/// A greeting kept as application state.
#[derive(Debug)]
pub struct Greeting(pub &'static str);

/// Greets with the server's state.
#[tool(server = "it")]
pub async fn greet(greeting: State<Greeting>, name: String) -> String {
    format!("{}, {name}!", greeting.0)
}

/// A fixed text resource
#[resource(server = "it", uri = "test://static", mime = "text/plain")]
pub async fn static_text() -> String {
    "static content".into()
}

fn complete_item_id(req: &CompletionRequest) -> Vec<String> {
    ["1", "2", "12", "20"]
        .into_iter()
        .filter(|id| id.starts_with(req.value()))
        .map(String::from)
        .collect()
}

/// One item by id (1 to 3 exist)
#[resource(server = "it", uri = "test://items/{id}", mime = "application/json")]
pub async fn item(
    #[arg(complete = complete_item_id)] id: u32,
) -> Result<Json<serde_json::Value>, ResourceError> {
    if (1..=3).contains(&id) {
        Ok(Json(
            serde_json::json!({"id": id, "name": format!("item {id}")}),
        ))
    } else {
        Err(ResourceError::NotFound)
    }
}

/// A resource whose read fails internally
#[resource(server = "it", uri = "test://broken")]
pub async fn broken_resource() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("disk secret"))
}

fn complete_style(req: &CompletionRequest) -> Vec<String> {
    let all = ["formal", "friendly", "funny", "warm"];
    // With `name` already given as "Bob", only the short styles are offered.
    let short = req.argument("name") == Some("Bob");
    all.into_iter()
        .filter(|s| s.starts_with(req.value()) && (!short || s.len() <= 5))
        .map(String::from)
        .collect()
}

/// Writes a greeting card
#[prompt(server = "it", title = "Greeting card")]
pub async fn card(
    /// Who the card is for
    name: String,
    /// The style
    #[arg(complete = complete_style)]
    style: Option<String>,
) -> Vec<PromptMessage> {
    let style = style.unwrap_or_else(|| "warm".into());
    vec![PromptMessage::user(format!(
        "Write a {style} card for {name}."
    ))]
}

/// Refuses unknown tones
#[prompt(server = "it")]
pub async fn toned(
    /// warm or cold
    tone: String,
) -> Result<String, PromptError> {
    match tone.as_str() {
        "warm" | "cold" => Ok(format!("Be {tone}.")),
        other => Err(PromptError::new(format!("unknown tone '{other}'"))),
    }
}

fn complete_many(req: &CompletionRequest) -> Vec<String> {
    (0..150)
        .map(|i| format!("v{i:03}"))
        .filter(|v| v.starts_with(req.value()))
        .collect()
}

/// Picks one of 150 values
#[prompt(server = "it")]
pub async fn many(
    /// The value
    #[arg(complete = complete_many)]
    pick: String,
) -> String {
    format!("picked {pick}")
}

/// The builder with every fixture item.
pub fn builder() -> mcp_runtime::ServerBuilder {
    Server::builder(server_info!())
        .tool(echo::TOOL)
        .tool(add::TOOL)
        .tool(paint::TOOL)
        .tool(refuse::TOOL)
        .tool(broken::TOOL)
        .tool(explode::TOOL)
        .tool(sleepy::TOOL)
        .tool(too_slow::TOOL)
        .tool(single_file::TOOL)
        .tool(chatty::TOOL)
        .tool(count::TOOL)
        .tool(greet::TOOL)
        .resource(static_text::RESOURCE)
        .resource(item::RESOURCE)
        .resource(broken_resource::RESOURCE)
        .prompt(card::PROMPT)
        .prompt(toned::PROMPT)
        .prompt(many::PROMPT)
        .state(Greeting("Howdy"))
        .instructions("Fixture server of the integration tests")
}

/// The fixture server.
pub fn server() -> Server {
    builder().build().expect("the fixture server builds")
}

/// A client of the fixture server after `initialize` at `version`.
pub async fn handshake(version: &str) -> TestClient {
    let mut client = server().connect_in_memory();
    let init = client.initialize(version).await;
    assert_eq!(init["result"]["protocolVersion"], version, "{init}");
    client
}

/// A client of the fixture server that has sent nothing yet.
pub fn fresh() -> TestClient {
    server().connect_in_memory()
}
