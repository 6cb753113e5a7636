//! Multi round-trip requests (2026-07-28): the integrity-protected `requestState` and the state
//! of one round.
//!
//! A handler that asks the client for input (`ctx.elicit`, `ctx.sample`, `ctx.roots`) in the
//! stateless era does not wait: the runtime drops its future and answers `input_required`, with
//! the answers gathered so far sealed in `requestState`. On the retry the handler runs again from
//! the start, and each interaction is answered from the sealed state or from `inputResponses`, in
//! call order.
//!
//! The state is `base64url(payload) "." base64url(HMAC-SHA256(key, payload))`; the payload binds
//! the method, a digest of the request's params (without `inputResponses`, `requestState` and
//! `_meta`), an expiry and a random nonce. Anything that fails verification is a -32602 error.
//!
//! Each state opens once: its nonce is remembered (`Replays`, bounded) until the state expires,
//! and a second retry with the same state is refused. A retry that answers (`inputResponses`)
//! without the `requestState` of the round that asked is refused too.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use mcp_core::{ErrorObject, InputRequest};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

mod replays;

use replays::replays;

use crate::sync::lock;

type HmacSha256 = Hmac<Sha256>;

/// The per-server secret that seals `requestState`, and older keys of a shared ring that still
/// open it (replicas behind a load balancer share the ring; rotation adds a key in front).
#[derive(Clone)]
pub(crate) struct StateKey(pub(crate) [u8; 32], pub(crate) Vec<[u8; 32]>);

impl std::fmt::Debug for StateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateKey(..)")
    }
}

impl StateKey {
    /// A fresh random key.
    pub(crate) fn random() -> Self {
        Self(crate::random::bytes(), Vec::new())
    }
}

#[derive(Serialize, Deserialize)]
struct Payload<'a> {
    /// Method.
    #[serde(borrow)]
    m: std::borrow::Cow<'a, str>,
    /// Hex digest of the params.
    #[serde(borrow)]
    d: std::borrow::Cow<'a, str>,
    /// Expiry, seconds since the epoch.
    x: u64,
    /// Answers so far, by input key.
    a: BTreeMap<String, Box<RawValue>>,
    /// A random nonce: the state opens once.
    #[serde(borrow)]
    n: std::borrow::Cow<'a, str>,
    /// The replica holding the call this round continues (`""` without scale-out), when one
    /// is held open between rounds (a mount's forwarded call, `Hold`).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    h: Option<std::borrow::Cow<'a, str>>,
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Writes `value` with object keys sorted at every level, so equal params digest equally.
fn canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push(b'{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let _ = serde_json::to_writer(&mut *out, k);
                out.push(b':');
                canonical(&map[k], out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical(item, out);
            }
            out.push(b']');
        }
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

/// Hex SHA-256 of the params without `inputResponses`, `requestState` and `_meta`.
pub(crate) fn params_digest(params: Option<&RawValue>) -> String {
    let mut value: Value = params
        .and_then(|p| serde_json::from_str(p.get()).ok())
        .unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("inputResponses");
        map.remove("requestState");
        map.remove("_meta");
    }
    let mut buf = Vec::with_capacity(256);
    canonical(&value, &mut buf);
    let digest = Sha256::digest(&buf);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Seals the answers of a round.
#[cfg(test)]
pub(crate) fn seal(
    key: &StateKey,
    method: &str,
    digest: &str,
    answers: BTreeMap<String, Box<RawValue>>,
    ttl: Duration,
) -> String {
    seal_held(key, method, digest, answers, ttl, None).0
}

/// [`seal`], naming the replica that holds the call the round continues (`held`), and the
/// sealed state's [`Claim`]: its nonce keys the held call.
pub(crate) fn seal_held(
    key: &StateKey,
    method: &str,
    digest: &str,
    answers: BTreeMap<String, Box<RawValue>>,
    ttl: Duration,
    held: Option<&str>,
) -> (String, Claim) {
    let nonce = URL_SAFE_NO_PAD.encode(crate::random::bytes());
    let expiry = now_secs() + ttl.as_secs();
    let payload = Payload {
        m: method.into(),
        d: digest.into(),
        x: expiry,
        a: answers,
        n: nonce.as_str().into(),
        h: held.map(Into::into),
    };
    let json = serde_json::to_vec(&payload).unwrap_or_default();
    let body = URL_SAFE_NO_PAD.encode(json);
    let mut mac = HmacSha256::new_from_slice(&key.0).expect("HMAC takes any key length");
    mac.update(body.as_bytes());
    let tag = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    let claim = Claim {
        nonce,
        expiry,
        held: held.is_some(),
    };
    (format!("{body}.{tag}"), claim)
}

fn tampered(why: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("invalid requestState: {why}"))
}

/// The error of a retry whose state continues a call held open on replica `holder`: that call
/// lives in that replica's memory only, and it is not run again here.
fn held_elsewhere(holder: &str) -> ErrorObject {
    let mut err = tampered(&format!(
        "the call it continues is held open on replica '{holder}', not on this one"
    ));
    err.data = Some(serde_json::json!({"reason": "held_on_another_replica", "replica": holder}));
    err
}

/// Verifies a sealed state for this method and params; returns its answers.
#[cfg(test)]
pub(crate) fn open(
    key: &StateKey,
    token: &str,
    method: &str,
    digest: &str,
) -> Result<HashMap<String, Box<RawValue>>, ErrorObject> {
    open_claimed(key, token, method, digest, "").map(|(answers, _)| answers)
}

/// A state opened here, to be claimed in the replicas' shared memory too (`SessionStore::
/// claim_once`): its nonce and expiry (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claim {
    pub(crate) nonce: String,
    pub(crate) expiry: u64,
    /// Whether the state continues a call held open (on this replica: a state naming another
    /// one does not open here).
    pub(crate) held: bool,
}

impl Claim {
    /// How long the claim must be remembered: until the state expires.
    pub(crate) fn ttl(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.expiry.saturating_sub(now_secs()).max(1))
    }
}

/// [`open`], with the state's [`Claim`], on replica `here` (`""` without
/// scale-out): a state continuing a call held open on another replica is refused before it is
/// used, so that the replica holding it may still take it.
fn open_claimed(
    key: &StateKey,
    token: &str,
    method: &str,
    digest: &str,
    here: &str,
) -> Result<(HashMap<String, Box<RawValue>>, Claim), ErrorObject> {
    let (body, tag) = token.split_once('.').ok_or_else(|| tampered("malformed"))?;
    let tag = URL_SAFE_NO_PAD
        .decode(tag)
        .map_err(|_| tampered("malformed"))?;
    let sealed_by = |k: &[u8; 32]| {
        let mut mac = HmacSha256::new_from_slice(k).expect("HMAC takes any key length");
        mac.update(body.as_bytes());
        mac.verify_slice(&tag).is_ok()
    };
    if !sealed_by(&key.0) && !key.1.iter().any(sealed_by) {
        return Err(tampered("integrity check failed"));
    }
    let json = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| tampered("malformed"))?;
    let payload: Payload<'_> = serde_json::from_slice(&json).map_err(|_| tampered("malformed"))?;
    // Methods compared as methods (the table), digests as text.
    if mcp_core::Method::parse(&payload.m) != mcp_core::Method::parse(method) || payload.d != digest
    {
        return Err(tampered("it belongs to another request"));
    }
    let now = now_secs();
    if payload.x < now {
        return Err(tampered("expired"));
    }
    if let Some(holder) = payload.h.as_deref()
        && holder != here
    {
        return Err(held_elsewhere(holder));
    }
    replays()
        .use_once(&payload.n, payload.x, now)
        .map_err(tampered)?;
    let claim = Claim {
        nonce: payload.n.into_owned(),
        expiry: payload.x,
        held: payload.h.is_some(),
    };
    Ok((payload.a.into_iter().collect(), claim))
}

/// The kinds of interaction, for automatic input keys.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Elicit,
    Sample,
    Roots,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Elicit => "elicit",
            Kind::Sample => "sample",
            Kind::Roots => "roots",
        }
    }
}

/// One round of a multi round-trip request.
#[derive(Default)]
pub(crate) struct Round {
    answers: HashMap<String, Box<RawValue>>,
    used: Mutex<BTreeMap<String, Box<RawValue>>>,
    missing: Mutex<BTreeMap<String, InputRequest>>,
    counters: [AtomicUsize; 3],
    /// The state this round was opened from, if any.
    claim: Option<Claim>,
    /// A call to keep open until the retry (`Hold`), put here by the handler before it stops.
    parked: Mutex<Option<Box<dyn Hold>>>,
}

/// A call kept open between the rounds of a request (a mount's forwarded call whose backend
/// asked a question): the handler parks it in its [`Round`] before it stops, and whoever seals
/// the round's state hands it the state's nonce, the key of its retry.
pub(crate) trait Hold: Send {
    /// Keeps the call under `key` for at most `ttl`.
    fn hold(self: Box<Self>, key: String, ttl: Duration);
}

impl std::fmt::Debug for Round {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Round")
            .field("answers", &self.answers.len())
            .finish_non_exhaustive()
    }
}

/// What a retry carries.
#[derive(Deserialize, Default)]
pub(crate) struct RetryParams<'a> {
    #[serde(rename = "inputResponses", default, borrow)]
    pub(crate) input_responses: Option<&'a RawValue>,
    #[serde(rename = "requestState", default, borrow)]
    pub(crate) request_state: Option<std::borrow::Cow<'a, str>>,
}

impl Round {
    /// A round from a request's params: verifies `requestState`, merges `inputResponses`.
    pub(crate) fn from_request(
        key: &StateKey,
        method: &str,
        params: Option<&RawValue>,
        here: &str,
    ) -> Result<Self, ErrorObject> {
        // First rounds (almost every request) carry neither member: skip the parse.
        let retried = params.is_some_and(|p| {
            p.get().contains("\"inputResponses\"") || p.get().contains("\"requestState\"")
        });
        Self::read(key, method, params, retried, here)
    }

    /// [`from_request`](Self::from_request) when the caller knows already whether the params
    /// carry `inputResponses` or `requestState` (`retried`): it read them in its own pass.
    /// `here` is this replica's name (`""` without scale-out).
    pub(crate) fn read(
        key: &StateKey,
        method: &str,
        params: Option<&RawValue>,
        retried: bool,
        here: &str,
    ) -> Result<Self, ErrorObject> {
        let retry: RetryParams<'_> = match params {
            Some(p) if retried => serde_json::from_str(p.get())
                .map_err(|_| ErrorObject::invalid_params("invalid params"))?,
            _ => RetryParams::default(),
        };
        let mut claim = None;
        let mut answers = match &retry.request_state {
            Some(token) => {
                let (answers, c) = open_claimed(key, token, method, &params_digest(params), here)?;
                claim = Some(c);
                answers
            }
            // Every `input_required` carries a state: answers without one answer no round.
            None if retry.input_responses.is_some() => {
                return Err(ErrorObject::invalid_params(
                    "`inputResponses` without the `requestState` of the round that asked for them",
                ));
            }
            None => HashMap::new(),
        };
        if let Some(raw) = retry.input_responses {
            let given: HashMap<String, Box<RawValue>> =
                serde_json::from_str(raw.get()).map_err(|_| {
                    ErrorObject::invalid_params(
                        "`inputResponses` must be an object of client results",
                    )
                })?;
            for (k, v) in given {
                answers.entry(k).or_insert(v);
            }
        }
        Ok(Self {
            answers,
            claim,
            ..Self::default()
        })
    }

    /// The state this round was opened from, to claim once across replicas.
    pub(crate) fn claim(&self) -> Option<&Claim> {
        self.claim.as_ref()
    }

    /// Whether this round's state continues a call held open here (`Hold`; mounts, feature
    /// `client`).
    #[cfg(feature = "client")]
    pub(crate) fn held(&self) -> bool {
        self.claim.as_ref().is_some_and(|c| c.held)
    }

    /// Parks a call to keep open until the retry (the last one parked stays).
    #[cfg(feature = "client")]
    pub(crate) fn park(&self, call: Box<dyn Hold>) {
        *lock(&self.parked) = Some(call);
    }

    /// The call parked in this round, if any.
    pub(crate) fn take_parked(&self) -> Option<Box<dyn Hold>> {
        lock(&self.parked).take()
    }

    /// The key of the next interaction of `kind`, unless the handler named it.
    pub(crate) fn key(&self, kind: Kind, given: Option<String>) -> String {
        given.unwrap_or_else(|| {
            let n = self.counters[kind as usize].fetch_add(1, Ordering::Relaxed);
            format!("{}-{n}", kind.prefix())
        })
    }

    /// The answer under `key`, marking it used.
    pub(crate) fn answer(&self, key: &str) -> Option<Box<RawValue>> {
        let raw = self.answers.get(key)?.clone();
        lock(&self.used).insert(key.to_owned(), raw.clone());
        Some(raw)
    }

    /// Records a request the client must answer before the handler can go on.
    pub(crate) fn ask(&self, key: String, request: InputRequest) {
        lock(&self.missing).insert(key, request);
    }

    fn has_missing(&self) -> bool {
        !lock(&self.missing).is_empty()
    }

    /// The requests to send and the answers to seal.
    pub(crate) fn finish(
        &self,
    ) -> (
        BTreeMap<String, InputRequest>,
        BTreeMap<String, Box<RawValue>>,
    ) {
        let missing = std::mem::take(&mut *lock(&self.missing));
        let used = std::mem::take(&mut *lock(&self.used));
        (missing, used)
    }
}

/// How a handler run ended.
pub(crate) enum Outcome<T> {
    Done(T),
    /// The handler needs input it does not have: its future was dropped.
    NeedsInput,
}

/// Polls a handler until it finishes or stops on an unanswered interaction.
///
/// After each poll that leaves the handler pending, the round is checked for requests: every
/// interaction started in the same poll (`join!` of several) is collected before stopping.
pub(crate) struct UntilInput<'a, F> {
    fut: F,
    round: Option<&'a Round>,
}

impl<'a, F> UntilInput<'a, F> {
    pub(crate) fn new(fut: F, round: Option<&'a Round>) -> Self {
        Self { fut, round }
    }
}

impl<F: Future + Unpin> Future for UntilInput<'_, F> {
    type Output = Outcome<F::Output>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match Pin::new(&mut self.fut).poll(cx) {
            Poll::Ready(v) => Poll::Ready(Outcome::Done(v)),
            Poll::Pending if self.round.is_some_and(Round::has_missing) => {
                Poll::Ready(Outcome::NeedsInput)
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests;
