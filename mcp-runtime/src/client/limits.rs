//! The client's bounds on what a server sends: one message, and the pages of one list.

use super::ClientBuilder;
use super::error::ClientError;

/// The largest message read by default: 16 MiB.
pub(crate) const DEFAULT_MAX_MESSAGE: usize = 16 * 1024 * 1024;
/// What the pages of one list may hold by default: 16 MiB.
pub(crate) const DEFAULT_MAX_LIST: usize = 16 * 1024 * 1024;
/// How many pages one list reads by default.
pub(crate) const DEFAULT_MAX_PAGES: usize = 1000;

/// The bounds a [`ClientBuilder`] was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// The largest message (stdio line, HTTP JSON body, SSE event), in bytes.
    pub(crate) max_message: usize,
    /// What the pages of one list may hold, counted as received, in bytes.
    pub(crate) max_list: usize,
    /// How many pages one list reads at most.
    pub(crate) max_pages: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message: DEFAULT_MAX_MESSAGE,
            max_list: DEFAULT_MAX_LIST,
            max_pages: DEFAULT_MAX_PAGES,
        }
    }
}

impl Limits {
    /// Refuses bounds that could serve nothing.
    pub(crate) fn check(&self) -> Result<(), ClientError> {
        for (name, value) in [
            ("max_message_bytes", self.max_message),
            ("max_list_bytes", self.max_list),
            ("max_list_pages", self.max_pages),
        ] {
            if value == 0 {
                return Err(ClientError::InvalidConfig(format!(
                    "{name} must be at least 1"
                )));
            }
        }
        Ok(())
    }
}

impl ClientBuilder {
    /// The largest message the client accepts from the server, in bytes: a stdio line, an HTTP
    /// JSON body, one SSE event (16 MiB unless set). A larger message is never buffered whole:
    /// over HTTP the request it answers fails with [`ClientError::MessageTooLarge`]; over a
    /// message transport (stdio, in-memory, [`connect`](Self::connect)) the connection is
    /// closed and every request in flight fails with it. Zero is refused when connecting
    /// ([`ClientError::InvalidConfig`]).
    ///
    /// ```
    /// use mcp_runtime::client::Client;
    ///
    /// let builder = Client::builder().max_message_bytes(4 * 1024 * 1024);
    /// # let _ = builder;
    /// ```
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_message = bytes;
        self
    }

    /// What the pages of one list operation may hold together, in bytes, counted as each page
    /// is received ([`list_tools`](super::Client::list_tools), `list_resources`,
    /// `list_resource_templates`, `list_prompts`; 16 MiB unless set). Over HTTP a page is read
    /// no further than what is left of the bound; a page that would pass it is dropped, with
    /// the pages before it, and the list fails with [`ClientError::ListTooLarge`]. The
    /// `*_page` methods read one page and are bounded by
    /// [`max_message_bytes`](Self::max_message_bytes) only. Zero is refused when connecting.
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::client::{Client, ClientError};
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    /// let client = Client::builder()
    ///     .max_list_bytes(64)
    ///     .connect_in_memory(&server)
    ///     .await
    ///     .unwrap();
    /// let err = client.list_tools().await.unwrap_err();
    /// assert!(matches!(err, ClientError::ListTooLarge { limit: 64, held: 0, pages: 0, .. }));
    /// # });
    /// ```
    pub fn max_list_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_list = bytes;
        self
    }

    /// How many pages one list operation reads at most (1000 unless set); a list with more
    /// fails with [`ClientError::Protocol`]. Zero is refused when connecting.
    ///
    /// ```
    /// use mcp_runtime::client::Client;
    ///
    /// let builder = Client::builder().max_list_pages(50);
    /// # let _ = builder;
    /// ```
    pub fn max_list_pages(mut self, pages: usize) -> Self {
        self.limits.max_pages = pages;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_bounds_are_refused_by_name() {
        assert!(Limits::default().check().is_ok());
        let zero = Limits {
            max_list: 0,
            ..Limits::default()
        };
        let err = zero.check().unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid client configuration: max_list_bytes must be at least 1"
        );
    }
}
