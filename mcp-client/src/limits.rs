//! The client's bounds on what a server sends: one message, and the pages of one list.

use crate::ClientBuilder;
use crate::error::ClientError;

/// The largest message read by default: 16 MiB.
pub(crate) const DEFAULT_MAX_MESSAGE: usize = 16 * 1024 * 1024;
/// What the pages of one list may hold by default: 16 MiB.
pub(crate) const DEFAULT_MAX_LIST: usize = 16 * 1024 * 1024;
/// What the notifications waiting for readers may hold by default: 32 MiB.
pub(crate) const DEFAULT_MAX_NOTIFICATIONS: usize = 32 * 1024 * 1024;
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
    /// What the notifications waiting for readers may hold, in bytes (their weight in memory).
    pub(crate) max_notifications: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message: DEFAULT_MAX_MESSAGE,
            max_list: DEFAULT_MAX_LIST,
            max_pages: DEFAULT_MAX_PAGES,
            max_notifications: DEFAULT_MAX_NOTIFICATIONS,
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
            ("max_notification_bytes", self.max_notifications),
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
    /// use mcp_runtime_client::Client;
    ///
    /// let builder = Client::builder().max_message_bytes(4 * 1024 * 1024);
    /// # let _ = builder;
    /// ```
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_message = bytes;
        self
    }

    /// What one list operation may hold at its peak, in bytes ([`list_tools`](crate::Client::list_tools),
    /// `list_resources`, `list_resource_templates`, `list_prompts`; 16 MiB unless set). A page
    /// is counted by what it decodes to (read from its text without decoding it: each value and
    /// string as `serde_json::Value` holds them, so `[[],[],…]` weighs many times its bytes),
    /// the list's array by its capacity, and the page being decoded by its weight and twice its
    /// text (the buffers it arrived in). Over HTTP a page is read no further than what the
    /// pages before it leave; a page that would pass the bound is dropped, with the pages
    /// before it, and the list fails with [`ClientError::ListTooLarge`] (its `held`: what the
    /// pages kept weighed). The
    /// `*_page` methods read one page and are bounded by
    /// [`max_message_bytes`](Self::max_message_bytes) only. Zero is refused when connecting.
    ///
    /// ```no_run
    /// use mcp_runtime_client::{Client, ClientError};
    ///
    /// # async fn f() -> Result<(), ClientError> {
    /// let client = Client::builder()
    ///     .max_list_bytes(64)
    ///     .connect_http("http://127.0.0.1:8000/mcp")
    ///     .await?;
    /// // A server with a tool: its first page weighs more than 64 bytes, nothing is kept.
    /// let err = client.list_tools().await.unwrap_err();
    /// assert!(matches!(err, ClientError::ListTooLarge { limit: 64, held: 0, pages: 0, .. }));
    /// # Ok(()) }
    /// ```
    pub fn max_list_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_list = bytes;
        self
    }

    /// How many pages one list operation reads at most (1000 unless set); a list with more
    /// fails with [`ClientError::Protocol`]. Zero is refused when connecting.
    ///
    /// ```
    /// use mcp_runtime_client::Client;
    ///
    /// let builder = Client::builder().max_list_pages(50);
    /// # let _ = builder;
    /// ```
    pub fn max_list_pages(mut self, pages: usize) -> Self {
        self.limits.max_pages = pages;
        self
    }
}

impl ClientBuilder {
    /// What the server's notifications waiting for their readers
    /// ([`Client::notifications`](crate::Client::notifications)) may hold together, in bytes
    /// (32 MiB unless set), counted by what each holds in memory once read (its strings and
    /// member names, and each JSON value's own size: `[0,0,…]` weighs far more than its text).
    /// A notification that would pass the bound is dropped as it arrives, with a warning, and
    /// every reader's next [`Notifications::next`](crate::Notifications::next) answers
    /// [`Lagged`](crate::NotificationsError::Lagged) with how many it missed; the queue makes
    /// room as its readers read. Progress of a request that asked for it goes to the request's
    /// callback, not through the queue. Zero is refused when connecting.
    ///
    /// ```no_run
    /// use mcp_runtime_client::protocol::LoggingLevel;
    /// use mcp_runtime_client::{Client, NotificationsError, ServerNotification};
    ///
    /// # async fn f() -> Result<(), mcp_runtime_client::ClientError> {
    /// let client = Client::builder()
    ///     .max_notification_bytes(4096)
    ///     .connect_http("http://127.0.0.1:8000/mcp")
    ///     .await?;
    /// client.set_level(LoggingLevel::Info).await?;
    /// let mut notes = client.notifications();
    /// // A tool that logs two lines of 3000 characters each.
    /// client.call_tool("chatty", serde_json::json!({})).await?;
    /// // The second line did not fit beside the first, unread.
    /// assert_eq!(notes.next().await, Err(NotificationsError::Lagged(1)));
    /// assert!(matches!(notes.next().await, Ok(ServerNotification::Log(_))));
    /// # Ok(()) }
    /// ```
    pub fn max_notification_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_notifications = bytes;
        self
    }
}

/// What a JSON text decodes to in memory, about, read from the text without decoding it: each
/// value's own size (`serde_json::Value`'s), and each string's (and member name's) bytes and
/// header. A page of a list is counted by this weight, not by its length, since a page of tiny
/// nested values (`[[],[],…]`, `{"a":{}}`) decodes to many times the bytes it took to send.
pub(crate) fn decoded_weight(text: &str) -> usize {
    let node = std::mem::size_of::<serde_json::Value>();
    let string = std::mem::size_of::<String>();
    let bytes = text.as_bytes();
    let mut weight = 0usize;
    let mut i = 0;
    // Whether the current value is a number or literal already counted.
    let mut in_scalar = false;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                in_scalar = false;
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                // A member name and a string value cost about the same.
                weight += node + string + (i - start).saturating_sub(1);
            }
            b'{' | b'[' => {
                in_scalar = false;
                weight += node;
            }
            b'}' | b']' | b',' | b':' | b' ' | b'\n' | b'\r' | b'\t' => in_scalar = false,
            _ => {
                if !in_scalar {
                    weight += node;
                    in_scalar = true;
                }
            }
        }
        i += 1;
    }
    weight
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

    #[test]
    fn decoded_weight_counts_values_and_strings() {
        let node = std::mem::size_of::<serde_json::Value>();
        let string = std::mem::size_of::<String>();
        assert_eq!(super::decoded_weight("1"), node);
        assert_eq!(super::decoded_weight("[0,0,0]"), 4 * node);
        assert_eq!(super::decoded_weight(r#""abcd""#), node + string + 4);
        assert_eq!(
            super::decoded_weight(r#"{"ab": "c\"d"}"#),
            node + (node + string + 2) + (node + string + 4)
        );
        assert_eq!(super::decoded_weight("[true, null, -1.5e3]"), 4 * node);
        // Tiny nested values weigh many times their text.
        let nested = "[[],[],[],[]]";
        assert!(super::decoded_weight(nested) >= 5 * node);
        assert!(super::decoded_weight(nested) > 10 * nested.len());
    }
}
