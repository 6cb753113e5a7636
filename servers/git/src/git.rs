//! Running the `git` binary: argument arrays (never a shell), a sanitised environment, and
//! the original's error texts for a failed command.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// The `GIT_*` variables passed through to `git`: the identity and dates of a commit, as the
/// original (GitPython) reads them. Every other `GIT_*` variable (`GIT_DIR`, `GIT_WORK_TREE`,
/// `GIT_INDEX_FILE`, `GIT_CONFIG_*`, `GIT_EXTERNAL_DIFF`, …) is removed, so that the process
/// environment cannot point a call at another repository or make git run another program.
const KEPT_GIT_VARS: [&str; 6] = [
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "GIT_COMMITTER_DATE",
];

/// The most bytes of one command's standard output kept; a larger output is an error rather
/// than unbounded memory (a diff of a huge generated file, say).
pub const MAX_OUTPUT: usize = 64 * 1024 * 1024;

/// A failed git command, or a failure to run one.
#[derive(Debug)]
pub struct GitError(pub String);

impl GitError {
    /// The original's text for a command that exited non-zero (GitPython's `GitCommandError`).
    fn command(args: &[&str], code: Option<i32>, stdout: &str, stderr: &str) -> Self {
        let cause = match code {
            Some(c) if c != 0 => format!(" due to: exit code({c})"),
            _ => "!".to_owned(),
        };
        let mut text = format!(
            "Cmd('git') failed{cause}\n  cmdline: git {}",
            args.join(" ")
        );
        if !stdout.is_empty() {
            text.push_str(&format!("\n  stdout: '{stdout}'"));
        }
        if !stderr.is_empty() {
            text.push_str(&format!("\n  stderr: '{stderr}'"));
        }
        Self(text)
    }
}

/// The output of a command that ran, whatever its exit status.
#[derive(Debug)]
pub struct Output {
    /// The exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, one trailing newline removed.
    pub stderr: String,
}

/// A repository's working tree, where each command runs.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The working tree's root.
    pub root: PathBuf,
}

impl Repo {
    /// Runs `git ARGS` in the working tree; `Output` whatever the exit status.
    pub async fn raw(&self, args: &[&str], stdin: Option<&[u8]>) -> Result<Output, GitError> {
        let mut cmd = Command::new("git");
        cmd.args(args)
            .current_dir(&self.root)
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        sanitise(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| GitError(format!("cannot run git: {e}")))?;
        if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
            let input = input.to_vec();
            tokio::spawn(async move {
                let _ = pipe.write_all(&input).await;
            });
        }
        let out = child
            .wait_with_output()
            .await
            .map_err(|e| GitError(format!("cannot run git: {e}")))?;
        if out.stdout.len() > MAX_OUTPUT {
            return Err(GitError(format!(
                "git {} wrote more than {MAX_OUTPUT} bytes",
                args.first().unwrap_or(&"")
            )));
        }
        let mut stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if stderr.ends_with('\n') {
            stderr.pop();
        }
        Ok(Output {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr,
        })
    }

    /// Runs `git ARGS`; its standard output with one trailing newline removed (as GitPython
    /// returns it), or the original's error text when it fails.
    pub async fn run(&self, args: &[&str]) -> Result<String, GitError> {
        let out = self.raw(args, None).await?;
        if out.code != Some(0) {
            let mut stdout = out.stdout;
            if stdout.ends_with('\n') {
                stdout.pop();
            }
            return Err(GitError::command(args, out.code, &stdout, &out.stderr));
        }
        let mut stdout = out.stdout;
        if stdout.ends_with('\n') {
            stdout.pop();
        }
        Ok(stdout)
    }

    /// Whether `git ARGS` exits 0 (any output discarded).
    pub async fn ok(&self, args: &[&str]) -> Result<bool, GitError> {
        Ok(self.raw(args, None).await?.code == Some(0))
    }

    /// The git directory (`.git`, or what a `.git` file points at).
    pub async fn git_dir(&self) -> Result<PathBuf, GitError> {
        let dir = self.run(&["rev-parse", "--absolute-git-dir"]).await?;
        Ok(PathBuf::from(dir))
    }

    /// The object a revision names (`REV^{object}`), or the original's `BadName` text.
    pub async fn rev_parse(&self, rev: &str) -> Result<String, GitError> {
        let bad = || GitError(format!("Ref '{rev}' did not resolve to an object"));
        let verify = ["rev-parse", "--verify", "--quiet", "--end-of-options", rev];
        let out = self.raw(&verify, None).await?;
        if out.code != Some(0) {
            return Err(bad());
        }
        let oid = out.stdout.trim_end().to_owned();
        // `--verify` takes a full hash as it is: the object must also exist.
        if self.raw(&["cat-file", "-e", &oid], None).await?.code != Some(0) {
            return Err(bad());
        }
        Ok(oid)
    }
}

/// Removes every `GIT_*` variable but the commit identity and dates, turns off prompts, and
/// makes git speak the C locale, as GitPython does (`LANGUAGE=C`, `LC_ALL=C`).
fn sanitise(cmd: &mut Command) {
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        if key.starts_with("GIT_") && !KEPT_GIT_VARS.contains(&key) {
            cmd.env_remove(key);
        }
    }
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .env("LANGUAGE", "C")
        .env("LC_ALL", "C");
}

/// Opens the repository at `path` as GitPython's `Repo(path)` does: the path must exist and be
/// a working tree's root (holding `.git`) or a git directory itself; its error texts are the
/// absolute path.
pub fn open(path: &Path) -> Result<Repo, GitError> {
    let abs = absolute(path);
    let shown = abs.display().to_string();
    if !abs.exists() {
        return Err(GitError(shown));
    }
    if abs.join(".git").exists() {
        return Ok(Repo { root: abs });
    }
    if abs.join("HEAD").is_file() && abs.join("objects").is_dir() && abs.join("refs").is_dir() {
        return Err(GitError(format!(
            "{shown} is a bare repository: the git tools need a working tree"
        )));
    }
    Err(GitError(shown))
}

/// `path` made absolute against the current directory and normalised lexically (`.` and `..`
/// removed), as Python's `os.path.abspath`.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` with symbolic links resolved as far as it exists, the rest appended lexically: the
/// non-strict `Path.resolve()` of Python, which the original's confinement checks use.
pub fn resolve(path: &Path) -> PathBuf {
    let abs = absolute(path);
    let mut existing = abs.clone();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return absolute(&out);
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return abs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_error_has_the_originals_layout() {
        let e = GitError::command(&["add", "--", "nope"], Some(128), "", "fatal: no");
        assert_eq!(
            e.0,
            "Cmd('git') failed due to: exit code(128)\n  cmdline: git add -- nope\n  stderr: 'fatal: no'"
        );
    }

    #[test]
    fn absolute_removes_dot_segments() {
        assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
    }

    #[test]
    fn resolve_keeps_the_missing_tail() {
        let base = std::env::temp_dir().canonicalize().unwrap();
        let p = base.join("surely-missing-dir-xyz/../other/file");
        assert_eq!(resolve(&p), base.join("other/file"));
    }
}
