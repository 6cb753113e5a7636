//! The fetch's bounds against loopback servers: body size, time, redirect hops, and the
//! requests that must not be made (a private address by default, a path robots.txt disallows).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server_fetch::Settings;
use mcp_server_fetch::fetcher::tool;
use mcp_server_fetch::net::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

type Paths = Arc<Mutex<Vec<String>>>;

/// Serves `answer(path)` (`None`: hold the connection open, never answer); records each path.
async fn serve(answer: fn(&str) -> Option<String>) -> (u16, Paths) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let paths: Paths = Arc::default();
    let seen = paths.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 1024];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match sock.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&buf).into_owned();
                let path = head.split(' ').nth(1).unwrap_or("").to_owned();
                seen.lock().unwrap().push(path.clone());
                match answer(&path) {
                    Some(response) => {
                        let _ = sock.write_all(response.as_bytes()).await;
                    }
                    None => tokio::time::sleep(Duration::from_secs(3600)).await,
                }
            });
        }
    });
    (port, paths)
}

fn ok(ctype: &str, body: &str) -> Option<String> {
    Some(format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
}

fn not_found() -> Option<String> {
    Some("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned())
}

fn local() -> Settings {
    Settings::new().allow_private_ips(true)
}

#[tokio::test]
async fn a_body_over_the_cap_is_refused() {
    let (port, _) = serve(|p| {
        if p == "/big" {
            ok("text/plain", &"x".repeat(2000))
        } else {
            not_found()
        }
    })
    .await;
    let mut limits = Limits::default();
    limits.max_body = 1000;
    let url = format!("http://127.0.0.1:{port}/big");
    let err = tool(&local().limits(limits), &url, 5000, 0, false)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        format!("Failed to fetch {url}: ResponseTooLarge('the body is larger than 1000 bytes')")
    );
    let fits = tool(&local(), &url, 5000, 0, false).await.unwrap();
    assert_eq!(
        fits,
        format!(
            "Content type text/plain cannot be simplified to markdown, but here is the raw content:\nContents of {url}:\n{}",
            "x".repeat(2000)
        )
    );
}

#[tokio::test]
async fn a_silent_server_times_out() {
    let (port, paths) = serve(|p| {
        if p == "/robots.txt" {
            not_found()
        } else {
            None
        }
    })
    .await;
    let mut limits = Limits::default();
    limits.page_timeout = Duration::from_millis(100);
    let url = format!("http://127.0.0.1:{port}/slow");
    // 100 ms against a 10 s guard: the bound holds with a 100x margin.
    let got = tokio::time::timeout(
        Duration::from_secs(10),
        tool(&local().limits(limits), &url, 5000, 0, false),
    )
    .await
    .expect("the fetch gave up on its own");
    let err = got.unwrap_err();
    assert!(
        err.starts_with(&format!("Failed to fetch {url}: ReadTimeout(")),
        "{err}"
    );
    assert_eq!(*paths.lock().unwrap(), ["/robots.txt", "/slow"]);
}

#[tokio::test]
async fn redirects_stop_after_twenty_hops() {
    let (port, paths) = serve(|p| {
        if p == "/robots.txt" {
            return not_found();
        }
        Some("HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned())
    })
    .await;
    let url = format!("http://127.0.0.1:{port}/loop");
    let err = tool(&local().ignore_robots_txt(true), &url, 5000, 0, false)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        format!("Failed to fetch {url}: TooManyRedirects('Exceeded maximum allowed redirects.')")
    );
    // The first request and twenty hops, no more.
    assert_eq!(paths.lock().unwrap().len(), 21);
}

#[tokio::test]
async fn loopback_is_refused_by_default_without_a_request() {
    let (port, paths) = serve(|_| ok("text/plain", "secret")).await;
    let url = format!("http://127.0.0.1:{port}/x");
    let err = tool(&Settings::new(), &url, 5000, 0, false)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        format!(
            "Refused to fetch http://127.0.0.1:{port}/robots.txt: 127.0.0.1 resolves to 127.0.0.1, which is not a public address. Start the server with --allow-private-ips to allow private, loopback and link-local addresses."
        )
    );
    let err = tool(
        &Settings::new().ignore_robots_txt(true),
        &url,
        5000,
        0,
        false,
    )
    .await
    .unwrap_err();
    assert!(
        err.starts_with(&format!(
            "Refused to fetch {url}: 127.0.0.1 resolves to 127.0.0.1"
        )),
        "{err}"
    );
    assert!(paths.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_disallowed_page_is_never_requested() {
    let (port, paths) = serve(|p| match p {
        "/robots.txt" => ok("text/plain", "User-agent: *\nDisallow: /private\n"),
        _ => ok("text/plain", "secret"),
    })
    .await;
    let url = format!("http://127.0.0.1:{port}/private/page");
    let err = tool(&local(), &url, 5000, 0, false).await.unwrap_err();
    assert!(
        err.starts_with(&format!(
            "The sites robots.txt (http://127.0.0.1:{port}/robots.txt), specifies"
        )),
        "{err}"
    );
    assert_eq!(*paths.lock().unwrap(), ["/robots.txt"]);
}
