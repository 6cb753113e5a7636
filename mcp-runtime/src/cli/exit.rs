//! How a command ends: its exit code, and what it prints.

use std::fmt;

/// Why a command failed; each kind has its own process exit code.
///
/// This table is the one exit-code table of the command line: README.md and `docs/guide.md`
/// copy it as it is, `help` prints it, and `tests/it/exit_codes.rs` checks the copies and runs
/// a case of each row.
///
/// | code | kind | when |
/// |---|---|---|
/// | 0 | (success) | the command did what it was asked; `diff`: no change breaks a client |
/// | 1 | `Failed` | `call`: the tool answered `isError: true` (with `--json` the result is still printed); a command of the application failed; `diff`: the saved file cannot be read or is not the output of `list`; `install`, `uninstall`: the client's file cannot be read or written, is not a JSON object, or has no entry to remove |
/// | 2 | `Usage` | unknown command or flag, a missing or malformed command-line argument, arguments that are not a JSON object, an unknown client |
/// | 3 | `Refused` | the server refused the request: unknown tool, prompt or resource, missing or invalid arguments, resource not found |
/// | 4 | `Timeout` | no answer within `--timeout SECONDS` |
/// | 5 | `Server` | the server could not be built (duplicate items, bad settings, a malformed environment variable), or serving failed (address in use, the `--metrics-address` among them; I/O) |
/// | 6 | `Unsafe` | the configuration asks for what this binary cannot do safely, so nothing is served: a variable of a feature this binary was built without, or one the server was built without reading; items that declare scopes served over HTTP with no authorization |
/// | 7 | `Breaking` | `diff`: a change of the lists breaks a client of the saved ones |
///
/// ```
/// use mcp_runtime::cli::Failure;
/// assert_eq!(Failure::Failed.code(), 1);
/// assert_eq!(Failure::Timeout.code(), 4);
/// assert_eq!(Failure::Unsafe.code(), 6);
/// assert_eq!(Failure::Breaking.code(), 7);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Failure {
    /// The command ran and failed: a tool result with `isError`, an application command's error.
    Failed,
    /// The command line itself is wrong.
    Usage,
    /// The server refused the request with a JSON-RPC error.
    Refused,
    /// `--timeout` elapsed before the answer.
    Timeout,
    /// The server could not be built, or serving failed.
    Server,
    /// The configuration asks for a protection or a shared store this binary cannot give;
    /// serving without it would be unsafe, so the command did not start: `MCP_AUTH_*` on a
    /// binary built without the `auth` feature, `MCP_REDIS_URL` without `redis` (or on a
    /// server built without reading it), `MCP_AUTH_ISSUER` and `MCP_AUTH_AUDIENCE` on a server
    /// built without reading them, items that declare scopes served over HTTP with no
    /// authorization.
    Unsafe,
    /// `diff`: a change of the server's lists breaks a client of the saved ones.
    Breaking,
}

impl Failure {
    /// The process exit code of this failure (success is 0).
    ///
    /// ```
    /// use mcp_runtime::cli::Failure;
    /// assert_eq!(Failure::Usage.code(), 2);
    /// ```
    pub const fn code(self) -> u8 {
        match self {
            Self::Failed => 1,
            Self::Usage => 2,
            Self::Refused => 3,
            Self::Timeout => 4,
            Self::Server => 5,
            Self::Unsafe => 6,
            Self::Breaking => 7,
        }
    }
}

/// The rows of the table in [`Failure`]'s docs (code, kind, when), as `help` prints them; a
/// unit test keeps the two the same.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(super) const TABLE: [(u8, &str, &str); 8] = [
    (
        0,
        "(success)",
        "the command did what it was asked; `diff`: no change breaks a client",
    ),
    (
        1,
        "`Failed`",
        "`call`: the tool answered `isError: true` (with `--json` the result is still printed); a \
         command of the application failed; `diff`: the saved file cannot be read or is not the \
         output of `list`; `install`, `uninstall`: the client's file cannot be read or written, \
         is not a JSON object, or has no entry to remove",
    ),
    (
        2,
        "`Usage`",
        "unknown command or flag, a missing or malformed command-line argument, arguments that \
         are not a JSON object, an unknown client",
    ),
    (
        3,
        "`Refused`",
        "the server refused the request: unknown tool, prompt or resource, missing or invalid \
         arguments, resource not found",
    ),
    (4, "`Timeout`", "no answer within `--timeout SECONDS`"),
    (
        5,
        "`Server`",
        "the server could not be built (duplicate items, bad settings, a malformed environment \
         variable), or serving failed (address in use, the `--metrics-address` among them; I/O)",
    ),
    (
        6,
        "`Unsafe`",
        "the configuration asks for what this binary cannot do safely, so nothing is served: a \
         variable of a feature this binary was built without, or one the server was built \
         without reading; items that declare scopes served over HTTP with no authorization",
    ),
    (
        7,
        "`Breaking`",
        "`diff`: a change of the lists breaks a client of the saved ones",
    ),
];

/// A failed command: the message printed on stderr (after the binary's name) and its
/// [`Failure`] kind, which picks the exit code.
///
/// Application commands (see [`Cli::command`](super::Cli::command)) return it; `?` converts any
/// `std::error::Error` into a [`Failure::Failed`] with the error's text.
///
/// ```
/// use mcp_runtime::cli::{CliError, Failure};
///
/// let err = CliError::usage("`seed` takes a number, got 'many'");
/// assert_eq!(err.failure(), Failure::Usage);
/// assert_eq!(err.to_string(), "`seed` takes a number, got 'many'");
///
/// fn parse(text: &str) -> Result<u32, CliError> {
///     Ok(text.parse::<u32>()?)
/// }
/// let err = parse("many").unwrap_err();
/// assert_eq!((err.failure(), err.to_string().as_str()), (Failure::Failed, "invalid digit found in string"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    failure: Failure,
    message: String,
}

impl CliError {
    /// A failure of this kind with this message.
    ///
    /// ```
    /// use mcp_runtime::cli::{CliError, Failure};
    /// let err = CliError::new(Failure::Refused, "no such note");
    /// assert_eq!(err.failure().code(), 3);
    /// ```
    pub fn new(failure: Failure, message: impl Into<String>) -> Self {
        Self {
            failure,
            message: message.into(),
        }
    }

    /// A [`Failure::Failed`] error: the command ran and did not succeed.
    ///
    /// ```
    /// use mcp_runtime::cli::{CliError, Failure};
    /// assert_eq!(CliError::failed("store is locked").failure(), Failure::Failed);
    /// ```
    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(Failure::Failed, message)
    }

    /// A [`Failure::Usage`] error: the command line is wrong.
    ///
    /// ```
    /// use mcp_runtime::cli::{CliError, Failure};
    /// assert_eq!(CliError::usage("missing NAME").failure(), Failure::Usage);
    /// ```
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(Failure::Usage, message)
    }

    /// The kind of failure.
    pub fn failure(&self) -> Failure {
        self.failure
    }

    /// The exit code, [`Failure::code`] of its kind.
    ///
    /// ```
    /// use mcp_runtime::cli::CliError;
    /// assert_eq!(CliError::usage("missing NAME").code(), 2);
    /// ```
    pub fn code(&self) -> u8 {
        self.failure.code()
    }

    /// The message, without the binary's name.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

// `CliError` does not implement `std::error::Error`, so that `?` can turn any error into it.
impl<E: std::error::Error> From<E> for CliError {
    fn from(err: E) -> Self {
        Self::failed(err.to_string())
    }
}

/// What a command printed and how it ended, from [`Cli::execute`](super::Cli::execute).
///
/// ```
/// use mcp_runtime::cli::CommandOutput;
/// let out = CommandOutput::default();
/// assert_eq!((out.code(), out.stdout.as_str(), out.stderr.as_str()), (0, "", ""));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CommandOutput {
    /// What goes to stdout.
    pub stdout: String,
    /// What goes to stderr (each failure as `NAME: message`).
    pub stderr: String,
    /// How the command failed; `None` on success.
    pub failure: Option<Failure>,
}

impl CommandOutput {
    /// The process exit code: 0 on success, else [`Failure::code`].
    pub fn code(&self) -> u8 {
        self.failure.map_or(0, Failure::code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of the docs, row by row, is [`TABLE`], and each kind's row has its code.
    #[test]
    fn the_documented_table_is_the_table() {
        let source = include_str!("exit.rs");
        let documented: Vec<&str> = source
            .lines()
            .filter_map(|l| l.strip_prefix("/// | "))
            .filter(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
            .collect();
        let rows: Vec<String> = TABLE
            .iter()
            .map(|(code, kind, when)| format!("{code} | {kind} | {when} |"))
            .collect();
        assert_eq!(documented, rows);
        let kinds = [
            Failure::Failed,
            Failure::Usage,
            Failure::Refused,
            Failure::Timeout,
            Failure::Server,
            Failure::Unsafe,
            Failure::Breaking,
        ];
        for (failure, (code, kind, _)) in kinds.iter().zip(&TABLE[1..]) {
            assert_eq!(
                (failure.code(), format!("`{failure:?}`")),
                (*code, (*kind).to_owned())
            );
        }
    }
}
