//! The part of YAML that skill frontmatter uses, read into JSON: block maps and lists by
//! indentation, plain, single- and double-quoted scalars (plain ones continued on more-indented
//! lines), literal (`|`) and folded (`>`) block scalars, one-line flow lists and maps, comments.
//!
//! Plain scalars resolve as YAML 1.2's core schema does: `null`, `~` and nothing are null,
//! `true`/`false` booleans, decimal integers and floats numbers, anything else a string (a date
//! stays a string). Whatever else YAML has (anchors, aliases, tags, documents, multi-line flow
//! collections, complex keys) is refused with its line, never read as something it is not: the
//! frontmatter a server publishes must be the one a YAML parser reads from the same file.

use serde_json::{Map, Number, Value};

/// A line of the frontmatter: its 1-based number, indentation and text after the indentation.
#[derive(Clone, Copy)]
struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

/// Reads a YAML block mapping (the frontmatter between the `---` lines) into a JSON object.
/// `first_line` is the file's line number of the block's first line, for messages.
pub(crate) fn parse_map(text: &str, first_line: usize) -> Result<Map<String, Value>, String> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.contains('\t') && raw.trim_start_matches(' ').starts_with('\t') {
            return Err(format!("line {}: tabs cannot indent YAML", first_line + i));
        }
        let trimmed = raw.trim_start_matches(' ');
        lines.push(Line {
            number: first_line + i,
            indent: raw.len() - trimmed.len(),
            text: trimmed.trim_end(),
        });
    }
    let mut reader = Reader { lines, pos: 0 };
    reader.skip_blank();
    let Some(first) = reader.peek() else {
        return Ok(Map::new());
    };
    if first.indent != 0 {
        return Err(format!(
            "line {}: the frontmatter is indented",
            first.number
        ));
    }
    let map = reader.map(0)?;
    reader.skip_blank();
    if let Some(line) = reader.peek() {
        return Err(format!("line {}: unexpected indentation", line.number));
    }
    Ok(map)
}

struct Reader<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
}

/// Whether a line holds nothing but a comment or spaces.
fn blank(text: &str) -> bool {
    text.is_empty() || text.starts_with('#')
}

impl<'a> Reader<'a> {
    fn skip_blank(&mut self) {
        while self.lines.get(self.pos).is_some_and(|l| blank(l.text)) {
            self.pos += 1;
        }
    }

    /// The next line that is not blank (the position moves past blank lines).
    fn peek(&mut self) -> Option<Line<'a>> {
        self.skip_blank();
        self.lines.get(self.pos).copied()
    }

    /// A block mapping whose keys are at `indent`.
    fn map(&mut self, indent: usize) -> Result<Map<String, Value>, String> {
        let mut map = Map::new();
        while let Some(line) = self.peek() {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return Err(format!("line {}: unexpected indentation", line.number));
            }
            if is_item(line.text) {
                return Err(format!(
                    "line {}: a list item where a key was expected",
                    line.number
                ));
            }
            let (key, rest) = split_key(line)?;
            self.pos += 1;
            let value = self.value(line, indent, rest)?;
            if map.insert(key.clone(), value).is_some() {
                return Err(format!(
                    "line {}: the key `{key}` is given twice",
                    line.number
                ));
            }
        }
        Ok(map)
    }

    /// The value after `key:` (`rest`, possibly empty) on `line`, whose key is at `indent`.
    fn value(&mut self, line: Line<'a>, indent: usize, rest: &'a str) -> Result<Value, String> {
        let rest = strip_comment(rest);
        if rest.is_empty() {
            return match self.peek() {
                Some(next) if next.indent > indent && is_item(next.text) => self.list(next.indent),
                Some(next) if next.indent == indent && is_item(next.text) => self.list(indent),
                Some(next) if next.indent > indent => self.map(next.indent).map(Value::Object),
                _ => Ok(Value::Null),
            };
        }
        if let Some(header) = rest.strip_prefix(['|', '>']) {
            return self.block_scalar(line, indent, rest.starts_with('>'), header);
        }
        let mut value = scalar(rest, line.number)?;
        // A plain scalar may go on over more-indented lines, folded with spaces.
        if let Value::String(text) = &mut value
            && plain(rest)
        {
            while let Some(next) = self.lines.get(self.pos).copied() {
                if blank(next.text) || next.indent <= indent {
                    break;
                }
                if split_key(next).is_ok() || is_item(next.text) {
                    return Err(format!("line {}: unexpected indentation", next.number));
                }
                text.push(' ');
                text.push_str(strip_comment(next.text));
                self.pos += 1;
            }
        }
        Ok(value)
    }

    /// A block sequence whose `-` are at `indent`.
    fn list(&mut self, indent: usize) -> Result<Value, String> {
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_item(line.text) {
                if line.indent > indent {
                    return Err(format!("line {}: unexpected indentation", line.number));
                }
                break;
            }
            let item = line.text[1..].trim_start_matches(' ');
            let offset = line.text.len() - item.len();
            if blank(item) {
                self.pos += 1;
                items.push(match self.peek() {
                    Some(next) if next.indent > indent && is_item(next.text) => {
                        self.list(next.indent)?
                    }
                    Some(next) if next.indent > indent => Value::Object(self.map(next.indent)?),
                    _ => Value::Null,
                });
            } else if is_item(item) || split_key(Line { text: item, ..line }).is_ok() {
                // `- key: value` (or `- - x`): the item is a block at the column of its text.
                self.lines[self.pos] = Line {
                    indent: indent + offset,
                    text: item,
                    ..line
                };
                items.push(if is_item(item) {
                    self.list(indent + offset)?
                } else {
                    Value::Object(self.map(indent + offset)?)
                });
            } else {
                self.pos += 1;
                items.push(scalar(strip_comment(item), line.number)?);
            }
        }
        Ok(Value::Array(items))
    }

    /// A `|` (literal) or `>` (folded) block scalar with its optional chomping indicator.
    fn block_scalar(
        &mut self,
        line: Line<'a>,
        indent: usize,
        folded: bool,
        header: &str,
    ) -> Result<Value, String> {
        let chomp = match header.trim() {
            "" => Chomp::Clip,
            "-" => Chomp::Strip,
            "+" => Chomp::Keep,
            other => {
                return Err(format!(
                    "line {}: unsupported block scalar header `{other}`",
                    line.number
                ));
            }
        };
        let mut body: Vec<(usize, &str)> = Vec::new();
        while let Some(next) = self.lines.get(self.pos).copied() {
            if !next.text.is_empty() && next.indent <= indent {
                break;
            }
            body.push((next.indent, next.text));
            self.pos += 1;
        }
        let Some(&(column, _)) = body.iter().find(|(_, t)| !t.is_empty()) else {
            return Ok(Value::String(String::new()));
        };
        let mut text = String::new();
        let mut previous_folds = false;
        for (i, &(at, content)) in body.iter().enumerate() {
            if content.is_empty() {
                // Folded, the line break before a blank line is the blank line's.
                if !(folded && previous_folds) {
                    text.push('\n');
                }
                previous_folds = false;
                continue;
            }
            if at < column {
                return Err(format!(
                    "line {}: less indented than the block scalar's first line",
                    line.number + 1 + i
                ));
            }
            let piece = &" ".repeat(at - column);
            let more = at > column;
            if folded && previous_folds && !more && text.ends_with('\n') {
                text.pop();
                text.push(' ');
            }
            text.push_str(piece);
            text.push_str(content);
            text.push('\n');
            previous_folds = !more;
        }
        let end = text.trim_end_matches('\n').len();
        match chomp {
            Chomp::Strip => text.truncate(end),
            Chomp::Clip if end > 0 => text.truncate(end + 1),
            Chomp::Clip | Chomp::Keep => {}
        }
        Ok(Value::String(text))
    }
}

#[derive(Clone, Copy)]
enum Chomp {
    Clip,
    Strip,
    Keep,
}

/// Whether a line's text is a block sequence item (`-` then a space, or `-` alone).
fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Whether a value's text is a plain scalar (not quoted, not a flow collection).
fn plain(text: &str) -> bool {
    !text.starts_with(['"', '\'', '[', '{'])
}

/// `key: rest` of a mapping line: the key unquoted, the text after `:`.
fn split_key(line: Line<'_>) -> Result<(String, &str), String> {
    let text = line.text;
    let missing = || format!("line {}: expected `key: value`", line.number);
    if text.starts_with(['"', '\'']) {
        let (key, used) = quoted(text, line.number)?;
        let rest = text[used..].strip_prefix(':').ok_or_else(missing)?;
        if !rest.is_empty() && !rest.starts_with(' ') {
            return Err(missing());
        }
        return Ok((key, rest.trim_start()));
    }
    if text.starts_with(['?', '&', '*', '!', '[', '{', '%', '@', '`', '|', '>']) {
        return Err(format!(
            "line {}: unsupported YAML (`{}`)",
            line.number,
            &text[..1]
        ));
    }
    let colon = text
        .match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| text[i + 1..].is_empty() || text[i + 1..].starts_with(' '))
        .ok_or_else(missing)?;
    let key = text[..colon].trim_end();
    if key.is_empty() || key.contains(" #") {
        return Err(missing());
    }
    Ok((key.to_owned(), text[colon + 1..].trim_start()))
}

/// The text before a comment (` #` outside quotes; the text is a plain or quoted scalar).
fn strip_comment(text: &str) -> &str {
    if text.starts_with('#') {
        return "";
    }
    if text.starts_with(['"', '\'']) {
        return text;
    }
    match text.find(" #") {
        Some(i) => text[..i].trim_end(),
        None => text,
    }
}

/// One scalar or one-line flow collection, as it stands after `key:` or `-`.
fn scalar(text: &str, number: usize) -> Result<Value, String> {
    let text = text.trim();
    if text.starts_with(['"', '\'']) {
        let (value, used) = quoted(text, number)?;
        let after = text[used..].trim_start();
        if !after.is_empty() && !after.starts_with('#') {
            return Err(format!("line {number}: text after a quoted string"));
        }
        return Ok(Value::String(value));
    }
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| format!("line {number}: a flow list must close on its line"))?;
        return flow_items(inner, number)?
            .into_iter()
            .map(|item| scalar(item, number))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if let Some(inner) = text.strip_prefix('{') {
        let inner = inner
            .strip_suffix('}')
            .ok_or_else(|| format!("line {number}: a flow map must close on its line"))?;
        let mut map = Map::new();
        for item in flow_items(inner, number)? {
            let (key, rest) = split_key(Line {
                number,
                indent: 0,
                text: item,
            })?;
            map.insert(key, scalar(rest, number)?);
        }
        return Ok(Value::Object(map));
    }
    if text.starts_with(['&', '*', '!', '%', '@', '`']) {
        return Err(format!(
            "line {number}: unsupported YAML (`{}`)",
            &text[..1]
        ));
    }
    Ok(resolve(text))
}

/// The comma-separated items of a one-line flow collection (quotes respected; no nesting).
fn flow_items(inner: &str, number: usize) -> Result<Vec<&str>, String> {
    let mut items = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '[' | ']' | '{' | '}') => {
                return Err(format!(
                    "line {number}: nested flow collections are not supported"
                ));
            }
            (None, ',') => {
                items.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        items.push(last);
    } else if !items.is_empty() {
        return Err(format!("line {number}: an empty item in a flow collection"));
    }
    Ok(items)
}

/// A quoted scalar at the start of `text`: its value and the bytes it took.
fn quoted(text: &str, number: usize) -> Result<(String, usize), String> {
    let open = text.as_bytes()[0] as char;
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' if open == '\'' => {
                if text[i + 1..].starts_with('\'') {
                    out.push('\'');
                    chars.next();
                } else {
                    return Ok((out, i + 1));
                }
            }
            '"' if open == '"' => return Ok((out, i + 1)),
            '\\' if open == '"' => {
                let (_, e) = chars
                    .next()
                    .ok_or_else(|| format!("line {number}: unterminated string"))?;
                out.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    '0' => '\0',
                    '"' | '\\' | '/' | ' ' => e,
                    'u' => {
                        let hex: String =
                            (0..4).filter_map(|_| chars.next().map(|x| x.1)).collect();
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .filter(|_| hex.len() == 4)
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("line {number}: bad `\\u` escape"))?
                    }
                    other => return Err(format!("line {number}: unsupported escape `\\{other}`")),
                });
            }
            c => out.push(c),
        }
    }
    Err(format!(
        "line {number}: the string does not close on its line"
    ))
}

/// A plain scalar as YAML 1.2's core schema resolves it.
fn resolve(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && let Ok(n) = text.trim_start_matches('+').parse::<i64>()
    {
        return Value::Number(n.into());
    }
    let float = digits
        .bytes()
        .all(|b| b.is_ascii_digit() || b"eE.-+".contains(&b))
        && digits
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.')
        && digits.bytes().any(|b| b.is_ascii_digit())
        && (digits.contains('.') || digits.contains(['e', 'E']));
    if float
        && let Ok(f) = text.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Value {
        Value::Object(parse_map(text, 2).unwrap())
    }

    #[test]
    fn scalars_resolve_as_the_core_schema_does() {
        let v = read(
            "name: pdf\nn: 12\nf: 2.5\nt: true\nz: ~\ne:\nd: 2024-01-01\nv: 1.2.3\n\
             q: \"a: b # c\"\ns: 'it''s'\nc: plain # comment\nu: \"\\u00e9\\n\"\n",
        );
        assert_eq!(
            v,
            json!({"name": "pdf", "n": 12, "f": 2.5, "t": true, "z": null, "e": null,
                   "d": "2024-01-01", "v": "1.2.3", "q": "a: b # c", "s": "it's",
                   "c": "plain", "u": "é\n"})
        );
    }

    #[test]
    fn nested_maps_lists_and_flow_collections() {
        let v = read(
            "metadata:\n  version: \"2.1.0\"\n  owner:\n    team: docs\ntags:\n- a\n- b\n\
             more:\n  - x: 1\n    y: 2\n  - 3\nflow: [a, 'b, c', 3]\nmap: {k: v, n: 1}\nnone: []\n",
        );
        assert_eq!(
            v,
            json!({"metadata": {"version": "2.1.0", "owner": {"team": "docs"}},
                   "tags": ["a", "b"], "more": [{"x": 1, "y": 2}, 3],
                   "flow": ["a", "b, c", 3], "map": {"k": "v", "n": 1}, "none": []})
        );
    }

    #[test]
    fn block_and_continued_scalars() {
        let v = read(
            "a: |\n  one\n  two\nb: >-\n  folded\n  text\n\n  para\nc: plain that\n  goes on\nd: |-\n  x\n",
        );
        assert_eq!(
            v,
            json!({"a": "one\ntwo\n", "b": "folded text\npara", "c": "plain that goes on", "d": "x"})
        );
    }

    #[test]
    fn what_it_does_not_read_is_refused_with_its_line() {
        let err = |text: &str| parse_map(text, 2).unwrap_err();
        assert_eq!(err("a: &x 1\n"), "line 2: unsupported YAML (`&`)");
        assert_eq!(err("a: 1\na: 2\n"), "line 3: the key `a` is given twice");
        assert_eq!(err("a: 1\n  b: 2\n"), "line 3: unexpected indentation");
        assert_eq!(err("just text\n"), "line 2: expected `key: value`");
        assert_eq!(
            err("a: [1, [2]]\n"),
            "line 2: nested flow collections are not supported"
        );
        assert_eq!(
            err("a: \"open\n"),
            "line 2: the string does not close on its line"
        );
        assert_eq!(err("- a\n"), "line 2: a list item where a key was expected");
    }
}
