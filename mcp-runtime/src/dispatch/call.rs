//! One request being handled: its parameters, its scope, and the skeleton that runs an item's
//! handler for it (the round or peer for questions, the [`Context`], limits, timeout, panic
//! catch, `input_required`).

use std::future::Future;
use std::sync::{Arc, Mutex};

use mcp_core::jsonrpc::echo;
use mcp_core::{ErrorObject, InputRequiredResult, Meta, ProtocolVersion, RequestId, ResultType};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::dispatch::link::LinkState;
use crate::dispatch::meta_memo::Sent;
use crate::dispatch::params::{Read, read_with_meta};
use crate::dispatch::reply::Payload;
use crate::dispatch::route::Route;
use crate::dispatch::scope::{Resolver, Retry, Scope, invalid_meta};
use crate::error::HandlerError;
use crate::future::BoxFuture;
use crate::handler::context::{Cancellation, Context, ContextInner};
use crate::handler::invoke::{Invoked, Limits, invoke};
use crate::handler::peer::Interact;
use crate::handler::rounds::{self, Round};
use crate::server::ServerInner;

/// A request on its way through a method; `S` is [`Resolver`] before the method has read the
/// `_meta` the scope is resolved from (see [`Open`]).
pub(crate) struct MethodCall<'a, S = Scope> {
    pub(crate) server: &'a Arc<ServerInner>,
    pub(crate) link: &'a LinkState,
    pub(crate) route: Route,
    pub(crate) id: &'a RequestId,
    pub(crate) params: Option<&'a RawValue>,
    pub(crate) scope: S,
    /// Set for methods that run a handler (they can be cancelled).
    pub(crate) cancel: Option<Cancellation>,
}

/// How an item's handler run ended, seen from its method.
pub(crate) enum Ran<T> {
    Done(Result<T, HandlerError>),
    TimedOut(u64),
    /// The request is answered already: `input_required`, or the protocol error of an
    /// interaction the client could not serve.
    Answered(Result<Payload, ErrorObject>),
}

/// How a method gets its resolved [`MethodCall`] and its params: from a call whose scope is resolved,
/// by reading the params; from one waiting for its `_meta` (`MethodCall<Resolver>`), by reading the
/// params and `_meta` in one pass, then resolving the scope from that `_meta`. Either way the
/// scope's errors come first; the params' error is the second result, for the method to return
/// after its own earlier checks.
pub(crate) trait Open: Sized {
    fn open<'a, 'p, P: Deserialize<'p>>(
        call: MethodCall<'a, Self>,
    ) -> Result<(MethodCall<'a>, Result<P, ErrorObject>), ErrorObject>
    where
        'a: 'p;
}

impl Open for Scope {
    #[inline]
    fn open<'a, 'p, P: Deserialize<'p>>(
        call: MethodCall<'a>,
    ) -> Result<(MethodCall<'a>, Result<P, ErrorObject>), ErrorObject>
    where
        'a: 'p,
    {
        let params = call.params();
        Ok((call, params))
    }
}

impl Open for Resolver {
    fn open<'a, 'p, P: Deserialize<'p>>(
        call: MethodCall<'a, Resolver>,
    ) -> Result<(MethodCall<'a>, Result<P, ErrorObject>), ErrorObject>
    where
        'a: 'p,
    {
        let (resolver, call) = call.take_scope();
        let read = match call.params {
            Some(p) if p.get().starts_with('{') => {
                read_with_meta::<P>(p.get(), &call.link.meta_memo)
            }
            _ => Read::BadParams,
        };
        match read {
            Read::Both(params, meta, retry) => {
                let mut scope = match meta {
                    Some(Sent::Known(known)) => resolver.resolve_known(call.route, known)?,
                    Some(Sent::Read(meta)) => resolver.resolve_read(call.route, Some(meta))?,
                    None => resolver.resolve_read(call.route, None)?,
                };
                scope.retry = Retry::known(retry);
                Ok((call.with(scope), Ok(params)))
            }
            Read::BadMeta(message) => Err(invalid_meta(&message)),
            // The params' error is known only after the scope's (read apart, as without `P`).
            Read::BadParams => {
                let scope = resolver.resolve(call.route, call.params, None)?;
                let call = call.with(scope);
                let params = call.params();
                Ok((call, params))
            }
        }
    }
}

impl<'a> MethodCall<'a, Resolver> {
    fn take_scope(self) -> (Resolver, MethodCall<'a, ()>) {
        let call = MethodCall {
            server: self.server,
            link: self.link,
            route: self.route,
            id: self.id,
            params: self.params,
            scope: (),
            cancel: self.cancel,
        };
        (self.scope, call)
    }
}

impl<'a> MethodCall<'a, ()> {
    fn with(self, scope: Scope) -> MethodCall<'a> {
        MethodCall {
            server: self.server,
            link: self.link,
            route: self.route,
            id: self.id,
            params: self.params,
            scope,
            cancel: self.cancel,
        }
    }
}

impl<'a> MethodCall<'a> {
    /// The request's params as `T`; MCP params are always objects.
    pub(crate) fn params<'p, T: Deserialize<'p>>(&self) -> Result<T, ErrorObject>
    where
        'a: 'p,
    {
        parse_params(self.params)
    }

    /// Authorizes this request for an item that needs `scopes`, the item the method looked up
    /// from its own reading of the params (feature `auth`; requests without a verified caller,
    /// over stdio or in memory, are not authorized by tokens). Every method that names an item
    /// calls it before anything of the item runs.
    #[inline]
    pub(crate) fn authorize(&self, scopes: &[&str]) -> Result<(), ErrorObject> {
        #[cfg(feature = "auth")]
        if let Some(caller) = &self.scope.caller {
            return caller.authorize(scopes);
        }
        let _ = scopes;
        Ok(())
    }

    /// This request's result, framed for its id.
    pub(crate) fn result<T: serde::Serialize + ?Sized>(
        &self,
        result: &T,
    ) -> Result<Payload, ErrorObject> {
        Payload::framed(self.id, result)
    }

    /// The method name, for errors and sealed state.
    pub(crate) fn method(&self) -> &'static str {
        self.route.name().unwrap_or_default()
    }

    /// Runs an item's handler: `start` makes its future from the request's [`Context`];
    /// `failed` tells whether an outcome is a failure (then a protocol error recorded by an
    /// interaction the client could not serve takes its place).
    ///
    /// The context is made before the future: the future keeps only what it needs after that,
    /// not the whole request (futures that hold a request are part of every future above them).
    pub(crate) fn run<T>(
        self,
        limits: Limits<'_>,
        start: impl FnOnce(Context) -> BoxFuture<'static, Result<T, HandlerError>>,
        failed: impl FnOnce(&Result<T, HandlerError>) -> bool,
    ) -> impl Future<Output = Ran<T>> {
        let server = self.server;
        let (method, params, id) = (self.method(), self.params, self.id);
        let prepared = if self.scope.version.is_stateless() {
            let key = &server.state_key;
            let here = replica(server);
            match self.scope.retry {
                Retry::Unknown => Round::from_request(key, method, params, here),
                known => Round::read(key, method, params, known == Retry::Present, here),
            }
            .map(Some)
        } else {
            Ok(None)
        }
        .map(|round| {
            // The round lives in the context (no allocation of its own).
            let interact = match round {
                Some(r) => Interact::Rounds(r),
                None => Interact::Peer(Arc::clone(&self.link.pending)),
            };
            self.into_context(interact)
        });
        async move {
            let ctx = match prepared {
                Ok(ctx) => ctx,
                Err(err) => return Ran::Answered(Err(err)),
            };
            let round = ctx.inner.interact.round();
            // A state opened here is claimed among the replicas too: it opens once in all.
            if let (Some(scale), Some(claim)) = (&server.scale, round.and_then(|r| r.claim()))
                && let Err(err) = claim_shared(scale, claim).await
            {
                return Ran::Answered(Err(err));
            }
            match invoke(limits, round, || start(ctx.clone())).await {
                Invoked::NeedsInput => Ran::Answered(round.map_or_else(
                    || Err(ErrorObject::internal("input required outside a round")),
                    |r| input_required(server, id, method, params, r),
                )),
                Invoked::TimedOut(ms) => Ran::TimedOut(ms),
                Invoked::Done(outcome) => match ctx.take_fault() {
                    Some(fault) if failed(&outcome) => Ran::Answered(Err(fault)),
                    _ => Ran::Done(outcome),
                },
            }
        }
    }

    /// The handler's view of this request.
    pub(crate) fn into_context(self, interact: Interact) -> Context {
        let scope = self.scope;
        Context {
            inner: Arc::new(ContextInner {
                request_id: Some(self.id.clone()),
                version: scope.version,
                progress_token: scope.progress_token,
                meta: scope.meta,
                meta_map: std::sync::OnceLock::new(),
                client_info: scope.client_info,
                client_capabilities: scope.client_caps,
                log_gate: scope.log_gate,
                peer: Some(scope.peer),
                state: Arc::clone(&self.server.state),
                cancel: self.cancel.unwrap_or_default(),
                last_progress: Mutex::new(None),
                interact,
                fault: Mutex::new(None),
                server: Arc::clone(self.server),
                via: crate::server::outgoing::Via {
                    transport: self.link.transport,
                    session: if self.server.sends_through_layers() {
                        self.link.session_id.get().cloned()
                    } else {
                        None
                    },
                },
                #[cfg(feature = "auth")]
                auth: scope.caller.map(|c| c.claims),
            }),
        }
    }
}

/// The `input_required` result of a round: its requests, and its answers sealed (always, even
/// with no answers yet: the seal binds method, params and expiry).
pub(crate) fn input_required(
    server: &ServerInner,
    id: &RequestId,
    method: &str,
    params: Option<&RawValue>,
    round: &Round,
) -> Result<Payload, ErrorObject> {
    let (missing, used) = round.finish();
    let mut result = InputRequiredResult::new().with_meta(server.server_info_meta.clone());
    result.input_requests = Some(missing);
    let digest = rounds::params_digest(params);
    // A call the handler keeps open until the retry is held under the state's nonce, and the
    // state names the replica holding it.
    let parked = round.take_parked();
    let held = parked.as_ref().map(|_| replica(server));
    let ttl = server.options.request_state_ttl;
    let (state, claim) = rounds::seal_held(&server.state_key, method, &digest, used, ttl, held);
    if let Some(call) = parked {
        call.hold(claim.nonce, ttl);
    }
    result.request_state = Some(state);
    Payload::framed(id, &result).map(Payload::interim)
}

/// This replica's name among the replicas (`""` without scale-out).
pub(crate) fn replica(server: &ServerInner) -> &str {
    server.scale.as_ref().map_or("", |s| &s.node)
}

/// Marks a finished result in the stateless era: `resultType: "complete"` and the server's
/// identity in `_meta`.
pub(crate) fn mark_complete(
    server: &ServerInner,
    result_type: &mut Option<ResultType>,
    meta: &mut Option<Meta>,
    v: ProtocolVersion,
) {
    if v.has_result_type() {
        *result_type = Some(ResultType::Complete);
        match meta {
            // The common case: the result has no `_meta` of its own.
            None => *meta = Some(server.server_info_meta.clone()),
            Some(m) => {
                for (k, val) in &server.server_info_meta {
                    if !m.contains_key(k) {
                        m.insert(k.clone(), val.clone());
                    }
                }
            }
        }
    }
}

/// [`mark_complete`], then the response to request `id` with `result`. A stateless-era result
/// without `_meta` of its own gets `resultType` and the server's identity written as text: the
/// result is serialised without them, and `"resultType":"complete","_meta":` and the identity's
/// JSON (serialised once with the server) are written after its last member. `T` serialises
/// `resultType` then `_meta` after every other member (as `CallToolResult` does), so the bytes
/// are those of the marked result serialised.
pub(crate) fn framed_complete<T: Serialize>(
    server: &ServerInner,
    id: &RequestId,
    result: &mut T,
    v: ProtocolVersion,
    fields: impl FnOnce(&mut T) -> (&mut Option<ResultType>, &mut Option<Meta>),
) -> Result<Payload, ErrorObject> {
    let (result_type, meta) = fields(result);
    let append = v.has_result_type() && meta.is_none();
    if !append {
        mark_complete(server, result_type, meta, v);
        return Payload::framed(id, result);
    }
    // Written with the tail instead (always `complete`, as `mark_complete` sets it).
    *result_type = None;
    // Room for the tail from the start: appending it does not move the message.
    let identity = &server.server_info_json;
    let room = identity.len() + COMPLETE.len() + 2;
    crate::wire::response_with_room(id, result, room)
        .and_then(|message| with_complete(message, identity))
        .map(Payload::Framed)
        .ok_or_else(|| ErrorObject::internal("failed to serialise the result"))
}

/// What a finished stateless result ends with, before the server's identity.
const COMPLETE: &[u8] = br#""resultType":"complete","_meta":"#;

/// `message`, a response whose result is an object, with `resultType: "complete"` and `_meta`
/// (`identity`, JSON) as the result's last members.
fn with_complete(mut message: Vec<u8>, identity: &str) -> Option<Vec<u8>> {
    // The message ends with the result's closing brace, then its own.
    if !message.ends_with(b"}}") {
        return None;
    }
    let empty = message.ends_with(b"{}}");
    message.truncate(message.len() - 2);
    if !empty {
        message.push(b',');
    }
    message.extend_from_slice(COMPLETE);
    message.extend_from_slice(identity.as_bytes());
    message.extend_from_slice(b"}}");
    Some(message)
}

/// The error of an item that ran past its `timeout_ms` (resources and prompts have no error
/// results; a tool's timeout is an `isError` result instead).
pub(crate) fn timed_out(kind: &str, name: &str, ms: u64) -> ErrorObject {
    ErrorObject::internal(format!("{kind} '{name}' timed out after {ms} ms"))
}

/// Params as `T`, with serde's message minus its position; positional arrays are refused.
pub(crate) fn parse_params<'a, T: Deserialize<'a>>(
    params: Option<&'a RawValue>,
) -> Result<T, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    // Derived structs would also accept positional arrays; MCP params are always objects.
    if !text.trim_start().starts_with('{') {
        return Err(ErrorObject::invalid_params(
            "invalid params: `params` must be an object",
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
        ErrorObject::invalid_params(format!("invalid params: {}", echo(msg)))
    })
}

/// Claims an opened `requestState` in the replicas' shared store (`SessionStore::claim_once`),
/// within the scale-out timeout: refused when another replica opened it first, or when the
/// store cannot say (a state that might have been used is not used again).
async fn claim_shared(
    scale: &crate::scale::ScaleOut,
    claim: &rounds::Claim,
) -> Result<(), ErrorObject> {
    let key = format!("rs:{}", claim.nonce);
    let claimed =
        tokio::time::timeout(scale.timeout, scale.sessions.claim_once(&key, claim.ttl())).await;
    match claimed {
        Ok(Ok(true)) => Ok(()),
        Ok(Ok(false)) => Err(ErrorObject::invalid_params(
            "invalid requestState: it was used already",
        )),
        Ok(Err(_)) | Err(_) => {
            let mut err = ErrorObject::internal(
                "the requestState cannot be checked now: the shared store is unavailable",
            );
            err.data = Some(serde_json::json!({"reason": "session_store_unavailable"}));
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_core::CallToolResult;

    #[test]
    fn the_complete_tail_is_what_serialising_the_marked_result_writes() {
        let identity = r#"{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;
        let id = RequestId::Number(3);
        let structured = CallToolResult::structured(serde_json::json!({"sum": 4}), "4");
        let no_content = CallToolResult::new(Vec::new());
        for result in [
            CallToolResult::text("a \"quoted\" text"),
            CallToolResult::error_text("failed"),
            structured,
            no_content,
        ] {
            let mut marked = result.clone();
            marked.result_type = Some(ResultType::Complete);
            marked.meta = Some(serde_json::from_str(identity).unwrap());
            let expected = crate::wire::response(&id, &marked).unwrap();
            let plain = crate::wire::response(&id, &result).unwrap();
            let written = with_complete(plain, identity).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
        // An empty result object: no comma before the tail.
        let empty = crate::wire::response(&id, &serde_json::json!({})).unwrap();
        let written = String::from_utf8(with_complete(empty, "{}").unwrap()).unwrap();
        assert_eq!(
            written,
            r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","_meta":{}}}"#
        );
        assert!(with_complete(b"[1]".to_vec(), "{}").is_none());
    }
}
