//! `axum-mount` with `--help` and `-h`: the usage text on stdout, exit code 0, nothing on stderr.

use std::process::{Command, Stdio};

/// Runs `BIN FLAG` with stdin closed: exit code, stdout, stderr.
fn run(bin: &str, flag: &str) -> (Option<i32>, String, String) {
    let out = Command::new(bin)
        .arg(flag)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn axum_mount_prints_its_usage_for_help_and_h() {
    let bin = env!("CARGO_BIN_EXE_axum-mount");
    for flag in ["--help", "-h"] {
        assert_eq!(
            run(bin, flag),
            (Some(0), "usage: axum-mount\n\nServes a small shop on http://127.0.0.1:3000/, with its MCP endpoint mounted at /mcp.\n".to_owned(), String::new()),
            "{flag}"
        );
    }
}
