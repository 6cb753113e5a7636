//! The command line every server binary gets: serve, inspect, and call items in-process.
//!
//! [`Server::run`](crate::Server::run) (feature `cli`) reads the process arguments and runs one command:
//!
//! | command | what it does |
//! |---|---|
//! | `stdio` (the default) | serves MCP on stdin/stdout, as clients launch the binary |
//! | `http [ADDR]` | serves Streamable HTTP at `http://ADDR/mcp` (default `127.0.0.1:8000`) |
//! | `list` | prints the tools, resources, templates and prompts a client sees, as JSON |
//! | `call NAME [JSON]` | runs a tool with JSON arguments; prints its text content |
//! | `read URI` | reads a resource; prints its text |
//! | `prompt NAME [JSON]` | gets a prompt with JSON string arguments; prints its messages |
//! | `complete prompt NAME ARG [VALUE]` | completions for a prompt argument, one per line |
//! | `complete resource TEMPLATE ARG [VALUE]` | completions for a template variable |
//! | `schema NAME` | prints a tool's input schema and, if it has one, its output schema |
//! | `apps preview [ADDR] [TOOL [JSON]]` | serves a local page rendering the server's widgets (MCP Apps) with sample results (default `127.0.0.1:8765`; needs `http`) |
//! | `help` | prints the commands, flags and exit codes |
//!
//! `call`, `read`, `prompt` and `complete` talk to the server in-process over an in-memory
//! session (newest handshake revision) and take `--json` (print the whole result as JSON
//! instead of its text) and `--timeout SECONDS` (give up then; by default they wait as long as
//! the item takes). `complete` also takes `--context JSON`, the arguments already chosen.
//!
//! A failure is printed on stderr as `NAME: message` (the binary's file name) and sets the exit
//! code of its [`Failure`]: 0 success, 1 a tool answered `isError` (or an application command
//! failed), 2 usage, 3 the server refused the request, 4 timeout, 5 the server could not be
//! built or serving failed, 6 the configuration asks for what this binary cannot do safely
//! (nothing is served): `MCP_AUTH_*` on a binary built without the `auth` feature, `MCP_REDIS_URL`
//! without `redis`, or items that declare scopes served over HTTP with no authorization
//! configured (see [`ServerBuilder::allow_unprotected`](crate::ServerBuilder::allow_unprotected)).
//! `help` lists the environment variables of the features this binary was built with.
//!
//! [`Cli`] adds the application's own commands next to these.

#[cfg(feature = "cli")]
mod apps;
#[cfg(feature = "cli")]
mod args;
#[cfg(feature = "cli")]
mod env;
mod exit;
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
mod inspect;
#[cfg(feature = "cli")]
mod log;
#[cfg(feature = "cli")]
mod run;

pub use exit::{CliError, CommandOutput, Failure};
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub use run::Cli;
