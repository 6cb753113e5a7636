//! The one exit-code table of the command line: the table of `Failure`'s docs
//! (`mcp-runtime/src/cli/exit.rs`) is copied as it is into README.md and `docs/guide.md`, `help`
//! prints each row, and each row has a case here, run in-process with `Cli::execute`, that
//! exits with its code.

use std::time::Duration;

use mcp_runtime::cli::Cli;
use mcp_runtime::prelude::*;

fn workspace_file(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {}: {e}", full.display()))
}

/// The lines of the exit-code table of `text` (the one whose header is `| code | kind | when |`),
/// after `prefix` on each line.
fn table(text: &str, prefix: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_prefix(prefix).unwrap_or(l))
        .collect();
    let start = lines
        .iter()
        .position(|l| *l == "| code | kind | when |")
        .expect("an exit-code table");
    lines[start..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| (*l).to_owned())
        .collect()
}

/// The codes of the table's rows, in order.
fn codes(table: &[String]) -> Vec<u8> {
    table[2..]
        .iter()
        .map(|row| row[2..].split(' ').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn readme_and_guide_copy_the_table_of_the_docs() {
    let source = table(&workspace_file("mcp-runtime/src/cli/exit.rs"), "/// ");
    assert_eq!(table(&workspace_file("README.md"), ""), source, "README.md");
    assert_eq!(
        table(&workspace_file("docs/guide.md"), ""),
        source,
        "docs/guide.md"
    );
    // Once in each: a second table would be a second source.
    for file in ["README.md", "docs/guide.md"] {
        assert_eq!(
            workspace_file(file).matches("| code |").count(),
            1,
            "{file}"
        );
    }
}

/// Adds two numbers.
#[tool(server = "it-exit")]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Always fails: a business error.
#[tool(server = "it-exit")]
async fn refuse() -> Result<String, ToolError> {
    Err(ToolError::new("nothing fits"))
}

/// Takes a minute.
#[tool(server = "it-exit")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "done".to_owned()
}

/// Needs a scope, so HTTP needs authorization.
#[tool(server = "it-exit", scopes = ["notes:write"])]
async fn guarded() -> String {
    "ok".to_owned()
}

fn cli() -> Cli {
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(refuse::TOOL)
        .tool(slow::TOOL)
        .build()
        .unwrap();
    Cli::new(&server).name("calc")
}

// With the clock paused, `slow`'s minute passes at once, after `--timeout`'s second.
#[tokio::test(start_paused = true)]
async fn each_row_of_the_table_has_a_case_with_its_code() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    let cases: Vec<(u8, Vec<&str>, String)> = vec![
        (0, vec!["call", "add", r#"{"a": 2, "b": 3}"#], String::new()),
        (0, vec!["help"], String::new()),
        (0, vec!["install", "cursor", "--print"], String::new()),
        (
            1,
            vec!["call", "refuse"],
            "calc: tool 'refuse' reported an error: nothing fits\n".into(),
        ),
        (
            2,
            vec!["call"],
            "calc: missing the tool's NAME; usage: calc call NAME [JSON] [--json] [--timeout SECONDS]\n".into(),
        ),
        (
            2,
            vec!["call", "add", "[1]"],
            "calc: arguments must be a JSON object, e.g. '{\"name\": \"value\"}', got [1]\n".into(),
        ),
        (
            2,
            vec!["install", "zed"],
            "calc: unknown client `zed`: one of claude-desktop, claude-code, cursor, vscode, gemini\n".into(),
        ),
        (
            3,
            vec!["call", "sub"],
            "calc: unknown tool 'sub' (-32602)\n".into(),
        ),
        (
            3,
            vec!["call", "add", r#"{"a": 2}"#],
            "calc: invalid arguments for tool 'add': missing required property 'b'".into(),
        ),
        (
            3,
            vec!["call", "add", r#"{"a": 2, "b": "three"}"#],
            "calc: invalid arguments for tool 'add': ".into(),
        ),
        (
            4,
            vec!["call", "slow", "--timeout", "1"],
            "calc: no answer from tool 'slow' within 1 s (--timeout)\n".into(),
        ),
        (5, vec!["http", &taken], format!("calc: cannot listen on {taken}: ")),
    ];
    let mut seen = Vec::new();
    for (code, args, stderr) in &cases {
        let out = cli().execute(args.iter().copied()).await;
        assert_eq!(out.code(), *code, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with(stderr.as_str()),
            "{args:?}: {:?}",
            out.stderr
        );
        if *code == 3 {
            assert!(out.stderr.ends_with(" (-32602)\n"), "{:?}", out.stderr);
        }
        seen.push(*code);
    }
    // 6: items that declare scopes, served over HTTP with nothing to check them.
    let server = Server::builder(server_info!())
        .tool(guarded::TOOL)
        .build()
        .unwrap();
    let out = Cli::new(&server)
        .name("calc")
        .execute(["http", "127.0.0.1:0"])
        .await;
    assert_eq!(out.code(), 6, "{}", out.stderr);
    assert!(
        out.stderr.starts_with(
            "calc: tool guarded declare(s) scopes, but no authorization is configured"
        ),
        "{}",
        out.stderr
    );
    seen.push(6);

    // 7: `diff` with lists saved when the server had one more tool.
    let (saved, gone) = saved_lists().await;
    let out = cli().execute(["diff", saved.as_str()]).await;
    assert_eq!(
        (out.code(), out.stdout.as_str(), out.stderr.as_str()),
        (
            7,
            "tool sub: removed (breaking)\n1 breaking change, 0 compatible changes\n",
            format!("calc: 1 breaking change since {saved}\n").as_str()
        )
    );
    let out = cli().execute(["diff", gone.as_str()]).await;
    assert_eq!(out.code(), 1, "{}", out.stderr);
    // 1 again: `install` into a file that is not JSON leaves it and fails.
    std::fs::write(&gone, "{oops").unwrap();
    let out = cli()
        .execute(["install", "gemini", "--config", gone.as_str()])
        .await;
    assert_eq!(
        (out.code(), out.stderr.as_str()),
        (
            1,
            format!("calc: {gone} is not valid JSON (key must be a string at line 1 column 2); it is left as it is\n").as_str()
        )
    );
    assert_eq!(std::fs::read_to_string(&gone).unwrap(), "{oops");
    if let Some(dir) = std::path::Path::new(&saved).parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
    seen.push(7);

    seen.dedup();
    let documented = codes(&table(
        &workspace_file("mcp-runtime/src/cli/exit.rs"),
        "/// ",
    ));
    assert_eq!(
        seen, documented,
        "a case for each row, in the table's order"
    );
}

/// The lists `calc` had with one more tool, `sub`, saved in a file of this test; and the path
/// of a file that does not exist.
async fn saved_lists() -> (String, String) {
    let listing = cli().execute(["list", "--json"]).await.stdout;
    let mut eras: serde_json::Value = serde_json::from_str(&listing).unwrap();
    for lists in eras.as_object_mut().unwrap().values_mut() {
        let tools = lists["tools/list"]["tools"].as_array_mut().unwrap();
        tools.push(serde_json::json!({"name": "sub", "inputSchema": {"type": "object"}}));
    }
    let dir = std::env::temp_dir().join(format!("it-exit-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lists.json");
    std::fs::write(&path, eras.to_string()).unwrap();
    let gone = dir.join("gone.json");
    (
        path.to_str().unwrap().to_owned(),
        gone.to_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn help_prints_each_row_of_the_table() {
    let help = cli().help();
    let section = help
        .split_once("\nexit status:\n")
        .expect("an exit status section")
        .1;
    let printed: Vec<&str> = section
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.as_bytes().get(2).is_some_and(u8::is_ascii_digit))
        .collect();
    let rows = table(&workspace_file("mcp-runtime/src/cli/exit.rs"), "/// ");
    assert_eq!(printed.len(), rows.len() - 2);
    for (line, row) in printed.iter().zip(&rows[2..]) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let when = cells[2].trim_end_matches(" |").replace('`', "");
        let first_words: String = when.chars().take(20).collect();
        assert!(
            line.starts_with(&format!(
                "  {}  {first_words}",
                cells[0].trim_start_matches("| ")
            )),
            "{line:?} for {row:?}"
        );
    }
    // Every word of every row, in order, with the lines joined.
    let joined: String = section
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    for row in &rows[2..] {
        let cells: Vec<&str> = row.split(" | ").collect();
        let when = cells[2].trim_end_matches(" |").replace('`', "");
        assert!(joined.contains(&when), "{when:?} in {joined:?}");
    }
}
