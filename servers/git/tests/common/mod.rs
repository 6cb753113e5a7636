//! Repositories made for a test, and calls through an in-memory client.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use mcp_runtime::serde_json::{Value, json};
use mcp_server_git::Confinement;

/// A fresh directory under the system's temporary one.
pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().canonicalize().unwrap().join(format!(
        "mcp-git-test-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs git in `dir` with a fixed identity; its standard output.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A repository on `main` with one commit of `a.txt`.
pub fn repo(tag: &str) -> PathBuf {
    let dir = temp_dir(tag);
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("a.txt"), "a\n").unwrap();
    git(&dir, &["add", "a.txt"]);
    git(&dir, &["commit", "-q", "-m", "first"]);
    dir
}

/// Calls `tool` once; `(isError, text)`.
#[allow(dead_code)] // not every test binary calls tools in-process
pub async fn call(conf: Confinement, tool: &str, args: Value) -> (bool, String) {
    let server = mcp_server_git::server(conf).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let r = client.call_tool(tool, args).await;
    let result = &r["result"];
    let text = result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (result["isError"] == json!(true), text)
}
