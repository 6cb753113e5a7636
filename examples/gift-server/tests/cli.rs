//! The command line of the real `gift-server` binary: every command, what it prints on stdout
//! and stderr, and its exit code (0 ok, 1 `isError`, 2 usage, 3 refused, 5 server; the table
//! of `mcp_runtime::cli::Failure`, each row of which `tests/it/exit_codes.rs` runs in-process).

use std::process::Command;

use serde_json::{Value, json};

mod common;

use common::{BIN, run};

/// Runs a command that must succeed without a word on stderr; its stdout.
fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}");
    stdout
}

/// Every key in `value`, recursively, with the path where it occurs.
fn keys(value: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push((k.clone(), path.to_owned()));
                keys(v, &format!("{path}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                keys(v, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

const BIRTHDAY_50: &str = r#"{"occasion":"birthday","budget":50}"#;

#[test]
fn help_names_the_binary_and_documents_the_exit_codes() {
    let help = ok(&["help"]);
    assert!(help.starts_with("usage: gift-server [COMMAND]\n"), "{help}");
    assert!(!help.contains("<server>"));
    for line in [
        "  http [ADDR]              serve MCP over Streamable HTTP at /mcp (default 127.0.0.1:8000)\n",
        "  call NAME [JSON]         run a tool with JSON arguments, print its text content\n",
        "  read URI                 read a resource, print its text\n",
        "  prompt NAME [JSON]       get a prompt with JSON string arguments, print its messages\n",
        "  complete prompt NAME ARG [VALUE]\n",
        "  schema NAME              print a tool's input schema (and output schema)\n",
        "  diff OLD.json            compare the lists with a saved `list --json`; exit 7 on a change\n",
        "  install CLIENT           add this server to the configuration of CLIENT (claude-desktop,\n",
        "  uninstall CLIENT         remove this server from the configuration of CLIENT (--name NAME,\n",
        // A tool of gift-server has a widget: `apps preview` is there.
        "  apps preview [ADDR] [TOOL [JSON]]\n",
        "  --timeout SECONDS        give up after SECONDS (default: wait as long as it takes)\n",
        "\nexit status:\n  0  the command did what it was asked; diff: no change breaks a client\n",
        "  4  no answer within --timeout SECONDS\n",
    ] {
        assert!(help.contains(line), "{line:?} in\n{help}");
    }
    assert_eq!(ok(&["--help"]), help);
    assert_eq!(ok(&["-h"]), help);
}

#[test]
fn list_prints_portable_schemas_with_descriptions() {
    let listing: Value = serde_json::from_str(&ok(&["list"])).expect("`list` prints JSON");
    let tools = listing["tools/list"]["tools"].as_array().unwrap();
    let tool = tools
        .iter()
        .find(|t| t["name"] == "suggest_gifts")
        .expect("suggest_gifts is listed");
    assert_eq!(
        tool["description"],
        "Suggests gift ideas for a given occasion and budget."
    );
    let schema = &tool["inputSchema"];
    assert_eq!(schema["required"], json!(["occasion", "budget"]));
    assert_eq!(
        schema["properties"]["recipient"],
        json!({"type": "string", "description": "Who the gift is for, e.g. \"my sister\""}),
        "optional, and not a null union"
    );
    assert_eq!(
        schema["properties"]["budget"],
        json!({"type": "number", "minimum": 0, "description": "Budget in US dollars"})
    );
    assert_eq!(
        schema["properties"]["occasion"],
        json!({
            "type": "string",
            "enum": ["birthday", "wedding", "anniversary", "graduation", "housewarming", "holiday"],
            // The documented values, listed: the portable enum has no room for them.
            "description": "The occasion\n- birthday: A birthday.\n- wedding: A wedding.\n- anniversary: An anniversary.\n- graduation: A graduation.\n- housewarming: A housewarming party.\n- holiday: A holiday, e.g. the end-of-year ones."
        })
    );
    // Portable everywhere, including the output schema: no references, definitions,
    // meta-schema URIs or type unions.
    let mut all = Vec::new();
    keys(&listing, "", &mut all);
    for (key, path) in &all {
        assert!(
            !["$ref", "$defs", "$schema", "definitions", "anyOf", "oneOf"].contains(&key.as_str()),
            "`{key}` at {path}"
        );
    }
    let mut stack = vec![&listing];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(t) = m.get("type") {
                    assert!(t.is_string(), "a type union: {v}");
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
}

#[test]
fn call_prints_the_text_content_once() {
    let stdout = ok(&["call", "suggest_gifts", BIRTHDAY_50]);
    // The text content, laid out for reading; no `structuredContent` copy, no escaped mirror.
    // Members in the order `Gift` declares them.
    assert!(
        stdout.starts_with(
            "{\n  \"gifts\": [\n    {\n      \"id\": 24,\n      \"name\": \"Chocolate tasting box\",\n      \"category\": \"food\",\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("\n  ],\n  \"summary\": \"8 gift ideas within $50\"\n}\n"),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("Chocolate tasting box").count(),
        1,
        "{stdout}"
    );
    assert!(!stdout.contains("structuredContent") && !stdout.contains("\\\""));
    let shown: Value = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = shown["gifts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Chocolate tasting box",
            "Dice set",
            "Hardcover journal",
            "Jigsaw puzzle, 1000 pieces",
            "Scented candle trio",
            "Specialty coffee sampler",
            "Cocktail shaker set",
            "Board game: Catan"
        ]
    );
}

#[test]
fn call_json_prints_the_structured_content() {
    let stdout = ok(&["call", "suggest_gifts", BIRTHDAY_50, "--json"]);
    let structured: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(structured["summary"], "8 gift ideas within $50");
    assert_eq!(structured["gifts"].as_array().unwrap().len(), 8);
    // Pretty JSON of `structuredContent`: the text block (its compact mirror) is the same value.
    assert_eq!(
        stdout,
        format!("{}\n", serde_json::to_string_pretty(&structured).unwrap())
    );
    let text: Value = serde_json::from_str(&ok(&["call", "suggest_gifts", BIRTHDAY_50])).unwrap();
    assert_eq!(text, structured);
    assert!(!stdout.contains("structuredContent") && !stdout.contains("\"content\""));
    // Flags go anywhere, `--flag=value` or `--flag value`.
    let again = ok(&[
        "call",
        "--timeout=30",
        "--json",
        "suggest_gifts",
        BIRTHDAY_50,
    ]);
    assert_eq!(again, stdout);
}

#[test]
fn a_tool_error_exits_one() {
    let args = r#"{"occasion":"wedding","budget":5}"#;
    let message = "gift-server: tool 'suggest_gifts' reported an error: no wedding gift fits a budget of $5; the cheapest is Cast-iron skillet at $55\n";
    assert_eq!(
        run(&["call", "suggest_gifts", args]),
        (1, String::new(), message.to_owned())
    );
    let (code, stdout, stderr) = run(&["call", "suggest_gifts", args, "--json"]);
    assert_eq!((code, stderr.as_str()), (1, message));
    assert_eq!(
        serde_json::from_str::<Value>(&stdout).unwrap(),
        json!({"content": [{"type": "text", "text": "no wedding gift fits a budget of $5; the cheapest is Cast-iron skillet at $55"}], "isError": true})
    );
}

#[test]
fn usage_errors_exit_two() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["call"],
            "missing the tool's NAME; usage: gift-server call NAME [JSON] [--json] [--timeout SECONDS]",
        ),
        (
            &["call", "suggest_gifts", "{"],
            "arguments are not valid JSON: EOF while parsing an object at line 1 column 1",
        ),
        (
            &["call", "suggest_gifts", "[1, 2]"],
            "arguments must be a JSON object, e.g. '{\"name\": \"value\"}', got [1,2]",
        ),
        (
            &["call", "suggest_gifts", "{}", "extra"],
            "unexpected argument `extra`; usage: gift-server call NAME [JSON] [--json] [--timeout SECONDS]",
        ),
        (
            &["call", "suggest_gifts", "--timeout", "soon"],
            "`--timeout` takes a positive number of seconds, got `soon`",
        ),
        (
            &["read", "gifts://item/1", "--verbose"],
            "`read` has no flag `--verbose` (its flags: --json, --timeout)",
        ),
        (
            &["complete", "tool", "suggest_gifts", "budget"],
            "`complete` completes a `prompt` or a `resource` argument, not `tool`",
        ),
        (
            &["stdio", "now"],
            "unexpected argument `now`; usage: gift-server stdio",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(
            run(args),
            (2, String::new(), format!("gift-server: {message}\n")),
            "{args:?}"
        );
    }
    let (code, stdout, stderr) = run(&["frobnicate"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with(
            "gift-server: unknown command `frobnicate`\n\nusage: gift-server [COMMAND]\n"
        ),
        "{stderr}"
    );
}

#[test]
fn refused_requests_exit_three() {
    let cases: [(&[&str], &str); 6] = [
        (&["call", "nope"], "unknown tool 'nope' (-32602)"),
        // Missing or invalid arguments are refused like an unknown tool, not an `isError`.
        (
            &["call", "suggest_gifts", r#"{"occasion":"birthday"}"#],
            "invalid arguments for tool 'suggest_gifts': missing required property 'budget' (-32602)",
        ),
        (
            &["read", "gifts://item/99"],
            "resource not found: gifts://item/99 (-32002)",
        ),
        (
            &["prompt", "gift_congrats_style"],
            "missing required argument 'name' (-32602)",
        ),
        (
            &["complete", "prompt", "nope", "tone"],
            "unknown prompt 'nope' (-32602)",
        ),
        (&["schema", "nope"], "unknown tool 'nope'"),
    ];
    for (args, message) in cases {
        assert_eq!(
            run(args),
            (3, String::new(), format!("gift-server: {message}\n")),
            "{args:?}"
        );
    }
}

#[test]
fn read_prints_the_resource_text() {
    assert_eq!(
        ok(&["read", "gifts://item/4"]),
        "{\n  \"id\": 4,\n  \"name\": \"Chef's knife\",\n  \"category\": \"kitchen\",\n  \"price\": 120.0,\n  \"occasions\": [\n    \"wedding\",\n    \"housewarming\",\n    \"anniversary\"\n  ]\n}\n"
    );
    let result: Value = serde_json::from_str(&ok(&["read", "gifts://item/4", "--json"])).unwrap();
    assert_eq!(
        result,
        json!({"contents": [{
            "uri": "gifts://item/4",
            "mimeType": "application/json",
            "text": r#"{"id":4,"name":"Chef's knife","category":"kitchen","price":120.0,"occasions":["wedding","housewarming","anniversary"]}"#
        }]})
    );
    let catalog: Value =
        serde_json::from_str(&ok(&["read", "mcp://gift-server/resources/gift_catalog"])).unwrap();
    assert_eq!(catalog["gifts"].as_array().unwrap().len(), 24);
}

#[test]
fn list_shows_the_skill_and_read_prints_its_files() {
    let skill_md = include_str!("../skills/choosing-a-gift/SKILL.md");
    let listing: Value = serde_json::from_str(&ok(&["list"])).unwrap();
    let entries = listing["skills/list"]["skills"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["uri"], "skill://choosing-a-gift/SKILL.md");
    assert_eq!(entries[0]["frontmatter"]["name"], "choosing-a-gift");
    assert_eq!(entries[0]["resources"][0]["size"], skill_md.len());
    let resources = listing["resources/list"]["resources"].as_array().unwrap();
    assert!(
        resources
            .iter()
            .any(|r| r["uri"] == "skill://choosing-a-gift/budget.md"),
        "{resources:?}"
    );
    // `list --json`: the stateless revision's lists have the entries, the handshake one's not.
    let both: Value = serde_json::from_str(&ok(&["list", "--json"])).unwrap();
    assert_eq!(both["2026-07-28"]["skills/list"], listing["skills/list"]);
    assert_eq!(both["2025-11-25"].get("skills/list"), None);
    assert_eq!(ok(&["read", "skill://choosing-a-gift/SKILL.md"]), skill_md);
    let (code, _, stderr) = run(&["read", "skill://choosing-a-gift/other.md"]);
    assert_eq!(code, 3, "{stderr}");
}

#[test]
fn prompt_prints_the_messages() {
    assert_eq!(
        ok(&[
            "prompt",
            "gift_congrats_style",
            r#"{"name":"Ann","occasion":"wedding","tone":"formal"}"#
        ]),
        "[user]\nWrite a short, formal wedding congratulation for Ann to go with a gift. Two or three sentences, no clichés, mention the gift only in passing.\n"
    );
    let result: Value = serde_json::from_str(&ok(&[
        "prompt",
        "gift_congrats_style",
        r#"{"name":"Bo"}"#,
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        result,
        json!({
            "description": "Style guide for congratulations that go with a gift",
            "messages": [{"role": "user", "content": {"type": "text", "text":
                "Write a short, warm birthday congratulation for Bo to go with a gift. Two or three sentences, no clichés, mention the gift only in passing."}}]
        })
    );
}

#[test]
fn complete_prints_one_value_per_line() {
    assert_eq!(
        ok(&["complete", "resource", "gifts://item/{id}", "id", "2"]),
        "2\n20\n21\n22\n23\n24\n"
    );
    assert_eq!(
        ok(&["complete", "prompt", "gift_congrats_style", "occasion", "h"]),
        "holiday\nhousewarming\n"
    );
    // VALUE defaults to "": every value.
    assert_eq!(
        ok(&["complete", "prompt", "gift_congrats_style", "tone"]),
        "warm\nformal\nfunny\n"
    );
    let result: Value = serde_json::from_str(&ok(&[
        "complete",
        "prompt",
        "gift_congrats_style",
        "tone",
        "f",
        "--context",
        r#"{"name":"Ann"}"#,
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        result,
        json!({"completion": {"values": ["formal", "funny"]}})
    );
}

#[test]
fn schema_prints_the_input_and_output_schemas() {
    let schemas: Value = serde_json::from_str(&ok(&["schema", "suggest_gifts"])).unwrap();
    let listing: Value = serde_json::from_str(&ok(&["list"])).unwrap();
    let tool = listing["tools/list"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "suggest_gifts")
        .unwrap();
    assert_eq!(
        schemas,
        json!({"inputSchema": tool["inputSchema"], "outputSchema": tool["outputSchema"]})
    );
    assert_eq!(
        schemas["outputSchema"]["required"],
        json!(["gifts", "summary"])
    );
    assert_eq!(
        schemas["inputSchema"]["properties"]["occasion"]["enum"][0],
        "birthday"
    );
}

#[test]
fn a_server_that_cannot_serve_exits_five() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let (code, stdout, stderr) = run(&["http", &addr]);
    assert_eq!((code, stdout.as_str()), (5, ""));
    assert!(
        stderr.starts_with(&format!("gift-server: cannot listen on {addr}: ")),
        "{stderr}"
    );
}

/// Started from a terminal, `stdio` says on stderr what it is waiting for; Ctrl-D ends it.
#[cfg(target_os = "linux")]
#[test]
fn stdio_on_a_terminal_prints_a_hint_on_stderr() {
    use std::io::{Read, Write};
    use std::process::Stdio;

    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let path = ptsname(&master, Vec::new()).unwrap();
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path.to_str().unwrap())
        .unwrap();
    let mut child = Command::new(BIN)
        .env_remove("RUST_LOG")
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-D at the start of a line is end of input: the server exits cleanly. Sent first, so
    // that a server that printed nothing could not keep this test waiting.
    let mut master = std::fs::File::from(master);
    master.write_all(&[0x04]).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(
        stderr,
        "gift-server: serving MCP on stdin/stdout for an MCP client (one JSON-RPC message per line); Ctrl-D quits, `gift-server help` lists the commands\n"
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn apps_preview_checks_its_arguments_before_serving() {
    assert_eq!(
        run(&["apps"]),
        (
            2,
            String::new(),
            "gift-server: usage: gift-server apps preview [ADDR] [TOOL [JSON]]\n".into()
        )
    );
    assert_eq!(
        run(&["apps", "preview", "127.0.0.1:0", "gift_congrats_style"]),
        (
            3,
            String::new(),
            "gift-server: `gift_congrats_style` is not a tool linked to a widget (`#[tool(ui = ..)]`)\n"
                .into()
        )
    );
    assert_eq!(
        run(&["apps", "preview", "127.0.0.1:0", "suggest_gifts", "[1]"]),
        (
            2,
            String::new(),
            "gift-server: the arguments must be a JSON object\n".into()
        )
    );
    let (code, _, err) = run(&["apps", "preview", "127.0.0.1:0", "suggest_gifts", "{"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("gift-server: the arguments are not JSON: "),
        "{err}"
    );
}

#[test]
fn server_card_prints_the_card_named_by_the_environment() {
    let card: Value = serde_json::from_str(&ok(&["server-card"])).expect("a card is JSON");
    assert_eq!(card["name"], "io.github.mcp-runtime/gift-server");
    assert_eq!(card["title"], "Gift ideas");
    assert_eq!(
        card["description"],
        "Gift ideas for any occasion: the MCP example server of mcp-runtime"
    );
    assert_eq!(card["remotes"][0]["url"], "{streamable_http_url}");
    let out = Command::new(BIN)
        .arg("server-card")
        .env("MCP_PUBLIC_URL", "https://gifts.example.com/mcp")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let card: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(card["remotes"][0]["url"], "https://gifts.example.com/mcp");
    assert_eq!(
        card["remotes"][0]["supportedProtocolVersions"],
        json!(["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"])
    );
}
