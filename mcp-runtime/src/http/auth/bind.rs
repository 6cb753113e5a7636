//! Sessions bound to the subject that opened them: a session id presented with another
//! subject's token is refused as if it did not exist.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// Session id → subject, the oldest forgotten first past `capacity` (a forgotten session is
/// refused, never served to anyone: its client opens a new one).
pub(crate) struct Bindings {
    capacity: usize,
    inner: Mutex<(HashMap<String, String>, VecDeque<String>)>,
}

impl Bindings {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            inner: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    /// Records that `subject` opened `session`.
    pub(crate) fn bind(&self, session: &str, subject: &str) {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *guard;
        if map.insert(session.to_owned(), subject.to_owned()).is_none() {
            order.push_back(session.to_owned());
        }
        while map.len() > self.capacity {
            match order.pop_front() {
                Some(old) => {
                    map.remove(&old);
                }
                None => break,
            }
        }
    }

    /// Whether `subject` may use `session`.
    pub(crate) fn allows(&self, session: &str, subject: &str) -> bool {
        let guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.get(session).is_some_and(|s| s == subject)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_serves_its_subject_only_and_the_table_is_bounded() {
        let b = Bindings::new(2);
        b.bind("s1", "alice");
        assert!(b.allows("s1", "alice"));
        assert!(!b.allows("s1", "bob"));
        assert!(!b.allows("s2", "alice"));
        b.bind("s2", "bob");
        b.bind("s3", "carol");
        assert!(!b.allows("s1", "alice"), "the oldest is forgotten");
        assert!(b.allows("s2", "bob") && b.allows("s3", "carol"));
    }
}
