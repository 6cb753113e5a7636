//! `subscriptions/listen`: the stateless era's stream of change notifications.

use mcp_core::subscriptions::{
    SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenRequestParams,
};
use mcp_core::{ErrorObject, Meta, SubscriptionFilter};

use crate::dispatch::call::MethodCall;
use crate::dispatch::reply::Payload;
use crate::outbound::Outbound;

/// Registers the listener (or refuses it, with nothing else sent), acknowledges what will be
/// sent, then streams the requested notifications until the client closes the stream (HTTP),
/// cancels the request (stdio) or the connection closes.
pub(super) async fn listen(call: MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let p: SubscriptionsListenRequestParams = call.params()?;
    let server = call.server;
    let live = server.live();
    let caps = &live.capabilities;
    let asked = p.notifications;
    let mut honoured = SubscriptionFilter::new();
    let mut held = Vec::new();
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
            // A mounted resource is subscribed on its server while this stream lasts; one its
            // server cannot subscribe to is not honoured.
            uris.retain(|uri| match live.catalog.mounted.resource(uri) {
                Some(found) if live.catalog.find_resource(uri).is_none() => {
                    match found.mount.forward.subscribe(found.remote.to_owned()) {
                        Ok(h) => held.push(h),
                        Err(_) => return false,
                    }
                    true
                }
                _ => true,
            });
            honoured.resource_subscriptions = Some(uris);
        }
    }
    drop(live);
    let (id, link) = (call.id, call.link);
    let peer = call.scope.peer.clone();
    // A listener may stay for hours: keep only what the stream needs, not the request's scope.
    drop(call);
    let ack = SubscriptionsAcknowledgedNotificationParams::new(honoured.clone())
        .with_meta(subscription_meta(id));
    let ack = crate::wire::notification("notifications/subscriptions/acknowledged", &ack);
    // Registered before the acknowledgement, so that a refused listener hears one error and
    // nothing else; delivering starts once the acknowledgement is out, so that it comes first.
    let Some(listener) = server.hub.add_listener(honoured, id, peer.clone()) else {
        return Err(ErrorObject::internal("too many open subscriptions"));
    };
    let _ = peer.send(Outbound::Message(ack)).await;
    listener.activate();
    tokio::select! {
        () = peer.closed() => {}
        () = link.closing.cancelled() => {}
    }
    drop(held);
    let done = serde_json::json!({ "resultType": "complete", "_meta": subscription_meta(id) });
    Payload::framed(id, &done)
}

/// `_meta` naming the subscription (the listen request's id).
fn subscription_meta(id: &mcp_core::RequestId) -> Meta {
    let mut meta = Meta::new();
    meta.insert(
        mcp_core::meta::SUBSCRIPTION_ID_KEY.to_owned(),
        serde_json::to_value(id).unwrap_or_default(),
    );
    meta
}
