//! One audit record ([`AuditRecord`]), what a call came to ([`AuditOutcome`]), its time as RFC
//! 3339 text, and the trace id read from a W3C `traceparent`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_core::{Method, ProtocolVersion, RequestId};
use serde_json::Value;

use crate::middleware::{Outcome, OutcomeKind, TransportKind};

/// What an audited call came to.
///
/// ```
/// use mcp_runtime::audit::AuditOutcome;
///
/// let refused = AuditOutcome::Error { code: -32602, message: "unknown tool".into() };
/// assert_eq!(refused.as_str(), "error");
/// assert_eq!(refused.code(), Some(-32602));
/// assert_eq!(AuditOutcome::Cancelled.code(), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditOutcome {
    /// A result.
    Result,
    /// A tool's result with `isError: true` (a business error).
    ToolError,
    /// A JSON-RPC error: a protocol error, a refusal, a masked fault.
    Error {
        /// The JSON-RPC error code (`-32602`).
        code: i32,
        /// The error's message, as the client received it.
        message: String,
    },
    /// The call was cancelled (nothing was sent), or its future was dropped.
    Cancelled,
    /// A notification was handled (recorded only with [`Audit::notifications`](super::Audit::notifications)).
    Notified,
}

impl AuditOutcome {
    /// A short, stable name: `result`, `tool_error`, `error`, `cancelled`, `notified`.
    ///
    /// ```
    /// use mcp_runtime::audit::AuditOutcome;
    ///
    /// assert_eq!(AuditOutcome::ToolError.as_str(), "tool_error");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Result => "result",
            Self::ToolError => "tool_error",
            Self::Error { .. } => "error",
            Self::Cancelled => "cancelled",
            Self::Notified => "notified",
        }
    }

    /// The JSON-RPC error code, for [`AuditOutcome::Error`].
    ///
    /// ```
    /// use mcp_runtime::audit::AuditOutcome;
    ///
    /// assert_eq!(AuditOutcome::Result.code(), None);
    /// ```
    pub fn code(&self) -> Option<i32> {
        match self {
            Self::Error { code, .. } => Some(*code),
            _ => None,
        }
    }

    pub(crate) fn of(outcome: &Outcome) -> Self {
        match (outcome.kind(), outcome.error_object()) {
            (_, Some(e)) => Self::Error {
                code: e.code,
                message: e.message.clone(),
            },
            (OutcomeKind::ToolError, _) => Self::ToolError,
            (OutcomeKind::Cancelled, _) => Self::Cancelled,
            (OutcomeKind::Notified, _) => Self::Notified,
            _ => Self::Result,
        }
    }
}

/// One call, as the audit log writes it: who called what, when, over what, how it ended and
/// how long it took. Made by the [`Audit`](super::Audit) layer and given to its sinks.
///
/// ```
/// use mcp_runtime::audit::{AuditOutcome, AuditRecord};
///
/// fn line(r: &AuditRecord) -> String {
///     format!(
///         "{} {} {} {} {}",
///         r.time_rfc3339(),
///         r.principal.as_deref().unwrap_or("-"),
///         r.method_name(),
///         r.target.as_deref().unwrap_or("-"),
///         r.outcome.as_str(),
///     )
/// }
/// # let _ = line;
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AuditRecord {
    /// When the call came (UTC).
    pub time: SystemTime,
    /// Who called ([`Request::principal`](crate::middleware::Request::principal)): the
    /// verified token, else `peer:ADDR` on the standalone HTTP server; none over stdio and in
    /// memory.
    pub principal: Option<String>,
    /// The method, from `mcp-core`'s table (`Method::Unknown` for a name a client may not send).
    pub method: Method,
    /// The item the call acts on: the tool or prompt name, the resource URI, the task id.
    pub target: Option<String>,
    /// How it ended.
    pub outcome: AuditOutcome,
    /// From the call entering the layer to its outcome (or its drop).
    pub duration: Duration,
    /// The W3C trace id (32 lower-case hex digits): from `params._meta.traceparent` when it is
    /// a valid one, else (feature `otel`) the current OpenTelemetry span's, when valid.
    pub trace_id: Option<String>,
    /// The transport's session ([`Request::session_id`](crate::middleware::Request::session_id)).
    pub session_id: Option<String>,
    /// The transport the call came over.
    pub transport: TransportKind,
    /// The revision the call was served in (none for `initialize`).
    pub version: Option<ProtocolVersion>,
    /// The JSON-RPC id (none for a notification).
    pub request_id: Option<RequestId>,
    /// The arguments, only with [`Audit::with_arguments`](super::Audit::with_arguments), after
    /// the redaction hook: a `tools/call`'s `arguments`, the params (without `_meta`) of any
    /// other method.
    pub arguments: Option<Value>,
}

impl AuditRecord {
    /// The method's name (`tools/call`), `unknown` for [`Method::Unknown`].
    ///
    /// ```
    /// # use mcp_runtime::audit::AuditRecord;
    /// fn name(r: &AuditRecord) -> &'static str {
    ///     r.method_name()
    /// }
    /// # let _ = name;
    /// ```
    pub fn method_name(&self) -> &'static str {
        self.method.name().unwrap_or("unknown")
    }

    /// [`time`](Self::time) as RFC 3339 text in UTC, to the microsecond
    /// (`2026-12-02T14:41:50.123456Z`).
    ///
    /// ```
    /// # use mcp_runtime::audit::AuditRecord;
    /// fn stamp(r: &AuditRecord) -> String {
    ///     r.time_rfc3339()
    /// }
    /// # let _ = stamp;
    /// ```
    pub fn time_rfc3339(&self) -> String {
        rfc3339(self.time)
    }
}

/// `time` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC); a time before 1970 is written as 1970.
pub(crate) fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:06}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_micros()
    )
}

/// The proleptic Gregorian date `days` days after 1970-01-01 (eras of 400 years).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// The trace id of a W3C `traceparent` (Trace Context §3.2): `version-traceid-parentid-flags`,
/// lower-case hex, the version not `ff`, neither id all zeros; version `00` is exactly 55
/// characters, a later version at least that, with a `-` after the flags when longer.
pub(crate) fn trace_id_of(traceparent: &str) -> Option<&str> {
    let b = traceparent.as_bytes();
    let hex = |s: &[u8]| s.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    let zero = |s: &[u8]| s.iter().all(|&c| c == b'0');
    if b.len() < 55 || b[2] != b'-' || b[35] != b'-' || b[52] != b'-' {
        return None;
    }
    let (version, trace, parent, flags) = (&b[..2], &b[3..35], &b[36..52], &b[53..55]);
    if !hex(version) || version == b"ff" || !hex(trace) || !hex(parent) || !hex(flags) {
        return None;
    }
    if zero(trace) || zero(parent) {
        return None;
    }
    let exact = version == b"00";
    if (exact && b.len() != 55) || (!exact && b.len() > 55 && b[55] != b'-') {
        return None;
    }
    traceparent.get(3..35)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339_in_utc() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000000Z");
        let t = UNIX_EPOCH + Duration::from_micros(1_709_210_096_123_456);
        assert_eq!(rfc3339(t), "2024-02-29T12:34:56.123456Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339(t), "2000-02-29T00:00:00.000000Z");
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_799);
        assert_eq!(rfc3339(t), "2099-12-31T23:59:59.000000Z");
    }

    #[test]
    fn only_valid_traceparents_give_a_trace_id() {
        let good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        assert_eq!(trace_id_of(good), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
        let later = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future";
        assert_eq!(trace_id_of(later), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
        for bad in [
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
            "00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01",
            "",
            "00-é",
        ] {
            assert_eq!(trace_id_of(bad), None, "{bad}");
        }
    }
}
