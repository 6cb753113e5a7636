//! [`Cli`]: the commands, their dispatch, the help text and the process exit.

use std::future::Future;
use std::io::Write;
use std::sync::{Arc, Once};

use super::commands::Invocation;
use super::exit::{CliError, CommandOutput, Failure};
use crate::error::Error;
use crate::future::BoxFuture;
use crate::server::{Server, ServerBuilder, Serving};

type Handler =
    Arc<dyn Fn(Server, Vec<String>) -> BoxFuture<'static, Result<(), CliError>> + Send + Sync>;

/// A command of the application, next to the built-in ones.
struct AppCommand {
    name: String,
    usage: String,
    about: String,
    handler: Handler,
}

/// The command line of a server binary, with the application's own commands.
///
/// [`Server::run`] is `Cli::new(&server).run()`; build a `Cli` yourself to add commands or to
/// name the binary in messages. Each command is given as its usage line (its first word is the
/// name), a one-line description for `help`, and an async handler that receives the server and
/// the words after the command name. A command named like a built-in one replaces it.
///
/// ```no_run
/// use mcp_runtime::cli::{Cli, CliError};
/// use mcp_runtime::prelude::*;
///
/// #[tokio::main]
/// async fn main() -> Result<(), mcp_runtime::Error> {
///     let server = Server::from_registry(server_info!()).build()?;
///     Cli::new(&server)
///         .command("greet [NAME]", "print a greeting and exit", |_server, args| async move {
///             let name = args.first().ok_or_else(|| CliError::usage("`greet` needs a NAME"))?;
///             println!("hello, {name}");
///             Ok(())
///         })
///         .run()
///         .await
/// }
/// ```
#[must_use]
pub struct Cli {
    server: Server,
    name: Option<String>,
    commands: Vec<AppCommand>,
}

impl std::fmt::Debug for Cli {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let commands: Vec<&str> = self.commands.iter().map(|c| c.name.as_str()).collect();
        f.debug_struct("Cli")
            .field("server", &self.server.info().name)
            .field("name", &self.name)
            .field("commands", &commands)
            .finish()
    }
}

/// Sets up `tracing` on stderr (stdout belongs to the protocol), once, and only when the
/// application has not installed a global subscriber of its own: the library installs none
/// anywhere else.
/// With `otel` (an OTLP export installed), the `tracing` spans are exported too.
fn init_tracing(otel: bool) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if tracing::dispatcher::has_been_set() {
            return;
        }
        super::log::init(otel);
    });
}

/// The file name this process was started as (`gift-server`), if it has one.
fn program_name() -> Option<String> {
    let arg0 = std::env::args_os().next()?;
    let name = std::path::Path::new(&arg0).file_name()?.to_string_lossy();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    (!name.is_empty()).then(|| name.to_owned())
}

impl Cli {
    /// The command line of `server`, with only the built-in commands.
    ///
    /// ```
    /// use mcp_runtime::cli::Cli;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let cli = Cli::new(&server).name("notes");
    /// assert!(cli.help().starts_with("usage: notes [COMMAND]\n"));
    /// ```
    pub fn new(server: &Server) -> Self {
        Self {
            server: server.clone(),
            name: None,
            commands: Vec::new(),
        }
    }

    /// The name used in help and in error messages; by default the file name the process was
    /// started as (`argv[0]`), or the server's name when there is none.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Adds a command. `usage` is its usage line, whose first word is the command's name
    /// (`"seed [COUNT]"`); `about` is its one-line description in `help`. The handler gets the
    /// server and the words after the command's name; an `Err` is printed as `NAME: message`
    /// and exits with the error's [`Failure`] code.
    ///
    /// ```
    /// use mcp_runtime::cli::{Cli, CliError};
    /// use mcp_runtime::prelude::*;
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let cli = Cli::new(&server)
    ///     .name("notes")
    ///     .command("check COUNT", "fail unless COUNT is a number", |_server, args| async move {
    ///         args.first().map_or("", String::as_str).parse::<u32>()?;
    ///         Ok(())
    ///     });
    /// assert!(cli.help().contains("\n  check COUNT"));
    /// let out = cli.execute(["check", "many"]).await;
    /// assert_eq!((out.code(), out.stderr.as_str()), (1, "notes: invalid digit found in string\n"));
    /// assert_eq!(cli.execute(["check", "7"]).await.code(), 0);
    /// # });
    /// ```
    pub fn command<F, Fut>(mut self, usage: &str, about: &str, handler: F) -> Self
    where
        F: Fn(Server, Vec<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), CliError>> + Send + 'static,
    {
        let name = usage
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned();
        self.commands.retain(|c| c.name != name);
        self.commands.push(AppCommand {
            name,
            usage: usage.trim().to_owned(),
            about: about.to_owned(),
            handler: Arc::new(move |server, args| Box::pin(handler(server, args))),
        });
        self
    }

    fn bin(&self) -> String {
        self.name
            .clone()
            .or_else(program_name)
            .unwrap_or_else(|| self.server.info().name.clone())
    }

    /// The help text: usage, commands (the application's too), flags, exit codes, environment.
    /// It lists only what this binary has: `http` with the `http` feature, `apps preview` when
    /// a tool is linked to a widget, the environment variables of the features built in.
    ///
    /// ```
    /// use mcp_runtime::cli::Cli;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let help = Cli::new(&server).name("notes").help();
    /// assert!(help.contains("\n  call NAME [JSON]         run a tool with JSON arguments, print its text content\n"));
    /// assert!(!help.contains("apps preview")); // no widget
    /// ```
    pub fn help(&self) -> String {
        let app: Vec<(&str, &str)> = self
            .commands
            .iter()
            .map(|c| (c.usage.as_str(), c.about.as_str()))
            .collect();
        super::help::text(&self.server, &self.bin(), &app)
    }

    /// Runs the command given on the process's command line; see [`run_with`](Self::run_with).
    ///
    /// ```no_run
    /// use mcp_runtime::cli::Cli;
    /// use mcp_runtime::prelude::*;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     let server = Server::from_registry(server_info!()).build()?;
    ///     Cli::new(&server).run().await
    /// }
    /// ```
    pub fn run(self) -> impl Future<Output = Result<(), Error>> + Send {
        let args: Vec<String> = std::env::args().skip(1).collect();
        self.run_args(args)
    }

    /// Runs one command (`args` without the program name) and prints its output. On failure
    /// it prints `NAME: message` on stderr and **exits the process** with the failure's code
    /// (see [`Failure`]); it returns `Ok(())` when the command succeeded, so that
    /// `main() -> Result<(), mcp_runtime::Error>` stays readable whatever happens.
    ///
    /// It first installs a `tracing` subscriber writing to stderr (filtered by `RUST_LOG`,
    /// default `warn`) unless the application has set a global one.
    ///
    /// ```no_run
    /// use mcp_runtime::cli::Cli;
    /// use mcp_runtime::prelude::*;
    ///
    /// # async fn demo() -> Result<(), mcp_runtime::Error> {
    /// let server = Server::from_registry(server_info!()).build()?;
    /// Cli::new(&server).run_with(["list"]).await // prints the lists a client would see
    /// # }
    /// ```
    pub fn run_with<I, S>(self, args: I) -> impl Future<Output = Result<(), Error>> + Send
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.run_args(args.into_iter().map(Into::into).collect())
    }

    /// [`run_with`](Self::run_with), not generic, boxed: a server's crate polls one boxed
    /// future instead of compiling the command line's state machines again.
    fn run_args(self, args: Vec<String>) -> Serving<'static> {
        Box::pin(self.run_boxed(args))
    }

    async fn run_boxed(self, args: Vec<String>) -> Result<(), Error> {
        #[cfg(feature = "otel")]
        let telemetry = match super::otel::Telemetry::from_env(&self.bin()) {
            Ok(telemetry) => telemetry,
            Err(e) => {
                eprintln!("{}: {e}", self.bin());
                std::process::exit(e.code().into());
            }
        };
        // The conventions' SERVER spans when `OTEL_*` exports them (unless the server was built
        // with `ServerBuilder::otel`, which placed them itself), and the metrics `http
        // --metrics` serves, outside the application's layers.
        #[cfg(feature = "otel")]
        let otel = telemetry.is_some();
        #[cfg(not(feature = "otel"))]
        let otel = false;
        super::commands::outermost(&self.server, otel, super::commands::metrics_wanted(&args));
        #[cfg(feature = "otel")]
        init_tracing(telemetry.is_some());
        #[cfg(not(feature = "otel"))]
        init_tracing(false);
        let out = self.execute(args).await;
        #[cfg(feature = "otel")]
        if let Some(telemetry) = telemetry {
            telemetry.shutdown().await;
        }
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(out.stdout.as_bytes());
        let _ = stdout.flush();
        drop(stdout);
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(out.stderr.as_bytes());
        let _ = stderr.flush();
        if let Some(failure) = out.failure {
            std::process::exit(failure.code().into());
        }
        Ok(())
    }

    /// Runs one command in-process and returns what it prints and how it ended, without
    /// printing or exiting: for tests and for programs that report on their own.
    ///
    /// `stdio` and `http` serve until done and write their notices on stderr directly, and
    /// application commands print what they print themselves; only their failures are in the
    /// output.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::cli::{Cli, Failure};
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    /// let cli = Cli::new(&server).name("calc");
    /// let out = cli.execute(["call", "add", r#"{"a": 2, "b": 3}"#]).await;
    /// assert_eq!((out.code(), out.stdout.as_str()), (0, "5\n"));
    /// let out = cli.execute(["call", "sub"]).await;
    /// assert_eq!(out.failure, Some(Failure::Refused));
    /// assert_eq!(out.stderr, "calc: unknown tool 'sub' (-32602)\n");
    /// # });
    /// ```
    pub async fn execute<I, S>(&self, args: I) -> CommandOutput
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let args: Vec<String> = args.into_iter().map(Into::into).collect();
        let mut out = CommandOutput::default();
        match self.dispatch(&args).await {
            Ok(stdout) => out.stdout = stdout,
            Err((stdout, err)) => {
                out.stdout = stdout;
                out.stderr = format!("{}: {err}\n", self.bin());
                out.failure = Some(err.failure());
            }
        }
        out
    }

    async fn dispatch(&self, args: &[String]) -> Result<String, (String, CliError)> {
        let command = args.first().map_or("stdio", String::as_str);
        let rest = args.get(1..).unwrap_or_default();
        if let Some(app) = self.commands.iter().find(|c| c.name == command) {
            return (app.handler)(self.server.clone(), rest.to_vec())
                .await
                .map(|()| String::new())
                .map_err(|e| (String::new(), e));
        }
        let bin = self.bin();
        let help = || self.help();
        let invocation = Invocation {
            server: &self.server,
            bin: &bin,
            help: &help,
        };
        invocation.run(command, rest).await
    }
}

impl Server {
    /// Runs the command line (feature `cli`): `stdio` (default), `http [ADDR]`, `list`,
    /// `call NAME [JSON]`, `read URI`, `prompt NAME [JSON]`, `complete …`, `schema NAME`,
    /// `diff OLD.json`, `install CLIENT`, `uninstall CLIENT`, `help`; see [`cli`](crate::cli)
    /// for the commands, flags and exit codes, and [`Cli`] to add commands of your own.
    ///
    /// On failure it prints `NAME: message` on stderr and exits with the failure's code; it
    /// returns `Ok(())` when the command succeeded.
    ///
    /// `run` is always the command line: here on a built server, on the builder
    /// ([`ServerBuilder::run`], which builds first and reads `MCP_*` settings), and on a [`Cli`]
    /// (with commands of your own, or explicit arguments: [`Cli::run_with`]). To serve one
    /// transport without a command line, use the `serve*` methods (see the crate docs,
    /// "Serving"). A server built with [`ServerBuilder::build`] has not read the environment
    /// (the library never does): its `http` command exits with code 6 when `MCP_AUTH_*`,
    /// `MCP_ALLOWED_HOSTS` or `MCP_ALLOW_UNPROTECTED` would change what it serves, and every
    /// command but `help` does when `MCP_REDIS_URL` is set and the server is no replica.
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     let server = Server::from_registry(server_info!()).build()?;
    ///     server.run().await
    /// }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub fn run(&self) -> impl Future<Output = Result<(), Error>> + Send + '_ {
        let running: Serving<'_> = Box::pin(self.run_boxed());
        running
    }

    async fn run_boxed(&self) -> Result<(), Error> {
        Cli::new(self).run().await
    }
}

impl ServerBuilder {
    /// Builds the server and runs its command line (see [`Server::run`]). A server that cannot
    /// be built (duplicate items, bad settings) is reported as `NAME: message` on stderr and
    /// exits with code 5, like every other failure of the command line.
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     Server::from_registry(server_info!()).instructions("Adds numbers.").run().await
    /// }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub fn run(self) -> impl Future<Output = Result<(), Error>> + Send {
        let running: Serving<'static> = Box::pin(self.run_boxed());
        running
    }

    /// [`run`](Self::run) with explicit arguments (without the program name): for a binary
    /// that reads words of its own first (a list of directories, say) and hands the rest to
    /// the command line. The `MCP_*` settings are read as [`run`](Self::run) reads them.
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     // `my-server ROOT [COMMAND...]`: the first word is the application's.
    ///     let mut args: Vec<String> = std::env::args().skip(1).collect();
    ///     let root = if args.is_empty() { ".".to_owned() } else { args.remove(0) };
    ///     Server::from_registry(server_info!())
    ///         .instructions(format!("Serves {root}."))
    ///         .run_with(args)
    ///         .await
    /// }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub fn run_with<I, S>(self, args: I) -> impl Future<Output = Result<(), Error>> + Send
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let args: Vec<String> = args.into_iter().map(Into::into).collect();
        let running: Serving<'static> = Box::pin(self.run_args_boxed(Some(args)));
        running
    }

    async fn run_boxed(self) -> Result<(), Error> {
        self.run_args_boxed(None).await
    }

    async fn run_args_boxed(self, args: Option<Vec<String>>) -> Result<(), Error> {
        match super::env::from_env(self).and_then(ServerBuilder::build) {
            Ok(server) => match args {
                Some(args) => Cli::new(&server).run_with(args).await,
                None => server.run_boxed().await,
            },
            Err(err) => {
                let name = program_name().unwrap_or_else(|| "server".to_owned());
                eprintln!("{name}: {err}");
                std::process::exit(Failure::Server.code().into())
            }
        }
    }
}
