//! `everything-server --help` and `-h`: the command line's help on stdout, exit code 0; it
//! lists only what this binary has (no widget here: no `apps preview`).

use std::process::{Command, Stdio};

fn run(flag: &str) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_everything-server"))
        .arg(flag)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("everything-server runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn help_and_h_print_the_help() {
    let (code, help, stderr) = run("--help");
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert!(
        help.starts_with("usage: everything-server [COMMAND]\n\ncommands:\n  stdio "),
        "{help}"
    );
    assert!(!help.contains("apps preview"), "{help}");
    assert_eq!(run("-h"), (Some(0), help, String::new()));
}
