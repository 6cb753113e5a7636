//! `subscriptions/listen` (2026-07-28): the stateless replacement of resource
//! subscriptions and list-changed notifications.

use serde::{Deserialize, Serialize};

use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

/// Which notifications a listener wants (and, in the acknowledgement, gets).
///
/// ```
/// use mcp_runtime_core::SubscriptionFilter;
///
/// let f: SubscriptionFilter = serde_json::from_str(
///     r#"{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}"#).unwrap();
/// assert_eq!(f.tools_list_changed, Some(true));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
}

impl SubscriptionFilter {
    /// An empty filter.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    with_options! {
        with_tools_list_changed => tools_list_changed: bool,
        with_prompts_list_changed => prompts_list_changed: bool,
        with_resources_list_changed => resources_list_changed: bool,
        with_resource_subscriptions => resource_subscriptions: Vec<String>,
    }
}

/// The params of `subscriptions/listen`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionsListenRequestParams {
    /// What to listen for.
    pub notifications: SubscriptionFilter,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The params of `notifications/subscriptions/acknowledged`: the subset honoured.
///
/// Its `_meta` must carry [`SUBSCRIPTION_ID_KEY`](crate::meta::SUBSCRIPTION_ID_KEY).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionsAcknowledgedNotificationParams {
    /// The notifications the server will send.
    pub notifications: SubscriptionFilter,
    /// Notification `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl SubscriptionsAcknowledgedNotificationParams {
    /// Acknowledges `notifications`.
    #[must_use]
    pub fn new(notifications: SubscriptionFilter) -> Self {
        Self {
            notifications,
            meta: None,
        }
    }

    with_options! {
        with_meta => meta: Meta,
    }
}

impl ForVersion for SubscriptionsAcknowledgedNotificationParams {
    fn for_version(&mut self, _v: ProtocolVersion) {}
}

/// Params that only carry `_meta`, as the `*/list_changed` notifications do.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NotificationParams {
    /// Notification `_meta` (carries the subscription id on 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl NotificationParams {
    /// Empty params.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    with_options! {
        with_meta => meta: Meta,
    }
}

impl ForVersion for NotificationParams {
    fn for_version(&mut self, _v: ProtocolVersion) {}
}
