//! The command line every server binary gets: serve, inspect, and call items in-process.
//!
//! [`Server::run`](crate::Server::run) (feature `cli`) reads the process arguments and runs one command:
//!
//! | command | what it does |
//! |---|---|
//! | `stdio` (the default) | serves MCP on stdin/stdout, as clients launch the binary |
//! | `http [ADDR]` | serves Streamable HTTP at `http://ADDR/mcp` (default `127.0.0.1:8000`) |
//! | `list [--json]` | prints the tools, resources, templates and prompts a client sees, as JSON (`--json`: those of 2025-11-25 and 2026-07-28, keyed by revision, the file `diff` reads) |
//! | `call NAME [JSON]` | runs a tool with JSON arguments; prints its text content |
//! | `read URI` | reads a resource; prints its text |
//! | `prompt NAME [JSON]` | gets a prompt with JSON string arguments; prints its messages |
//! | `complete prompt NAME ARG [VALUE]` | completions for a prompt argument, one per line |
//! | `complete resource TEMPLATE ARG [VALUE]` | completions for a template variable |
//! | `schema NAME` | prints a tool's input schema and, if it has one, its output schema |
//! | `diff OLD.json` | compares the lists with a saved `list --json` (or `list`): each change with its path, breaking or compatible; exit 7 on a breaking one |
//! | `install CLIENT` | writes this binary's entry (its absolute path, `stdio`, `--env KEY=VALUE`, named `--name` or after the binary) into the configuration of `claude-desktop`, `claude-code`, `cursor`, `vscode` or `gemini`, merged with what the file holds (`--config PATH` for another file, `--print` to print it instead) |
//! | `uninstall CLIENT` | removes that entry (`--name`, `--config PATH`) |
//! | `server-card [--catalog]` | prints the Server Card (`ServerBuilder::card`) as served at `/mcp/server-card`, or with `--catalog` the AI Catalog document, to publish elsewhere; `MCP_PUBLIC_URL` names the remote's URL |
//! | `apps preview [ADDR] [TOOL [JSON]]` | serves a local page rendering the server's widgets (MCP Apps) with sample results (default `127.0.0.1:8765`; needs `http`) |
//! | `help` (`-h`, `--help`) | prints the commands, flags, exit codes and environment variables |
//!
//! `call`, `read`, `prompt` and `complete` talk to the server in-process over an in-memory
//! session and take `--json` and `--timeout SECONDS` (give up then; by default they wait as
//! long as the item takes). `complete` also takes `--context JSON`, the arguments already
//! chosen. Without `--json` they print text: `call` the text of the result's content blocks
//! (a text that is a JSON object or array re-indented, its members in their order; other
//! blocks described in one line), `read` the resource's text, `prompt` its messages. With
//! `--json`, `call` prints the result's `structuredContent` as pretty JSON when it has one,
//! else the whole result; the others print the whole result.
//!
//! The session speaks the newest handshake revision (2025-11-25), except `call`'s, which
//! speaks 2025-06-18: from 2025-11-25 on a server answers missing or invalid arguments with an
//! `isError` result meant for the model, before it with a JSON-RPC error (-32602), which the
//! command line reports as refused (exit 3) like an unknown tool. A server built with
//! [`ValidationErrors::ToolResult`](crate::ValidationErrors::ToolResult) answers them with an
//! `isError` result at every revision: exit 1.
//!
//! A failure is printed on stderr as `NAME: message` (the binary's file name) and sets the exit
//! code of its [`Failure`], whose docs hold the exit-code table. `help` lists only what this
//! binary has: `http` with the `http` feature, `apps preview` with it and a tool linked to a
//! widget, the environment variables of the features this binary was built with.
//!
//! [`Cli`] adds the application's own commands next to these.

#[cfg(feature = "cli")]
mod apps;
#[cfg(feature = "cli")]
mod args;
#[cfg(feature = "cli")]
mod commands;
#[cfg(feature = "cli")]
mod diff;
#[cfg(feature = "cli")]
mod env;
mod exit;
#[cfg(feature = "cli")]
mod help;
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
mod inspect;
#[cfg(feature = "cli")]
mod install;
#[cfg(feature = "cli")]
mod log;
#[cfg(all(feature = "cli", feature = "otel"))]
mod otel;
#[cfg(feature = "cli")]
mod run;

pub use exit::{CliError, CommandOutput, Failure};
#[cfg(feature = "testing")]
pub(crate) use inspect::listings;
#[cfg(all(feature = "cli", feature = "otel"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "cli", feature = "otel"))))]
pub use otel::Telemetry;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub use run::Cli;
