//! The one way the crate takes a `std::sync` lock (a leaf), with one poison policy: a lock that
//! a panic poisoned is taken as it is.
//!
//! That is sound here because no critical section of the crate leaves its data half-changed
//! when it panics: each one is a short, synchronous edit of a table, a queue or a cache (no
//! handler code runs under these locks, and no `.await`), so what a poisoned lock guards is a
//! state some earlier, complete edit left. Refusing it would turn one panic, already caught
//! and reported, into a failure of every later request.

pub(crate) use mcp_io::{lock, read, write};

#[cfg(test)]
mod tests {
    use std::sync::{Mutex, RwLock};

    #[test]
    fn a_poisoned_lock_is_taken_as_it_is() {
        let mutex = Mutex::new(1);
        let rw = RwLock::new(2);
        let _ = std::panic::catch_unwind(|| {
            let _m = mutex.lock().unwrap();
            let _w = rw.write().unwrap();
            panic!("poison both");
        });
        assert!(mutex.is_poisoned() && rw.is_poisoned());
        *super::lock(&mutex) += 10;
        assert_eq!(*super::lock(&mutex), 11);
        *super::write(&rw) += 20;
        assert_eq!(*super::read(&rw), 22);
    }
}
