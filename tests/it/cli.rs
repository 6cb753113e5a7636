//! The command line run in-process (`Cli::execute`): no fixed timeout on `call`, `--timeout`,
//! and application commands. The spawned-binary tests of every command are in
//! `examples/gift-server/tests/cli.rs`.

use std::time::Duration;

use mcp_runtime::cli::{Cli, CliError, Failure};
use mcp_runtime::prelude::*;

/// Takes twelve seconds, longer than the in-memory client used to wait.
#[tool(server = "it-cli")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(12)).await;
    "done after 12 s".to_owned()
}

fn cli() -> Cli {
    let server = Server::builder(server_info!())
        .tool(slow::TOOL)
        .build()
        .unwrap();
    Cli::new(&server).name("notes")
}

// With the clock paused, the runtime jumps to the next timer whenever every task waits: the
// tool's twelve seconds pass at once, and in the order a real clock would have them.

#[tokio::test(start_paused = true)]
async fn call_waits_as_long_as_the_tool_takes() {
    let out = cli().execute(["call", "slow"]).await;
    assert_eq!(
        (out.code(), out.stdout.as_str(), out.stderr.as_str()),
        (0, "done after 12 s\n", "")
    );
}

#[tokio::test(start_paused = true)]
async fn timeout_gives_up_with_exit_code_four() {
    let out = cli().execute(["call", "slow", "--timeout", "2.5"]).await;
    assert_eq!(out.failure, Some(Failure::Timeout));
    assert_eq!(
        (out.code(), out.stdout.as_str(), out.stderr.as_str()),
        (
            4,
            "",
            "notes: no answer from tool 'slow' within 2.5 s (--timeout)\n"
        )
    );
    let out = cli().execute(["call", "slow", "--timeout=13"]).await;
    assert_eq!((out.code(), out.stdout.as_str()), (0, "done after 12 s\n"));
}

#[tokio::test(start_paused = true)]
async fn call_json_prints_the_whole_result_of_a_tool_without_structured_content() {
    let out = cli().execute(["call", "slow", "--json"]).await;
    assert_eq!(
        (out.code(), out.stdout.as_str(), out.stderr.as_str()),
        (
            0,
            "{\n  \"content\": [\n    {\n      \"text\": \"done after 12 s\",\n      \"type\": \"text\"\n    }\n  ]\n}\n",
            ""
        )
    );
}

#[tokio::test]
async fn application_commands_run_and_fail_with_their_code() {
    let cli = cli()
        .command(
            "count",
            "print how many tools there are",
            |server, _| async move {
                if server.tool_names().count() == 0 {
                    return Err(CliError::failed("no tools"));
                }
                Ok(())
            },
        )
        .command("need ARG", "fail unless given ARG", |_, args| async move {
            match args.as_slice() {
                [_] => Ok(()),
                _ => Err(CliError::usage("`need` takes one ARG")),
            }
        })
        .command("list", "replaces the built-in `list`", |_, _| async move {
            Err(CliError::new(Failure::Refused, "not today"))
        });
    let help = cli.help();
    assert!(
        help.contains(
            "\ncommands of this server:\n  count                    print how many tools there are\n  need ARG                 fail unless given ARG\n"
        ),
        "{help}"
    );
    assert_eq!(cli.execute(["count"]).await.code(), 0);
    assert_eq!(cli.execute(["need", "x"]).await.code(), 0);
    let out = cli.execute(["need"]).await;
    assert_eq!(
        (out.code(), out.stderr.as_str()),
        (2, "notes: `need` takes one ARG\n")
    );
    let out = cli.execute(["list"]).await;
    assert_eq!((out.code(), out.stderr.as_str()), (3, "notes: not today\n"));
}

/// One of two tools named `twin`.
#[tool(server = "it-cli", name = "twin")]
async fn twin_a() -> String {
    "a".to_owned()
}

/// The other tool named `twin`.
#[tool(server = "it-cli", name = "twin")]
async fn twin_b() -> String {
    "b".to_owned()
}

/// Not a test of its own: the child process of `a_server_that_cannot_be_built_exits_five`,
/// whose `main` would be the README's: `ServerBuilder::run()`, returning its `Result`.
#[test]
#[ignore = "run in a child process by a_server_that_cannot_be_built_exits_five"]
fn child_runs_a_server_with_two_tools_named_alike() {
    // Run by hand (`--include-ignored`), it does nothing: it would end the test process.
    if std::env::var_os("IT_CLI_CHILD").is_none() {
        return;
    }
    let main = async {
        Server::builder(server_info!())
            .tool(twin_a::TOOL)
            .tool(twin_b::TOOL)
            .run()
            .await
    };
    let result: Result<(), mcp_runtime::Error> = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(main);
    // Not reached: a server that cannot be built ends the process.
    println!("run returned {result:?}");
}

#[test]
fn a_server_that_cannot_be_built_exits_five() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .env("IT_CLI_CHILD", "1")
        .args([
            "--ignored",
            "--exact",
            "cli::child_runs_a_server_with_two_tools_named_alike",
            "--nocapture",
            "--test-threads=1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    // `NAME: message`, with the error's Display, not `Error: Duplicate { .. }`.
    let line = stderr
        .lines()
        .find(|l| l.contains("duplicate"))
        .unwrap_or_else(|| panic!("{stderr}"));
    let (name, message) = line.split_once(": ").unwrap();
    assert!(name.starts_with("it-"), "the test binary's name: {line}");
    assert!(
        message.starts_with("duplicate tool `twin`: declared at tests/it/cli.rs:"),
        "{line}"
    );
    assert!(!stderr.contains("Duplicate {") && !stderr.contains("run returned"));
}
