//! The budgets in Redis (feature `redis`): one Lua script decides on every matching rule of a
//! request at once, on Redis's clock, so that replicas share one budget.

use std::sync::{Arc, OnceLock};

use redis::{ErrorKind, ServerErrorKind};

use super::rule::{Cause, Compiled, Rule};
use super::table::Refused;
use crate::scale::ScaleError;
use crate::scale_redis::{Redis, RedisOptions, unavailable};

/// The script: `KEYS` one hash per matching rule (`tat`, `ws`, `n`), `ARGV` four numbers per
/// rule in microseconds (bucket interval and tolerance, 0 for none; quota count, 0 for none,
/// and window). Returns `{1}` when admitted (every state written, with an expiry when it is at
/// rest again), else `{0, rule, cause, wait}` (1-based rule, cause 1 rate 2 quota, wait in
/// microseconds) and writes nothing.
const SCRIPT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local worst, wi, wc = 0, 0, 0
local news = {}
for i, key in ipairs(KEYS) do
  local b = (i - 1) * 4
  local iv, tol = tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2])
  local qn, win = tonumber(ARGV[b + 3]), tonumber(ARGV[b + 4])
  local h = redis.call('HMGET', key, 'tat', 'ws', 'n')
  local tat, ws, n = tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0
  local ntat, nws, nn = tat, ws, n
  if qn > 0 then
    if n > 0 and now < ws + win then
      if n >= qn then
        local wait = ws + win - now
        if wait > worst then worst, wi, wc = wait, i, 2 end
      else
        nn = n + 1
      end
    else
      nws, nn = now, 1
    end
  end
  if iv > 0 then
    local next = math.max(tat, now) + iv
    local wait = next - now - tol
    if wait > 0 then
      if wait > worst then worst, wi, wc = wait, i, 1 end
    else
      ntat = next
    end
  end
  local rest = math.max(ntat - now, 0)
  if qn > 0 then rest = math.max(rest, nws + win - now) end
  news[i] = {ntat, nws, nn, rest}
end
if wi > 0 then return {0, wi, wc, worst} end
for i, key in ipairs(KEYS) do
  local v = news[i]
  redis.call('HSET', key, 'tat', v[1], 'ws', v[2], 'n', v[3])
  redis.call('PEXPIRE', key, math.floor(v[4] / 1000) + 1)
end
return {1}
";

/// The budgets of a [`RateLimit`](super::RateLimit) kept in Redis, made by
/// [`RateLimitBuilder::redis`](super::RateLimitBuilder::redis).
///
/// Each (rule, key) pair is one hash, `{namespace}:limit:{rule}:{key}`, expiring when its
/// state is at rest again (its bucket full and its quota window over). Each request is one
/// `EVALSHA` of one script (an `EVAL` when Redis answers `NOSCRIPT`, after a restart), which
/// reads Redis's `TIME`, decides on every rule the request matches and writes them all or
/// none: two replicas can never both spend the last token. The script is not sent again when
/// the connection drops mid-call (a second send might count the request twice); the call is
/// then a failure, handled by [`Unavailable`](super::Unavailable).
///
/// ```
/// use mcp_runtime::limit::{RateLimit, RedisLimits, Rule, Unavailable};
/// use mcp_runtime::scale_redis::RedisOptions;
///
/// let limit = RateLimit::builder()
///     .rule(Rule::all().rate(5, std::time::Duration::from_secs(1)))
///     .redis(RedisOptions::new("redis://127.0.0.1:6379"), Unavailable::Allow)
///     .build()
///     .unwrap();
/// let _: Option<&RedisLimits> = None;
/// # let _ = limit;
/// ```
pub struct RedisLimits {
    redis: Arc<Redis>,
    sha: OnceLock<String>,
}

impl std::fmt::Debug for RedisLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisLimits")
            .field("namespace", &self.redis.ns)
            .finish_non_exhaustive()
    }
}

fn micros(nanos: u64) -> u64 {
    nanos.div_ceil(1_000)
}

impl RedisLimits {
    pub(crate) fn open(options: &RedisOptions) -> Result<Self, String> {
        let redis = Redis::open(options).map_err(|e| format!("{e}"))?;
        Ok(Self {
            redis,
            sha: OnceLock::new(),
        })
    }

    /// The verdict of Redis on one request of `key` under the rules of `mask`, or why Redis
    /// gave none.
    pub(crate) async fn admit(
        &self,
        key: &str,
        rules: &[Rule],
        compiled: &[Compiled],
        mask: u64,
    ) -> Result<Result<(), Refused>, ScaleError> {
        let chosen: Vec<usize> = (0..rules.len()).filter(|i| mask & (1 << i) != 0).collect();
        let keys: Vec<String> = chosen
            .iter()
            .map(|&i| self.redis.key(&format!("limit:{}:{key}", rules[i].name())))
            .collect();
        let mut args: Vec<u64> = Vec::with_capacity(chosen.len() * 4);
        for &i in &chosen {
            let c = &compiled[i];
            let (iv, tol) = c.bucket.unwrap_or((0, 0));
            let (qn, win) = c.quota.unwrap_or((0, 0));
            args.extend([micros(iv), micros(tol), qn, micros(win)]);
        }
        let mut conn = self.redis.manager()?;
        let known = self.sha.get().cloned();
        let answer: Vec<i64> = self
            .redis
            .bounded(async {
                let sha = match known {
                    Some(sha) => sha,
                    None => {
                        let sha: String = redis::cmd("SCRIPT")
                            .arg("LOAD")
                            .arg(SCRIPT)
                            .query_async(&mut conn)
                            .await?;
                        let _ = self.sha.set(sha.clone());
                        sha
                    }
                };
                let run = |command: &str, body: &str| {
                    let mut cmd = redis::cmd(command);
                    cmd.arg(body).arg(keys.len()).arg(&keys).arg(&args);
                    cmd
                };
                match run("EVALSHA", &sha).query_async(&mut conn).await {
                    Err(e) if e.kind() == ErrorKind::Server(ServerErrorKind::NoScript) => {
                        run("EVAL", SCRIPT).query_async(&mut conn).await
                    }
                    done => done,
                }
            })
            .await?;
        match answer.as_slice() {
            [1] => Ok(Ok(())),
            [0, rule, cause, wait] => {
                let index = usize::try_from(*rule - 1)
                    .ok()
                    .and_then(|r| chosen.get(r).copied())
                    .ok_or_else(|| ScaleError::Unavailable("bad script answer".into()))?;
                let cause = if *cause == 2 {
                    Cause::Quota
                } else {
                    Cause::Rate
                };
                let wait = u64::try_from(*wait).unwrap_or(0).saturating_mul(1_000);
                Ok(Err((index, cause, wait)))
            }
            _ => Err(unavailable(redis::RedisError::from((
                ErrorKind::Client,
                "unexpected answer of the rate-limit script",
            )))),
        }
    }
}
