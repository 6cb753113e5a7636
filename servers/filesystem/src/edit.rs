//! `edit_file`'s edits, applied in order as the original applies them: an exact match first
//! (its first occurrence), else a match of whole lines ignoring their surrounding whitespace,
//! the replacement re-indented like the matched lines.

use crate::text::normalize_line_endings;

/// One replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The text to find.
    pub old_text: String,
    /// What replaces it.
    pub new_text: String,
}

fn leading_ws(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

/// `content` with every edit applied, or the message of the first edit that matches nothing.
pub fn apply(content: &str, edits: &[Edit]) -> Result<String, String> {
    let mut modified = content.to_owned();
    for edit in edits {
        let old = normalize_line_endings(&edit.old_text);
        let new = normalize_line_endings(&edit.new_text);
        if modified.contains(&old) {
            modified = modified.replacen(&old, &new, 1);
            continue;
        }
        let old_lines: Vec<&str> = old.split('\n').collect();
        let mut content_lines: Vec<String> = modified.split('\n').map(str::to_owned).collect();
        let mut found = false;
        if content_lines.len() >= old_lines.len() {
            for i in 0..=content_lines.len() - old_lines.len() {
                let window = &content_lines[i..i + old_lines.len()];
                if !old_lines
                    .iter()
                    .zip(window)
                    .all(|(o, c)| o.trim() == c.trim())
                {
                    continue;
                }
                let indent = leading_ws(&content_lines[i]).to_owned();
                let replacement: Vec<String> = new
                    .split('\n')
                    .enumerate()
                    .map(|(j, line)| {
                        if j == 0 {
                            return format!("{indent}{}", line.trim_start());
                        }
                        let old_indent = old_lines.get(j).map_or("", |l| leading_ws(l));
                        let new_indent = leading_ws(line);
                        if !old_indent.is_empty() && !new_indent.is_empty() {
                            let relative = new_indent.chars().count() as isize
                                - old_indent.chars().count() as isize;
                            let pad = " ".repeat(relative.max(0) as usize);
                            return format!("{indent}{pad}{}", line.trim_start());
                        }
                        line.to_owned()
                    })
                    .collect();
                content_lines.splice(i..i + old_lines.len(), replacement);
                modified = content_lines.join("\n");
                found = true;
                break;
            }
        }
        if !found {
            return Err(format!(
                "Could not find exact match for edit:\n{}",
                edit.old_text
            ));
        }
    }
    Ok(modified)
}

/// The diff in a fenced block whose fence is longer than any run of backticks in it.
pub fn fenced(diff: &str) -> String {
    let mut ticks = 3;
    while diff.contains(&"`".repeat(ticks)) {
        ticks += 1;
    }
    let fence = "`".repeat(ticks);
    format!("{fence}diff\n{diff}{fence}\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str) -> Edit {
        Edit {
            old_text: old.into(),
            new_text: new.into(),
        }
    }

    #[test]
    fn exact_then_whitespace_insensitive() {
        assert_eq!(apply("a b a", &[edit("a", "c")]).unwrap(), "c b a");
        let text = "fn f() {\n    let x = 1;\n}\n";
        let out = apply(text, &[edit("let x = 1;", "let y = 2;")]).unwrap();
        assert_eq!(out, "fn f() {\n    let y = 2;\n}\n");
        let out = apply(text, &[edit("let x = 1; \n}", "let z = 3;\n}")]).unwrap();
        assert_eq!(out, "fn f() {\n    let z = 3;\n}\n");
        let err = apply(text, &[edit("nothing", "x")]).unwrap_err();
        assert_eq!(err, "Could not find exact match for edit:\nnothing");
    }

    #[test]
    fn fence_outgrows_backticks() {
        assert_eq!(fenced("a ``` b\n"), "````diff\na ``` b\n````\n\n");
    }
}
