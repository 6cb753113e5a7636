//! Randomness from the operating system (`mcp-runtime-io`'s): the `requestState` key, session
//! ids, elicitation ids.
//!
//! It fails closed: there is no fallback to weaker entropy. [`check`] runs when a server is
//! built ([`ServerBuilder::build`](crate::ServerBuilder::build)), so a system without a working
//! random source gets [`Error::RandomUnavailable`] at start-up instead of a server with guessable
//! keys and ids; a later draw that fails panics rather than return anything predictable.

pub(crate) use mcp_io::random::{bytes, token};

use crate::error::Error;

/// Checks, at start-up, that the operating system's random source works.
pub(crate) fn check() -> Result<(), Error> {
    mcp_io::random::try_bytes()
        .map(drop)
        .map_err(|e| Error::RandomUnavailable(e.into()))
}

#[cfg(test)]
mod tests {
    use mcp_core::Implementation;
    use mcp_io::random::fail_on_this_thread;

    use crate::{Error, Server};

    #[test]
    fn a_failing_source_is_an_error_not_a_fallback() {
        let err = fail_on_this_thread(super::check).unwrap_err();
        assert!(matches!(err, Error::RandomUnavailable(_)), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("the operating system's random source is unavailable: "),
            "{err}"
        );
        assert!(super::check().is_ok());
    }

    #[test]
    fn a_server_is_not_built_without_a_random_source() {
        let builder = || Server::builder(Implementation::new("t", "0"));
        let err = fail_on_this_thread(|| builder().build()).unwrap_err();
        assert!(matches!(err, Error::RandomUnavailable(_)), "{err:?}");
        // A fixed requestState key does not skip the check: session and elicitation ids need it.
        let err = fail_on_this_thread(|| builder().request_state_key([1; 32]).build()).unwrap_err();
        assert!(matches!(err, Error::RandomUnavailable(_)), "{err:?}");
        assert!(builder().build().is_ok());
    }

    #[test]
    #[should_panic(expected = "random source is unavailable")]
    fn a_draw_after_start_up_panics_rather_than_weaken() {
        fail_on_this_thread(super::token);
    }
}
