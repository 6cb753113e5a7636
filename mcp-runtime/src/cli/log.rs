//! The `tracing` subscriber the command line installs on stderr, filtered by `RUST_LOG`.
//!
//! A filter of plain `target=level` directives (what nearly everyone writes: `warn`,
//! `info,hyper=off`, `my_server=debug`) is served by [`Targets`], which matches a target and a
//! level and nothing else. Anything else (span and field filters such as
//! `my_server[call{tool=add}]=debug`, whose values may be regular expressions) goes to
//! [`EnvFilter`], which means the same for every directive both accept. `Targets` costs nothing
//! at start-up and per event it compares a target prefix; `EnvFilter` keeps per-span state and
//! its regular-expression engine, which a plain filter never needs to run.
//!
//! The raw message log ([`WIRE_TARGET`](crate::transport::WIRE_TARGET)) has a layer of its own,
//! on when `MCP_LOG_MESSAGES` is set (not empty, not `0`): its events are written bare, one
//! `--> {json}` or `<-- {json}` line each, and `RUST_LOG` neither shows nor hides them.

use tracing::level_filters::LevelFilter;
use tracing_subscriber::filter::{EnvFilter, FilterExt, Targets};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::Filter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, Registry};

/// The filter of the text `RUST_LOG` holds (`None`: unset or not Unicode): `warn` when unset
/// or invalid, as `EnvFilter` reads it.
fn filter(text: Option<&str>) -> Box<dyn Filter<Registry> + Send + Sync> {
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

/// Whether the text of `MCP_LOG_MESSAGES` turns the raw message log on.
fn raw_log_asked(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// Every target but the raw message log's (a `Targets`, so that it is decided once per
/// call site and keeps the level hint of the filter it is joined to).
fn not_wire() -> Targets {
    Targets::new()
        .with_default(LevelFilter::TRACE)
        .with_target(crate::transport::WIRE_TARGET, LevelFilter::OFF)
}

/// Installs the subscriber: events at the filter's levels, on stderr, without colours; and the
/// raw message log, bare, when `MCP_LOG_MESSAGES` asks for it.
/// With `otel` set (an OTLP export installed), the spans are exported too
/// (`otel::subscriber_layer`).
pub(super) fn init(otel: bool) {
    let text = std::env::var("RUST_LOG").ok();
    let raw = raw_log_asked(std::env::var_os("MCP_LOG_MESSAGES").as_deref());
    let layers = stack(text.as_deref(), raw, otel, std::io::stderr);
    let _ = tracing_subscriber::registry().with(layers).try_init();
}

/// The layers [`init`] installs, writing to `writer`.
///
/// A list rather than `Option` layers: a `None` layer in the stack answers every call site
/// "always", which turns off the per-layer filters of the layers after it (the OpenTelemetry
/// layer's among them: every span and event of the process, `debug!` and the raw message log
/// included, would be made and recorded, per call).
fn stack<W>(
    rust_log: Option<&str>,
    raw: bool,
    otel: bool,
    writer: W,
) -> Vec<Box<dyn Layer<Registry> + Send + Sync>>
where
    W: for<'w> MakeWriter<'w> + Clone + Send + Sync + 'static,
{
    let mut layers = vec![events(filter(rust_log), writer.clone()).boxed()];
    if raw {
        layers.push(wire(writer).boxed());
    }
    #[cfg(feature = "otel")]
    if otel {
        layers.push(crate::otel::subscriber_layer().boxed());
    }
    #[cfg(not(feature = "otel"))]
    let _ = otel;
    layers
}

/// The layer of every event but the raw message log, under `filter`.
fn events<W>(
    filter: Box<dyn Filter<Registry> + Send + Sync>,
    writer: W,
) -> impl Layer<Registry> + Send + Sync
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(false)
        .with_filter(filter.and(not_wire()))
}

/// The raw message log's layer: its events only, each written as its message alone.
fn wire<S, W>(writer: W) -> impl Layer<S> + Send + Sync
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(false)
        .without_time()
        .with_level(false)
        .with_target(false)
        .with_filter(Targets::new().with_target(crate::transport::WIRE_TARGET, LevelFilter::TRACE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer into a shared buffer.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'w> MakeWriter<'w> for Buffer {
        type Writer = Buffer;
        fn make_writer(&'w self) -> Buffer {
            self.clone()
        }
    }

    impl Buffer {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// Held by each test that installs a subscriber: `tracing` caches a call site's interest
    /// across every live subscriber, so one test's raw-log layer would otherwise answer for
    /// another's `raw_log_enabled()` while both run.
    static SUBSCRIBERS: Mutex<()> = Mutex::new(());

    /// Logs one message in and one out, and an ordinary warning, under `RUST_LOG=rust_log`,
    /// with or without the raw log; gives what the events layer and the wire layer wrote.
    fn log_under(rust_log: &str, raw: bool) -> (String, String) {
        let _one = SUBSCRIBERS.lock().unwrap_or_else(|e| e.into_inner());
        let (events_out, wire_out) = (Buffer::default(), Buffer::default());
        let subscriber = tracing_subscriber::registry()
            .with(events(filter(Some(rust_log)), events_out.clone()))
            .with(raw.then(|| wire(wire_out.clone())));
        tracing::subscriber::with_default(subscriber, || {
            // On whenever the wire layer is there (off, it may still say yes under a
            // verbose filter: each layer then drops the events without writing them).
            assert!(!raw || crate::outbound::raw_log_enabled(), "{rust_log}");
            crate::outbound::log_in(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
            crate::outbound::log_out(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
            tracing::warn!(target: "mcp_runtime::cli", "plain");
        });
        (events_out.text(), wire_out.text())
    }

    /// The command line's stack with the OpenTelemetry layer and without the raw log: the
    /// dispatcher's `mcp.request` span, `debug!` call sites and the raw log are off (nothing
    /// made per call), a handler's `INFO` span is on (exported).
    #[cfg(feature = "otel")]
    #[test]
    fn the_otel_stack_leaves_what_it_does_not_export_disabled() {
        let _one = SUBSCRIBERS.lock().unwrap_or_else(|e| e.into_inner());
        let subscriber = tracing_subscriber::registry().with(stack(
            Some("warn"),
            false,
            true,
            Buffer::default(),
        ));
        tracing::subscriber::with_default(subscriber, || {
            let request = tracing::info_span!(target: "mcp_runtime::connection", "mcp.request");
            assert!(request.is_disabled());
            assert!(tracing::debug_span!("handler.detail").is_disabled());
            assert!(!crate::outbound::raw_log_enabled());
            assert!(!tracing::info_span!("handler.lookup").is_disabled());
        });
    }

    #[test]
    fn the_raw_log_is_bare_lines_on_its_own_layer_whatever_rust_log_says() {
        let lines = "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\
                     <-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
        for rust_log in [
            "warn",
            "off",
            "trace",
            "mcp_runtime::messages=trace",
            "[x]=trace",
        ] {
            let (events, wire) = log_under(rust_log, true);
            assert_eq!(wire, lines, "{rust_log}");
            assert!(
                !events.contains("-->") && !events.contains("<--"),
                "{rust_log}: {events}"
            );
            let (events, wire) = log_under(rust_log, false);
            assert_eq!(wire, "", "{rust_log}");
            assert!(
                !events.contains("-->") && !events.contains("<--"),
                "{rust_log}: {events}"
            );
        }
        // The ordinary events are untouched: the warning under `warn`, nothing under `off`.
        assert!(
            log_under("warn", true)
                .0
                .ends_with(" WARN mcp_runtime::cli: plain\n")
        );
        assert_eq!(log_under("off", true).0, "");
    }

    #[test]
    fn mcp_log_messages_is_on_unless_empty_or_zero() {
        use std::ffi::OsStr;
        assert!(raw_log_asked(Some(OsStr::new("1"))));
        assert!(raw_log_asked(Some(OsStr::new("yes"))));
        assert!(!raw_log_asked(Some(OsStr::new("0"))));
        assert!(!raw_log_asked(Some(OsStr::new(""))));
        assert!(!raw_log_asked(None));
    }
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
