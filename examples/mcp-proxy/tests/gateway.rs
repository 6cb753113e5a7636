//! `mcp-proxy --config FILE`: the gateway configuration file parsed and applied (a tool renamed
//! with its arguments, an argument fixed and one defaulted, a tool hidden, a prompt exposed as a
//! tool, a second server mounted from the file), and files that do not fit refused before
//! anything is served, with exit code 2 and a message naming what is wrong.
//!
//! Its own harness: the same binary is the mounted stdio server (`MCP_GATEWAY_CHILD=server`),
//! whose stdout must hold nothing but its own lines.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mcp_runtime::prelude::*;
use serde_json::{Value, json};

/// Searches an index.
#[tool]
async fn search(
    /// What to look for
    q: String,
    /// How many
    limit: u32,
    /// Which index
    index: String,
) -> String {
    // What the tool received, by its own names.
    json!({"q": q, "limit": limit, "index": index}).to_string()
}

/// Drops everything.
#[tool]
async fn drop_all() -> String {
    "dropped".into()
}

/// Greets someone.
#[prompt]
async fn greet(
    /// Who
    who: String,
) -> String {
    format!("Hello {who}")
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    if std::env::var("MCP_GATEWAY_CHILD").as_deref() == Ok("server") {
        runtime.block_on(server_child());
        return;
    }
    println!("test the_file_is_applied_through_the_proxy ...");
    runtime.block_on(the_file_is_applied_through_the_proxy());
    println!("test the_file_is_applied_through_the_proxy ... ok");
    println!("test files_that_do_not_fit_are_refused ...");
    files_that_do_not_fit_are_refused();
    println!("test files_that_do_not_fit_are_refused ... ok");
    println!("2 passed, 0 failed");
}

async fn server_child() {
    let server = Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(drop_all::TOOL)
        .prompt(greet::PROMPT)
        .build()
        .unwrap();
    mcp_runtime::cli::Cli::new(&server)
        .run_with(["stdio"])
        .await
        .unwrap();
}

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

const GATEWAY: &str = r#"
[[tool]]
name = "search"
rename = "find"
description = "Finds documents"
args.q = { rename = "query" }
args.limit = { default = 10 }
args.index = { fixed = "public" }

[[tool]]
name = "drop_all"
hide = true

[[prompt_tool]]
tool = "greeting"
prompt = "greet"
"#;

/// A config file in a fresh directory of its own.
fn file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-proxy-gateway-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The proxy with `--config path`, mounting this binary as a server after `--`.
fn proxy(path: &std::path::Path) -> Command {
    let me = std::env::current_exe().unwrap();
    let mut proxy = Command::new(env!("CARGO_BIN_EXE_mcp-proxy"));
    proxy
        .arg("--config")
        .arg(path)
        .args(["http", "127.0.0.1:0", "--"])
        .arg(&me)
        .env("MCP_GATEWAY_CHILD", "server")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null());
    proxy
}

async fn the_file_is_applied_through_the_proxy() {
    // A second server from the file's `[[mount]]`: the same binary, under a prefix.
    let me = std::env::current_exe().unwrap();
    let text = format!(
        "{GATEWAY}\n[[mount]]\nprefix = \"two\"\ncommand = [{:?}]\ntool = [{{ name = \"search\", hide = true }}, {{ name = \"drop_all\", rename = \"wipe\" }}]\nprompt = [{{ name = \"greet\", hide = true }}]\n",
        me.to_str().unwrap()
    );
    let path = file("gateway.toml", &text);
    let mut cmd = proxy(&path);
    cmd.stdout(Stdio::piped()).stderr(Stdio::inherit());
    let mut child = Kill(cmd.spawn().unwrap());
    let stdout = child.0.stdout.take().unwrap();
    let line = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        let mut lines = std::io::BufReader::new(stdout).lines();
        lines.find_map(|l| l.ok()?.strip_prefix("listening on ").map(str::to_owned))
    });
    let url = tokio::time::timeout(Duration::from_secs(60), line)
        .await
        .unwrap()
        .unwrap()
        .expect("the proxy's address");
    let client = mcp_runtime::client::Client::builder()
        .connect_http(&url)
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    let listed: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            json!({"name": "find", "description": "Finds documents", "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for"},
                    "limit": {"type": "integer", "description": "How many", "minimum": 0, "default": 10}
                },
                "required": ["query"]
            }}),
            json!({"name": "greeting", "description": "Greets someone.", "inputSchema": {
                "type": "object",
                "properties": {"who": {"type": "string", "description": "Who"}},
                "required": ["who"]
            }}),
            json!({"name": "two.wipe", "description": "Drops everything.",
                   "inputSchema": {"type": "object"}}),
        ]
    );
    let text =
        |r: &mcp_runtime::protocol::CallToolResult| r.content[0].as_text().unwrap().to_owned();
    let r = client
        .call_tool("find", json!({"query": "cats"}))
        .await
        .unwrap();
    assert_eq!(text(&r), r#"{"index":"public","limit":10,"q":"cats"}"#);
    let r = client
        .call_tool("find", json!({"query": "cats", "index": "private"}))
        .await
        .unwrap();
    assert_eq!(
        (r.is_error, text(&r)),
        (
            Some(true),
            "invalid arguments for tool 'find': unknown property 'index'".to_owned()
        )
    );
    let r = client
        .call_tool("greeting", json!({"who": "Ada"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Hello Ada");
    let r = client.call_tool("two.wipe", json!({})).await.unwrap();
    assert_eq!(text(&r), "dropped");
    for hidden in ["drop_all", "two.search", "search"] {
        match client.call_tool(hidden, json!({})).await.unwrap_err() {
            mcp_runtime::client::ClientError::Rpc(e) => {
                assert_eq!(
                    (e.code, e.message),
                    (-32602, format!("unknown tool '{hidden}'"))
                )
            }
            other => panic!("{other}"),
        }
    }
    let prompts = client.list_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["greet"]);
}

/// Runs the proxy on a file that does not fit: exit code and stderr.
fn refused(name: &str, text: &str) -> (Option<i32>, String) {
    let path = file(name, text);
    let out = proxy(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

fn files_that_do_not_fit_are_refused() {
    let dir = std::env::temp_dir().join(format!("mcp-proxy-gateway-{}", std::process::id()));
    let path = |name: &str| dir.join(name).display().to_string();
    assert_eq!(
        refused("unknown.toml", "[[tools]]\nname = \"search\"\n"),
        (
            Some(2),
            format!(
                "mcp-proxy: {}: TOML parse error at line 1, column 3\n  |\n1 | [[tools]]\n  |   ^^^^^\nunknown field `tools`, expected one of `tool`, `prompt`, `resource`, `resource_tool`, `prompt_tool`, `mount`\n",
                path("unknown.toml")
            )
        )
    );
    assert_eq!(
        refused(
            "both.toml",
            "[[tool]]\nname = \"search\"\nargs.limit = { default = 1, fixed = 2 }\n"
        ),
        (
            Some(2),
            format!(
                "mcp-proxy: {}: tool `search`, argument `limit`: give `default` or `fixed`, not both\n",
                path("both.toml")
            )
        )
    );
    assert_eq!(
        refused(
            "ghost.json",
            r#"{"tool": [{"name": "ghost", "hide": true}, {"name": "search", "args": {"nope": {"rename": "x"}}}]}"#
        ),
        (
            Some(2),
            format!(
                "mcp-proxy: the transforms of {:?} do not fit its items:\n  tool `ghost`: the server has no such tool\n  tool `search`: it has no argument `nope`\n",
                std::env::current_exe().unwrap().to_str().unwrap()
            )
        )
    );
}
