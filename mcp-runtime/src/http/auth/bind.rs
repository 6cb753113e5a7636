//! Sessions bound to the subject (and issuer) that opened them: a session id presented with
//! another subject's token is refused as if it did not exist.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use crate::http::session::Owner;
use crate::sync::lock;

/// Session id → owner, the oldest forgotten first past `capacity` (a forgotten session is
/// refused, never served to anyone: its client opens a new one).
pub(crate) struct Bindings {
    capacity: usize,
    inner: Mutex<(HashMap<String, Owner>, VecDeque<String>)>,
}

impl Bindings {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            inner: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    /// Records that `owner` opened `session`.
    pub(crate) fn bind(&self, session: &str, owner: &Owner) {
        let mut guard = lock(&self.inner);
        let (map, order) = &mut *guard;
        if map.insert(session.to_owned(), owner.clone()).is_none() {
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

    /// Whether `owner` may use `session`.
    pub(crate) fn allows(&self, session: &str, owner: &Owner) -> bool {
        let guard = lock(&self.inner);
        guard.0.get(session).is_some_and(|o| o == owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(subject: &str, issuer: Option<&str>) -> Owner {
        Owner {
            subject: subject.into(),
            issuer: issuer.map(Into::into),
        }
    }

    #[test]
    fn a_session_serves_its_subject_only_and_the_table_is_bounded() {
        let b = Bindings::new(2);
        let (alice, bob, carol) = (who("alice", None), who("bob", None), who("carol", None));
        b.bind("s1", &alice);
        assert!(b.allows("s1", &alice));
        assert!(!b.allows("s1", &bob));
        assert!(!b.allows("s2", &alice));
        b.bind("s2", &bob);
        b.bind("s3", &carol);
        assert!(!b.allows("s1", &alice), "the oldest is forgotten");
        assert!(b.allows("s2", &bob) && b.allows("s3", &carol));
    }

    #[test]
    fn the_same_subject_of_another_issuer_is_someone_else() {
        let b = Bindings::new(4);
        b.bind("s1", &who("alice", Some("https://as-1")));
        assert!(b.allows("s1", &who("alice", Some("https://as-1"))));
        assert!(!b.allows("s1", &who("alice", Some("https://as-2"))));
        assert!(!b.allows("s1", &who("alice", None)));
    }
}
