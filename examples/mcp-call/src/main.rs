//! `mcp-call`: ask any MCP server something from the shell, through `mcp-runtime-client` (the
//! client crate alone: a client-only program compiles no server code).
//!
//! `mcp-call --help` (or `-h`) prints, and exits 0:
#![doc = concat!("```text\n", include_str!("usage.txt"), "```")]

use std::process::ExitCode;
use std::time::Duration;

use mcp_client::protocol::{ContentBlock, ProtocolVersion};
use mcp_client::{Client, ClientError, ErrorChain};
use serde_json::{Value, json};

#[derive(Debug, Default)]
struct Args {
    version: Option<ProtocolVersion>,
    headers: Vec<(String, String)>,
    timeout: Option<u64>,
    json: bool,
    url: Option<String>,
    command: Vec<String>,
    action: Vec<String>,
}

/// What `--help` prints.
const HELP: &str = include_str!("usage.txt");

const USAGE: &str = "usage: mcp-call [--protocol-version REV] [--header 'Name: value'] \
[--timeout SECONDS] [--json] (URL | -- COMMAND [ARGS...] --) (info | list | call NAME [JSON] | \
read URI | prompt NAME [JSON])";

/// The command line; `None` when it asks for the help.
fn parse(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args::default();
    while let Some(arg) = argv.next() {
        match arg.as_str() {
            "-h" | "--help" if args.url.is_none() && args.command.is_empty() => return Ok(None),
            "--protocol-version" => {
                let v = argv.next().ok_or("--protocol-version needs a revision")?;
                args.version =
                    Some(ProtocolVersion::parse(&v).ok_or(format!("unknown revision {v:?}"))?);
            }
            "--header" => {
                let h = argv.next().ok_or("--header needs 'Name: value'")?;
                let (name, value) = h
                    .split_once(':')
                    .ok_or(format!("header {h:?} has no ':'"))?;
                args.headers
                    .push((name.trim().to_owned(), value.trim().to_owned()));
            }
            "--timeout" => {
                let t = argv.next().ok_or("--timeout needs seconds")?;
                args.timeout = Some(
                    t.parse()
                        .map_err(|_| format!("--timeout {t:?} is not a number"))?,
                );
            }
            "--json" => args.json = true,
            "--" => {
                for word in argv.by_ref() {
                    if word == "--" {
                        break;
                    }
                    args.command.push(word);
                }
                if args.command.is_empty() {
                    return Err("`--` must be followed by a command, then `--`".into());
                }
                args.action = argv.by_ref().collect();
            }
            _ if args.url.is_none() && args.command.is_empty() => args.url = Some(arg),
            _ => {
                args.action.push(arg);
                args.action.extend(argv.by_ref());
            }
        }
    }
    if args.url.is_none() && args.command.is_empty() {
        return Err("no server: give a URL or `-- COMMAND ... --`".into());
    }
    if args.action.is_empty() {
        return Err("no action".into());
    }
    Ok(Some(args))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("mcp-call: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let client = match connect(&args).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mcp-call: could not connect: {}", ErrorChain(&e));
            return ExitCode::from(3);
        }
    };
    let outcome = act(&client, &args).await;
    client.close().await;
    match outcome {
        Ok(code) => code,
        Err(Failure::Usage(e)) => {
            eprintln!("mcp-call: {e}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Client(e)) => {
            eprintln!("mcp-call: {}", ErrorChain(&e));
            ExitCode::from(3)
        }
    }
}

async fn connect(args: &Args) -> Result<Client, ClientError> {
    let mut builder =
        Client::builder().timeout(Some(Duration::from_secs(args.timeout.unwrap_or(60))));
    if let Some(v) = args.version {
        builder = builder.protocol_version(v);
    }
    for (name, value) in &args.headers {
        builder = builder.header(name, value);
    }
    match &args.url {
        Some(url) => builder.connect_http(url).await,
        None => {
            let mut command = tokio::process::Command::new(&args.command[0]);
            command.args(&args.command[1..]);
            builder.connect_stdio(command).await
        }
    }
}

enum Failure {
    Usage(String),
    Client(ClientError),
}

impl From<ClientError> for Failure {
    fn from(e: ClientError) -> Self {
        Self::Client(e)
    }
}

fn json_arg(text: Option<&String>) -> Result<Value, Failure> {
    let Some(text) = text else {
        return Ok(json!({}));
    };
    match serde_json::from_str(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(Failure::Usage(format!(
            "arguments must be a JSON object: {text}"
        ))),
        Err(e) => Err(Failure::Usage(format!(
            "arguments are not JSON ({e}): {text}"
        ))),
    }
}

fn print_json(value: &impl serde::Serialize) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

fn print_block(block: &ContentBlock) {
    match block.as_text() {
        Some(text) => println!("{text}"),
        None => println!("{}", serde_json::to_string(block).unwrap_or_default()),
    }
}

async fn act(client: &Client, args: &Args) -> Result<ExitCode, Failure> {
    let action = args.action[0].as_str();
    let arg = |i: usize| args.action.get(i);
    let need = |i: usize, what: &str| {
        arg(i).ok_or_else(|| Failure::Usage(format!("`{action}` needs {what}")))
    };
    match action {
        "info" => {
            let info = client.server_info();
            let info = json!({
                "server": info,
                "protocolVersion": client.protocol_version().as_str(),
                "session": client.session_id(),
                "instructions": client.instructions(),
            });
            print_json(&info);
        }
        "list" => {
            let tools = client.list_tools().await?;
            let caps = client.server_capabilities();
            let (resources, templates) = if caps.resources.is_some() {
                (
                    client.list_resources().await?,
                    client.list_resource_templates().await?,
                )
            } else {
                Default::default()
            };
            let prompts = if caps.prompts.is_some() {
                client.list_prompts().await?
            } else {
                Vec::new()
            };
            if args.json {
                print_json(&json!({"tools": tools, "resources": resources,
                    "resourceTemplates": templates, "prompts": prompts}));
            } else {
                tools.iter().for_each(|t| println!("tool {}", t.name));
                resources
                    .iter()
                    .for_each(|r| println!("resource {}", r.uri));
                templates
                    .iter()
                    .for_each(|t| println!("template {}", t.uri_template));
                prompts.iter().for_each(|p| println!("prompt {}", p.name));
            }
        }
        "call" => {
            let name = need(1, "a tool name")?;
            let result = client.call_tool(name, json_arg(arg(2))?).await?;
            if args.json {
                print_json(&result);
            } else {
                result.content.iter().for_each(print_block);
                if result.content.is_empty()
                    && let Some(s) = result.structured_value()
                {
                    print_json(&s);
                }
            }
            if result.is_error == Some(true) {
                return Ok(ExitCode::from(1));
            }
        }
        "read" => {
            let result = client.read_resource(need(1, "a URI")?).await?;
            if args.json {
                print_json(&result);
            } else {
                for contents in serde_json::to_value(&result.contents)
                    .unwrap_or_default()
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    match contents.get("text").and_then(Value::as_str) {
                        Some(text) => println!("{text}"),
                        None => println!("{contents}"),
                    }
                }
            }
        }
        "prompt" => {
            let result = client
                .get_prompt(need(1, "a prompt name")?, json_arg(arg(2))?)
                .await?;
            if args.json {
                print_json(&result);
            } else {
                for m in serde_json::to_value(&result.messages)
                    .unwrap_or_default()
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    let role = m.get("role").and_then(Value::as_str).unwrap_or("?");
                    match m.pointer("/content/text").and_then(Value::as_str) {
                        Some(text) => println!("{role}: {text}"),
                        None => println!("{role}: {}", m.get("content").unwrap_or(&Value::Null)),
                    }
                }
            }
        }
        other => return Err(Failure::Usage(format!("unknown action `{other}`"))),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Result<Args, String> {
        parse(words.iter().map(|w| w.to_string())).map(|a| a.expect("not a help request"))
    }

    #[test]
    fn help_is_asked_before_the_target() {
        for words in [&["-h"][..], &["--help"], &["--json", "--help"]] {
            let asked = parse(words.iter().map(|w| w.to_string())).unwrap();
            assert!(asked.is_none(), "{words:?}");
        }
        // The spawned server's own words are its own.
        let a = args(&["--", "srv", "--help", "--", "list"]).unwrap();
        assert_eq!(a.command, ["srv", "--help"]);
    }

    #[test]
    fn a_url_target_then_the_action() {
        let a = args(&["--json", "http://h/mcp", "call", "echo", "{}"]).unwrap();
        assert_eq!(a.url.as_deref(), Some("http://h/mcp"));
        assert_eq!(a.action, ["call", "echo", "{}"]);
        assert!(a.json);
    }

    #[test]
    fn a_command_target_between_two_dashes() {
        let a = args(&[
            "--protocol-version",
            "2025-11-25",
            "--",
            "node",
            "s.js",
            "stdio",
            "--",
            "list",
        ])
        .unwrap();
        assert_eq!(a.command, ["node", "s.js", "stdio"]);
        assert_eq!(a.action, ["list"]);
        assert_eq!(a.version, Some(ProtocolVersion::V2025_11_25));
    }

    #[test]
    fn usage_errors_say_what_is_missing() {
        assert_eq!(args(&["list"]).unwrap_err(), "no action");
        assert!(args(&[]).unwrap_err().contains("no server"));
        assert!(
            args(&["--protocol-version", "1999-01-01"])
                .unwrap_err()
                .contains("unknown revision")
        );
        assert!(
            args(&["--", "--", "list"])
                .unwrap_err()
                .contains("must be followed")
        );
    }
}
