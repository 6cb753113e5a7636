//! The command line every server binary gets from [`Server::run`] (feature `cli`), and the
//! listing and one-shot call it is built on (always available).

#[cfg(feature = "cli")]
use std::io::Write;
#[cfg(feature = "cli")]
use std::sync::Once;

use mcp_core::ProtocolVersion;

use crate::error::Error;
use crate::registry::ListKind;
use crate::server::Server;

#[cfg(feature = "cli")]
const USAGE: &str = "\
usage: <server> [COMMAND]

commands:
  stdio              serve MCP over stdin/stdout (the default)
  http [ADDR]        serve MCP over Streamable HTTP (default 127.0.0.1:8000)
  list               print the tools, resources, templates and prompts a client would see
  call NAME [JSON]   run one tool in-process with JSON arguments and print its result
  help               print this help

environment:
  MCP_LOG_MESSAGES=1 log every JSON message in and out on stderr
  RUST_LOG=…         tracing filter for the server's own logs (stderr)";

/// Sets up `tracing` on stderr (stdout belongs to the protocol), once, and only when the
/// application has not installed a global subscriber of its own: the library installs none
/// anywhere else.
#[cfg(feature = "cli")]
fn init_tracing() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if tracing::dispatcher::has_been_set() {
            return;
        }
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .try_init();
    });
}

impl Server {
    /// Runs the command line: `stdio` (default), `http [ADDR]`, `list`, `call NAME JSON`, `help`.
    ///
    /// Before serving, it installs a `tracing` subscriber that writes to stderr (filtered by
    /// `RUST_LOG`, default `warn`), unless the application has already set a global one.
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     Server::from_registry(server_info!()).run().await
    /// }
    /// ```
    #[cfg(feature = "cli")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub async fn run(&self) -> Result<(), Error> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        self.run_with(&args).await
    }

    /// [`run`](Self::run) with explicit arguments (without the program name).
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// # async fn demo() -> Result<(), mcp_runtime::Error> {
    /// let server = Server::from_registry(server_info!()).build()?;
    /// server.run_with(&["list".to_owned()]).await // prints the lists a client would see
    /// # }
    /// ```
    #[cfg(feature = "cli")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub async fn run_with(&self, args: &[String]) -> Result<(), Error> {
        init_tracing();
        let mut out = std::io::stdout().lock();
        match args.first().map(String::as_str) {
            None | Some("stdio") => {
                drop(out);
                self.serve_stdio().await
            }
            Some("http") => {
                drop(out);
                let addr = args.get(1).map_or("127.0.0.1:8000", String::as_str);
                self.serve_http_cli(addr).await
            }
            Some("list") => {
                let text = self.listing();
                writeln!(out, "{text}")?;
                Ok(())
            }
            Some("call") => {
                let Some(name) = args.get(1) else {
                    return Err(Error::Usage(format!("`call` needs a tool name\n\n{USAGE}")));
                };
                let json = args.get(2).map_or("{}", String::as_str);
                drop(out);
                let value = self.call_from_cli(name, json).await?;
                let mut out = std::io::stdout().lock();
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                )?;
                Ok(())
            }
            Some("help" | "-h" | "--help") => {
                writeln!(out, "{USAGE}")?;
                Ok(())
            }
            Some(other) => Err(Error::Usage(format!(
                "unknown command `{other}`\n\n{USAGE}"
            ))),
        }
    }

    #[cfg(all(feature = "cli", feature = "http"))]
    async fn serve_http_cli(&self, addr: &str) -> Result<(), Error> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        eprintln!(
            "serving MCP over Streamable HTTP at http://{}/mcp",
            listener.local_addr()?
        );
        self.serve_http_on(listener).await
    }

    #[cfg(all(feature = "cli", not(feature = "http")))]
    #[allow(clippy::unused_async)]
    async fn serve_http_cli(&self, addr: &str) -> Result<(), Error> {
        Err(Error::Usage(format!(
            "HTTP serving ({addr}) needs the `http` feature of mcp-runtime"
        )))
    }

    /// The four lists exactly as a client of the newest handshake revision receives them.
    pub fn listing(&self) -> String {
        let v = ProtocolVersion::LATEST_HANDSHAKE;
        let live = self.inner.live();
        let catalog = &live.catalog;
        let mut all = serde_json::Map::new();
        for (key, kind) in [
            ("tools/list", ListKind::Tools),
            ("resources/list", ListKind::Resources),
            ("resources/templates/list", ListKind::Templates),
            ("prompts/list", ListKind::Prompts),
        ] {
            // Every page, merged, so the listing shows everything.
            let mut items: Vec<serde_json::Value> = Vec::new();
            let field = match kind {
                ListKind::Tools => "tools",
                ListKind::Resources => "resources",
                ListKind::Templates => "resourceTemplates",
                ListKind::Prompts => "prompts",
            };
            let mut cursor: Option<String> = None;
            while let Some(page) = catalog.page(v, kind, cursor.as_deref()) {
                let page: serde_json::Value = serde_json::from_str(&page).unwrap_or_default();
                if let Some(list) = page.get(field).and_then(serde_json::Value::as_array) {
                    items.extend(list.iter().cloned());
                }
                match page.get("nextCursor").and_then(serde_json::Value::as_str) {
                    Some(next) => cursor = Some(next.to_owned()),
                    None => break,
                }
            }
            all.insert(key.to_owned(), serde_json::json!({ field: items }));
        }
        serde_json::to_string_pretty(&serde_json::Value::Object(all)).unwrap_or_default()
    }

    /// Runs one tool in-process, as `<bin> call NAME JSON` does; returns the `tools/call` result.
    pub async fn call_from_cli(&self, name: &str, json: &str) -> Result<serde_json::Value, Error> {
        let args: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| Error::Usage(format!("arguments are not valid JSON: {e}")))?;
        let mut client = self.connect_in_memory();
        client
            .initialize(ProtocolVersion::LATEST_HANDSHAKE.as_str())
            .await;
        let response = client.call_tool(name, args).await;
        if let Some(err) = response.get("error") {
            return Err(Error::Usage(format!(
                "{} ({})",
                err["message"].as_str().unwrap_or("error"),
                err["code"]
            )));
        }
        Ok(response.get("result").cloned().unwrap_or_default())
    }
}
