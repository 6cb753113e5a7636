//! The in-process key table: one entry per key (the states of every rule), in sharded mutexes,
//! bounded. A full shard first drops its entries at rest (the same as fresh ones, so nothing
//! is lost), then its least recently used entry (that key starts again with a full budget).

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex};

use super::rule::{Cause, Compiled, State};
use crate::sync::lock;

/// One key's states, one per rule, and when it was last seen.
struct Entry {
    states: Box<[State]>,
    last: u64,
}

/// One shard: its keys' entries.
type Shard = Mutex<HashMap<Arc<str>, Entry>>;

pub(crate) struct Table {
    shards: Box<[Shard]>,
    per_shard: usize,
    hasher: RandomState,
}

/// A refusal: the index of the rule, the cause and the wait in nanoseconds.
pub(crate) type Refused = (usize, Cause, u64);

impl Table {
    /// A table of at most `max_keys` keys (at least 1).
    pub(crate) fn new(max_keys: usize) -> Self {
        let shards = (max_keys / 256).clamp(1, 16);
        let per_shard = max_keys / shards;
        Self {
            shards: (0..shards).map(|_| Mutex::new(HashMap::new())).collect(),
            per_shard,
            hasher: RandomState::new(),
        }
    }

    /// How many keys the table holds.
    pub(crate) fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).len()).sum()
    }

    /// Admits one request of `key` at `now` under the rules of `mask` (bit `i`: `rules[i]`),
    /// all or none: on refusal nothing is consumed and the longest wait is reported.
    pub(crate) fn admit(
        &self,
        key: &str,
        rules: &[Compiled],
        mask: u64,
        now: u64,
    ) -> Result<(), Refused> {
        let shard = &self.shards[self.hasher.hash_one(key) as usize % self.shards.len()];
        let mut map = lock(shard);
        if !map.contains_key(key) && map.len() >= self.per_shard {
            map.retain(|_, e| !at_rest(e, rules, now));
            if map.len() >= self.per_shard {
                let oldest = map
                    .iter()
                    .min_by_key(|(_, e)| e.last)
                    .map(|(k, _)| Arc::clone(k));
                if let Some(k) = oldest {
                    map.remove(&k);
                }
            }
        }
        let entry = map.entry(Arc::from(key)).or_insert_with(|| Entry {
            states: vec![State::default(); rules.len()].into(),
            last: now,
        });
        entry.last = now;
        let mut next = entry.states.clone();
        let mut worst: Option<Refused> = None;
        for (i, rule) in rules.iter().enumerate() {
            if mask & (1 << i) == 0 {
                continue;
            }
            match entry.states[i].admit(rule, now) {
                Ok(s) => next[i] = s,
                Err((cause, wait)) => {
                    if worst.is_none_or(|(_, _, w)| wait > w) {
                        worst = Some((i, cause, wait));
                    }
                }
            }
        }
        match worst {
            Some(r) => Err(r),
            None => {
                entry.states = next;
                Ok(())
            }
        }
    }
}

fn at_rest(entry: &Entry, rules: &[Compiled], now: u64) -> bool {
    entry
        .states
        .iter()
        .zip(rules)
        .all(|(s, r)| s.at_rest(r, now))
}
