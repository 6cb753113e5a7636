//! Argument injection, path traversal and confinement: each refused before git runs, or the
//! value treated as data.

mod common;

use common::{call, git, repo, temp_dir};
use mcp_runtime::serde_json::json;
use mcp_server_git::Confinement;

fn none() -> Confinement {
    Confinement::new(None)
}

#[tokio::test]
async fn option_like_names_are_refused_and_nothing_changes() {
    let dir = repo("flags");
    let p = dir.to_str().unwrap();
    let before = git(&dir, &["for-each-ref"]);
    let cases = [
        (
            "git_create_branch",
            json!({"repo_path": p, "branch_name": "-f"}),
            "Error executing tool git_create_branch: Invalid branch name: '-f' - cannot start with '-'",
        ),
        (
            "git_create_branch",
            json!({"repo_path": p, "branch_name": "x", "base_branch": "--orphan"}),
            "Error executing tool git_create_branch: Invalid base branch: '--orphan' - cannot start with '-'",
        ),
        (
            "git_checkout",
            json!({"repo_path": p, "branch_name": "-b"}),
            "Error executing tool git_checkout: Invalid branch name: '-b' - cannot start with '-'",
        ),
        (
            "git_diff",
            json!({"repo_path": p, "target": "--output=/tmp/owned"}),
            "Error executing tool git_diff: Invalid target: '--output=/tmp/owned' - cannot start with '-'",
        ),
        (
            "git_show",
            json!({"repo_path": p, "revision": "--help"}),
            "Error executing tool git_show: Invalid revision: '--help' - cannot start with '-'",
        ),
        (
            "git_branch",
            json!({"repo_path": p, "branch_type": "local", "contains": "--delete"}),
            "Error executing tool git_branch: Invalid contains value: '--delete' - cannot start with '-'",
        ),
        (
            "git_branch",
            json!({"repo_path": p, "branch_type": "local", "not_contains": "-D"}),
            "Error executing tool git_branch: Invalid not_contains value: '-D' - cannot start with '-'",
        ),
        (
            "git_log",
            json!({"repo_path": p, "start_timestamp": "--all"}),
            "Error executing tool git_log: Invalid start_timestamp: '--all' - cannot start with '-'",
        ),
        (
            "git_log",
            json!({"repo_path": p, "end_timestamp": "-1"}),
            "Error executing tool git_log: Invalid end_timestamp: '-1' - cannot start with '-'",
        ),
    ];
    for (tool, args, expected) in cases {
        assert_eq!(
            call(none(), tool, args).await,
            (true, expected.to_owned()),
            "{tool}"
        );
    }
    assert_eq!(git(&dir, &["for-each-ref"]), before);
    assert!(!std::path::Path::new("/tmp/owned").exists());
}

#[tokio::test]
async fn a_file_named_like_an_option_is_staged_as_a_file() {
    let dir = repo("dashfile");
    std::fs::write(dir.join("-n"), "x\n").unwrap();
    let args = json!({"repo_path": dir.to_str().unwrap(), "files": ["-n"]});
    assert_eq!(
        call(none(), "git_add", args).await,
        (false, "Files staged successfully".to_owned())
    );
    assert_eq!(git(&dir, &["diff", "--cached", "--name-only"]), "-n\n");
}

#[tokio::test]
async fn paths_outside_the_working_tree_are_refused() {
    let dir = repo("outside");
    let outside = temp_dir("target");
    std::fs::write(outside.join("secret"), "s\n").unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
    let p = dir.to_str().unwrap();
    for f in ["../secret", "/etc/passwd", "link/secret"] {
        let (is_error, text) = call(none(), "git_add", json!({"repo_path": p, "files": [f]})).await;
        assert!(is_error, "{f}");
        assert_eq!(
            text,
            format!("Error executing tool git_add: Path '{f}' is outside the repository '{p}'")
        );
    }
    assert_eq!(git(&dir, &["diff", "--cached", "--name-only"]), "");
}

#[tokio::test]
async fn repository_confines_every_call() {
    let dir = repo("confined");
    let other = repo("other");
    let conf = Confinement::new(Some(dir.clone()));
    let (is_error, text) = call(
        conf.clone(),
        "git_status",
        json!({"repo_path": other.to_str().unwrap()}),
    )
    .await;
    assert!(is_error);
    assert_eq!(
        text,
        format!(
            "Error executing tool git_status: Repository path '{}' is outside the allowed repository '{}'",
            other.display(),
            dir.display()
        )
    );
    let sneaky = format!(
        "{}/../{}",
        dir.display(),
        other.file_name().unwrap().to_str().unwrap()
    );
    assert!(
        call(conf.clone(), "git_status", json!({"repo_path": sneaky}))
            .await
            .0
    );
    let (is_error, text) = call(
        conf,
        "git_status",
        json!({"repo_path": dir.to_str().unwrap()}),
    )
    .await;
    assert_eq!(
        (is_error, text.lines().next().unwrap()),
        (false, "Repository status:")
    );
}

#[tokio::test]
async fn commits_keep_the_message_verbatim_and_refuse_an_empty_index() {
    let dir = repo("commit");
    let p = dir.to_str().unwrap();
    let (is_error, text) = call(
        none(),
        "git_commit",
        json!({"repo_path": p, "message": "m"}),
    )
    .await;
    assert_eq!(
        (is_error, text.as_str()),
        (
            true,
            "Error executing tool git_commit: No changes staged for commit. Use git_add to stage changes first; git_status shows what is currently staged."
        )
    );
    std::fs::write(dir.join("b.txt"), "b\n").unwrap();
    git(&dir, &["add", "b.txt"]);
    let (is_error, text) = call(
        none(),
        "git_commit",
        json!({"repo_path": p, "message": "no newline"}),
    )
    .await;
    let head = git(&dir, &["rev-parse", "HEAD"]);
    assert_eq!(
        (is_error, text),
        (
            false,
            format!("Changes committed successfully with hash {}", head.trim())
        )
    );
    assert_eq!(
        git(&dir, &["cat-file", "commit", "HEAD"])
            .split("\n\n")
            .nth(1),
        Some("no newline")
    );
}
