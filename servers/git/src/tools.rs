//! The twelve tools of the original, with its argument names, descriptions, hints and texts.
//! A failure is an `isError` result reading `Error executing tool NAME: MESSAGE`, as the
//! original's; calls run one at a time, as the original's lock makes them.

use std::path::Path;

use mcp_runtime::prelude::*;
use tokio::sync::Mutex;

use crate::Confinement;
use crate::git::{self, GitError, Repo};
use crate::objects;

/// One call at a time: a tool is a check followed by a change, and the index is shared.
static GIT_LOCK: Mutex<()> = Mutex::const_new(());

const TIMESTAMP_FORMATS: &str = "Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')";

fn fail(tool: &str) -> impl Fn(GitError) -> ToolError + '_ {
    move |e| ToolError::new(format!("Error executing tool {tool}: {}", e.0))
}

/// Refuses a value starting with `-`, which git would read as an option.
fn no_flag(what: &str, value: &str) -> Result<(), GitError> {
    if value.starts_with('-') {
        return Err(GitError(format!(
            "Invalid {what}: '{value}' - cannot start with '-'"
        )));
    }
    Ok(())
}

/// Opens `repo_path`, refusing one outside `--repository`.
fn open(conf: &Confinement, repo_path: &str) -> Result<Repo, GitError> {
    let path = Path::new(repo_path);
    if let Some(allowed) = &conf.repository {
        let resolved = git::resolve(path);
        if !resolved.starts_with(git::resolve(allowed)) {
            return Err(GitError(format!(
                "Repository path '{repo_path}' is outside the allowed repository '{}'",
                allowed.display()
            )));
        }
    }
    git::open(path)
}

async fn with_repo<F, Fut>(
    tool: &str,
    conf: &Confinement,
    repo_path: &str,
    f: F,
) -> Result<String, ToolError>
where
    F: FnOnce(Repo) -> Fut,
    Fut: std::future::Future<Output = Result<String, GitError>>,
{
    let _one = GIT_LOCK.lock().await;
    let run = async { f(open(conf, repo_path)?).await };
    run.await.map_err(fail(tool))
}

/// Shows the working tree status
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_status(conf: State<Confinement>, repo_path: String) -> Result<String, ToolError> {
    with_repo("git_status", &conf, &repo_path, |r| async move {
        Ok(format!("Repository status:\n{}", r.run(&["status"]).await?))
    })
    .await
}

/// Shows changes in the working directory that are not yet staged
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_diff_unstaged(
    conf: State<Confinement>,
    repo_path: String,
    #[arg(default = 3)] context_lines: i64,
) -> Result<String, ToolError> {
    with_repo("git_diff_unstaged", &conf, &repo_path, |r| async move {
        let unified = format!("--unified={context_lines}");
        Ok(format!(
            "Unstaged changes:\n{}",
            r.run(&["diff", &unified]).await?
        ))
    })
    .await
}

/// Shows changes that are staged for commit
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_diff_staged(
    conf: State<Confinement>,
    repo_path: String,
    #[arg(default = 3)] context_lines: i64,
) -> Result<String, ToolError> {
    with_repo("git_diff_staged", &conf, &repo_path, |r| async move {
        let unified = format!("--unified={context_lines}");
        let diff = r.run(&["diff", &unified, "--cached"]).await?;
        Ok(format!("Staged changes:\n{diff}"))
    })
    .await
}

/// Shows differences between branches or commits
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_diff(
    conf: State<Confinement>,
    repo_path: String,
    target: String,
    #[arg(default = 3)] context_lines: i64,
) -> Result<String, ToolError> {
    with_repo("git_diff", &conf, &repo_path, |r| async move {
        no_flag("target", &target)?;
        r.rev_parse(&target).await?;
        let unified = format!("--unified={context_lines}");
        let diff = r.run(&["diff", &unified, &target, "--"]).await?;
        Ok(format!("Diff with {target}:\n{diff}"))
    })
    .await
}

/// Records changes to the repository
#[tool(
    read_only = false,
    destructive = false,
    idempotent = false,
    open_world = false
)]
async fn git_commit(
    conf: State<Confinement>,
    repo_path: String,
    message: String,
) -> Result<String, ToolError> {
    with_repo("git_commit", &conf, &repo_path, |r| commit(r, message)).await
}

async fn commit(r: Repo, message: String) -> Result<String, GitError> {
    let git_dir = r.git_dir().await?;
    let merge_head = git_dir.join("MERGE_HEAD");
    let head = r.rev_parse("HEAD").await.ok();
    let staged = if merge_head.exists() {
        true
    } else if head.is_none() {
        !r.run(&["ls-files", "--stage"]).await?.is_empty()
    } else {
        !r.ok(&["diff-index", "--cached", "--quiet", "HEAD", "--"])
            .await?
    };
    if !staged {
        return Err(GitError(
            "No changes staged for commit. Use git_add to stage changes first; \
             git_status shows what is currently staged."
                .to_owned(),
        ));
    }
    let tree = r.run(&["write-tree"]).await?;
    let mut parents: Vec<String> = head.iter().cloned().collect();
    let merging = merge_head.exists();
    if merging {
        let text = tokio::fs::read_to_string(&merge_head)
            .await
            .map_err(|e| GitError(e.to_string()))?;
        for sha in text.split_whitespace() {
            parents.push(r.rev_parse(sha).await?);
        }
    }
    let mut args = vec!["commit-tree".to_owned(), tree];
    for p in &parents {
        args.push("-p".to_owned());
        args.push(p.clone());
    }
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    // The message verbatim on stdin, as GitPython writes it (no trailing newline added).
    let out = r.raw(&argv, Some(message.as_bytes())).await?;
    if out.code != Some(0) {
        return Err(GitError(format!(
            "Cmd('git') failed\n  stderr: '{}'",
            out.stderr
        )));
    }
    let sha = out.stdout.trim().to_owned();
    let subject = message.lines().next().unwrap_or("");
    let reflog = format!("commit: {subject}");
    let old = head.clone().unwrap_or_default();
    r.run(&["update-ref", "-m", &reflog, "HEAD", &sha, &old])
        .await?;
    let mut note = String::new();
    if merging {
        for name in ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE"] {
            let _ = tokio::fs::remove_file(git_dir.join(name)).await;
        }
        note = apply_autostash(&r, &git_dir).await?;
    }
    Ok(format!(
        "Changes committed successfully with hash {sha}{note}"
    ))
}

/// Reapplies a `git merge --autostash` stash after concluding the merge, as `git commit` does.
async fn apply_autostash(r: &Repo, git_dir: &Path) -> Result<String, GitError> {
    let path = git_dir.join("MERGE_AUTOSTASH");
    let Ok(oid) = tokio::fs::read_to_string(&path).await else {
        return Ok(String::new());
    };
    let oid = oid.trim().to_owned();
    let note = if r.ok(&["stash", "apply", &oid]).await? {
        "\nApplied autostash.".to_owned()
    } else {
        r.run(&["stash", "store", "-m", "autostash", "-q", &oid])
            .await?;
        "\nApplying autostash resulted in conflicts. Your changes are safe in the stash; run \
         \"git stash pop\" or \"git stash drop\" at any time."
            .to_owned()
    };
    let _ = tokio::fs::remove_file(&path).await;
    Ok(note)
}

/// Adds file contents to the staging area
#[tool(read_only = false, destructive = false, idempotent, open_world = false)]
async fn git_add(
    conf: State<Confinement>,
    repo_path: String,
    files: Files,
) -> Result<String, ToolError> {
    with_repo("git_add", &conf, &repo_path, |r| add(r, files.0)).await
}

/// The paths of `git_add`: a non-empty array of strings (`minItems: 1`, as the original's
/// schema says).
#[derive(Debug, mcp_runtime::serde::Deserialize)]
#[serde(crate = "mcp_runtime::serde")]
struct Files(Vec<String>);

impl mcp_runtime::schemars::JsonSchema for Files {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Files".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(
        _: &mut mcp_runtime::schemars::SchemaGenerator,
    ) -> mcp_runtime::schemars::Schema {
        mcp_runtime::schemars::json_schema!({
            "type": "array",
            "items": {"type": "string"},
            "minItems": 1
        })
    }
}

async fn add(r: Repo, files: Vec<String>) -> Result<String, GitError> {
    if files.is_empty() {
        return Err(GitError(
            "No files provided to stage. Pass one or more paths, or ['.'] to stage everything."
                .to_owned(),
        ));
    }
    let root = git::resolve(&r.root);
    if files != ["."] {
        for f in &files {
            if !git::resolve(&root.join(f)).starts_with(&root) {
                return Err(GitError(format!(
                    "Path '{f}' is outside the repository '{}'",
                    root.display()
                )));
            }
        }
    }
    let mut list = vec!["ls-files", "--stage", "--"];
    list.extend(files.iter().map(String::as_str));
    let before = r.run(&list).await?;
    let mut add = vec!["add", "--"];
    add.extend(files.iter().map(String::as_str));
    r.run(&add).await?;
    if r.run(&list).await? == before {
        return Ok(
            "No changes were staged: the given paths had nothing new to stage. \
                   git_status shows what is modified or untracked."
                .to_owned(),
        );
    }
    Ok("Files staged successfully".to_owned())
}

/// Unstages all staged changes
#[tool(read_only = false, destructive, idempotent, open_world = false)]
async fn git_reset(conf: State<Confinement>, repo_path: String) -> Result<String, ToolError> {
    with_repo("git_reset", &conf, &repo_path, |r| async move {
        r.run(&["reset", "--quiet", "--mixed"]).await?;
        Ok("All staged changes reset".to_owned())
    })
    .await
}

/// Shows the commit logs
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_log(
    conf: State<Confinement>,
    repo_path: String,
    #[arg(default = 10)] max_count: i64,
    #[doc = "Start timestamp for filtering commits. Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')"]
    start_timestamp: Option<String>,
    #[doc = "End timestamp for filtering commits. Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')"]
    end_timestamp: Option<String>,
) -> Result<String, ToolError> {
    let _ = TIMESTAMP_FORMATS;
    with_repo("git_log", &conf, &repo_path, |r| async move {
        let start = start_timestamp.filter(|s| !s.is_empty());
        let end = end_timestamp.filter(|s| !s.is_empty());
        if let Some(s) = &start
            && s.starts_with('-')
        {
            return Err(GitError(format!(
                "Invalid start_timestamp: '{s}' - cannot start with '-'"
            )));
        }
        if let Some(s) = &end
            && s.starts_with('-')
        {
            return Err(GitError(format!(
                "Invalid end_timestamp: '{s}' - cannot start with '-'"
            )));
        }
        let head = r.rev_parse("HEAD").await?;
        let mut args = vec![format!("--max-count={max_count}")];
        if let Some(s) = start {
            args.push(format!("--since={s}"));
        }
        if let Some(s) = end {
            args.push(format!("--until={s}"));
        }
        let mut argv = vec!["rev-list"];
        argv.extend(args.iter().map(String::as_str));
        argv.extend([head.as_str(), "--"]);
        let shas = r.run(&argv).await?;
        let mut entries = Vec::new();
        for sha in shas.lines().filter(|l| !l.is_empty()) {
            entries.push(objects::log_entry(&objects::read(&r, sha).await?));
        }
        Ok(format!("Commit history:\n{}", entries.join("\n")))
    })
    .await
}

/// Creates a new branch from an optional base branch
#[tool(
    read_only = false,
    destructive = false,
    idempotent = false,
    open_world = false
)]
async fn git_create_branch(
    conf: State<Confinement>,
    repo_path: String,
    branch_name: String,
    base_branch: Option<String>,
) -> Result<String, ToolError> {
    with_repo("git_create_branch", &conf, &repo_path, |r| async move {
        no_flag("branch name", &branch_name)?;
        let base_branch = base_branch.filter(|b| !b.is_empty());
        if let Some(b) = &base_branch {
            no_flag("base branch", b)?;
        }
        let (base_name, base_sha) = match base_branch {
            Some(b) => reference(&r, &b).await?,
            None => {
                let out = r.raw(&["symbolic-ref", "--quiet", "--short", "HEAD"], None).await?;
                if out.code != Some(0) {
                    return Err(GitError(
                        "HEAD is detached, so there is no current branch to branch from; pass base_branch"
                            .to_owned(),
                    ));
                }
                let name = out.stdout.trim().to_owned();
                (name, r.rev_parse("HEAD").await?)
            }
        };
        let full = format!("refs/heads/{branch_name}");
        if r.ok(&["show-ref", "--verify", "--quiet", &full]).await? {
            return Err(GitError(format!(
                "Cannot create branch '{branch_name}': {full} already exists"
            )));
        }
        if !r.ok(&["check-ref-format", &full]).await? {
            return Err(GitError(format!("Invalid reference name: '{full}'")));
        }
        let reflog = format!("branch: Created from {base_name}");
        r.run(&["update-ref", "-m", &reflog, &full, &base_sha, ""]).await?;
        Ok(format!("Created branch '{branch_name}' from '{base_name}'"))
    })
    .await
}

/// A reference by the short name GitPython gives it (`main`, `v1`, `origin/main`): its name
/// and the commit it points at, or the original's `IndexError` text.
async fn reference(r: &Repo, name: &str) -> Result<(String, String), GitError> {
    for prefix in ["refs/heads/", "refs/tags/", "refs/remotes/"] {
        let full = format!("{prefix}{name}");
        if r.ok(&["show-ref", "--verify", "--quiet", &full]).await? {
            let sha = r.rev_parse(&format!("{full}^{{commit}}")).await?;
            return Ok((name.to_owned(), sha));
        }
    }
    Err(GitError(format!("No item found with id {name}")))
}

/// Switches branches
#[tool(
    read_only = false,
    destructive = false,
    idempotent = false,
    open_world = false
)]
async fn git_checkout(
    conf: State<Confinement>,
    repo_path: String,
    branch_name: String,
) -> Result<String, ToolError> {
    with_repo("git_checkout", &conf, &repo_path, |r| async move {
        no_flag("branch name", &branch_name)?;
        r.rev_parse(&branch_name).await?;
        r.run(&["checkout", &branch_name, "--"]).await?;
        let out = r
            .raw(&["symbolic-ref", "--quiet", "--short", "HEAD"], None)
            .await?;
        if out.code != Some(0) {
            let sha = r.rev_parse("HEAD").await?;
            return Ok(format!(
                "HEAD is now detached at {}",
                &sha[..7.min(sha.len())]
            ));
        }
        Ok(format!("Switched to branch '{}'", out.stdout.trim()))
    })
    .await
}

/// Shows the contents of a commit, or of a file or directory given as <revision>:<path>
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_show(
    conf: State<Confinement>,
    repo_path: String,
    revision: String,
) -> Result<String, ToolError> {
    with_repo("git_show", &conf, &repo_path, |r| async move {
        no_flag("revision", &revision)?;
        crate::show::show(&r, &revision).await
    })
    .await
}

/// List Git branches
#[tool(read_only, destructive = false, idempotent, open_world = false)]
async fn git_branch(
    conf: State<Confinement>,
    /// The path to the Git repository.
    repo_path: String,
    /// Whether to list local branches ('local'), remote branches ('remote') or all branches('all').
    branch_type: String,
    /// The commit sha that branch should contain. Do not pass anything to this param if no commit sha is specified
    contains: Option<String>,
    /// The commit sha that branch should NOT contain. Do not pass anything to this param if no commit sha is specified
    not_contains: Option<String>,
) -> Result<String, ToolError> {
    with_repo("git_branch", &conf, &repo_path, |r| async move {
        let contains = contains.filter(|c| !c.is_empty());
        let not_contains = not_contains.filter(|c| !c.is_empty());
        if let Some(c) = &contains {
            no_flag("contains value", c)?;
        }
        if let Some(c) = &not_contains {
            no_flag("not_contains value", c)?;
        }
        let mut args = vec!["branch"];
        match branch_type.as_str() {
            "local" => {}
            "remote" => args.push("-r"),
            "all" => args.push("-a"),
            other => return Err(GitError(format!("Invalid branch type: {other}"))),
        }
        if let Some(c) = &contains {
            args.extend(["--contains", c.as_str()]);
        }
        if let Some(c) = &not_contains {
            args.extend(["--no-contains", c.as_str()]);
        }
        r.run(&args).await
    })
    .await
}
