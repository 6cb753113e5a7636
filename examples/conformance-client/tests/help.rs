//! `conformance-client` with `--help` and `-h`: the usage text on stdout, exit code 0, nothing on stderr.

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
fn conformance_client_prints_its_usage_for_help_and_h() {
    let bin = env!("CARGO_BIN_EXE_conformance-client");
    for flag in ["--help", "-h"] {
        assert_eq!(
            run(bin, flag),
            (Some(0), "usage: conformance-client SERVER_URL\n\nThe client side of the official MCP conformance suite: runs the scenario the suite names\nagainst SERVER_URL (the last argument) and exits 0 when its steps succeeded, 1 otherwise.\n\nenvironment:\n  MCP_CONFORMANCE_SCENARIO          the scenario to run (e.g. tools_call)\n  MCP_CONFORMANCE_CONTEXT           the scenario's data, as JSON\n  MCP_CONFORMANCE_PROTOCOL_VERSION  the revision to speak\n".to_owned(), String::new()),
            "{flag}"
        );
    }
}
