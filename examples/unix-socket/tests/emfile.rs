//! Out of file descriptors, the accept loop pauses and goes on serving instead of ending. Alone
//! in its own test process: it lowers the process's `RLIMIT_NOFILE`.
#![cfg(unix)]

use std::time::Duration;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_file_descriptors_accepting_pauses_and_goes_on() {
    let path = std::env::temp_dir().join(format!("mcp-unix-{}-emfile.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let server = unix_socket::server().build().unwrap();
    let listener = tokio::net::UnixListener::bind(&path).unwrap();
    let (errors_tx, mut errors) = tokio::sync::mpsc::unbounded_channel();
    let serving = tokio::spawn(async move {
        unix_socket::serve_unix_with(&server, listener, move |e| {
            let _ = errors_tx.send((e.kind(), e.raw_os_error()));
        })
        .await
    });

    // Take every file descriptor the (lowered) limit leaves but one, which the client's socket
    // takes: the server's accept then has none.
    let saved = getrlimit(Resource::Nofile);
    let mut spare = Vec::new();
    let limit = {
        // Descriptors open now, counted by opening one more.
        let probe = std::fs::File::open("/dev/null").unwrap();
        let open = rustix::fd::AsRawFd::as_raw_fd(&probe) as u64 + 1;
        drop(probe);
        open + 16
    };
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(limit),
            maximum: saved.maximum,
        },
    )
    .unwrap();
    loop {
        match std::fs::File::open("/dev/null") {
            Ok(f) => spare.push(f),
            Err(e) => {
                assert_eq!(e.raw_os_error(), Some(24), "EMFILE: {e}");
                break;
            }
        }
    }
    drop(spare.pop()); // one left, for the client's socket
    let client = UnixStream::connect(&path)
        .await
        .expect("the client's socket");
    let (read, mut write) = client.into_split();
    write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    // The server met EMFILE accepting it, and told so; its loop did not end.
    let (kind, code) = tokio::time::timeout(Duration::from_secs(10), errors.recv())
        .await
        .expect("an accept error within 10 s")
        .unwrap();
    assert_eq!(code, Some(24), "{kind:?}");
    assert!(!serving.is_finished(), "the accept loop ended");
    // Descriptors come back: the waiting client is served.
    drop(spare);
    setrlimit(Resource::Nofile, saved).unwrap();
    let mut lines = BufReader::new(read).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .expect("an answer within 10 s")
        .unwrap()
        .expect("a line");
    let reply: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert!(!serving.is_finished());
    serving.abort();
    let _ = std::fs::remove_file(&path);
}
