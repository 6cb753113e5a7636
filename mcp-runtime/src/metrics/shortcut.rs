//! The operation series of a request, found by a small key before its nine label values are
//! gathered, hashed and compared: the method, revision and transport (by the addresses of
//! their static names, and a number), the outcome (a code), and the target's text. A fixed
//! table of [`SLOTS`] entries, each set once by the first key that lands on it (a key that
//! finds its slot taken takes the registry's own lookup, as before): a request that repeats
//! a label set costs one short hash and one comparison of the target.

use std::sync::OnceLock;

use super::registry::{fold, seeds};

/// The table's size (a power of two).
const SLOTS: usize = 256;
/// Targets longer than this are not remembered (the table's memory stays bounded).
const MAX_TARGET: usize = 128;

/// What identifies a label set besides the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    /// The address of the method's name (`mcp.method.name`, a static string).
    pub(super) method: usize,
    /// The address of the revision's name (a static string).
    pub(super) version: usize,
    /// The transport, as a number.
    pub(super) transport: u8,
    /// The outcome: 0 for a result, the JSON-RPC error code, or one of [`TOOL_ERROR`] and
    /// [`CANCELLED`].
    pub(super) outcome: i64,
}

/// The outcome of a tool's `isError` result, in [`Key::outcome`].
pub(super) const TOOL_ERROR: i64 = 1 << 40;
/// The outcome of a cancellation, in [`Key::outcome`].
pub(super) const CANCELLED: i64 = 2 << 40;

struct Entry {
    key: Key,
    target: Box<str>,
    /// The series' slot in the registry's table.
    index: usize,
}

pub(super) struct Shortcuts {
    slots: Box<[OnceLock<Entry>]>,
    seeds: (u64, u64),
}

impl Shortcuts {
    pub(super) fn new() -> Self {
        Self {
            slots: (0..SLOTS).map(|_| OnceLock::new()).collect(),
            seeds: seeds(),
        }
    }

    #[inline]
    fn slot(&self, key: Key, target: &str) -> &OnceLock<Entry> {
        let (seed, k) = self.seeds;
        let mut h = fold(seed ^ key.method as u64, k);
        h = fold(h ^ key.version as u64 ^ (u64::from(key.transport) << 56), k);
        h = fold(h ^ key.outcome as u64, k);
        let bytes = target.as_bytes();
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            h = fold(h ^ u64::from_le_bytes(w), k);
        }
        let tail = words
            .remainder()
            .iter()
            .rev()
            .fold(0u64, |w, &c| (w << 8) | u64::from(c));
        h = fold(h ^ tail, k ^ bytes.len() as u64);
        &self.slots[(h as usize) & (SLOTS - 1)]
    }

    /// The registry slot remembered for `key` and `target`, if any.
    #[inline]
    pub(super) fn find(&self, key: Key, target: &str) -> Option<usize> {
        let entry = self.slot(key, target).get()?;
        (entry.key == key && *entry.target == *target).then_some(entry.index)
    }

    /// Remembers that `key` and `target` are the registry's series at slot `index`, if their
    /// slot is free.
    pub(super) fn remember(&self, key: Key, target: &str, index: usize) {
        if target.len() <= MAX_TARGET {
            let _ = self.slot(key, target).set(Entry {
                key,
                target: target.into(),
                index,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_finds_what_it_remembered_and_nothing_else() {
        let s = Shortcuts::new();
        let key = Key {
            method: 1,
            version: 2,
            transport: 0,
            outcome: 0,
        };
        assert_eq!(s.find(key, "add"), None);
        s.remember(key, "add", 7);
        assert_eq!(s.find(key, "add"), Some(7));
        assert_eq!(s.find(key, "adds"), None);
        assert_eq!(
            s.find(
                Key {
                    outcome: -32602,
                    ..key
                },
                "add"
            ),
            None
        );
        s.remember(key, &"x".repeat(MAX_TARGET + 1), 8);
        assert_eq!(s.find(key, &"x".repeat(MAX_TARGET + 1)), None);
    }
}
