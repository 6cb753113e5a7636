//! Randomness from the operating system: keys, session ids, elicitation ids, PKCE verifiers,
//! DPoP keys.
//!
//! It fails closed: there is no fallback to weaker entropy. A server checks the source once when
//! it is built ([`try_bytes`]), so a system without a working random source fails at start-up
//! instead of running with guessable keys and ids. Each later draw reads the operating system
//! again; should that ever fail after the start-up check succeeded (the OS sources `getrandom`
//! uses do not, once they have answered), [`bytes`] panics rather than return anything
//! predictable, and the request that needed it fails.

/// The operating system's answer when it has no randomness to give.
pub use getrandom::Error;

/// Fills `buf` from the operating system (or, in tests, from a source that can be made to fail
/// on one thread).
fn fill(buf: &mut [u8]) -> Result<(), Error> {
    #[cfg(any(test, feature = "test-hooks"))]
    if hooks::FAIL.with(std::cell::Cell::get) {
        return Err(Error::UNSUPPORTED);
    }
    getrandom::fill(buf)
}

/// 32 random bytes from the operating system, or why there are none.
///
/// ```
/// assert_ne!(mcp_runtime_io::random::try_bytes().unwrap(), [0; 32]);
/// ```
pub fn try_bytes() -> Result<[u8; 32], Error> {
    let mut buf = [0u8; 32];
    fill(&mut buf)?;
    Ok(buf)
}

/// 32 random bytes, for a program that checked the source with [`try_bytes`] at start-up.
///
/// # Panics
///
/// If the operating system's source fails after all: fail closed, never a weaker substitute.
///
/// ```
/// assert_ne!(mcp_runtime_io::random::bytes(), mcp_runtime_io::random::bytes());
/// ```
pub fn bytes() -> [u8; 32] {
    match try_bytes() {
        Ok(buf) => buf,
        Err(e) => panic!("the operating system's random source is unavailable: {e}"),
    }
}

/// A random token of visible ASCII (64 hex digits): session ids, elicitation ids.
///
/// ```
/// assert_eq!(mcp_runtime_io::random::token().len(), 64);
/// ```
pub fn token() -> String {
    bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `f` with the random source failing on this thread, as a system without one would
/// (feature `test-hooks`: for the workspace's tests only).
///
/// ```
/// # #[cfg(feature = "test-hooks")] {
/// use mcp_runtime_io::random;
///
/// assert!(random::fail_on_this_thread(random::try_bytes).is_err());
/// assert!(random::try_bytes().is_ok());
/// # }
/// ```
#[cfg(any(test, feature = "test-hooks"))]
pub fn fail_on_this_thread<T>(f: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            hooks::FAIL.with(|fail| fail.set(false));
        }
    }
    hooks::FAIL.with(|fail| fail.set(true));
    let _reset = Reset;
    f()
}

#[cfg(any(test, feature = "test-hooks"))]
mod hooks {
    use std::cell::Cell;

    thread_local! {
        /// Makes [`super::fill`] fail on this thread.
        pub(super) static FAIL: Cell<bool> = const { Cell::new(false) };
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_visible_ascii_and_distinct() {
        let (a, b) = (super::token(), super::token());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| (0x21..=0x7e).contains(&c)));
        assert_ne!(a, b);
    }

    #[test]
    fn a_failing_source_is_an_error_not_a_fallback() {
        let err = super::fail_on_this_thread(super::try_bytes).unwrap_err();
        assert_eq!(err, super::Error::UNSUPPORTED);
        assert!(super::try_bytes().is_ok());
    }

    #[test]
    #[should_panic(expected = "random source is unavailable")]
    fn a_draw_after_start_up_panics_rather_than_weaken() {
        super::fail_on_this_thread(super::token);
    }
}
