//! `git_show`: a blob's text, a tree's names, or a commit's header and its patch against its
//! first parent, laid out as the original lays them out (each file as `--- a/…`, `+++ b/…`
//! and its hunks).

use crate::git::{GitError, Repo};
use crate::objects;

/// What the original prints for `revision`.
pub async fn show(r: &Repo, revision: &str) -> Result<String, GitError> {
    let oid = r.rev_parse(revision).await?;
    let kind = r.run(&["cat-file", "-t", &oid]).await?;
    match kind.as_str() {
        "blob" => {
            let out = r.raw(&["cat-file", "blob", &oid], None).await?;
            Ok(out.stdout)
        }
        "tree" => {
            let out = r.raw(&["ls-tree", "-z", &oid], None).await?;
            let names: Vec<String> = out
                .stdout
                .split('\0')
                .filter(|e| !e.is_empty())
                .filter_map(|entry| {
                    let (meta, name) = entry.split_once('\t')?;
                    let is_tree = meta.split(' ').nth(1) == Some("tree");
                    Some(if is_tree {
                        format!("{name}/")
                    } else {
                        name.to_owned()
                    })
                })
                .collect();
            Ok(names.join("\n"))
        }
        _ => {
            let sha = r.rev_parse(&format!("{oid}^{{commit}}")).await?;
            let commit = objects::read(r, &sha).await?;
            let mut out = objects::show_header(&commit);
            let common = [
                "-r",
                "--abbrev=40",
                "--full-index",
                "-M",
                "-p",
                "--no-ext-diff",
                "--no-color",
            ];
            let mut args = vec!["diff-tree"];
            args.extend(common);
            let parent;
            match commit.parents.first() {
                Some(p) => {
                    parent = p.clone();
                    args.extend([parent.as_str(), sha.as_str()]);
                }
                None => args.extend(["--root", sha.as_str()]),
            }
            let patch = r.raw(&args, None).await?;
            if patch.code != Some(0) {
                return Err(GitError(patch.stderr));
            }
            for file in files(&patch.stdout) {
                out.push_str(&format!("\n--- {}\n+++ {}\n", file.a, file.b));
                out.push_str(&file.body);
            }
            Ok(out)
        }
    }
}

/// One file of a patch: its two sides as printed, and its hunks (or its binary note).
#[derive(Debug, PartialEq, Eq)]
struct FilePatch {
    a: String,
    b: String,
    body: String,
}

/// Splits `git diff-tree -p` output into files.
fn files(patch: &str) -> Vec<FilePatch> {
    let mut out = Vec::new();
    let mut sections: Vec<&str> = Vec::new();
    let mut start = None;
    let mut pos = 0;
    for line in patch.split_inclusive('\n') {
        if line.starts_with("diff --git ") {
            if let Some(s) = start {
                sections.push(&patch[s..pos]);
            }
            start = Some(pos);
        }
        pos += line.len();
    }
    if let Some(s) = start {
        sections.push(&patch[s..]);
    }
    for section in sections {
        let mut lines = section.split_inclusive('\n');
        let header = lines.next().unwrap_or("").trim_end_matches('\n');
        let names = header.trim_start_matches("diff --git ");
        let (mut a, mut b) = match names.find(" b/") {
            Some(i) => (
                names[..i].trim_start_matches("a/").to_owned(),
                names[i + 3..].to_owned(),
            ),
            None => (String::new(), String::new()),
        };
        let (mut new_file, mut deleted) = (false, false);
        let mut body = String::new();
        let mut in_body = false;
        for line in lines {
            if in_body {
                body.push_str(line);
                continue;
            }
            let l = line.trim_end_matches('\n');
            if l.starts_with("@@") || l.starts_with("Binary files ") {
                in_body = true;
                body.push_str(line);
            } else if l.starts_with("new file mode") {
                new_file = true;
            } else if l.starts_with("deleted file mode") {
                deleted = true;
            } else if let Some(p) = l.strip_prefix("rename from ") {
                a = p.to_owned();
            } else if let Some(p) = l.strip_prefix("rename to ") {
                b = p.to_owned();
            } else if let Some(p) = l.strip_prefix("--- a/") {
                a = p.to_owned();
            } else if let Some(p) = l.strip_prefix("+++ b/") {
                b = p.to_owned();
            }
        }
        out.push(FilePatch {
            a: if new_file {
                "/dev/null".to_owned()
            } else {
                format!("a/{a}")
            },
            b: if deleted {
                "/dev/null".to_owned()
            } else {
                format!("b/{b}")
            },
            body,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_files_and_keeps_hunks_verbatim() {
        let patch = "diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/n b/n\nnew file mode 100644\nindex 0..3\nBinary files /dev/null and b/n differ\n";
        assert_eq!(
            files(patch),
            vec![
                FilePatch {
                    a: "a/a.txt".into(),
                    b: "b/a.txt".into(),
                    body: "@@ -1 +1 @@\n-x\n+y\n".into()
                },
                FilePatch {
                    a: "/dev/null".into(),
                    b: "b/n".into(),
                    body: "Binary files /dev/null and b/n differ\n".into()
                },
            ]
        );
    }
}
