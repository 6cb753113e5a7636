//! What a rule limits ([`Scope`]) and by how much (a token bucket, a quota), and the arithmetic
//! of one decision on one key's state, shared by the in-process table and nothing else (Redis
//! runs the same arithmetic in its script).

use std::sync::Arc;
use std::time::Duration;

use mcp_core::Method;

use crate::middleware::Request;

/// Which requests a [`Rule`] counts.
///
/// ```
/// use mcp_runtime::limit::{Rule, Scope};
///
/// assert_eq!(Rule::tool("search").scope(), &Scope::Tool("search".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// Every request (notifications are never counted).
    All,
    /// Every request of one method.
    Method(Method),
    /// `tools/call` of one tool (its name as the client sends it, a mount's prefix included).
    Tool(String),
}

/// One limit: the requests it counts ([`Scope`]) and a token bucket, a quota, or both.
///
/// The token bucket (GCRA) admits `burst` requests at once and refills one every
/// `per / rate`; the quota admits `n` requests per fixed window of length `window`, the
/// window starting at the key's first counted request. A refused request consumes nothing.
///
/// ```
/// use mcp_runtime::limit::Rule;
/// use std::time::Duration;
///
/// let rule = Rule::tool("search")
///     .rate(2, Duration::from_secs(1))
///     .burst(3)
///     .quota(1_000, Duration::from_secs(3600));
/// assert_eq!(rule.name(), "tool:search");
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Rule {
    pub(crate) scope: Scope,
    pub(crate) name: Arc<str>,
    pub(crate) bucket: Option<Bucket>,
    pub(crate) quota: Option<Quota>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Bucket {
    pub(crate) rate: u32,
    pub(crate) per: Duration,
    pub(crate) burst: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Quota {
    pub(crate) n: u64,
    pub(crate) window: Duration,
}

impl Rule {
    fn of(scope: Scope, name: String) -> Self {
        Self {
            scope,
            name: name.into(),
            bucket: None,
            quota: None,
        }
    }

    /// A rule counting every request (named `all`).
    ///
    /// ```
    /// assert_eq!(mcp_runtime::limit::Rule::all().name(), "all");
    /// ```
    pub fn all() -> Self {
        Self::of(Scope::All, "all".into())
    }

    /// A rule counting the requests of `method` (named `method:NAME`).
    ///
    /// ```
    /// use mcp_runtime::protocol::Method;
    ///
    /// let rule = mcp_runtime::limit::Rule::method(Method::ReadResource);
    /// assert_eq!(rule.name(), "method:resources/read");
    /// ```
    pub fn method(method: Method) -> Self {
        let name = format!("method:{}", method.name().unwrap_or("unknown"));
        Self::of(Scope::Method(method), name)
    }

    /// A rule counting `tools/call` of the tool `name` (named `tool:NAME`).
    ///
    /// ```
    /// assert_eq!(mcp_runtime::limit::Rule::tool("search").name(), "tool:search");
    /// ```
    pub fn tool(name: impl Into<String>) -> Self {
        let name = name.into();
        let label = format!("tool:{name}");
        Self::of(Scope::Tool(name), label)
    }

    /// A token bucket: `rate` requests per `per`, with a burst of `rate` unless
    /// [`burst`](Self::burst) says otherwise.
    ///
    /// ```
    /// let rule = mcp_runtime::limit::Rule::all().rate(10, std::time::Duration::from_secs(1));
    /// # let _ = rule;
    /// ```
    pub fn rate(mut self, rate: u32, per: Duration) -> Self {
        let burst = self.bucket.and_then(|b| b.burst);
        self.bucket = Some(Bucket { rate, per, burst });
        self
    }

    /// How many requests the bucket admits at once (default: its rate). Needs
    /// [`rate`](Self::rate) (else the limiter refuses to build).
    ///
    /// ```
    /// let rule = mcp_runtime::limit::Rule::all().rate(1, std::time::Duration::from_secs(1)).burst(5);
    /// # let _ = rule;
    /// ```
    pub fn burst(mut self, burst: u32) -> Self {
        match &mut self.bucket {
            Some(b) => b.burst = Some(burst),
            None => {
                self.bucket = Some(Bucket {
                    rate: 0,
                    per: Duration::ZERO,
                    burst: Some(burst),
                })
            }
        }
        self
    }

    /// A quota: at most `n` requests per fixed window of `window`.
    ///
    /// ```
    /// let rule = mcp_runtime::limit::Rule::tool("export").quota(100, std::time::Duration::from_secs(86_400));
    /// # let _ = rule;
    /// ```
    pub fn quota(mut self, n: u64, window: Duration) -> Self {
        self.quota = Some(Quota { n, window });
        self
    }

    /// The rule's name, sent in a refusal's `data.rule`: `all`, `method:NAME` or `tool:NAME`.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::limit::Rule::all().name(), "all");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the rule counts.
    ///
    /// ```
    /// use mcp_runtime::limit::{Rule, Scope};
    ///
    /// assert_eq!(Rule::all().scope(), &Scope::All);
    /// ```
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// Whether the rule counts `request`.
    pub(crate) fn counts(&self, request: &Request<'_>) -> bool {
        match &self.scope {
            Scope::All => true,
            Scope::Method(m) => request.method() == *m,
            Scope::Tool(name) => {
                request.method() == Method::CallTool && request.target() == Some(name.as_str())
            }
        }
    }

    /// The rule in nanoseconds, checked: `Err` names what cannot be honoured.
    pub(crate) fn compile(&self) -> Result<Compiled, String> {
        let who = &self.name;
        if self.bucket.is_none() && self.quota.is_none() {
            return Err(format!("rule `{who}` has neither a rate nor a quota"));
        }
        let bucket = match self.bucket {
            None => None,
            Some(b) => {
                if b.rate == 0 || b.per.is_zero() {
                    return Err(format!(
                        "rule `{who}` needs a rate of at least 1 per a non-zero period"
                    ));
                }
                let burst = b.burst.unwrap_or(b.rate);
                if burst == 0 {
                    return Err(format!("rule `{who}` has a burst of 0"));
                }
                let per = nanos(b.per);
                let interval = per / u64::from(b.rate);
                if interval == 0 {
                    return Err(format!(
                        "rule `{who}` refills faster than once a nanosecond"
                    ));
                }
                Some((interval, interval.saturating_mul(u64::from(burst))))
            }
        };
        let quota = match self.quota {
            None => None,
            Some(q) => {
                if q.n == 0 || q.window.is_zero() {
                    return Err(format!(
                        "rule `{who}` needs a quota of at least 1 per a non-zero window"
                    ));
                }
                Some((q.n, nanos(q.window)))
            }
        };
        Ok(Compiled { bucket, quota })
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// A rule's limits in nanoseconds: the bucket's emission interval and tolerance, the quota's
/// count and window.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Compiled {
    pub(crate) bucket: Option<(u64, u64)>,
    pub(crate) quota: Option<(u64, u64)>,
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The token bucket is empty.
    Rate,
    /// The quota of the window is spent.
    Quota,
}

/// One key's state under one rule, in nanoseconds since the table's start.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct State {
    /// The bucket's theoretical arrival time.
    tat: u64,
    /// The quota window's start and the requests counted in it.
    window_start: u64,
    count: u64,
}

impl State {
    /// The state after admitting one request at `now`, or why not and how long to wait.
    pub(crate) fn admit(&self, rule: &Compiled, now: u64) -> Result<Self, (Cause, u64)> {
        let mut next = *self;
        let mut refusal: Option<(Cause, u64)> = None;
        if let Some((n, window)) = rule.quota {
            let end = self.window_start.saturating_add(window);
            if self.count > 0 && now < end {
                if self.count >= n {
                    refusal = Some((Cause::Quota, end - now));
                } else {
                    next.count = self.count + 1;
                }
            } else {
                next.window_start = now;
                next.count = 1;
            }
        }
        if let Some((interval, tolerance)) = rule.bucket {
            let tat = self.tat.max(now).saturating_add(interval);
            let ahead = tat - now;
            if ahead > tolerance {
                let wait = ahead - tolerance;
                if refusal.is_none_or(|(_, w)| wait > w) {
                    refusal = Some((Cause::Rate, wait));
                }
            } else {
                next.tat = tat;
            }
        }
        match refusal {
            Some(r) => Err(r),
            None => Ok(next),
        }
    }

    /// Whether this state is the same as a fresh one at `now` (its entry can be dropped).
    pub(crate) fn at_rest(&self, rule: &Compiled, now: u64) -> bool {
        let bucket = self.tat <= now;
        let quota = match rule.quota {
            Some((_, window)) => self.count == 0 || now >= self.window_start.saturating_add(window),
            None => true,
        };
        bucket && quota
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn a_bucket_admits_its_burst_then_one_per_interval() {
        let rule = Rule::all()
            .rate(2, Duration::from_secs(1))
            .burst(3)
            .compile()
            .unwrap();
        let mut s = State::default();
        for _ in 0..3 {
            s = s.admit(&rule, 0).unwrap();
        }
        assert_eq!(s.admit(&rule, 0).unwrap_err(), (Cause::Rate, 500 * MS));
        assert_eq!(s.admit(&rule, 499 * MS).unwrap_err(), (Cause::Rate, MS));
        s = s.admit(&rule, 500 * MS).unwrap();
        assert_eq!(
            s.admit(&rule, 500 * MS).unwrap_err(),
            (Cause::Rate, 500 * MS)
        );
        assert!(!s.at_rest(&rule, 1_999 * MS));
        assert!(s.at_rest(&rule, 2_000 * MS));
    }

    #[test]
    fn a_quota_resets_with_its_window_and_the_longer_wait_is_reported() {
        let rule = Rule::all()
            .rate(10, Duration::from_secs(1))
            .quota(2, Duration::from_secs(60))
            .compile()
            .unwrap();
        let s = State::default().admit(&rule, 0).unwrap();
        let s = s.admit(&rule, 0).unwrap();
        assert_eq!(
            s.admit(&rule, 10 * MS).unwrap_err(),
            (Cause::Quota, 59_990 * MS)
        );
        let s = s.admit(&rule, 60_000 * MS).unwrap();
        assert_eq!(s.count, 1);
        assert_eq!(s.window_start, 60_000 * MS);
    }

    #[test]
    fn rules_that_cannot_be_honoured_are_refused() {
        let zero = Rule::all().rate(0, Duration::from_secs(1)).compile();
        assert_eq!(
            zero.unwrap_err(),
            "rule `all` needs a rate of at least 1 per a non-zero period"
        );
        assert_eq!(
            Rule::tool("x").compile().unwrap_err(),
            "rule `tool:x` has neither a rate nor a quota"
        );
        assert_eq!(
            Rule::all().burst(3).compile().unwrap_err(),
            "rule `all` needs a rate of at least 1 per a non-zero period"
        );
        let q = Rule::all().quota(0, Duration::from_secs(1)).compile();
        assert_eq!(
            q.unwrap_err(),
            "rule `all` needs a quota of at least 1 per a non-zero window"
        );
    }
}
