//! A `redis-server` of a test's own, on a free loopback port, stopped (and its directory
//! removed) on drop; shared by the Redis test files (`#[path]`-included, not a test target).

#![allow(dead_code)]

use std::net::TcpListener as StdListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Hang guard for anything awaited here.
const GUARD: Duration = Duration::from_secs(20);

/// A free loopback port (nothing listens on it once this returns).
pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub struct RedisServer {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts `redis-server` on a free port, with an append-only file so that a restart keeps
    /// its data.
    pub async fn start() -> Self {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("mcp-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut server = Self {
            port,
            dir,
            child: None,
        };
        server.restart().await;
        server
    }

    /// (Re)starts the process on the same port and directory, and waits until it answers.
    pub async fn restart(&mut self) {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start redis-server ({e}): install Debian's redis-server \
                     (apt-get install -y redis-server); these tests need a real one"
                )
            });
        self.child = Some(child);
        let ready = async {
            while self.command(&["PING"]).await.as_deref() != Some("+PONG") {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(GUARD, ready)
            .await
            .expect("redis-server never answered PING");
    }

    /// Stops the process (it keeps its append-only file).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// One command over RESP; the first line of the answer (`None` when unreachable).
    pub async fn command(&self, args: &[&str]) -> Option<String> {
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", self.port))
            .await
            .ok()?;
        let mut req = format!("*{}\r\n", args.len());
        for a in args {
            req.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        s.write_all(req.as_bytes()).await.ok()?;
        let mut buf = vec![0u8; 4096];
        let n = tokio::time::timeout(GUARD, s.read(&mut buf))
            .await
            .ok()?
            .ok()?;
        let text = String::from_utf8_lossy(&buf[..n]).into_owned();
        Some(text.trim_end().to_owned())
    }

    /// Waits until `n` replicas listen on the namespace's bus (so that nothing published later
    /// is missed; a replica subscribes to its own channel before the bus).
    pub async fn until_subscribed(&self, ns: &str, n: usize) {
        let channel = format!("{ns}:bus");
        let wait = async {
            loop {
                let answer = self.command(&["PUBSUB", "NUMSUB", &channel]).await;
                let count = answer
                    .as_deref()
                    .and_then(|a| a.lines().last())
                    .and_then(|l| l.strip_prefix(':'))
                    .and_then(|c| c.parse::<usize>().ok());
                if count == Some(n) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(GUARD, wait)
            .await
            .expect("replicas never subscribed to the bus");
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
