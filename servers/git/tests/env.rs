//! The server's own `GIT_*` environment cannot point a call at another repository, and an
//! option-like argument cannot reach git through the command line either.

mod common;

use std::process::Command;

use common::{git, repo};

#[test]
fn git_dir_and_index_file_in_the_environment_are_ignored() {
    let target = repo("target");
    let decoy = repo("decoy");
    std::fs::write(target.join("new.txt"), "n\n").unwrap();
    let args = format!(
        r#"{{"repo_path":"{}","files":["new.txt"]}}"#,
        target.display()
    );
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-server-git"))
        .args(["call", "git_add", &args])
        .env("GIT_DIR", decoy.join(".git"))
        .env("GIT_WORK_TREE", &decoy)
        .env("GIT_INDEX_FILE", decoy.join(".git/index"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Files staged successfully\n"
    );
    assert!(out.status.success());
    assert_eq!(
        git(&target, &["diff", "--cached", "--name-only"]),
        "new.txt\n"
    );
    assert_eq!(git(&decoy, &["diff", "--cached", "--name-only"]), "");
}

#[test]
fn a_repository_outside_any_working_tree_stops_the_server() {
    let dir = common::temp_dir("plain");
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-server-git"))
        .args(["--repository", dir.to_str().unwrap(), "list"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "mcp-server-git: {} is not a valid Git repository\n",
            dir.display()
        )
    );
    assert_eq!(out.stdout, b"");
}
