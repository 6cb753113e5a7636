//! Randomness from the operating system: the `requestState` key, session ids, elicitation ids.
//!
//! It fails closed: there is no fallback to weaker entropy. [`check`] runs when a server is
//! built ([`ServerBuilder::build`](crate::ServerBuilder::build)), so a system without a working
//! random source gets [`Error::RandomUnavailable`] at start-up instead of a server with guessable
//! keys and ids. Each later draw reads the operating system again; should that ever fail after
//! the start-up check succeeded (the OS sources `getrandom` uses do not, once they have
//! answered), [`bytes`] panics rather than return anything predictable, and the request that
//! needed it fails.

use crate::error::Error;

/// Fills `buf` from the operating system (or, in unit tests, from a source that can be made to
/// fail).
fn fill(buf: &mut [u8]) -> Result<(), getrandom::Error> {
    #[cfg(test)]
    if tests::FAIL.with(std::cell::Cell::get) {
        return Err(getrandom::Error::UNSUPPORTED);
    }
    getrandom::fill(buf)
}

/// 32 random bytes from the operating system, or why there are none.
pub(crate) fn try_bytes() -> Result<[u8; 32], Error> {
    let mut buf = [0u8; 32];
    fill(&mut buf).map_err(|e| Error::RandomUnavailable(e.into()))?;
    Ok(buf)
}

/// Checks, at start-up, that the operating system's random source works.
pub(crate) fn check() -> Result<(), Error> {
    try_bytes().map(drop)
}

/// 32 random bytes, for a server that passed [`check`] when it was built.
///
/// # Panics
///
/// If the operating system's source fails after all: fail closed, never a weaker substitute.
pub(crate) fn bytes() -> [u8; 32] {
    match try_bytes() {
        Ok(buf) => buf,
        Err(e) => panic!("{e}"),
    }
}

/// A random token of visible ASCII (64 hex digits): session ids, elicitation ids.
pub(crate) fn token() -> String {
    bytes().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use mcp_core::Implementation;

    use crate::{Error, Server};

    thread_local! {
        /// Makes [`super::fill`] fail on this thread, as a system without a random source would.
        pub(super) static FAIL: Cell<bool> = const { Cell::new(false) };
    }

    /// Runs `f` with the random source failing on this thread.
    fn without_random_source<T>(f: impl FnOnce() -> T) -> T {
        struct Reset;
        impl Drop for Reset {
            fn drop(&mut self) {
                FAIL.with(|fail| fail.set(false));
            }
        }
        FAIL.with(|fail| fail.set(true));
        let _reset = Reset;
        f()
    }

    #[test]
    fn tokens_are_visible_ascii_and_distinct() {
        let (a, b) = (super::token(), super::token());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| (0x21..=0x7e).contains(&c)));
        assert_ne!(a, b);
    }

    #[test]
    fn a_failing_source_is_an_error_not_a_fallback() {
        let err = without_random_source(super::try_bytes).unwrap_err();
        assert!(matches!(err, Error::RandomUnavailable(_)), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("the operating system's random source is unavailable: "),
            "{err}"
        );
        assert!(super::try_bytes().is_ok());
    }

    #[test]
    fn a_server_is_not_built_without_a_random_source() {
        let builder = || Server::builder(Implementation::new("t", "0"));
        let err = without_random_source(|| builder().build()).unwrap_err();
        assert!(matches!(err, Error::RandomUnavailable(_)), "{err:?}");
        // A fixed requestState key does not skip the check: session and elicitation ids need it.
        let err =
            without_random_source(|| builder().request_state_key([1; 32]).build()).unwrap_err();
        assert!(matches!(err, Error::RandomUnavailable(_)), "{err:?}");
        assert!(builder().build().is_ok());
    }

    #[test]
    #[should_panic(expected = "random source is unavailable")]
    fn a_draw_after_start_up_panics_rather_than_weaken() {
        without_random_source(super::token);
    }
}
