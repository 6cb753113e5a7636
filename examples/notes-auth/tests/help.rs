//! `notes-auth --help` and `-h`: the command line's help on stdout, exit code 0. The binary is
//! built with the `auth` feature, so its help lists the `MCP_AUTH_*` variables; it has no
//! widget, so no `apps preview`.

use std::process::{Command, Stdio};

fn run(flag: &str) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_notes-auth"))
        .arg(flag)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("notes-auth runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn help_and_h_print_the_help_with_the_auth_variables() {
    let (code, help, stderr) = run("--help");
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert!(help.starts_with("usage: notes-auth [COMMAND]\n"), "{help}");
    for line in [
        "\n  http [ADDR]              serve MCP over Streamable HTTP at /mcp (default 127.0.0.1:8000)\n",
        "\n  MCP_AUTH_ISSUER=URL      `http` requires bearer tokens of this issuer\n",
    ] {
        assert!(help.contains(line), "{line:?} in\n{help}");
    }
    assert!(!help.contains("apps preview"), "{help}");
    assert_eq!(run("-h"), (Some(0), help, String::new()));
}
