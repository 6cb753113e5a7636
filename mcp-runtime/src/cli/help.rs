//! `help`: the commands, flags, exit codes and environment variables of this binary, and only
//! those: a command that needs a feature this binary was built without (`http`, `apps preview`)
//! or something the server does not have (`apps preview` without a widget) is left out.

use super::exit::TABLE;
use crate::server::Server;

/// The help text of `bin`, with the application's commands (`(usage, about)`).
pub(super) fn text(server: &Server, bin: &str, app: &[(&str, &str)]) -> String {
    let mut text = format!("usage: {bin} [COMMAND]\n\ncommands:\n");
    for (usage, about) in builtin(server) {
        line(&mut text, usage, about);
    }
    if !app.is_empty() {
        text.push_str("\ncommands of this server:\n");
        for (usage, about) in app {
            line(&mut text, usage, about);
        }
    }
    text.push_str(
        "\noptions of call, read, prompt and complete:\n\
         \x20 --json                   print the result as JSON (call: its structured content, if\n\
         \x20                          it has one)\n\
         \x20 --timeout SECONDS        give up after SECONDS (default: wait as long as it takes)\n\
         \x20 --context JSON           (complete) arguments already chosen, e.g. '{\"occasion\":\"wedding\"}'\n\
         \nexit status:\n",
    );
    for (code, _, when) in TABLE {
        wrapped(&mut text, &format!("{code}  "), &when.replace('`', ""));
    }
    text.push_str(&super::env::help());
    text
}

/// The built-in commands this binary has, as `(usage, about)`.
fn builtin(server: &Server) -> Vec<(&'static str, &'static str)> {
    let mut lines = vec![("stdio", "serve MCP over stdin/stdout (the default)")];
    if cfg!(feature = "http") {
        lines.push((
            "http [ADDR]",
            "serve MCP over Streamable HTTP at /mcp (default 127.0.0.1:8000)",
        ));
        lines.push((
            "http [ADDR] --metrics",
            "the same, and Prometheus metrics at /metrics on that listener",
        ));
        lines.push((
            "http [ADDR] --metrics-address A",
            "the same, with /metrics on a listener of its own at A (e.g. 127.0.0.1:9464)",
        ));
    }
    lines.extend([
        (
            "list [--json]",
            "print the tools, resources, templates and prompts a client sees, as JSON (--json: \
             of both eras, to save for diff)",
        ),
        (
            "call NAME [JSON]",
            "run a tool with JSON arguments, print its text content",
        ),
        ("read URI", "read a resource, print its text"),
        (
            "prompt NAME [JSON]",
            "get a prompt with JSON string arguments, print its messages",
        ),
        (
            "complete prompt NAME ARG [VALUE]",
            "complete a prompt argument, one value per line",
        ),
        (
            "complete resource TEMPLATE ARG [VALUE]",
            "complete a template variable, one value per line",
        ),
        (
            "schema NAME",
            "print a tool's input schema (and output schema)",
        ),
        (
            "diff OLD.json",
            "compare the lists with a saved `list --json`; exit 7 on a change breaking a client",
        ),
        (
            "install CLIENT",
            "add this server to the configuration of CLIENT (claude-desktop, claude-code, \
             cursor, vscode, gemini); --print prints it instead, --name NAME, --env KEY=VALUE, \
             --config PATH",
        ),
        (
            "uninstall CLIENT",
            "remove this server from the configuration of CLIENT (--name NAME, --config PATH)",
        ),
    ]);
    if server.server_card().is_some() {
        lines.push((
            "server-card [--catalog]",
            "print the Server Card served at /mcp/server-card (--catalog: the AI Catalog \
             document), to publish elsewhere",
        ));
    }
    if cfg!(feature = "http") && has_widgets(server) {
        lines.push((
            "apps preview [ADDR] [TOOL [JSON]]",
            "serve a page rendering the widgets (MCP Apps) with sample results",
        ));
    }
    lines.push(("help", "print this help (also -h, --help)"));
    lines
}

/// Whether a tool of the server is linked to a widget (`#[tool(ui = ..)]`).
fn has_widgets(server: &Server) -> bool {
    server
        .inner
        .live()
        .catalog
        .tools
        .iter()
        .any(|t| t.record.ui.is_some())
}

/// One command: its usage and description on one line, or the description on the next; a
/// long description wraps under itself.
fn line(text: &mut String, usage: &str, about: &str) {
    if usage.len() < 25 {
        wrapped(text, &format!("{usage:<25}"), about);
    } else {
        text.push_str(&format!("  {usage}\n"));
        wrapped(text, &" ".repeat(25), about);
    }
}

/// `lead` then `words`, wrapped at 96 columns, continuation lines indented under the words.
fn wrapped(text: &mut String, lead: &str, words: &str) {
    const WIDTH: usize = 96;
    let indent = 2 + lead.len();
    let mut column = indent;
    text.push_str("  ");
    text.push_str(lead);
    for (i, word) in words.split_whitespace().enumerate() {
        if i > 0 && column + 1 + word.len() > WIDTH {
            text.push('\n');
            text.extend(std::iter::repeat_n(' ', indent));
            column = indent;
        } else if i > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        column += word.len();
    }
    text.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_under_their_words() {
        let mut text = String::new();
        wrapped(&mut text, "6  ", &"word ".repeat(30));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], format!("  6  {}", ["word"; 18].join(" ")));
        assert_eq!(lines[1], format!("     {}", ["word"; 12].join(" ")));
        assert!(lines.iter().all(|l| l.len() <= 96));
    }

    /// What `help` lists follows the features this crate was built with: each line is there
    /// exactly when the binary has what it names.
    #[test]
    fn help_lists_what_this_build_has() {
        let server = Server::builder(crate::server_info!()).build().unwrap();
        let help = text(&server, "notes", &[]);
        let has = |line: &str| help.contains(line);
        assert_eq!(has("\n  http [ADDR]  "), cfg!(feature = "http"));
        assert_eq!(has("\n  http [ADDR] --metrics  "), cfg!(feature = "http"));
        assert_eq!(has("MCP_ALLOWED_HOSTS"), cfg!(feature = "http"));
        assert_eq!(has("MCP_AUTH_ISSUER"), cfg!(feature = "auth"));
        assert_eq!(has("MCP_REDIS_URL"), cfg!(feature = "redis"));
        assert_eq!(
            has(
                "\n  OTEL_EXPORTER_OTLP_PROTOCOL=P\n                           http/protobuf (default) or \
                 http/json (grpc: not built)\n"
            ),
            cfg!(feature = "otel")
        );
        // No widget here: no `apps preview`, whatever the features.
        assert!(!has("apps preview"), "{help}");
        // No card here: no `server-card`.
        assert!(!has("server-card"), "{help}");
        assert!(has(
            "\n  help                     print this help (also -h, --help)\n"
        ));
        assert!(has(
            "\nexit status:\n  0  the command did what it was asked; diff: no change breaks a client\n"
        ));
    }
}
