//! The memory of the `requestState`s opened: each opens once.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;

use crate::sync::lock;

/// Most states remembered as used (about 64 bytes each).
const REPLAY_MEMORY: usize = 65_536;

/// The nonces of the states opened, until they expire: at most [`REPLAY_MEMORY`]. When full,
/// the one expiring first is forgotten and every state expiring no later than it is refused as
/// expired, so that no state opens twice whatever the load.
#[derive(Default)]
pub(super) struct Replays {
    seen: HashMap<String, u64>,
    by_expiry: BTreeSet<(u64, String)>,
    /// States expiring at or before this are refused.
    floor: u64,
}

impl Replays {
    /// Records the state `nonce` expiring at `expiry` as used; `Err` with the reason when it
    /// was used before (or can no longer be told apart from one that was).
    pub(super) fn use_once(
        &mut self,
        nonce: &str,
        expiry: u64,
        now: u64,
    ) -> Result<(), &'static str> {
        while let Some(first) = self.by_expiry.first() {
            if first.0 >= now {
                break;
            }
            if let Some((_, n)) = self.by_expiry.pop_first() {
                self.seen.remove(&n);
            }
        }
        if expiry <= self.floor {
            return Err("expired");
        }
        if self.seen.contains_key(nonce) {
            return Err("it was used already");
        }
        if self.seen.len() >= REPLAY_MEMORY
            && let Some((x, n)) = self.by_expiry.pop_first()
        {
            self.seen.remove(&n);
            self.floor = self.floor.max(x);
            if expiry <= self.floor {
                return Err("expired");
            }
        }
        self.seen.insert(nonce.to_owned(), expiry);
        self.by_expiry.insert((expiry, nonce.to_owned()));
        Ok(())
    }
}

/// The process's memory of used states (nonces are random: one memory serves every server).
pub(super) fn replays() -> std::sync::MutexGuard<'static, Replays> {
    static REPLAYS: std::sync::OnceLock<Mutex<Replays>> = std::sync::OnceLock::new();
    lock(REPLAYS.get_or_init(Mutex::default))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_replay_memory_refuses_what_it_can_no_longer_tell_apart() {
        let mut memory = Replays::default();
        let now = 1_000;
        for i in 0..REPLAY_MEMORY as u64 {
            memory
                .use_once(&format!("n{i}"), now + 10 + i, now)
                .unwrap();
        }
        // Full: the state expiring first is forgotten, and states expiring no later refused.
        assert_eq!(memory.use_once("late", now + 1_000_000, now), Ok(()));
        assert_eq!(memory.seen.len(), REPLAY_MEMORY);
        assert_eq!(memory.use_once("n0", now + 10, now), Err("expired"));
        assert_eq!(
            memory.use_once("late", now + 1_000_000, now),
            Err("it was used already")
        );
        // Expired entries go by themselves.
        assert_eq!(
            memory.use_once("fresh", now + 1_000_000, now + 500_000),
            Ok(())
        );
        assert!(memory.seen.len() < REPLAY_MEMORY / 2);
    }
}
