//! The unified diff `edit_file` returns, as the original's `createTwoFilesPatch(path, path,
//! old, new, "original", "modified")` writes it: an `Index:` line, a rule, the two file
//! headers, hunks with 4 lines of context and `\ No newline at end of file` markers. The line
//! diff is Myers' algorithm with the same choices at every tie, so the same edit gives the same
//! hunks.

/// The most edits the line diff searches for; past it the diff is one removal and one
/// addition of everything (bounded time and memory on huge rewrites).
const MAX_EDITS: usize = 4000;

#[derive(Debug, Clone, Copy)]
struct Node {
    count: usize,
    added: bool,
    removed: bool,
    prev: Option<usize>,
}

#[derive(Debug, Clone, Copy)]
struct PathHead {
    old_pos: isize,
    last: Option<usize>,
}

/// A run of lines: kept, added or removed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Change {
    added: bool,
    removed: bool,
    lines: Vec<String>,
}

/// Lines with their `\n` (the last one without, when the text does not end with one).
fn tokenize(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                out.push(rest[..=i].to_owned());
                rest = &rest[i + 1..];
            }
            None => {
                out.push(rest.to_owned());
                rest = "";
            }
        }
    }
    out
}

struct Search<'a> {
    old: &'a [String],
    new: &'a [String],
    nodes: Vec<Node>,
}

impl Search<'_> {
    fn push(&mut self, count: usize, added: bool, removed: bool, prev: Option<usize>) -> usize {
        self.nodes.push(Node {
            count,
            added,
            removed,
            prev,
        });
        self.nodes.len() - 1
    }

    fn add_to_path(&mut self, path: PathHead, added: bool, removed: bool, inc: isize) -> PathHead {
        let last = path.last.map(|i| self.nodes[i]);
        let node = match last {
            Some(l) if l.added == added && l.removed == removed => {
                self.push(l.count + 1, added, removed, l.prev)
            }
            _ => self.push(1, added, removed, path.last),
        };
        PathHead {
            old_pos: path.old_pos + inc,
            last: Some(node),
        }
    }

    fn extract_common(&mut self, path: &mut PathHead, diagonal: isize) -> isize {
        let (old_len, new_len) = (self.old.len() as isize, self.new.len() as isize);
        let mut old_pos = path.old_pos;
        let mut new_pos = old_pos - diagonal;
        let mut common = 0;
        while new_pos + 1 < new_len
            && old_pos + 1 < old_len
            && self.old[(old_pos + 1) as usize] == self.new[(new_pos + 1) as usize]
        {
            new_pos += 1;
            old_pos += 1;
            common += 1;
        }
        if common > 0 {
            path.last = Some(self.push(common, false, false, path.last));
        }
        path.old_pos = old_pos;
        new_pos
    }

    fn changes(&self, last: Option<usize>) -> Vec<Change> {
        let mut chain = Vec::new();
        let mut at = last;
        while let Some(i) = at {
            chain.push(self.nodes[i]);
            at = self.nodes[i].prev;
        }
        chain.reverse();
        let (mut old_pos, mut new_pos) = (0, 0);
        let mut out = Vec::new();
        for n in chain {
            let lines = if n.removed {
                let l = self.old[old_pos..old_pos + n.count].to_vec();
                old_pos += n.count;
                l
            } else {
                let l = self.new[new_pos..new_pos + n.count].to_vec();
                new_pos += n.count;
                if !n.added {
                    old_pos += n.count;
                }
                l
            };
            out.push(Change {
                added: n.added,
                removed: n.removed,
                lines,
            });
        }
        out
    }
}

fn diff_lines(old: &[String], new: &[String]) -> Vec<Change> {
    let mut s = Search {
        old,
        new,
        nodes: Vec::new(),
    };
    let (old_len, new_len) = (old.len() as isize, new.len() as isize);
    let max = (old.len() + new.len()).min(MAX_EDITS) as isize;
    let offset = max + 1;
    let mut best: Vec<Option<PathHead>> = vec![None; (2 * max + 3) as usize];
    let mut first = PathHead {
        old_pos: -1,
        last: None,
    };
    let new_pos = s.extract_common(&mut first, 0);
    if first.old_pos + 1 >= old_len && new_pos + 1 >= new_len {
        return s.changes(first.last);
    }
    best[offset as usize] = Some(first);
    let (mut min_diag, mut max_diag) = (isize::MIN, isize::MAX);
    for edit in 1..=max {
        let mut diag = min_diag.max(-edit);
        while diag <= max_diag.min(edit) {
            let at = |d: isize| (d + offset) as usize;
            let remove = best[at(diag - 1)];
            let add = best[at(diag + 1)];
            if remove.is_some() {
                best[at(diag - 1)] = None;
            }
            let can_add = add.is_some_and(|a| {
                let p = a.old_pos - diag;
                0 <= p && p < new_len
            });
            let can_remove = remove.is_some_and(|r| r.old_pos + 1 < old_len);
            if !can_add && !can_remove {
                best[at(diag)] = None;
                diag += 2;
                continue;
            }
            let mut base = match (remove, add) {
                (Some(r), Some(a)) if can_add && (!can_remove || r.old_pos < a.old_pos) => {
                    s.add_to_path(a, true, false, 0)
                }
                (_, Some(a)) if !can_remove => s.add_to_path(a, true, false, 0),
                (Some(r), _) => s.add_to_path(r, false, true, 1),
                (None, Some(a)) => s.add_to_path(a, true, false, 0),
                (None, None) => unreachable_path(),
            };
            let new_pos = s.extract_common(&mut base, diag);
            if base.old_pos + 1 >= old_len && new_pos + 1 >= new_len {
                return s.changes(base.last);
            }
            best[at(diag)] = Some(base);
            if base.old_pos + 1 >= old_len {
                max_diag = max_diag.min(diag - 1);
            }
            if new_pos + 1 >= new_len {
                min_diag = min_diag.max(diag + 1);
            }
            diag += 2;
        }
    }
    // Too many edits to search: everything removed, then everything added.
    let mut out = Vec::new();
    if !old.is_empty() {
        out.push(Change {
            added: false,
            removed: true,
            lines: old.to_vec(),
        });
    }
    if !new.is_empty() {
        out.push(Change {
            added: true,
            removed: false,
            lines: new.to_vec(),
        });
    }
    out
}

/// Never reached: a diagonal with neither path was skipped above.
fn unreachable_path() -> PathHead {
    PathHead {
        old_pos: -1,
        last: None,
    }
}

struct Hunk {
    old_start: usize,
    old_lines: usize,
    new_start: usize,
    new_lines: usize,
    lines: Vec<String>,
}

/// The patch of `old` to `new`, both named `name`, with headers `original` and `modified`.
pub fn unified(name: &str, old: &str, new: &str) -> String {
    const CONTEXT: usize = 4;
    let mut changes = diff_lines(&tokenize(old), &tokenize(new));
    changes.push(Change {
        added: false,
        removed: false,
        lines: Vec::new(),
    });
    let context =
        |lines: &[String]| -> Vec<String> { lines.iter().map(|l| format!(" {l}")).collect() };
    let mut hunks: Vec<Hunk> = Vec::new();
    let (mut old_start, mut new_start) = (0usize, 0usize);
    let mut range: Vec<String> = Vec::new();
    let (mut old_line, mut new_line) = (1usize, 1usize);
    for i in 0..changes.len() {
        let current = &changes[i];
        if current.added || current.removed {
            if old_start == 0 {
                old_start = old_line;
                new_start = new_line;
                if i > 0 {
                    let prev = &changes[i - 1].lines;
                    range = context(&prev[prev.len().saturating_sub(CONTEXT)..]);
                    old_start -= range.len();
                    new_start -= range.len();
                }
            }
            let sign = if current.added { '+' } else { '-' };
            range.extend(current.lines.iter().map(|l| format!("{sign}{l}")));
            if current.added {
                new_line += current.lines.len();
            } else {
                old_line += current.lines.len();
            }
        } else {
            let lines = &current.lines;
            if old_start != 0 {
                if lines.len() <= CONTEXT * 2 && i + 2 < changes.len() {
                    range.extend(context(lines));
                } else {
                    let size = lines.len().min(CONTEXT);
                    range.extend(context(&lines[..size]));
                    hunks.push(Hunk {
                        old_start,
                        old_lines: old_line - old_start + size,
                        new_start,
                        new_lines: new_line - new_start + size,
                        lines: std::mem::take(&mut range),
                    });
                    old_start = 0;
                    new_start = 0;
                }
            }
            old_line += lines.len();
            new_line += lines.len();
        }
    }
    let mut out = vec![
        format!("Index: {name}"),
        "===================================================================".to_owned(),
        format!("--- {name}\toriginal"),
        format!("+++ {name}\tmodified"),
    ];
    for mut hunk in hunks {
        if hunk.old_lines == 0 {
            hunk.old_start -= 1;
        }
        if hunk.new_lines == 0 {
            hunk.new_start -= 1;
        }
        out.push(format!(
            "@@ -{},{} +{},{} @@",
            hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines
        ));
        for line in hunk.lines {
            match line.strip_suffix('\n') {
                Some(l) => out.push(l.to_owned()),
                None => {
                    out.push(line);
                    out.push("\\ No newline at end of file".to_owned());
                }
            }
        }
    }
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn one_changed_line() {
        let d = unified("/f", "a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(
            d,
            "Index: /f\n===================================================================\n\
             --- /f\toriginal\n+++ /f\tmodified\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        );
    }

    #[test]
    fn no_newline_at_end() {
        let d = unified("/f", "a", "b");
        assert!(d.ends_with(
            "@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"
        ));
    }

    #[test]
    fn no_change_has_no_hunk() {
        let d = unified("/f", "a\n", "a\n");
        assert!(d.ends_with("+++ /f\tmodified\n"));
    }
}
