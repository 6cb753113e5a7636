//! A peer's input as errors repeat it: shortened when long.

use std::fmt;

use serde::{Serialize, Serializer};

/// Most bytes of a peer's input that an error message repeats (see [`echo`]).
pub const ECHO_LIMIT: usize = 256;

/// A peer's input as an error message or error `data` repeats it: whole when it is at most
/// [`ECHO_LIMIT`] bytes long, otherwise its first bytes (cut on a character boundary), `…` and
/// its total length. Every error that names a method, a tool, a URI, a header value or any other
/// text the peer sent goes through this, so a 3 MB input cannot make a 6 MB error.
///
/// ```
/// use mcp_runtime_core::jsonrpc::{ECHO_LIMIT, echo};
///
/// assert_eq!(echo("tools/frobnicate").to_string(), "tools/frobnicate");
/// let uri = format!("file:///{}", "a".repeat(3 * 1024 * 1024));
/// let shown = echo(&uri).to_string();
/// assert_eq!(shown, format!("file:///{}… (3145736 bytes)", "a".repeat(ECHO_LIMIT - 8)));
/// // A multi-byte character is never split.
/// let wide = "é".repeat(200);
/// assert_eq!(echo(&wide).to_string(), format!("{}… (400 bytes)", "é".repeat(128)));
/// ```
#[must_use]
pub fn echo(input: &str) -> Echo<'_> {
    Echo { input }
}

/// A peer's input, shortened for an error message when long; see [`echo`].
#[derive(Debug, Clone, Copy)]
pub struct Echo<'a> {
    input: &'a str,
}

impl Echo<'_> {
    /// The part of the input that is shown.
    ///
    /// ```
    /// assert_eq!(mcp_runtime_core::jsonrpc::echo(&"x".repeat(300)).shown().len(), 256);
    /// ```
    #[must_use]
    pub fn shown(&self) -> &str {
        if self.input.len() <= ECHO_LIMIT {
            return self.input;
        }
        let mut end = ECHO_LIMIT;
        while !self.input.is_char_boundary(end) {
            end -= 1;
        }
        &self.input[..end]
    }

    /// Whether the input was shortened.
    ///
    /// ```
    /// assert!(!mcp_runtime_core::jsonrpc::echo("short").is_truncated());
    /// ```
    #[must_use]
    pub fn is_truncated(&self) -> bool {
        self.input.len() > ECHO_LIMIT
    }
}

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.shown())?;
        if self.is_truncated() {
            write!(f, "… ({} bytes)", self.input.len())?;
        }
        Ok(())
    }
}

/// Serialises as the string [`Display`](fmt::Display) shows, for error `data`.
///
/// ```
/// let data = serde_json::json!({ "uri": mcp_runtime_core::jsonrpc::echo("a://b") });
/// assert_eq!(data, serde_json::json!({ "uri": "a://b" }));
/// ```
impl Serialize for Echo<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
