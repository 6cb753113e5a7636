//! Notifications from the server, typed.

use mcp_core::method::Method;
use mcp_core::{
    LoggingMessageNotificationParams, ProgressNotificationParams, ResourceUpdatedNotificationParams,
};
use serde_json::Value;
use tokio::sync::broadcast;

/// A notification the server sent.
///
/// ```
/// use mcp_runtime::client::ServerNotification;
///
/// let n = ServerNotification::parse("notifications/tools/list_changed", None);
/// assert!(matches!(n, ServerNotification::ToolsListChanged));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ServerNotification {
    /// `notifications/progress` of a request that did not ask for progress itself.
    Progress(ProgressNotificationParams),
    /// `notifications/message`: a log message.
    Log(LoggingMessageNotificationParams),
    /// `notifications/resources/updated`.
    ResourceUpdated(ResourceUpdatedNotificationParams),
    /// `notifications/tools/list_changed`.
    ToolsListChanged,
    /// `notifications/prompts/list_changed`.
    PromptsListChanged,
    /// `notifications/resources/list_changed`.
    ResourcesListChanged,
    /// Any other notification (or one whose params do not have the expected shape).
    Other {
        /// The method.
        method: String,
        /// The params.
        params: Option<Value>,
    },
}

impl ServerNotification {
    /// Reads a notification from its method and params.
    ///
    /// ```
    /// use mcp_runtime::client::ServerNotification;
    /// use serde_json::json;
    ///
    /// let n = ServerNotification::parse(
    ///     "notifications/resources/updated",
    ///     Some(json!({"uri": "file:///a"})),
    /// );
    /// let ServerNotification::ResourceUpdated(p) = n else { panic!() };
    /// assert_eq!(p.uri, "file:///a");
    /// ```
    #[must_use]
    pub fn parse(method: &str, params: Option<Value>) -> Self {
        fn typed<T: serde::de::DeserializeOwned>(params: &Option<Value>) -> Option<T> {
            serde_json::from_value(params.clone()?).ok()
        }
        let known = match Method::server_notification(method) {
            Method::Progress => typed(&params).map(Self::Progress),
            Method::LogMessage => typed(&params).map(Self::Log),
            Method::ResourceUpdated => typed(&params).map(Self::ResourceUpdated),
            Method::ToolsListChanged => Some(Self::ToolsListChanged),
            Method::PromptsListChanged => Some(Self::PromptsListChanged),
            Method::ResourcesListChanged => Some(Self::ResourcesListChanged),
            _ => None,
        };
        known.unwrap_or(Self::Other {
            method: method.to_owned(),
            params,
        })
    }
}

/// The stream of the server's notifications, from [`Client::notifications`].
///
/// It holds the last 256 notifications not yet read; a reader that falls further behind skips
/// the oldest (and is told how many with [`Lagged`](NotificationsError::Lagged)).
///
/// [`Client::notifications`]: super::Client::notifications
#[derive(Debug)]
pub struct Notifications(pub(crate) broadcast::Receiver<ServerNotification>);

/// Why [`Notifications::next`] returned no notification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotificationsError {
    /// The connection is closed.
    #[error("the connection is closed")]
    Closed,
    /// This reader fell behind and missed this many notifications.
    #[error("missed {0} notifications")]
    Lagged(u64),
}

impl Notifications {
    /// The next notification.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::client::{Client, NotificationsError};
    /// use mcp_runtime::{Server, server_info};
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let client = Client::builder().connect_in_memory(&server).await.unwrap();
    /// let mut notes = client.notifications();
    /// client.close().await;
    /// assert_eq!(notes.next().await, Err(NotificationsError::Closed));
    /// # });
    /// ```
    pub async fn next(&mut self) -> Result<ServerNotification, NotificationsError> {
        self.0.recv().await.map_err(|e| match e {
            broadcast::error::RecvError::Closed => NotificationsError::Closed,
            broadcast::error::RecvError::Lagged(n) => NotificationsError::Lagged(n),
        })
    }
}
