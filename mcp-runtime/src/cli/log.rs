//! The `tracing` subscriber the command line installs on stderr, filtered by `RUST_LOG`.
//!
//! A filter of plain `target=level` directives (what nearly everyone writes: `warn`,
//! `info,hyper=off`, `my_server=debug`) is served by [`Targets`], which matches a target and a
//! level and nothing else. Anything else (span and field filters such as
//! `my_server[call{tool=add}]=debug`, whose values may be regular expressions) goes to
//! [`EnvFilter`], which means the same for every directive both accept. `Targets` costs nothing
//! at start-up and per event it compares a target prefix; `EnvFilter` keeps per-span state and
//! its regular-expression engine, which a plain filter never needs to run.

use tracing_subscriber::filter::{EnvFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, Registry};

/// The filter of the text `RUST_LOG` holds (`None`: unset or not Unicode): `warn` when unset
/// or invalid, as `EnvFilter` reads it.
fn filter(text: Option<&str>) -> Box<dyn Layer<Registry> + Send + Sync> {
    let text = text.unwrap_or("warn");
    if let Some(targets) = plain_targets(text) {
        return Box::new(targets);
    }
    Box::new(EnvFilter::try_new(text).unwrap_or_else(|_| EnvFilter::new("warn")))
}

/// `text` as [`Targets`] when every directive is a plain `target`, `level` or `target=level`
/// (then `EnvFilter` would read it the same way); `None` otherwise.
fn plain_targets(text: &str) -> Option<Targets> {
    let plain = |directive: &str| {
        !directive.is_empty()
            && directive.split('=').count() <= 2
            && directive
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'-' | b'='))
    };
    if !text.split(',').all(plain) {
        return None;
    }
    text.parse().ok()
}

/// Installs the subscriber: events at the filter's levels, on stderr, without colours.
pub(super) fn init() {
    let text = std::env::var("RUST_LOG").ok();
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false);
    let _ = tracing_subscriber::registry()
        .with(filter(text.as_deref()))
        .with(fmt)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::Level;
    use tracing::level_filters::LevelFilter;

    #[test]
    fn plain_directives_are_targets_and_mean_what_env_filter_means() {
        let t = plain_targets("info,hyper=off,my_server::tools=debug").unwrap();
        assert!(t.would_enable("my_server::tools::add", &Level::DEBUG));
        assert!(!t.would_enable("my_server::tools", &Level::TRACE));
        assert!(t.would_enable("mcp_runtime", &Level::INFO));
        assert!(!t.would_enable("mcp_runtime", &Level::DEBUG));
        assert!(!t.would_enable("hyper::proto", &Level::ERROR));
        let t = plain_targets("WARN").unwrap();
        assert!(t.would_enable("x", &Level::WARN) && !t.would_enable("x", &Level::INFO));
        // A bare target enables every level of it, as in `EnvFilter`.
        let t = plain_targets("my_server").unwrap();
        assert!(t.would_enable("my_server", &Level::TRACE));
        assert!(!t.would_enable("other", &Level::ERROR));
        assert_eq!(
            plain_targets("mcp-runtime=trace")
                .map(|t| t.would_enable("mcp-runtime", &Level::TRACE)),
            Some(true)
        );
    }

    #[test]
    fn anything_else_goes_to_env_filter() {
        // Spans and fields, empty directives, stray spaces, too many `=`, an unknown level.
        for text in [
            "my_server[call{tool=add}]=debug",
            "[{id}]=trace",
            "",
            "warn,",
            "info, hyper=off",
            "a=b=c",
            "my_server=loud",
        ] {
            assert!(plain_targets(text).is_none(), "{text:?}");
        }
        // What `EnvFilter` accepts it serves (a span filter is decided per span, so its hint
        // is every level); what it refuses falls back to `warn`.
        assert_eq!(
            filter(Some("[call{tool=add}]=debug")).max_level_hint(),
            Some(LevelFilter::TRACE)
        );
        assert_eq!(
            filter(Some("my_server=loud")).max_level_hint(),
            Some(LevelFilter::WARN)
        );
        assert_eq!(filter(None).max_level_hint(), Some(LevelFilter::WARN));
        assert_eq!(
            filter(Some("info,hyper=off")).max_level_hint(),
            Some(LevelFilter::INFO)
        );
    }
}
