//! Logging: levels, `logging/setLevel` (handshake era) and `notifications/message`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

/// Syslog severity (RFC 5424), ordered from least (`Debug`) to most severe (`Emergency`).
///
/// ```
/// use mcp_runtime_core::LoggingLevel;
///
/// assert!(LoggingLevel::Error > LoggingLevel::Warning);
/// assert_eq!(serde_json::to_string(&LoggingLevel::Notice).unwrap(), r#""notice""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Debug-level messages.
    Debug,
    /// Informational messages.
    Info,
    /// Normal but significant conditions.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LoggingLevel {
    /// The level's index by severity, 0 (`debug`) to 7 (`emergency`): what an atomic level
    /// gate stores.
    ///
    /// ```
    /// use mcp_runtime_core::LoggingLevel;
    ///
    /// assert_eq!(LoggingLevel::Warning.severity(), 3);
    /// assert_eq!(LoggingLevel::from_severity(3), Some(LoggingLevel::Warning));
    /// ```
    #[must_use]
    pub const fn severity(self) -> u8 {
        match self {
            Self::Debug => 0,
            Self::Info => 1,
            Self::Notice => 2,
            Self::Warning => 3,
            Self::Error => 4,
            Self::Critical => 5,
            Self::Alert => 6,
            Self::Emergency => 7,
        }
    }

    /// The level of a [`severity`](Self::severity) index (`None` past 7).
    ///
    /// ```
    /// use mcp_runtime_core::LoggingLevel;
    ///
    /// assert_eq!(LoggingLevel::from_severity(0), Some(LoggingLevel::Debug));
    /// assert_eq!(LoggingLevel::from_severity(8), None);
    /// ```
    #[must_use]
    pub const fn from_severity(severity: u8) -> Option<Self> {
        Some(match severity {
            0 => Self::Debug,
            1 => Self::Info,
            2 => Self::Notice,
            3 => Self::Warning,
            4 => Self::Error,
            5 => Self::Critical,
            6 => Self::Alert,
            7 => Self::Emergency,
            _ => return None,
        })
    }

    /// The wire name, e.g. `"warning"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The params of `logging/setLevel` (handshake era).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SetLevelRequestParams {
    /// The minimum level the client wants.
    pub level: LoggingLevel,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The params of `notifications/message`.
///
/// ```
/// use mcp_runtime_core::{LoggingLevel, LoggingMessageNotificationParams};
///
/// let p = LoggingMessageNotificationParams::new(LoggingLevel::Info, "started".into())
///     .with_logger("db");
/// assert_eq!(
///     serde_json::to_string(&p).unwrap(),
///     r#"{"level":"info","logger":"db","data":"started"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LoggingMessageNotificationParams {
    /// The severity.
    pub level: LoggingLevel,
    /// The logger name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// Any JSON value.
    pub data: serde_json::Value,
    /// Notification `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl LoggingMessageNotificationParams {
    /// A message at `level`.
    #[must_use]
    pub fn new(level: LoggingLevel, data: serde_json::Value) -> Self {
        Self {
            level,
            logger: None,
            data,
            meta: None,
        }
    }

    with_options! {
        with_logger => logger: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for LoggingMessageNotificationParams {
    fn for_version(&mut self, _v: ProtocolVersion) {}
}
