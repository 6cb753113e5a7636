//! `unix-socket` with `--help` and `-h`: the usage text on stdout, exit code 0, nothing on stderr.

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
fn unix_socket_prints_its_usage_for_help_and_h() {
    let bin = env!("CARGO_BIN_EXE_unix-socket");
    for flag in ["--help", "-h"] {
        assert_eq!(
            run(bin, flag),
            (Some(0), "usage: unix-socket PATH\n\nServes MCP on a Unix domain socket at PATH, one connection per client (newline-delimited\nJSON-RPC, e.g. `socat - UNIX-CONNECT:PATH`).\n\nExit codes: 0 stopped, 2 bad usage, 5 the socket could not be served.\n".to_owned(), String::new()),
            "{flag}"
        );
    }
}
