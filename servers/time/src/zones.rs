//! IANA time zones by their exact keys, and the times the tools answer with.

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{Timestamp, Zoned};

/// A zone named by its exact IANA key (`Europe/Warsaw`, not `europe/warsaw`), or why not, in
/// the words of Python's `zoneinfo`, which the original reports.
///
/// ```
/// assert!(mcp_server_time::zone("Asia/Tokyo").is_ok());
/// assert_eq!(
///     mcp_server_time::zone("Mars/Olympus").unwrap_err(),
///     "'No time zone found with key Mars/Olympus'"
/// );
/// assert_eq!(
///     mcp_server_time::zone("/etc/passwd").unwrap_err(),
///     "ZoneInfo keys may not be absolute paths, got: /etc/passwd"
/// );
/// ```
pub fn zone(key: &str) -> Result<TimeZone, String> {
    if key.starts_with('/') {
        return Err(format!(
            "ZoneInfo keys may not be absolute paths, got: {key}"
        ));
    }
    if key.contains('\0') {
        return Err("embedded null byte".to_owned());
    }
    let normal = key
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != "..");
    if !normal {
        let up = key.split('/').next() == Some("..");
        return Err(if up {
            format!("ZoneInfo keys must refer to subdirectories of TZPATH, got: {key}")
        } else {
            format!("ZoneInfo keys must be normalized relative paths, got: {key}")
        });
    }
    let not_found = || format!("'No time zone found with key {key}'");
    // The database's own list: jiff finds keys in any case, the original only exact ones.
    if !jiff::tz::db().available().any(|name| name.as_str() == key) {
        return Err(not_found());
    }
    TimeZone::get(key).map_err(|_| not_found())
}

/// The local zone's IANA key: `TZ` or the system's setting, else `UTC`.
///
/// ```
/// assert!(mcp_server_time::zone(&mcp_server_time::local_zone_name()).is_ok());
/// ```
pub fn local_zone_name() -> String {
    let system = TimeZone::try_system().ok();
    system
        .as_ref()
        .and_then(TimeZone::iana_name)
        .filter(|name| zone(name).is_ok())
        .unwrap_or("UTC")
        .to_owned()
}

/// The output schemas say what the original's say: types, no descriptions (these docs are for
/// Rust readers).
fn undescribed(schema: &mut mcp_runtime::schemars::Schema) {
    fn strip(value: &mut mcp_runtime::serde_json::Value) {
        if let Some(object) = value.as_object_mut() {
            object.remove("description");
            if let Some(properties) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
                properties.values_mut().for_each(strip);
            }
        }
    }
    let mut value =
        mcp_runtime::serde_json::Value::Object(schema.as_object().cloned().unwrap_or_default());
    strip(&mut value);
    if let Ok(stripped) = mcp_runtime::schemars::Schema::try_from(value) {
        *schema = stripped;
    }
}

/// A time in one zone, as the tools report it.
#[mcp_runtime::data]
#[derive(Debug, Clone, PartialEq, Eq)]
#[schemars(transform = undescribed)]
pub struct TimeResult {
    /// The zone's IANA key, as given.
    pub timezone: String,
    /// ISO 8601 to the second, with the zone's UTC offset.
    pub datetime: String,
    /// The weekday in English (`Monday`).
    pub day_of_week: String,
    /// Whether daylight saving time is in effect.
    pub is_dst: bool,
}

/// The same moment in two zones, and how far apart their clocks are.
#[mcp_runtime::data]
#[derive(Debug, Clone, PartialEq, Eq)]
#[schemars(transform = undescribed)]
pub struct TimeConversionResult {
    /// The time in the source zone.
    pub source: TimeResult,
    /// The time in the target zone.
    pub target: TimeResult,
    /// The target's offset less the source's, in hours (`+9.0h`, `+5.75h`).
    pub time_difference: String,
}

/// `at` in its zone, named `key`.
pub(crate) fn time_result(key: &str, at: &Zoned) -> TimeResult {
    let info = at.time_zone().to_offset_info(at.timestamp());
    TimeResult {
        timezone: key.to_owned(),
        datetime: at.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string(),
        day_of_week: at.strftime("%A").to_string(),
        is_dst: info.dst().is_dst(),
    }
}

/// The time now in `tz`, named `key`.
///
/// ```
/// let now = mcp_server_time::now_in("Asia/Kolkata", mcp_server_time::zone("Asia/Kolkata").unwrap());
/// assert!(now.datetime.ends_with("+05:30") && !now.is_dst);
/// ```
pub fn now_in(key: &str, tz: TimeZone) -> TimeResult {
    time_result(key, &Timestamp::now().to_zoned(tz))
}

/// `HH:MM` on a 24-hour clock (one or two digits each, as Python's `%H:%M` reads them).
///
/// ```
/// assert!(mcp_server_time::parse_hh_mm("9:05").is_some());
/// assert!(mcp_server_time::parse_hh_mm("24:00").is_none());
/// assert!(mcp_server_time::parse_hh_mm("12:00 ").is_none());
/// ```
pub fn parse_hh_mm(text: &str) -> Option<Time> {
    let (h, m) = text.split_once(':')?;
    let two_digits = |s: &str| (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !two_digits(h) || !two_digits(m) {
        return None;
    }
    let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
    Time::new(h, m, 0, 0).ok()
}

/// The difference in hours as the original writes it: one decimal when whole (`+9.0h`), else
/// up to two without trailing zeros (`+5.75h`, `-3.5h`).
///
/// ```
/// assert_eq!(mcp_server_time::hours(9 * 3600), "+9.0h");
/// assert_eq!(mcp_server_time::hours(-(3 * 3600 + 1800)), "-3.5h");
/// assert_eq!(mcp_server_time::hours(5 * 3600 + 2700), "+5.75h");
/// ```
pub fn hours(seconds: i32) -> String {
    let h = f64::from(seconds) / 3600.0;
    if h.fract() == 0.0 {
        format!("{h:+.1}h")
    } else {
        let two = format!("{h:+.2}");
        format!("{}h", two.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// `time` today (the source zone's today) in `source`, and the same moment in `target`: see
/// [`convert_on`].
///
/// ```
/// let utc = || ("UTC", mcp_server_time::zone("UTC").unwrap());
/// let noon = jiff::civil::time(12, 0, 0, 0);
/// let out = mcp_server_time::convert(utc(), noon, "12:00", utc()).unwrap();
/// assert_eq!(out.time_difference, "+0.0h");
/// ```
pub fn convert(
    source: (&str, TimeZone),
    time: Time,
    time_text: &str,
    target: (&str, TimeZone),
) -> Result<TimeConversionResult, String> {
    let today: Date = Timestamp::now().to_zoned(source.1.clone()).date();
    convert_on(today, source, time, time_text, target)
}

/// `time` on `today` in `source`, and the same moment in `target`. A time skipped by a clock
/// change is an error; one that happens twice is the first.
///
/// ```
/// use jiff::civil::{date, time};
/// let paris = || ("Europe/Paris", mcp_server_time::zone("Europe/Paris").unwrap());
/// let utc = || ("UTC", mcp_server_time::zone("UTC").unwrap());
/// let spring = date(2026, 3, 29);
/// assert_eq!(
///     mcp_server_time::convert_on(spring, paris(), time(2, 30, 0, 0), "02:30", utc()).unwrap_err(),
///     "Invalid time: 02:30 does not exist in Europe/Paris on 2026-03-29 (skipped by a clock change)"
/// );
/// let autumn = date(2026, 10, 25);
/// let twice = mcp_server_time::convert_on(autumn, paris(), time(2, 30, 0, 0), "02:30", utc()).unwrap();
/// assert_eq!(twice.source.datetime, "2026-10-25T02:30:00+02:00");
/// assert_eq!(twice.target.datetime, "2026-10-25T00:30:00+00:00");
/// assert_eq!((twice.source.is_dst, twice.time_difference.as_str()), (true, "-2.0h"));
/// ```
pub fn convert_on(
    today: Date,
    (source_key, source): (&str, TimeZone),
    time: Time,
    time_text: &str,
    (target_key, target): (&str, TimeZone),
) -> Result<TimeConversionResult, String> {
    let wall = DateTime::from_parts(today, time);
    let ambiguous = source.to_ambiguous_timestamp(wall);
    let offset = match ambiguous.offset() {
        AmbiguousOffset::Unambiguous { offset } => offset,
        AmbiguousOffset::Fold { before, .. } => before,
        AmbiguousOffset::Gap { .. } => {
            return Err(format!(
                "Invalid time: {time_text} does not exist in {source_key} on {today} (skipped by a clock change)"
            ));
        }
    };
    let instant = offset
        .to_timestamp(wall)
        .map_err(|e| format!("Invalid time: {e}"))?;
    let at_source = instant.to_zoned(source);
    let at_target = instant.to_zoned(target);
    let difference = at_target.offset().seconds() - at_source.offset().seconds();
    Ok(TimeConversionResult {
        source: time_result(source_key, &at_source),
        target: time_result(target_key, &at_target),
        time_difference: hours(difference),
    })
}
