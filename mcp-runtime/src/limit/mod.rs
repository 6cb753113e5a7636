//! Rate limits and quotas as a middleware layer: [`RateLimit`], built from [`Rule`]s, counts
//! each caller's requests and refuses the ones over a limit before they reach the method.
//!
//! ```
//! use mcp_runtime::limit::{RateLimit, Rule};
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::protocol::Method;
//! use std::time::Duration;
//!
//! let limits = RateLimit::builder()
//!     // `search`: 2 a second, 5 at once, and 1,000 an hour.
//!     .rule(Rule::tool("search").rate(2, Duration::from_secs(1)).burst(5)
//!         .quota(1_000, Duration::from_secs(3600)))
//!     .rule(Rule::method(Method::ReadResource).rate(20, Duration::from_secs(1)))
//!     .rule(Rule::all().rate(50, Duration::from_secs(1)))
//!     .build()
//!     .unwrap();
//! let server = Server::builder(server_info!()).layer(limits).build().unwrap();
//! # let _ = server;
//! ```
//!
//! # Who is counted
//!
//! The key is the request's principal ([`Request::principal`]): the verified token (feature
//! `auth`), else the peer address of the standalone HTTP server's connection. A request with
//! no principal is counted by its transport session (`session:ID`, [`Request::session_id`]),
//! and one with neither (stdio, the in-memory pair, the stateless era behind a mounted router
//! without authorization) under one key shared by all of them, `anonymous`. Sessions are
//! minted on request: a server that limits anonymous callers over HTTP should authenticate
//! them, or serve standalone (the peer address is then the key).
//!
//! # What is counted
//!
//! Every request a rule's [`Scope`] matches: [`Rule::all`], [`Rule::method`], or
//! [`Rule::tool`] (`tools/call` of one tool). Notifications are never counted or refused. A
//! request is admitted when every rule that matches it admits it; then each of those rules
//! counts it. A refused request consumes nothing; its refusal names the rule with the longest
//! wait (the earliest time the request could pass all of them).
//!
//! A rule's token bucket (GCRA: `rate` per period, `burst` at once) and its quota (`n` per
//! fixed window, the window starting at the key's first counted request) are both optional,
//! but a rule needs one. Time is tokio's clock (`tokio::time::Instant`), so a test can
//! `tokio::time::pause()` and `advance` it.
//!
//! # The refusal
//!
//! A JSON-RPC error, in every era and for every method, `tools/call` included:
//!
//! ```json
//! {"code": -31000, "message": "rate limited: retry in 500 ms",
//!  "data": {"reason": "rate_limited", "retryAfterMs": 500, "rule": "tool:search"}}
//! ```
//!
//! `data.reason` is `rate_limited` (the token bucket) or `quota_exceeded` (the quota);
//! `retryAfterMs` is the whole number of milliseconds, rounded up, after which the same
//! request would be admitted; `rule` is [`Rule::name`].
//!
//! Why an error, not an `isError` result: both eras' `server/tools` "Error Handling" keep
//! `isError` for what the model can fix by calling differently. 2025-11-25: "**Tool Execution
//! Errors** contain actionable feedback that language models can use to self-correct and
//! retry with adjusted parameters", with "Protocol Errors: Standard JSON-RPC errors for
//! issues like: Unknown tools, Malformed requests, Server errors"; 2026-07-28 says the same
//! ("Tool Execution Errors contain actionable feedback that language models can use to
//! self-correct and retry with adjusted parameters: API failures, Input validation errors,
//! Business logic errors"). A refusal by the server's own limiter is a server error that no
//! change of arguments fixes, and only an error carries the `data` a client (and the metrics
//! layer, which reads `data.reason`) can act on.
//!
//! Why [`ERROR_CODE`] (-31000): 2026-07-28's `basic/index` "Error Codes" partitions the
//! JSON-RPC server range (-32000 to -32019 legacy: "New codes **MUST NOT** be allocated in
//! this sub-range, and new implementations **SHOULD NOT** use codes from this sub-range at
//! all"; -32020 to -32099 "reserved for the MCP specification") and says "New error codes for
//! purposes not defined by this specification **SHOULD** be allocated outside the JSON-RPC
//! reserved range (`-32768` to `-32000`); the remainder of the integer space is available for
//! application-defined errors." Earlier revisions (2025-11-25's `basic/index` only requires
//! "Error codes **MUST** be integers") leave the code to JSON-RPC 2.0, whose application
//! range the same code is in. So one code serves every era.
//!
//! # Bounds
//!
//! The key table holds at most [`RateLimitBuilder::max_keys`] keys (default 100,000) in up to
//! 16 shards, each behind its own mutex. When a shard is full, a new key first drops the
//! shard's entries at rest (their buckets full and quota windows over: the same as no entry,
//! so nothing is lost), then the least recently seen entry, whose key starts again with a full
//! budget. New keys are never refused for lack of room: a table that one caller could fill
//! would lock out everyone after it.
//!
//! # Replicas (feature `redis`)
//!
//! `RateLimitBuilder::redis` keeps the budgets in Redis, so that every replica of a server
//! draws from one: one Lua script per request decides atomically on every matching rule (see
//! the `RedisLimits` docs), on Redis's clock. A call waits at most the options'
//! `RedisOptions::timeout`; when Redis is unreachable, slow or
//! fails, [`Unavailable`] says what happens (by default the replica's own in-process limiter
//! decides).

mod rule;
mod table;

#[cfg(feature = "redis")]
mod shared;

use std::sync::Arc;

use mcp_core::ErrorObject;
use serde_json::json;

use crate::future::BoxFuture;
use crate::middleware::{Kind, Layer, Next, Outcome, Request};

pub use rule::{Rule, Scope};
#[cfg(feature = "redis")]
pub use shared::RedisLimits;

use rule::{Cause, Compiled};
use table::Table;

/// The JSON-RPC error code of a refusal (outside the JSON-RPC reserved range, see the
/// [module docs](self)).
///
/// ```
/// assert_eq!(mcp_runtime::limit::ERROR_CODE, -31000);
/// ```
pub const ERROR_CODE: i32 = -31_000;

/// What a limiter cannot honour, from [`RateLimitBuilder::build`].
///
/// ```
/// use mcp_runtime::limit::{LimitError, RateLimit};
///
/// let e = RateLimit::builder().build().unwrap_err();
/// assert_eq!(e.to_string(), "rate limit: no rule given");
/// assert!(matches!(e, LimitError::Invalid(_)));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LimitError {
    /// A setting that cannot be honoured.
    #[error("rate limit: {0}")]
    Invalid(String),
}

/// What a limiter on Redis does when Redis does not answer in time or fails (feature
/// `redis`).
///
/// ```
/// use mcp_runtime::limit::Unavailable;
///
/// assert_eq!(Unavailable::default(), Unavailable::Local);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Unavailable {
    /// The replica's in-process limiter decides, with the same rules (each replica then
    /// grants the whole budget on its own until Redis is back).
    #[default]
    Local,
    /// Every request is admitted.
    Allow,
    /// Every request the rules count is refused: the error [`ERROR_CODE`] with
    /// `data.reason = "limiter_unavailable"` and `retryAfterMs: 1000`.
    Refuse,
}

/// The rate-limit layer (see the [module docs](self)): give it to `ServerBuilder::layer`.
///
/// ```
/// use mcp_runtime::limit::{RateLimit, Rule};
///
/// let limit = RateLimit::builder()
///     .rule(Rule::all().rate(10, std::time::Duration::from_secs(1)))
///     .build()
///     .unwrap();
/// assert_eq!(limit.keys(), 0);
/// ```
pub struct RateLimit {
    rules: Box<[Rule]>,
    compiled: Box<[Compiled]>,
    table: Table,
    base: tokio::time::Instant,
    #[cfg(feature = "redis")]
    shared: Option<(RedisLimits, Unavailable)>,
}

impl std::fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimit")
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

/// The settings of a [`RateLimit`], from [`RateLimit::builder`].
///
/// ```
/// use mcp_runtime::limit::{RateLimit, Rule};
///
/// let builder = RateLimit::builder().rule(Rule::all().quota(100, std::time::Duration::from_secs(60)));
/// assert!(builder.build().is_ok());
/// ```
#[derive(Debug)]
#[must_use]
pub struct RateLimitBuilder {
    rules: Vec<Rule>,
    max_keys: usize,
    #[cfg(feature = "redis")]
    redis: Option<(crate::scale_redis::RedisOptions, Unavailable)>,
}

/// The most rules one limiter takes.
const MAX_RULES: usize = 64;

impl RateLimit {
    /// A limiter with no rules yet.
    ///
    /// ```
    /// let builder = mcp_runtime::limit::RateLimit::builder();
    /// # let _ = builder;
    /// ```
    pub fn builder() -> RateLimitBuilder {
        RateLimitBuilder {
            rules: Vec::new(),
            max_keys: 100_000,
            #[cfg(feature = "redis")]
            redis: None,
        }
    }

    /// How many keys the in-process table holds now (at most
    /// [`max_keys`](RateLimitBuilder::max_keys)).
    ///
    /// ```
    /// use mcp_runtime::limit::{RateLimit, Rule};
    ///
    /// let limit = RateLimit::builder().rule(Rule::all().rate(1, std::time::Duration::from_secs(1))).build().unwrap();
    /// assert_eq!(limit.keys(), 0);
    /// ```
    pub fn keys(&self) -> usize {
        self.table.len()
    }

    /// The rules of `request`, as bits (bit `i`: rule `i` counts it).
    fn matching(&self, request: &Request<'_>) -> u64 {
        if request.kind() != Kind::Request {
            return 0;
        }
        self.rules
            .iter()
            .enumerate()
            .filter(|(_, r)| r.counts(request))
            .fold(0, |mask, (i, _)| mask | (1 << i))
    }

    fn now(&self) -> u64 {
        let since = tokio::time::Instant::now().saturating_duration_since(self.base);
        u64::try_from(since.as_nanos()).unwrap_or(u64::MAX)
    }

    fn admit_locally(&self, key: &str, mask: u64) -> Result<(), ErrorObject> {
        self.table
            .admit(key, &self.compiled, mask, self.now())
            .map_err(|(i, cause, wait)| self.refusal(i, cause, wait))
    }

    /// The refusal by rule `i` for `cause`, `wait` nanoseconds before the request would pass.
    fn refusal(&self, i: usize, cause: Cause, wait: u64) -> ErrorObject {
        let ms = wait.div_ceil(1_000_000);
        let (reason, what) = match cause {
            Cause::Rate => ("rate_limited", "rate limited"),
            Cause::Quota => ("quota_exceeded", "quota exceeded"),
        };
        ErrorObject::new(ERROR_CODE, format!("{what}: retry in {ms} ms")).with_data(json!({
            "reason": reason,
            "retryAfterMs": ms,
            "rule": self.rules[i].name(),
        }))
    }

    async fn admit(&self, key: &str, mask: u64) -> Result<(), ErrorObject> {
        #[cfg(feature = "redis")]
        if let Some((shared, unavailable)) = &self.shared {
            return match shared.admit(key, &self.rules, &self.compiled, mask).await {
                Ok(verdict) => verdict.map_err(|(i, cause, wait)| self.refusal(i, cause, wait)),
                Err(e) => {
                    tracing::debug!(error = %e, "rate limit: Redis unavailable");
                    match unavailable {
                        Unavailable::Local => self.admit_locally(key, mask),
                        Unavailable::Allow => Ok(()),
                        Unavailable::Refuse => Err(ErrorObject::new(
                            ERROR_CODE,
                            "rate limiter unavailable: retry in 1000 ms",
                        )
                        .with_data(json!({
                            "reason": "limiter_unavailable",
                            "retryAfterMs": 1000,
                        }))),
                    }
                }
            };
        }
        self.admit_locally(key, mask)
    }
}

/// The key a request is counted by (see the module docs).
fn key_of(request: &Request<'_>) -> Arc<str> {
    match (request.principal(), request.session_id()) {
        (Some(p), _) => p.into(),
        (None, Some(s)) => format!("session:{s}").into(),
        (None, None) => "anonymous".into(),
    }
}

impl Layer for RateLimit {
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        let mask = self.matching(request);
        if mask == 0 {
            return next.run();
        }
        Box::pin(async move {
            match self.admit(&key_of(request), mask).await {
                Ok(()) => next.run().await,
                Err(refusal) => Outcome::error(refusal),
            }
        })
    }
}

impl RateLimitBuilder {
    /// Adds a rule (at most 64).
    ///
    /// ```
    /// use mcp_runtime::limit::{RateLimit, Rule};
    ///
    /// let b = RateLimit::builder().rule(Rule::tool("search").rate(1, std::time::Duration::from_secs(1)));
    /// # let _ = b;
    /// ```
    pub fn rule(mut self, rule: Rule) -> Self {
        self.rules.push(rule);
        self
    }

    /// The most keys the in-process table holds (default 100,000; at least 1). See the
    /// module docs for what a full table does.
    ///
    /// ```
    /// use mcp_runtime::limit::{RateLimit, Rule};
    ///
    /// let b = RateLimit::builder().rule(Rule::all().rate(1, std::time::Duration::from_secs(1))).max_keys(10_000);
    /// assert!(b.build().is_ok());
    /// ```
    pub fn max_keys(mut self, max: usize) -> Self {
        self.max_keys = max;
        self
    }

    /// Keeps the budgets in Redis (feature `redis`), shared by every replica with the same
    /// rules and [`namespace`](crate::scale_redis::RedisOptions::namespace); `unavailable`
    /// says what happens when Redis does not answer within the options'
    /// [`timeout`](crate::scale_redis::RedisOptions::timeout). Nothing connects before the
    /// first request; a malformed URL fails [`build`](Self::build).
    ///
    /// ```
    /// use mcp_runtime::limit::{RateLimit, Rule, Unavailable};
    /// use mcp_runtime::scale_redis::RedisOptions;
    /// use std::time::Duration;
    ///
    /// let limit = RateLimit::builder()
    ///     .rule(Rule::all().rate(10, Duration::from_secs(1)))
    ///     .redis(RedisOptions::new("redis://127.0.0.1:6379").timeout(Duration::from_millis(50)),
    ///         Unavailable::Local)
    ///     .build()
    ///     .unwrap();
    /// # let _ = limit;
    /// ```
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn redis(
        mut self,
        options: crate::scale_redis::RedisOptions,
        unavailable: Unavailable,
    ) -> Self {
        self.redis = Some((options, unavailable));
        self
    }

    /// The limiter, or what cannot be honoured: no rule, more than 64, a rule with neither a
    /// rate nor a quota, a zero rate, burst, quota or period, `max_keys` 0, a bad Redis URL.
    ///
    /// ```
    /// use mcp_runtime::limit::{RateLimit, Rule};
    ///
    /// let e = RateLimit::builder().rule(Rule::tool("x")).build().unwrap_err();
    /// assert_eq!(e.to_string(), "rate limit: rule `tool:x` has neither a rate nor a quota");
    /// ```
    pub fn build(self) -> Result<RateLimit, LimitError> {
        if self.rules.is_empty() {
            return Err(LimitError::Invalid("no rule given".into()));
        }
        if self.rules.len() > MAX_RULES {
            return Err(LimitError::Invalid(format!(
                "{} rules given, at most {MAX_RULES}",
                self.rules.len()
            )));
        }
        if self.max_keys == 0 {
            return Err(LimitError::Invalid("max_keys is 0".into()));
        }
        let compiled = self
            .rules
            .iter()
            .map(Rule::compile)
            .collect::<Result<Box<[_]>, _>>()
            .map_err(LimitError::Invalid)?;
        Ok(RateLimit {
            table: Table::new(self.max_keys),
            base: tokio::time::Instant::now(),
            #[cfg(feature = "redis")]
            shared: match self.redis {
                Some((options, unavailable)) => Some((
                    RedisLimits::open(&options).map_err(LimitError::Invalid)?,
                    unavailable,
                )),
                None => None,
            },
            rules: self.rules.into(),
            compiled,
        })
    }
}
