//! `gift-server install CLIENT` and `uninstall CLIENT` against the real binary, every file under
//! a scratch directory given with `--config` (never the real home).

use serde_json::{Value, json};

mod common;

use common::{BIN, Scratch, run};

/// The binary's absolute path, as the configuration names it.
fn command() -> String {
    std::fs::canonicalize(BIN)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn install_writes_each_client_s_format_and_makes_the_folders() {
    let scratch = Scratch::new("install", "formats");
    for (client, file, title, key, typed) in [
        (
            "claude-desktop",
            "Claude/claude_desktop_config.json",
            "Claude Desktop",
            "mcpServers",
            false,
        ),
        (
            "claude-code",
            "project/.mcp.json",
            "Claude Code",
            "mcpServers",
            true,
        ),
        ("cursor", ".cursor/mcp.json", "Cursor", "mcpServers", false),
        (
            "vscode",
            "project/.vscode/mcp.json",
            "VS Code",
            "servers",
            true,
        ),
        (
            "gemini",
            ".gemini/settings.json",
            "Gemini CLI",
            "mcpServers",
            false,
        ),
    ] {
        let path = scratch.path(file);
        assert_eq!(
            run(&["install", client, "--config", &path]),
            (
                0,
                format!("added gift-server to {path} ({title})\n"),
                String::new()
            ),
            "{client}"
        );
        let mut entry = json!({"command": command(), "args": ["stdio"]});
        if typed {
            entry["type"] = json!("stdio");
        }
        let written: Value = serde_json::from_str(&read(&path)).unwrap();
        assert_eq!(written, json!({ key: {"gift-server": entry} }), "{client}");
    }
}

#[test]
fn install_merges_into_a_file_with_other_servers_and_keeps_its_order() {
    let scratch = Scratch::new("install", "merge");
    let path = scratch.path("mcp.json");
    std::fs::write(
        &path,
        r#"{"mcpServers": {"zeta": {"command": "npx", "args": ["-y", "zeta"]}}, "editor": {"fontSize": 13}}"#,
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let args = [
        "install",
        "cursor",
        "--config",
        &path,
        "--env",
        "GIFTS_DB=/var/gifts.db",
        "--env",
        "MODE=a=b",
    ];
    assert_eq!(
        run(&args),
        (
            0,
            format!("added gift-server to {path} (Cursor)\n"),
            String::new()
        )
    );
    let exe = serde_json::to_string(&command()).unwrap();
    assert_eq!(
        read(&path),
        format!(
            "{{\n  \"mcpServers\": {{\n    \"zeta\": {{\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"zeta\"\n      ]\n    }},\n    \"gift-server\": {{\n      \"command\": {exe},\n      \"args\": [\n        \"stdio\"\n      ],\n      \"env\": {{\n        \"GIFTS_DB\": \"/var/gifts.db\",\n        \"MODE\": \"a=b\"\n      }}\n    }}\n  }},\n  \"editor\": {{\n    \"fontSize\": 13\n  }}\n}}\n"
        )
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the file keeps its permissions");
    }
    // Again, under another name and without the variables: a second entry; then the first
    // updated in its place.
    assert_eq!(
        run(&["install", "cursor", "--config", &path, "--name", "gifts"]),
        (
            0,
            format!("added gifts to {path} (Cursor)\n"),
            String::new()
        )
    );
    assert_eq!(
        run(&["install", "cursor", "--config", &path]),
        (
            0,
            format!("updated gift-server in {path} (Cursor)\n"),
            String::new()
        )
    );
    let written: Value = serde_json::from_str(&read(&path)).unwrap();
    let names: Vec<&String> = written["mcpServers"].as_object().unwrap().keys().collect();
    // serde_json's map sorts its keys: the file's order is checked above.
    assert_eq!(names, ["gift-server", "gifts", "zeta"]);
    assert_eq!(
        written["mcpServers"]["gift-server"],
        json!({"command": command(), "args": ["stdio"]})
    );
    let leftovers: Vec<_> = std::fs::read_dir(scratch.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["mcp.json"], "no temporary file left");
}

#[test]
fn print_prints_the_configuration_and_writes_nothing() {
    let scratch = Scratch::new("install", "print");
    let path = scratch.path("mcp.json");
    let exe = serde_json::to_string(&command()).unwrap();
    assert_eq!(
        run(&[
            "install", "vscode", "--print", "--name", "gifts", "--config", &path
        ]),
        (
            0,
            format!(
                "{{\n  \"servers\": {{\n    \"gifts\": {{\n      \"type\": \"stdio\",\n      \"command\": {exe},\n      \"args\": [\n        \"stdio\"\n      ]\n    }}\n  }}\n}}\n"
            ),
            String::new()
        )
    );
    assert!(!std::path::Path::new(&path).exists());
}

#[test]
fn uninstall_removes_the_entry_and_keeps_the_rest() {
    let scratch = Scratch::new("install", "uninstall");
    let path = scratch.path("claude_desktop_config.json");
    std::fs::write(
        &path,
        r#"{"mcpServers": {"other": {"command": "o"}}, "theme": "dark"}"#,
    )
    .unwrap();
    assert_eq!(run(&["install", "claude-desktop", "--config", &path]).0, 0);
    assert_eq!(
        run(&["uninstall", "claude-desktop", "--config", &path]),
        (
            0,
            format!("removed gift-server from {path} (Claude Desktop)\n"),
            String::new()
        )
    );
    assert_eq!(
        read(&path),
        "{\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"o\"\n    }\n  },\n  \"theme\": \"dark\"\n}\n"
    );
    assert_eq!(
        run(&["uninstall", "claude-desktop", "--config", &path]),
        (
            1,
            String::new(),
            format!(
                "gift-server: {path} has no server named `gift-server` under `mcpServers`; it is left as it is\n"
            )
        )
    );
    let missing = scratch.path("none.json");
    assert_eq!(
        run(&["uninstall", "gemini", "--config", &missing]),
        (
            1,
            String::new(),
            format!("gift-server: {missing} does not exist: no server to remove\n")
        )
    );
}

#[test]
fn a_malformed_file_is_never_overwritten() {
    let scratch = Scratch::new("install", "malformed");
    let path = scratch.path("settings.json");
    let text = "{\n  // a comment is not JSON\n  \"theme\": \"GitHub\"\n}\n";
    std::fs::write(&path, text).unwrap();
    let (code, stdout, stderr) = run(&["install", "gemini", "--config", &path]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        format!(
            "gift-server: {path} is not valid JSON (key must be a string at line 2 column 3); it is left as it is\n"
        )
    );
    assert_eq!(read(&path), text);
}

#[test]
fn usage_errors_exit_two() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["install"],
            "missing the CLIENT (claude-desktop, claude-code, cursor, vscode, gemini); usage: gift-server install CLIENT [--name NAME] [--env KEY=VALUE]... [--config PATH] [--print]",
        ),
        (
            &["install", "zed"],
            "unknown client `zed`: one of claude-desktop, claude-code, cursor, vscode, gemini",
        ),
        (
            &["install", "cursor", "--env", "NOVALUE", "--print"],
            "`--env` takes KEY=VALUE, got `NOVALUE`",
        ),
        (
            &["uninstall", "cursor", "--print"],
            "`uninstall` has no flag `--print` (its flags: --name, --config)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(
            run(args),
            (2, String::new(), format!("gift-server: {message}\n")),
            "{args:?}"
        );
    }
}
