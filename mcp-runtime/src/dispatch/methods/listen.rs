//! `subscriptions/listen`: the stateless era's stream of change notifications.

use mcp_core::subscriptions::{
    SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenRequestParams,
};
use mcp_core::{ErrorObject, Meta, SubscriptionFilter};

use crate::dispatch::call::Call;
use crate::dispatch::reply::Payload;
use crate::outbound::Outbound;

/// Acknowledges what will be sent, then streams the requested notifications until the client
/// closes the stream (HTTP), cancels the request (stdio) or the connection closes.
pub(super) async fn listen(call: Call<'_>) -> Result<Payload, ErrorObject> {
    let p: SubscriptionsListenRequestParams = call.params()?;
    let server = call.server;
    let live = server.live();
    let caps = &live.capabilities;
    let asked = p.notifications;
    let mut honoured = SubscriptionFilter::new();
    if asked.tools_list_changed == Some(true) && caps.tools.is_some() {
        honoured.tools_list_changed = Some(true);
    }
    if asked.prompts_list_changed == Some(true) && caps.prompts.is_some() {
        honoured.prompts_list_changed = Some(true);
    }
    if caps.resources.is_some() {
        if asked.resources_list_changed == Some(true) {
            honoured.resources_list_changed = Some(true);
        }
        if let Some(mut uris) = asked.resource_subscriptions {
            uris.truncate(1024);
            honoured.resource_subscriptions = Some(uris);
        }
    }
    drop(live);
    let mut meta = Meta::new();
    meta.insert(
        mcp_core::meta::SUBSCRIPTION_ID_KEY.to_owned(),
        serde_json::to_value(call.id).unwrap_or_default(),
    );
    let ack =
        SubscriptionsAcknowledgedNotificationParams::new(honoured.clone()).with_meta(meta.clone());
    let peer = &call.scope.peer;
    let ack = crate::wire::notification("notifications/subscriptions/acknowledged", &ack);
    let _ = peer.send(Outbound::Message(ack)).await;
    let Some(_listener) = server.hub.add_listener(honoured, call.id, peer.clone()) else {
        return Err(ErrorObject::internal("too many open subscriptions"));
    };
    tokio::select! {
        () = peer.closed() => {}
        () = call.link.closing.cancelled() => {}
    }
    call.result(&serde_json::json!({ "resultType": "complete", "_meta": meta }))
}
