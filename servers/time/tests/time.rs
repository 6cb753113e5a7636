//! The time tools through the real client, in-process, on fixed times.

use mcp_runtime::serde_json::{Value, json};
use mcp_runtime::testing::{self, CallError};

async fn failure(session: &testing::Session, tool: &str, args: Value) -> String {
    match session.call::<Value>(tool, args).await.unwrap_err() {
        CallError::Tool { message, .. } => message,
        other => panic!("{other}"),
    }
}

#[mcp_runtime::test]
async fn fixed_conversions_and_the_originals_errors() {
    let server = mcp_server_time::server("Europe/Paris").build().unwrap();
    let session = testing::connect(&server).await.unwrap();
    let today = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date();
    let out: Value = session
        .call(
            "convert_time",
            json!({"source_timezone": "UTC", "time": "22:30", "target_timezone": "Asia/Kolkata"}),
        )
        .await
        .unwrap();
    let tomorrow = today.tomorrow().unwrap();
    assert_eq!(
        out["source"]["datetime"],
        json!(format!("{today}T22:30:00+00:00"))
    );
    assert_eq!(
        out["target"]["datetime"],
        json!(format!("{tomorrow}T04:00:00+05:30"))
    );
    assert_eq!(out["time_difference"], json!("+5.5h"));
    assert_eq!(out["target"]["is_dst"], json!(false));

    assert_eq!(
        failure(
            &session,
            "get_current_time",
            json!({"timezone": "europe/paris"})
        )
        .await,
        "Error executing tool get_current_time: Invalid timezone: 'No time zone found with key europe/paris'"
    );
    assert_eq!(
        failure(&session, "get_current_time", json!({"timezone": ""})).await,
        "Error executing tool get_current_time: Missing required argument: timezone"
    );
    assert_eq!(
        failure(
            &session,
            "convert_time",
            json!({"source_timezone": "UTC", "time": "7pm", "target_timezone": "UTC"})
        )
        .await,
        "Error executing tool convert_time: Invalid time format. Expected HH:MM [24-hour format]"
    );
    let now: Value = session
        .call("get_current_time", json!({"timezone": "Asia/Kathmandu"}))
        .await
        .unwrap();
    assert!(
        now["datetime"].as_str().unwrap().ends_with("+05:45"),
        "{now}"
    );
}

#[test]
fn the_spring_gap_is_a_gap_and_hours_are_written_as_the_original() {
    let paris = mcp_server_time::zone("Europe/Paris").unwrap();
    // The spring gap of 2026 (`convert_on`'s doc test converts in it and in the autumn fold).
    let gap = jiff::civil::date(2026, 3, 29).at(2, 30, 0, 0);
    assert!(matches!(
        paris.to_ambiguous_timestamp(gap).offset(),
        jiff::tz::AmbiguousOffset::Gap { .. }
    ));
    assert_eq!(mcp_server_time::hours(0), "+0.0h");
    assert_eq!(mcp_server_time::hours(-(9 * 3600 + 1800)), "-9.5h");
    assert_eq!(mcp_server_time::hours(20 * 60), "+0.33h");
}

#[test]
fn the_command_line_takes_the_originals_local_timezone_flag() {
    let bin = env!("CARGO_BIN_EXE_mcp-server-time");
    let out = std::process::Command::new(bin)
        .args(["schema", "get_current_time", "--local-timezone=Asia/Tokyo"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("Use 'Asia/Tokyo' as local timezone if no timezone provided by the user."),
        "{stdout}"
    );
    let out = std::process::Command::new(bin)
        .args(["--local-timezone", "asia/tokyo", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "Error: invalid --local-timezone 'asia/tokyo': not a known IANA timezone name\n"
    );
}
