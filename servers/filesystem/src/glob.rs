//! Glob patterns as the original's `minimatch(path, pattern, { dot: true })` reads them:
//! `*`, `?`, `[…]` classes (`!` or `^` negates, ranges), `\` escapes, `{a,b}` alternatives,
//! `**` as a whole segment for any number of segments, a leading `!` negating, a leading `#`
//! matching nothing. Dot files match like any other (`dot: true`).

/// Whether the relative `path` matches `pattern`.
pub fn matches(path: &str, pattern: &str) -> bool {
    if pattern.starts_with('#') {
        return false;
    }
    let bangs = pattern.chars().take_while(|&c| c == '!').count();
    let negate = bangs % 2 == 1;
    let pattern = &pattern[bangs..];
    let hit = expand_braces(pattern).iter().any(|p| matches_one(path, p));
    hit != negate
}

fn matches_one(path: &str, pattern: &str) -> bool {
    if pattern.is_empty() {
        return path.is_empty();
    }
    let pat: Vec<&str> = pattern.split('/').collect();
    let segs: Vec<&str> = path.split('/').collect();
    match_segments(&segs, &pat)
}

fn match_segments(segs: &[&str], pat: &[&str]) -> bool {
    let Some((first, rest)) = pat.split_first() else {
        return segs.is_empty();
    };
    if *first == "**" {
        // Zero or more segments, never `.` or `..`.
        for skip in 0..=segs.len() {
            if skip > 0 && matches!(segs[skip - 1], "." | "..") {
                return false;
            }
            if match_segments(&segs[skip..], rest) {
                return true;
            }
        }
        return false;
    }
    let Some((seg, more)) = segs.split_first() else {
        return false;
    };
    if matches!(*seg, "." | "..") && *first != *seg {
        return false;
    }
    match_segment(seg, first) && match_segments(more, rest)
}

#[derive(Debug)]
enum Token {
    Char(char),
    Any,
    One,
    Class {
        negated: bool,
        items: Vec<(char, char)>,
    },
}

fn tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                out.push(Token::Char(chars[i + 1]));
                i += 2;
                continue;
            }
            '*' => {
                if !matches!(out.last(), Some(Token::Any)) {
                    out.push(Token::Any);
                }
            }
            '?' => out.push(Token::One),
            '[' => {
                if let Some((token, next)) = class(&chars, i) {
                    out.push(token);
                    i = next;
                    continue;
                }
                out.push(Token::Char('['));
            }
            c => out.push(Token::Char(c)),
        }
        i += 1;
    }
    out
}

/// A `[…]` class starting at `start`, and the index after it; `None` when unclosed.
fn class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    while i < chars.len() {
        let mut c = chars[i];
        if c == ']' && !first {
            return Some((Token::Class { negated, items }, i + 1));
        }
        first = false;
        if c == '\\' && i + 1 < chars.len() {
            i += 1;
            c = chars[i];
        }
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|&e| e != ']') {
            items.push((c, chars[i + 2]));
            i += 3;
        } else {
            items.push((c, c));
            i += 1;
        }
    }
    None
}

fn match_segment(seg: &str, pattern: &str) -> bool {
    let toks = tokens(pattern);
    let text: Vec<char> = seg.chars().collect();
    // reachable[j]: the first j tokens can match the text read so far.
    let mut reachable = vec![false; toks.len() + 1];
    reachable[0] = true;
    for j in 0..toks.len() {
        if reachable[j] && matches!(toks[j], Token::Any) {
            reachable[j + 1] = true;
        }
    }
    for &c in &text {
        let mut next = vec![false; toks.len() + 1];
        for j in 0..toks.len() {
            if !reachable[j] {
                continue;
            }
            match &toks[j] {
                Token::Any => {
                    next[j] = true;
                    next[j + 1] = true;
                }
                Token::One => next[j + 1] = true,
                Token::Char(p) => next[j + 1] |= *p == c,
                Token::Class { negated, items } => {
                    let inside = items.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                    next[j + 1] |= inside != *negated;
                }
            }
        }
        for j in 0..toks.len() {
            if next[j] && matches!(toks[j], Token::Any) {
                next[j + 1] = true;
            }
        }
        reachable = next;
    }
    reachable[toks.len()]
}

/// `{a,b}` alternatives, nested, expanded into every pattern they stand for (at most 1024).
fn expand_braces(pattern: &str) -> Vec<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut depth = 0usize;
    let mut open = None;
    let mut commas = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '{' => {
                if depth == 0 {
                    open = Some(i);
                    commas.clear();
                }
                depth += 1;
            }
            ',' if depth == 1 => commas.push(i),
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0
                    && let Some(start) = open
                {
                    if commas.is_empty() {
                        open = None;
                        i += 1;
                        continue;
                    }
                    let before: String = chars[..start].iter().collect();
                    let after: String = chars[i + 1..].iter().collect();
                    let mut bounds = vec![start];
                    bounds.extend(&commas);
                    bounds.push(i);
                    let mut out = Vec::new();
                    for w in bounds.windows(2) {
                        let alt: String = chars[w[0] + 1..w[1]].iter().collect();
                        for tail in expand_braces(&format!("{alt}{after}")) {
                            if out.len() < 1024 {
                                out.push(format!("{before}{tail}"));
                            }
                        }
                    }
                    return out;
                }
            }
            _ => {}
        }
        i += 1;
    }
    vec![pattern.to_owned()]
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs_like_minimatch() {
        assert!(matches("a.txt", "*.txt"));
        assert!(!matches("sub/a.txt", "*.txt"));
        assert!(matches("sub/a.txt", "**/*.txt"));
        assert!(matches("a.txt", "**/*.txt"));
        assert!(matches(".hidden", "*"));
        assert!(matches("sub/deep/x.md", "sub/**"));
        assert!(matches("a.rs", "*.{rs,md}"));
        assert!(matches("b1", "b[0-9]"));
        assert!(!matches("bx", "b[!x]"));
        assert!(matches("x.js", "!*.txt"));
        assert!(!matches("node_modules", "#node_modules"));
        assert!(matches("a?c", "a\\?c"));
    }
}
