//! `mcp-server-time`: the MCP reference time server, rebuilt on mcp-runtime. Two tools over
//! IANA time zones: `get_current_time` and `convert_time`; the local zone (detected, or given
//! with `--local-timezone`) is named in their argument descriptions, so that a model can
//! default to it.
//!
//! ```standalone_crate
//! # #[mcp_runtime::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = mcp_server_time::server("Europe/Paris").build().unwrap();
//! let session = mcp_runtime::testing::connect(&server).await.unwrap();
//! let args = mcp_runtime::serde_json::json!({
//!     "source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Kathmandu"
//! });
//! let out: mcp_server_time::TimeConversionResult =
//!     session.call("convert_time", args).await.unwrap();
//! assert_eq!(out.time_difference, "+5.75h");
//! # }
//! ```

mod zones;

use mcp_runtime::prelude::*;
use mcp_runtime::serde_json;
use mcp_runtime::transform::{ArgTransform, ToolTransform};

pub use zones::{
    TimeConversionResult, TimeResult, convert, convert_on, hours, local_zone_name, now_in,
    parse_hh_mm, zone,
};

/// A tool's failure as the original words it: `Error executing tool NAME: why`.
fn failed(tool: &str, why: impl std::fmt::Display) -> ToolError {
    ToolError::new(format!("Error executing tool {tool}: {why}"))
}

/// An empty zone is reported as missing, as the original reports it.
fn require(tool: &str, name: &str, value: &str) -> Result<(), ToolError> {
    if value.is_empty() {
        return Err(failed(tool, format!("Missing required argument: {name}")));
    }
    Ok(())
}

fn zone_or_error(tool: &str, key: &str) -> Result<jiff::tz::TimeZone, ToolError> {
    zone(key).map_err(|e| failed(tool, format!("Invalid timezone: {e}")))
}

fn pretty<T: mcp_runtime::serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Get current time in a specific timezone
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn get_current_time(
    /// IANA timezone name
    timezone: String,
) -> Result<Structured<TimeResult>, ToolError> {
    const TOOL: &str = "get_current_time";
    require(TOOL, "timezone", &timezone)?;
    let tz = zone_or_error(TOOL, &timezone)?;
    let now = now_in(&timezone, tz);
    let text = pretty(&now);
    Ok(Json(now).text(text))
}

/// Convert time between timezones
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn convert_time(
    /// Source IANA timezone name
    source_timezone: String,
    /// Time to convert in 24-hour format (HH:MM)
    time: String,
    /// Target IANA timezone name
    target_timezone: String,
) -> Result<Structured<TimeConversionResult>, ToolError> {
    const TOOL: &str = "convert_time";
    require(TOOL, "source_timezone", &source_timezone)?;
    require(TOOL, "target_timezone", &target_timezone)?;
    let source = zone_or_error(TOOL, &source_timezone)?;
    let target = zone_or_error(TOOL, &target_timezone)?;
    let Some(wall) = parse_hh_mm(&time) else {
        let why = "Invalid time format. Expected HH:MM [24-hour format]";
        return Err(failed(TOOL, why));
    };
    let out = convert(
        (&source_timezone, source),
        wall,
        &time,
        (&target_timezone, target),
    )
    .map_err(|why| failed(TOOL, why))?;
    let text = pretty(&out);
    Ok(Json(out).text(text))
}

fn described(text: String) -> ArgTransform {
    ArgTransform::new().description(text)
}

/// The time server, naming `local` (an IANA key) as the local zone in its tools' argument
/// descriptions.
///
/// ```
/// let server = mcp_server_time::server("Asia/Tokyo").build().unwrap();
/// assert_eq!(server.info().name, "mcp-server-time");
/// ```
pub fn server(local: &str) -> mcp_runtime::ServerBuilder {
    let zone = |what: &str, examples: &str| {
        format!(
            "{what}IANA timezone name (e.g., {examples}). Use '{local}' as local timezone if no {}timezone provided by the user.",
            what.to_lowercase()
        )
    };
    let usual = "'America/New_York', 'Europe/London'";
    Server::from_registry(server_info!())
        .transform(
            ToolTransform::new("get_current_time").arg("timezone", described(zone("", usual))),
        )
        .transform(
            ToolTransform::new("convert_time")
                .arg("source_timezone", described(zone("Source ", usual)))
                .arg(
                    "target_timezone",
                    described(zone("Target ", "'Asia/Tokyo', 'America/San_Francisco'")),
                ),
        )
}
