//! Progress and cancellation notifications.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::jsonrpc::RequestId;
use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

/// The token a request's `_meta.progressToken` names: a string or an integer.
///
/// ```
/// use mcp_runtime_core::ProgressToken;
///
/// let t: ProgressToken = serde_json::from_str(r#""abc""#).unwrap();
/// assert_eq!(t, ProgressToken::String("abc".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProgressToken {
    /// An integer token.
    Number(i64),
    /// A string token.
    String(String),
}

impl fmt::Display for ProgressToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => f.write_str(s),
        }
    }
}

/// The params of `notifications/progress`.
///
/// ```
/// use mcp_runtime_core::{ForVersion, ProgressNotificationParams, ProgressToken, ProtocolVersion};
///
/// let p = ProgressNotificationParams::new(ProgressToken::Number(1), 0.5)
///     .with_total(1.0)
///     .with_message("halfway")
///     .into_version(ProtocolVersion::V2024_11_05);
/// assert_eq!(p.message, None); // `message` exists from 2025-03-26 on
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ProgressNotificationParams {
    /// The token of the request this progress belongs to.
    pub progress_token: ProgressToken,
    /// Progress so far; increases with every notification.
    pub progress: f64,
    /// The total, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable message (2025-03-26+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Notification `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ProgressNotificationParams {
    /// Progress for `progress_token`.
    #[must_use]
    pub fn new(progress_token: ProgressToken, progress: f64) -> Self {
        Self {
            progress_token,
            progress,
            total: None,
            message: None,
            meta: None,
        }
    }

    with_options! {
        with_total => total: f64,
        with_message => message: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for ProgressNotificationParams {
    fn for_version(&mut self, v: ProtocolVersion) {
        if v < ProtocolVersion::V2025_03_26 {
            self.message = None;
        }
    }
}

/// The params of `notifications/cancelled`.
///
/// `requestId` is required by every revision's schema; it is optional here only so that
/// a malformed notification can still be read and ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CancelledNotificationParams {
    /// The request to cancel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Notification `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CancelledNotificationParams {
    /// Cancels `request_id`.
    #[must_use]
    pub fn new(request_id: RequestId) -> Self {
        Self {
            request_id: Some(request_id),
            reason: None,
            meta: None,
        }
    }

    with_options! {
        with_reason => reason: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for CancelledNotificationParams {
    fn for_version(&mut self, _v: ProtocolVersion) {}
}
