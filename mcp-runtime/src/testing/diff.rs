//! A line diff for failure messages: bounded in the work it does and in what it prints.
//!
//! The lines both texts start and end with are set aside; what remains is compared line by
//! line with a longest-common-subsequence table when it is small enough
//! ([`TABLE_CELLS`]), else shown as removed then added. Unchanged lines are shown around each
//! change ([`CONTEXT`]), and at most [`SHOWN`] lines are printed.

/// The most cells of the comparison table (old lines × new lines in the changed middle).
const TABLE_CELLS: usize = 1 << 20;

/// Unchanged lines shown before and after a change.
const CONTEXT: usize = 2;

/// The most lines printed; the rest are counted.
const SHOWN: usize = 200;

#[derive(Clone, Copy, PartialEq)]
enum Op<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// The lines of `old` and `new` that differ, as `- removed` and `+ added` lines with `  same`
/// lines around them (numbered by their line in `new`, `@@ line N @@`); empty when the texts
/// have the same lines.
pub(crate) fn line_diff(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    if old_mid.is_empty() && new_mid.is_empty() {
        return String::new();
    }
    let mut ops: Vec<Op<'_>> = new[..prefix].iter().map(|l| Op::Same(l)).collect();
    ops.extend(middle(old_mid, new_mid));
    ops.extend(new[new.len() - suffix..].iter().map(|l| Op::Same(l)));
    render(&ops)
}

/// The changed middle as operations: through the table when it fits, else all removed then
/// all added.
fn middle<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op<'a>> {
    let cells = (old.len() + 1).saturating_mul(new.len() + 1);
    if cells > TABLE_CELLS {
        let mut ops: Vec<Op<'a>> = old.iter().map(|l| Op::Removed(l)).collect();
        ops.extend(new.iter().map(|l| Op::Added(l)));
        return ops;
    }
    // lcs[i][j]: the longest common subsequence of old[i..] and new[j..].
    let width = new.len() + 1;
    let mut lcs = vec![0u32; cells];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i * width + j] = if old[i] == new[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(old.len() + new.len());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            ops.push(Op::Same(new[j]));
            i += 1;
            j += 1;
        } else if i < old.len()
            && (j == new.len() || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])
        {
            // Removed before added, where either would do.
            ops.push(Op::Removed(old[i]));
            i += 1;
        } else {
            ops.push(Op::Added(new[j]));
            j += 1;
        }
    }
    ops
}

/// The operations near a change, each hunk headed by the line in the new text it starts at.
fn render(ops: &[Op<'_>]) -> String {
    let changed: Vec<bool> = ops.iter().map(|op| !matches!(op, Op::Same(_))).collect();
    let near = |k: usize| {
        let lo = k.saturating_sub(CONTEXT);
        let hi = (k + CONTEXT + 1).min(ops.len());
        changed[lo..hi].iter().any(|c| *c)
    };
    let mut lines: Vec<String> = Vec::new();
    let mut new_line = 1usize;
    let mut in_hunk = false;
    for (k, op) in ops.iter().enumerate() {
        if near(k) {
            if !in_hunk {
                lines.push(format!("@@ line {new_line} @@"));
                in_hunk = true;
            }
            lines.push(match op {
                Op::Same(l) => format!("  {l}"),
                Op::Removed(l) => format!("- {l}"),
                Op::Added(l) => format!("+ {l}"),
            });
        } else {
            in_hunk = false;
        }
        if !matches!(op, Op::Removed(_)) {
            new_line += 1;
        }
    }
    if lines.len() > SHOWN {
        let more = lines.len() - SHOWN;
        lines.truncate(SHOWN);
        lines.push(format!("… and {more} more lines"));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn the_same_lines_are_no_diff() {
        assert_eq!(line_diff("a\nb\n", "a\nb"), "");
    }

    #[test]
    fn a_changed_line_is_shown_with_its_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8";
        assert_eq!(
            line_diff(old, new),
            "@@ line 3 @@\n  3\n  4\n- 5\n+ five\n  6\n  7"
        );
    }

    #[test]
    fn added_and_removed_lines_are_aligned() {
        assert_eq!(
            line_diff("a\nb\nc\nd", "a\nc\nd\ne"),
            "@@ line 1 @@\n  a\n- b\n  c\n  d\n+ e"
        );
    }

    #[test]
    fn a_large_change_is_cut() {
        let old: String = (0..2000).map(|i| format!("old {i}\n")).collect();
        let new: String = (0..2000).map(|i| format!("new {i}\n")).collect();
        let diff = line_diff(&old, &new);
        let lines: Vec<&str> = diff.lines().collect();
        assert_eq!(lines.len(), 201);
        assert_eq!(lines[1], "- old 0");
        assert_eq!(lines[200], "… and 3801 more lines");
    }
}
