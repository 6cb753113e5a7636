//! Tasks on Redis: `{ns}:t:{ID}` (the record as JSON, expiring with the task's TTL) and
//! `{ns}:to:{OWNER}` (a sorted set of the owner's task ids by creation time, at most
//! [`MAX_PER_OWNER`] entries). Creation and updates are atomic scripts: the live-task bound per
//! owner ([`TaskLimits::live_per_owner`]), and no change after a terminal status.

use std::sync::Arc;

use crate::future::BoxFuture;
use crate::scale_redis::Redis;
use crate::tasks::{TaskLimits, TaskRecord, TaskStore, TaskStoreError};

/// Most tasks (finished ones included) kept per owner.
pub const MAX_PER_OWNER: usize = 256;

/// KEYS: task, owner index. ARGV: json, ttl ms, created ms, id, live bound, task key prefix,
/// stored bound.
const CREATE: &str = r"
local live = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local v = redis.call('GET', ARGV[6] .. id)
  if not v then
    redis.call('ZREM', KEYS[2], id)
  else
    local st = cjson.decode(v).status
    if st == 'working' or st == 'input_required' then live = live + 1 end
  end
end
if live >= tonumber(ARGV[5]) then return 0 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return -2 end
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return -1 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1
";

/// KEYS: task. ARGV: json, owner.
const UPDATE: &str = r"
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local cur = cjson.decode(v)
if cur.owner ~= ARGV[2] then return 0 end
if cur.status == 'completed' or cur.status == 'failed' or cur.status == 'cancelled' then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
";

/// The [`TaskStore`] on Redis: any replica reads, polls and cancels any task; the handler runs
/// on the replica that created it.
pub struct RedisTaskStore {
    redis: Arc<Redis>,
    limits: TaskLimits,
}

impl std::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("namespace", &self.redis.ns)
            .finish()
    }
}

fn backend(err: impl Into<crate::error::BoxError>) -> TaskStoreError {
    TaskStoreError::backend(err)
}

impl RedisTaskStore {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self {
            redis,
            limits: TaskLimits::default(),
        }
    }

    fn task_key(&self, id: &str) -> String {
        self.redis.key(&format!("t:{id}"))
    }

    fn owner_key(&self, owner: &str) -> String {
        self.redis.key(&format!("to:{owner}"))
    }

    fn read(text: Option<String>, owner: &str) -> Option<TaskRecord> {
        let task: TaskRecord = serde_json::from_str(&text?).ok()?;
        (task.owner == owner && !task.expired_at(crate::tasks::now_ms())).then_some(task)
    }
}

impl TaskStore for RedisTaskStore {
    fn create(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(&task).map_err(backend)?;
            let cmd = redis::cmd("EVAL")
                .arg(CREATE)
                .arg(2)
                .arg(self.task_key(&task.id))
                .arg(self.owner_key(&task.owner))
                .arg(json)
                .arg(task.ttl_ms.max(1))
                .arg(task.created_at_ms)
                .arg(&task.id)
                .arg(self.limits.live_per_owner)
                .arg(self.task_key(""))
                .arg(MAX_PER_OWNER)
                .clone();
            match self.redis.cmd::<i64>(&cmd).await.map_err(backend)? {
                1 => Ok(()),
                0 => Err(TaskStoreError::LimitReached(format!(
                    "at most {} unfinished tasks per client",
                    self.limits.live_per_owner
                ))),
                -2 => Err(TaskStoreError::LimitReached(format!(
                    "at most {MAX_PER_OWNER} tasks kept per client"
                ))),
                _ => Err(backend("task id already taken")),
            }
        })
    }

    fn get<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            let cmd = redis::cmd("GET").arg(self.task_key(id)).clone();
            let text: Option<String> = self.redis.cmd(&cmd).await.map_err(backend)?;
            Ok(Self::read(text, owner))
        })
    }

    fn update(&self, task: TaskRecord) -> BoxFuture<'_, Result<bool, TaskStoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(&task).map_err(backend)?;
            let cmd = redis::cmd("EVAL")
                .arg(UPDATE)
                .arg(1)
                .arg(self.task_key(&task.id))
                .arg(json)
                .arg(&task.owner)
                .clone();
            Ok(self.redis.cmd::<i64>(&cmd).await.map_err(backend)? == 1)
        })
    }

    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            let cmd = redis::cmd("ZRANGE")
                .arg(self.owner_key(owner))
                .arg(0)
                .arg(-1)
                .clone();
            let ids: Vec<String> = self.redis.cmd(&cmd).await.map_err(backend)?;
            let start = after
                .and_then(|a| ids.iter().position(|id| id == a))
                .map_or(0, |i| i + 1);
            let page: Vec<&String> = ids.iter().skip(start).take(limit).collect();
            if page.is_empty() {
                return Ok(Vec::new());
            }
            let mut mget = redis::cmd("MGET");
            for id in &page {
                mget.arg(self.task_key(id));
            }
            let texts: Vec<Option<String>> = self.redis.cmd(&mget).await.map_err(backend)?;
            Ok(texts
                .into_iter()
                .filter_map(|t| Self::read(t, owner))
                .collect())
        })
    }
}
