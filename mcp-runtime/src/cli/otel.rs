//! The command line's OpenTelemetry export (features `cli` and `otel`): the standard `OTEL_*`
//! variables read, an SDK tracer provider (and meter provider) exporting over OTLP/HTTP
//! installed as the global ones, and flushed when the command ends (stdin's end, SIGTERM).

use std::time::Duration;

use bytes::Bytes;
use opentelemetry::KeyValue;
use opentelemetry_http::{HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider};

use super::exit::{CliError, Failure};

/// The longest the export of what is left waits when the command ends.
const FLUSH: Duration = Duration::from_secs(5);
/// The time limit of one export request.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);
/// The most of an export's answer read (the collector's `ExportTraceServiceResponse`).
const MAX_ANSWER: usize = 64 * 1024;

/// The export the command line installed: the providers, flushed and shut down by
/// [`Telemetry::shutdown`].
///
/// ```no_run
/// # async fn demo() {
/// // A binary of its own (not `Server::run`), as `mcp-proxy` is:
/// let telemetry = match mcp_runtime::cli::Telemetry::from_env("my-gateway") {
///     Ok(telemetry) => telemetry,
///     Err(e) => {
///         eprintln!("my-gateway: {e}");
///         std::process::exit(e.code().into());
///     }
/// };
/// // ... serve ...
/// if let Some(t) = telemetry {
///     t.shutdown().await;
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct Telemetry {
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
}

/// The OTLP encoding `OTEL_EXPORTER_OTLP_PROTOCOL` names.
fn protocol(value: Option<&str>) -> Result<Protocol, CliError> {
    match value.map(str::trim) {
        None | Some("" | "http/protobuf") => Ok(Protocol::HttpBinary),
        Some("http/json") => Ok(Protocol::HttpJson),
        Some("grpc") => Err(CliError::new(
            Failure::Unsafe,
            "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this binary exports over OTLP/HTTP only \
             (http/protobuf or http/json)",
        )),
        Some(other) => Err(CliError::new(
            Failure::Server,
            format!(
                "OTEL_EXPORTER_OTLP_PROTOCOL={other:?}: expected http/protobuf, http/json or grpc"
            ),
        )),
    }
}

/// The sampler `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` name (default
/// `parentbased_always_on`).
#[cfg(test)]
fn sampler(name: Option<&str>, arg: Option<&str>) -> Result<Sampler, CliError> {
    Ok(sampling(name, arg)?.0)
}

/// The sampler, and the ratio of root spans it samples when the tracing layer may apply it
/// itself: a sampler that follows the parent (children of a left-out root are left out
/// too) and samples roots by ratio, below 1 (`parentbased_traceidratio`,
/// `parentbased_always_off`, `always_off`).
fn sampling(name: Option<&str>, arg: Option<&str>) -> Result<(Sampler, Option<f64>), CliError> {
    let ratio = || -> Result<f64, CliError> {
        let Some(text) = arg.map(str::trim).filter(|a| !a.is_empty()) else {
            return Ok(1.0);
        };
        match text.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
            _ => Err(CliError::new(
                Failure::Server,
                format!("OTEL_TRACES_SAMPLER_ARG={text:?}: expected a ratio from 0 to 1"),
            )),
        }
    };
    let parent = |root: Sampler| Sampler::ParentBased(Box::new(root));
    Ok(match name.map(str::trim) {
        None | Some("" | "parentbased_always_on") => (parent(Sampler::AlwaysOn), None),
        Some("always_on") => (Sampler::AlwaysOn, None),
        Some("always_off") => (Sampler::AlwaysOff, Some(0.0)),
        Some("traceidratio") => (Sampler::TraceIdRatioBased(ratio()?), None),
        Some("parentbased_always_off") => (parent(Sampler::AlwaysOff), Some(0.0)),
        Some("parentbased_traceidratio") => {
            let r = ratio()?;
            let root = (r < 1.0).then_some(r);
            (parent(Sampler::TraceIdRatioBased(r)), root)
        }
        Some(other) => {
            return Err(CliError::new(
                Failure::Server,
                format!(
                    "OTEL_TRACES_SAMPLER={other:?}: expected always_on, always_off, traceidratio, \
                     parentbased_always_on, parentbased_always_off or parentbased_traceidratio"
                ),
            ));
        }
    })
}

/// The URL of one signal: its own variable as it is, else the base one with `/v1/SIGNAL`.
fn endpoint(
    own: (&str, Option<String>),
    base: Option<&str>,
    path: &str,
) -> Result<Option<String>, CliError> {
    let (name, url) = match (own.1.filter(|v| !v.trim().is_empty()), base) {
        (Some(url), _) => (own.0, url.trim().to_owned()),
        (None, Some(base)) => (
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("{}/{path}", base.trim().trim_end_matches('/')),
        ),
        (None, None) => return Ok(None),
    };
    match url.parse::<http::Uri>() {
        Ok(uri)
            if matches!(uri.scheme_str(), Some("http" | "https")) && uri.authority().is_some() =>
        {
            Ok(Some(url))
        }
        _ => Err(CliError::new(
            Failure::Server,
            format!("{name}={url:?}: expected an http:// or https:// URL"),
        )),
    }
}

/// Reads a variable; one that is not Unicode is refused.
fn var(name: &str) -> Result<Option<String>, CliError> {
    match std::env::var(name) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(CliError::new(
            Failure::Server,
            format!("{name} is not valid Unicode"),
        )),
    }
}

impl Telemetry {
    /// Installs the export the `OTEL_*` variables ask for, as the global tracer and meter
    /// providers, when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
    /// is set; `None` when neither is. `service` is the service name when `OTEL_SERVICE_NAME`
    /// is not set. A malformed value is an error (exit 5), `grpc` too (exit 6: not built).
    /// Call it inside the Tokio runtime: the exports run on it.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcp_runtime::cli::CliError> {
    /// let telemetry = mcp_runtime::cli::Telemetry::from_env("notes")?;
    /// # let _ = telemetry; Ok(()) }
    /// ```
    pub fn from_env(service: &str) -> Result<Option<Self>, CliError> {
        let base = var("OTEL_EXPORTER_OTLP_ENDPOINT")?;
        let base = base.as_deref().filter(|b| !b.trim().is_empty());
        let own = var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")?;
        let Some(traces) = endpoint(
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", own),
            base,
            "v1/traces",
        )?
        else {
            return Ok(None);
        };
        let metrics_own = var("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")?;
        let metrics = endpoint(
            ("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", metrics_own),
            base,
            "v1/metrics",
        )?;
        let protocol = protocol(var("OTEL_EXPORTER_OTLP_PROTOCOL")?.as_deref())?;
        let (sampler, root_ratio) = sampling(
            var("OTEL_TRACES_SAMPLER")?.as_deref(),
            var("OTEL_TRACES_SAMPLER_ARG")?.as_deref(),
        )?;
        let name = var("OTEL_SERVICE_NAME")?
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| service.to_owned());
        let resource = Resource::builder()
            .with_attributes([KeyValue::new("service.name", name)])
            .build();
        let client = Spawned::new()?;
        let failed = |e: &dyn std::fmt::Display| {
            CliError::new(Failure::Server, format!("the OTLP exporter: {e}"))
        };
        let spans = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(client.clone())
            .with_protocol(protocol)
            .with_endpoint(traces)
            .with_timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|e| failed(&e))?;
        let tracer = SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_sampler(crate::otel::root::Decided(sampler))
            .with_resource(resource.clone())
            .build();
        let mut meter = SdkMeterProvider::builder().with_resource(resource);
        if let Some(metrics) = metrics {
            let exporter = opentelemetry_otlp::MetricExporter::builder()
                .with_http()
                .with_http_client(client)
                .with_protocol(protocol)
                .with_endpoint(metrics)
                .with_timeout(EXPORT_TIMEOUT)
                .build()
                .map_err(|e| failed(&e))?;
            meter = meter.with_periodic_exporter(exporter);
        }
        let meter = meter.build();
        opentelemetry::global::set_tracer_provider(tracer.clone());
        // The tracing layer knows this provider's root ratio, and applies it before it builds
        // anything for a request that starts a trace.
        crate::otel::root::set_ratio(root_ratio);
        opentelemetry::global::set_meter_provider(meter.clone());
        opentelemetry::global::set_text_map_propagator(crate::otel::w3c());
        Ok(Some(Self { tracer, meter }))
    }

    /// Exports what is left and stops the providers, within a bounded time (5 s).
    ///
    /// ```no_run
    /// # async fn demo(t: mcp_runtime::cli::Telemetry) {
    /// t.shutdown().await;
    /// # }
    /// ```
    pub async fn shutdown(self) {
        // The providers block their caller until the exports (spawned on this runtime) end.
        let work = tokio::task::spawn_blocking(move || {
            let _ = self.tracer.force_flush();
            let _ = self.tracer.shutdown_with_timeout(FLUSH);
            let _ = self.meter.shutdown_with_timeout(FLUSH);
        });
        let _ = tokio::time::timeout(FLUSH * 3, work).await;
    }
}

/// The exporters' HTTP client: each export runs on the Tokio runtime the command line runs
/// on (the SDK's batch thread only waits for it), with the workspace's `reqwest`.
#[derive(Debug, Clone)]
struct Spawned {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
}

impl Spawned {
    fn new() -> Result<Self, CliError> {
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| CliError::new(Failure::Server, "the OTLP export needs a Tokio runtime"))?;
        let client = reqwest::Client::builder()
            .timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|e| CliError::new(Failure::Server, format!("the OTLP client: {e}")))?;
        Ok(Self { client, runtime })
    }
}

/// What `#[async_trait]` makes of the trait's `async fn send_bytes`.
type Sending<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<Response<Bytes>, HttpError>> + Send + 'a>,
>;

impl HttpClient for Spawned {
    fn send_bytes<'life0, 'async_trait>(
        &'life0 self,
        request: Request<Bytes>,
    ) -> Sending<'async_trait>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(self.send(request))
    }
}

impl Spawned {
    async fn send(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let client = self.client.clone();
        let task = self.runtime.spawn(async move {
            let (parts, body) = request.into_parts();
            let mut answer = client
                .request(parts.method, parts.uri.to_string())
                .headers(parts.headers)
                .body(body)
                .send()
                .await?;
            let mut response = Response::builder().status(answer.status());
            let mut read = Vec::new();
            while let Some(chunk) = answer.chunk().await? {
                let room = MAX_ANSWER.saturating_sub(read.len());
                read.extend_from_slice(&chunk[..chunk.len().min(room)]);
                if room <= chunk.len() {
                    break;
                }
            }
            if let Some(headers) = response.headers_mut() {
                *headers = answer.headers().clone();
            }
            Ok::<_, HttpError>(response.body(Bytes::from(read))?)
        });
        task.await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocols_and_samplers_of_the_specification_and_nothing_else() {
        assert!(matches!(protocol(None), Ok(Protocol::HttpBinary)));
        assert!(matches!(
            protocol(Some("http/json")),
            Ok(Protocol::HttpJson)
        ));
        let grpc = protocol(Some("grpc")).unwrap_err();
        assert_eq!(grpc.failure(), Failure::Unsafe);
        assert_eq!(
            grpc.message(),
            "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this binary exports over OTLP/HTTP only \
             (http/protobuf or http/json)"
        );
        assert_eq!(
            protocol(Some("udp")).unwrap_err().message(),
            "OTEL_EXPORTER_OTLP_PROTOCOL=\"udp\": expected http/protobuf, http/json or grpc"
        );
        assert!(matches!(sampler(None, None), Ok(Sampler::ParentBased(_))));
        assert!(matches!(
            sampler(Some("traceidratio"), Some("0.25")),
            Ok(Sampler::TraceIdRatioBased(r)) if r == 0.25
        ));
        assert_eq!(
            sampler(Some("traceidratio"), Some("2"))
                .unwrap_err()
                .message(),
            "OTEL_TRACES_SAMPLER_ARG=\"2\": expected a ratio from 0 to 1"
        );
        assert_eq!(
            sampler(Some("sometimes"), None).unwrap_err().failure(),
            Failure::Server
        );
        // The root ratio the tracing layer applies itself: only a sampler that follows the
        // parent and samples roots by a ratio below 1 (or none).
        let root = |name: &str, arg: Option<&str>| sampling(Some(name), arg).unwrap().1;
        assert_eq!(root("parentbased_traceidratio", Some("0.01")), Some(0.01));
        assert_eq!(root("parentbased_traceidratio", Some("1")), None);
        assert_eq!(root("parentbased_always_off", None), Some(0.0));
        assert_eq!(root("always_off", None), Some(0.0));
        assert_eq!(root("traceidratio", Some("0.01")), None);
        assert_eq!(root("always_on", None), None);
        assert_eq!(sampling(None, None).unwrap().1, None);
    }

    #[test]
    fn a_signal_url_is_its_own_variable_or_the_base_with_its_path() {
        let own = |v: Option<&str>| ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", v.map(String::from));
        assert_eq!(
            endpoint(own(None), Some("http://127.0.0.1:4318/"), "v1/traces").unwrap(),
            Some("http://127.0.0.1:4318/v1/traces".to_owned())
        );
        assert_eq!(
            endpoint(own(Some("http://c:1/x")), Some("http://b:2"), "v1/traces").unwrap(),
            Some("http://c:1/x".to_owned())
        );
        assert_eq!(endpoint(own(None), None, "v1/traces").unwrap(), None);
        assert_eq!(
            endpoint(own(None), Some("localhost:4318"), "v1/traces")
                .unwrap_err()
                .message(),
            "OTEL_EXPORTER_OTLP_ENDPOINT=\"localhost:4318/v1/traces\": expected an http:// or \
             https:// URL"
        );
    }
}
