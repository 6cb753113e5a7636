//! Task records as each revision shows them: ISO 8601 timestamps, the `CreateTaskResult` and
//! `tasks/get` shapes of 2025-11-25 and 2026-07-28.

use mcp_core::Meta;
use mcp_core::tasks::{Task, TaskStatus};
use serde_json::{Map, Value};

use crate::tasks::store::TaskRecord;

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` of a time in milliseconds since the Unix epoch (UTC).
pub(crate) fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{:03}Z",
        ms % 1000
    )
}

/// The protocol view of a record.
pub(crate) fn task(r: &TaskRecord) -> Task {
    let mut t = Task::new(r.id.clone(), r.status, &iso8601(r.created_at_ms))
        .with_ttl_ms(r.ttl_ms)
        .with_poll_interval_ms(r.poll_interval_ms);
    t.last_updated_at = iso8601(r.updated_at_ms);
    t.status_message.clone_from(&r.status_message);
    t
}

/// The answer to a `tools/call` that became a task: `{"task": {...}}` (2025-11-25), or the flat
/// task with `resultType: "task"` (2026-07-28).
pub(crate) fn created(r: &TaskRecord, server_meta: &Meta) -> Value {
    let mut body = task(r).to_wire(r.stateless);
    if r.stateless {
        let mut m = Map::new();
        m.insert("resultType".into(), Value::String("task".into()));
        m.extend(body);
        m.insert("_meta".into(), Value::Object(server_meta.clone()));
        return Value::Object(m);
    }
    body.remove("statusMessage");
    let mut m = Map::new();
    m.insert("task".into(), Value::Object(body));
    Value::Object(m)
}

/// `tasks/get`: the task, with (2026-07-28) `resultType`, its outstanding `inputRequests`, and
/// its inlined `result` or `error`.
pub(crate) fn detailed(r: &TaskRecord, stateless: bool) -> Value {
    let mut m = task(r).to_wire(stateless);
    if stateless {
        m.insert("resultType".into(), Value::String("complete".into()));
        match r.status {
            TaskStatus::InputRequired => {
                let requests: Map<String, Value> = r
                    .input_requests
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                m.insert("inputRequests".into(), Value::Object(requests));
            }
            TaskStatus::Completed => {
                if let Some(result) = &r.result {
                    m.insert("result".into(), result.clone());
                }
            }
            // A stateless task fails with a JSON-RPC error only (a tool's error result is
            // `completed`).
            TaskStatus::Failed => {
                if let Some(err) = &r.error {
                    m.insert(
                        "error".into(),
                        serde_json::to_value(err).unwrap_or(Value::Null),
                    );
                }
            }
            _ => {}
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_iso8601() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(1_764_115_200_123), "2025-11-26T00:00:00.123Z");
        assert_eq!(iso8601(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
    }

    #[test]
    fn created_and_detailed_shapes() {
        let mut r = TaskRecord::new("t1", "o", 60_000, 250);
        r.created_at_ms = 0;
        r.updated_at_ms = 1000;
        let old = created(&r, &Meta::new());
        assert_eq!(
            old,
            serde_json::json!({"task": {"taskId": "t1", "status": "working",
                "createdAt": "1970-01-01T00:00:00.000Z", "lastUpdatedAt": "1970-01-01T00:00:01.000Z",
                "ttl": 60000, "pollInterval": 250}})
        );
        r.stateless = true;
        let new = created(&r, &Meta::new());
        assert_eq!(
            new,
            serde_json::json!({"resultType": "task", "taskId": "t1", "status": "working",
                "createdAt": "1970-01-01T00:00:00.000Z", "lastUpdatedAt": "1970-01-01T00:00:01.000Z",
                "ttlMs": 60000, "pollIntervalMs": 250, "_meta": {}})
        );
        r.status = TaskStatus::Completed;
        r.result = Some(serde_json::json!({"content": []}));
        let got = detailed(&r, true);
        assert_eq!(got["result"], serde_json::json!({"content": []}));
        assert_eq!(got["resultType"], "complete");
        assert!(detailed(&r, false).get("result").is_none());
    }
}
