//! Acceptance of issue 21, item 4: the client's peak memory for a hostile list of 100 pages
//! stays under its configured bound. Alone in its binary, so that the process's peak resident
//! set (`VmHWM`, reset through `/proc/self/clear_refs`) is this test's own.
#![cfg(all(feature = "client", target_os = "linux"))]

mod hostile_server;

use std::sync::atomic::Ordering;

use hostile_server::{MIB, handshake, page_parts, serve};
use mcp_runtime::client::ClientError;
use serde_json::json;

/// A `/proc/self/status` value, in bytes.
fn status_bytes(key: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key} in /proc/self/status"));
    let kib: usize = line[key.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    kib * 1024
}

/// 100 pages of about 1 MiB each, every one with a next page: without a bound the client
/// would hold over 100 MiB of pages (and more decoded). With `max_list_bytes(8 MiB)` it keeps
/// 5 pages (each counted by what it decodes to; the page being decoded holds its text too), and
/// its resident memory grows by less than the bound.
#[tokio::test(flavor = "current_thread")]
async fn a_hostile_100_page_list_stays_under_its_bound() {
    let (url, hostile) = serve(false).await;
    let (head, tail) = page_parts(&json!(2), 1);
    let page = head.len() + hostile.tools.len() + tail.len();
    let bound = 8 * MIB;
    let client = handshake()
        .max_list_bytes(bound)
        .connect_http(&url)
        .await
        .unwrap();
    client.ping().await.unwrap();

    // Resets VmHWM to the current resident set (Linux 4.0 and later).
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_bytes("VmRSS:");
    let err = client.list_tools().await.unwrap_err();
    let peak = status_bytes("VmHWM:").saturating_sub(before);

    let ClientError::ListTooLarge { held, pages, .. } = err else {
        panic!("expected ListTooLarge, got {err:?}")
    };
    assert_eq!(pages, 5);
    assert!(held <= bound && held > pages * page, "{held}");
    assert_eq!(hostile.pages.load(Ordering::SeqCst), 6);
    assert!(
        100 * page > 12 * bound,
        "100 pages would hold {}",
        100 * page
    );
    assert!(
        peak < bound,
        "the resident set grew by {peak} bytes for a bound of {bound}"
    );
    eprintln!("peak growth {peak} bytes for a bound of {bound}, {held} bytes kept");
    client.close().await;
}
