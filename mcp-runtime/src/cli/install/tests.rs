//! Each client's file format, merging into files with other servers and settings, `--print`,
//! `uninstall`, malformed files, and the paths per system, with the exact text written.

use std::path::{Path, PathBuf};

use super::clients::{Client, Os};
use super::ordered::Json;
use super::{Entry, merged, removed, snippet};

fn entry(env: &[(&str, &str)]) -> Entry {
    Entry {
        name: "gifts".to_owned(),
        command: "/opt/gift-server".to_owned(),
        args: vec!["stdio".to_owned()],
        env: env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    }
}

const PLAIN: &str = r#"{
  "mcpServers": {
    "gifts": {
      "command": "/opt/gift-server",
      "args": [
        "stdio"
      ],
      "env": {
        "GIFTS_DB": "/var/gifts.db"
      }
    }
  }
}
"#;

#[test]
fn print_gives_each_client_its_format() {
    let with_env = entry(&[("GIFTS_DB", "/var/gifts.db")]);
    for client in [Client::ClaudeDesktop, Client::Cursor, Client::Gemini] {
        assert_eq!(snippet(client, &with_env), PLAIN, "{client:?}");
    }
    assert_eq!(
        snippet(Client::VsCode, &entry(&[])),
        r#"{
  "servers": {
    "gifts": {
      "type": "stdio",
      "command": "/opt/gift-server",
      "args": [
        "stdio"
      ]
    }
  }
}
"#
    );
    assert_eq!(
        snippet(Client::ClaudeCode, &with_env),
        r#"{
  "mcpServers": {
    "gifts": {
      "type": "stdio",
      "command": "/opt/gift-server",
      "args": [
        "stdio"
      ],
      "env": {
        "GIFTS_DB": "/var/gifts.db"
      }
    }
  }
}
"#
    );
}

#[test]
fn a_new_file_holds_the_entry_alone() {
    let with_env = entry(&[("GIFTS_DB", "/var/gifts.db")]);
    assert_eq!(
        merged(None, Client::ClaudeDesktop, &with_env).unwrap(),
        (PLAIN.to_owned(), false)
    );
    assert_eq!(
        merged(Some(" \n"), Client::Cursor, &with_env).unwrap(),
        (PLAIN.to_owned(), false)
    );
}

#[test]
fn other_servers_and_settings_keep_their_place() {
    let existing = r#"{"theme": "dark", "mcpServers": {"zeta": {"command": "npx", "args": ["-y", "zeta"], "env": {"Z": "1"}}, "alpha": {"command": "/bin/alpha", "disabled": true}}, "globalShortcut": "Ctrl+Space", "n": [1, 2.5, -3, 18446744073709551615, null, false]}"#;
    let (text, replaced) = merged(Some(existing), Client::ClaudeDesktop, &entry(&[])).unwrap();
    assert!(!replaced);
    assert_eq!(
        text,
        r#"{
  "theme": "dark",
  "mcpServers": {
    "zeta": {
      "command": "npx",
      "args": [
        "-y",
        "zeta"
      ],
      "env": {
        "Z": "1"
      }
    },
    "alpha": {
      "command": "/bin/alpha",
      "disabled": true
    },
    "gifts": {
      "command": "/opt/gift-server",
      "args": [
        "stdio"
      ]
    }
  },
  "globalShortcut": "Ctrl+Space",
  "n": [
    1,
    2.5,
    -3,
    18446744073709551615,
    null,
    false
  ]
}
"#
    );
}

#[test]
fn settings_without_servers_get_the_key_last() {
    let existing = "{\n  \"theme\": \"GitHub\",\n  \"selectedAuthType\": \"oauth-personal\"\n}\n";
    let (text, _) = merged(Some(existing), Client::Gemini, &entry(&[])).unwrap();
    assert_eq!(
        text,
        r#"{
  "theme": "GitHub",
  "selectedAuthType": "oauth-personal",
  "mcpServers": {
    "gifts": {
      "command": "/opt/gift-server",
      "args": [
        "stdio"
      ]
    }
  }
}
"#
    );
}

#[test]
fn installing_again_updates_the_entry_in_its_place_with_its_own_keys() {
    let existing = r#"{"servers": {"gifts": {"command": "/old/gift-server", "env": {"OLD": "1"}, "dev": {"watch": "src"}}, "other": {"type": "stdio", "command": "x"}}, "inputs": []}"#;
    let (text, replaced) = merged(Some(existing), Client::VsCode, &entry(&[])).unwrap();
    assert!(replaced);
    assert_eq!(
        text,
        r#"{
  "servers": {
    "gifts": {
      "command": "/opt/gift-server",
      "dev": {
        "watch": "src"
      },
      "type": "stdio",
      "args": [
        "stdio"
      ]
    },
    "other": {
      "type": "stdio",
      "command": "x"
    }
  },
  "inputs": []
}
"#
    );
    // An entry of another transport of that name is replaced whole.
    let remote =
        r#"{"mcpServers": {"gifts": {"url": "https://gifts.example/mcp", "headers": {}}}}"#;
    let (text, replaced) = merged(Some(remote), Client::Cursor, &entry(&[])).unwrap();
    assert!(replaced);
    assert_eq!(
        text,
        "{\n  \"mcpServers\": {\n    \"gifts\": {\n      \"command\": \"/opt/gift-server\",\n      \"args\": [\n        \"stdio\"\n      ]\n    }\n  }\n}\n"
    );
}

#[test]
fn a_malformed_file_is_an_error() {
    let e = entry(&[]);
    let err = merged(Some("{ not json"), Client::Cursor, &e).unwrap_err();
    assert_eq!(
        err,
        "is not valid JSON (key must be a string at line 1 column 3)"
    );
    assert_eq!(
        merged(Some("[1]"), Client::Cursor, &e).unwrap_err(),
        "is not a JSON object"
    );
    assert_eq!(
        merged(Some(r#"{"mcpServers": []}"#), Client::Cursor, &e).unwrap_err(),
        "has a `mcpServers` that is not an object"
    );
    assert_eq!(
        removed(r#"{"servers": 1}"#, Client::VsCode, "gifts").unwrap_err(),
        "has a `servers` that is not an object"
    );
}

#[test]
fn uninstall_removes_the_entry_and_nothing_else() {
    let existing = r#"{"mcpServers": {"a": {"command": "a"}, "gifts": {"command": "g"}, "b": {"command": "b"}}, "z": 1}"#;
    assert_eq!(
        removed(existing, Client::ClaudeCode, "gifts").unwrap(),
        "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"a\"\n    },\n    \"b\": {\n      \"command\": \"b\"\n    }\n  },\n  \"z\": 1\n}\n"
    );
    assert_eq!(
        removed(existing, Client::ClaudeCode, "nope").unwrap_err(),
        "has no server named `nope` under `mcpServers`"
    );
    assert_eq!(
        removed("{}", Client::VsCode, "gifts").unwrap_err(),
        "has no server named `gifts` under `servers`"
    );
}

#[test]
fn json_is_written_back_as_read() {
    let text = "{\n  \"b\": \"é \\\"q\\\"\\n\",\n  \"a\": {},\n  \"a2\": [],\n  \"c\": 1.5e3\n}\n";
    let doc: Json = serde_json::from_str(text).unwrap();
    assert_eq!(
        doc.to_pretty(),
        "{\n  \"b\": \"é \\\"q\\\"\\n\",\n  \"a\": {},\n  \"a2\": [],\n  \"c\": 1500.0\n}\n"
    );
    // A key given twice: its last value, in its first place (as serde_json reads it).
    let doc: Json = serde_json::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
    assert_eq!(doc.to_pretty(), "{\n  \"a\": 3,\n  \"b\": 2\n}\n");
}

#[test]
fn each_client_has_its_path_per_system() {
    let vars = |list: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            list.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    let cwd = Path::new("/work/project");
    let unix = vars(&[("HOME", "/home/ann")]);
    let xdg = vars(&[("HOME", "/home/ann"), ("XDG_CONFIG_HOME", "/cfg")]);
    let mac = vars(&[("HOME", "/Users/ann")]);
    let windows = vars(&[
        ("USERPROFILE", r"C:\Users\ann"),
        ("APPDATA", r"C:\Users\ann\AppData\Roaming"),
    ]);
    let path = |client: Client, os: Os, var: &dyn Fn(&str) -> Option<String>| {
        client.path(os, var, cwd).unwrap()
    };
    let p = |parts: &[&str]| parts.iter().collect::<PathBuf>();
    let desktop = Client::ClaudeDesktop;
    assert_eq!(
        path(desktop, Os::Mac, &mac),
        p(&[
            "/Users/ann",
            "Library",
            "Application Support",
            "Claude",
            "claude_desktop_config.json"
        ])
    );
    assert_eq!(
        path(desktop, Os::Windows, &windows),
        p(&[
            r"C:\Users\ann\AppData\Roaming",
            "Claude",
            "claude_desktop_config.json"
        ])
    );
    assert_eq!(
        path(desktop, Os::Unix, &unix),
        p(&[
            "/home/ann",
            ".config",
            "Claude",
            "claude_desktop_config.json"
        ])
    );
    assert_eq!(
        path(desktop, Os::Unix, &xdg),
        p(&["/cfg", "Claude", "claude_desktop_config.json"])
    );
    for os in [Os::Mac, Os::Unix] {
        assert_eq!(
            path(Client::Cursor, os, &unix),
            p(&["/home/ann", ".cursor", "mcp.json"])
        );
        assert_eq!(
            path(Client::Gemini, os, &unix),
            p(&["/home/ann", ".gemini", "settings.json"])
        );
    }
    assert_eq!(
        path(Client::Cursor, Os::Windows, &windows),
        p(&[r"C:\Users\ann", ".cursor", "mcp.json"])
    );
    assert_eq!(
        path(Client::Gemini, Os::Windows, &windows),
        p(&[r"C:\Users\ann", ".gemini", "settings.json"])
    );
    for os in [Os::Mac, Os::Windows, Os::Unix] {
        assert_eq!(
            path(Client::ClaudeCode, os, &unix),
            p(&["/work/project", ".mcp.json"])
        );
        assert_eq!(
            path(Client::VsCode, os, &unix),
            p(&["/work/project", ".vscode", "mcp.json"])
        );
    }
    let none = vars(&[]);
    assert_eq!(
        Client::Cursor.path(Os::Unix, &none, cwd).unwrap_err(),
        "HOME is not set: give the configuration file with --config PATH"
    );
    assert_eq!(
        desktop.path(Os::Windows, &none, cwd).unwrap_err(),
        "APPDATA is not set: give the configuration file with --config PATH"
    );
}

#[test]
fn clients_are_named_as_on_the_command_line() {
    for (name, client, title) in [
        ("claude-desktop", Client::ClaudeDesktop, "Claude Desktop"),
        ("claude-code", Client::ClaudeCode, "Claude Code"),
        ("cursor", Client::Cursor, "Cursor"),
        ("vscode", Client::VsCode, "VS Code"),
        ("gemini", Client::Gemini, "Gemini CLI"),
    ] {
        assert_eq!(Client::parse(name), Some(client));
        assert_eq!(client.title(), title);
    }
    assert_eq!(Client::parse("code"), None);
}
