//! The connection's messages through the server's middleware layers (`ServerBuilder::layer`):
//! taken only when there is a layer, so that a server without one keeps its path unchanged.

use std::sync::Arc;

use mcp_core::{ErrorObject, RequestId};
use serde_json::value::RawValue;

use super::Connection;
use super::inline;
use crate::dispatch::methods;
use crate::dispatch::reply::{Payload, Reply};
use crate::dispatch::route::Route;
use crate::dispatch::scope::{Scope, Scoping};
use crate::handler::context::Cancellation;
use crate::middleware::{Endpoint, Kind, Outcome, OutcomeKind, Request};
use crate::outbound::Outbound;
use crate::server::outgoing::Via;

/// How many of the hub's notifications wait for the layers per connection, at most (more are
/// dropped, as a full outbound queue drops them).
const NOTICES: usize = 64;

impl Connection {
    /// Sends the hub's notifications (`list_changed`, `resources/updated`) through the layers,
    /// in order, from a task of the connection's: the hub hands them over without waiting.
    pub(super) fn start_notices(self: &Arc<Self>) {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<u8>>(NOTICES);
        if self.notices.set(tx).is_err() {
            return;
        }
        // Weak: the connection holds the sender; when it goes, the queue closes and so does
        // the task.
        let conn = Arc::downgrade(self);
        crate::background::spawn(async move {
            while let Some(message) = rx.recv().await {
                let Some(conn) = conn.upgrade() else { return };
                let via = Via {
                    transport: conn.transport,
                    session: conn.link.session_id.get().cloned(),
                };
                let version = conn.link.session().map(|s| s.version);
                let out = conn.out.clone();
                let send = move |message: Vec<u8>| -> crate::future::BoxFuture<'static, ()> {
                    let _ = out.try_send(Outbound::Message(message));
                    Box::pin(std::future::ready(()))
                };
                conn.server
                    .notify_through_layers(&via, version, message, send)
                    .await;
            }
        });
    }

    /// A client notification through the layers (a layer that does not go on drops it).
    pub(super) async fn notice_layered(&self, notice: Route, params: Option<&RawValue>) {
        let version = self.link.session().map(|s| s.version);
        let request = Request::new(
            Kind::Notification,
            notice,
            None,
            params,
            version,
            self.transport,
        )
        .with_session(self.session_id())
        .with_items(&*self.server);
        let endpoint: Endpoint<'_> = Box::pin(async move {
            self.notice(notice, params);
            Outcome::notified()
        });
        let _ = self.server.options.layers.run(&request, endpoint).await;
    }

    /// A method answered at once (or an unknown one), through the layers.
    pub(super) async fn answer_layered(
        self: &Arc<Self>,
        route: Route,
        id: RequestId,
        params: Option<&RawValue>,
        name: &str,
        scope: Scope,
    ) -> Option<Reply> {
        let outcome = {
            // `initialize` is served before a revision is agreed: it negotiates one.
            let version = (route != Route::Initialize).then_some(scope.version);
            let request = Request::new(
                Kind::Request,
                route,
                Some(&id),
                params,
                version,
                self.transport,
            )
            .with_session(self.session_id())
            .with_items(&*self.server);
            let id = &id;
            let endpoint: Endpoint<'_> = Box::pin(async move {
                if route == Route::Unknown {
                    return Outcome::error(ErrorObject::method_not_found(name));
                }
                let call = self.call(route, id, params, scope, None);
                let outcome = methods::answer_now(&call);
                if route == Route::Initialize && outcome.is_ok() {
                    self.join_hub();
                }
                Outcome::reply(outcome)
            });
            self.server.options.layers.run(&request, endpoint).await
        };
        outcome.into_reply().map(|outcome| Reply::new(id, outcome))
    }

    /// A handler method through the layers; `None` when it was cancelled (nothing is sent).
    /// The layers see a cancellation the handler's method saw first as
    /// [`OutcomeKind::Cancelled`].
    pub(super) async fn run_layered(
        self: &Arc<Self>,
        route: Route,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scoping,
        cancel: Cancellation,
    ) -> Option<Result<Payload, ErrorObject>> {
        let version = match &scope {
            Scoping::Resolved(scope) => Some(scope.version),
            Scoping::Deferred(_) => None,
        };
        let request = Request::new(
            Kind::Request,
            route,
            Some(id),
            params,
            version,
            self.transport,
        )
        .with_session(self.session_id())
        .with_items(&*self.server);
        let endpoint: Endpoint<'_> = Box::pin(async move {
            let stop = cancel.clone();
            // Pinned here: `select!` polls it through the reference (the method's future is
            // not moved into the select's own state).
            let mut method = std::pin::pin!(async {
                match scope {
                    Scoping::Resolved(scope) => {
                        let call = self.call(route, id, params, scope, Some(cancel));
                        methods::run_handler(call).await
                    }
                    Scoping::Deferred(resolver) => {
                        let call = self.call(route, id, params, resolver, Some(cancel));
                        methods::call_tool_with_meta(call).await
                    }
                }
            });
            tokio::select! {
                biased;
                outcome = &mut method => Outcome::reply(outcome),
                () = stop.cancelled() => Outcome::cancelled(),
            }
        });
        let layers = &self.server.options.layers;
        // The crate's own layers alone run inline around the method (no box or dynamic call
        // per layer); any other chain goes through the layers.
        let outcome = match inline::Chain::of(layers) {
            Some(chain) => chain.run(&request, endpoint).await,
            None => layers.run(&request, endpoint).await,
        };
        let span = tracing::Span::current();
        match (outcome.kind(), outcome.error_object()) {
            (_, Some(err)) => span.record("outcome", err.code),
            (OutcomeKind::Cancelled, _) => span.record("outcome", "cancelled"),
            _ => span.record("outcome", "ok"),
        };
        outcome.into_reply()
    }
}
