//! RFC 6570 URI templates: parsing, expansion and matching.
//!
//! Resource templates (`gifts://item/{id}`) are RFC 6570 templates. This module parses
//! them (levels 1 to 3, plus the level 4 prefix `:n` and explode `*` modifiers), expands
//! them from string variables, and matches a concrete URI back to its variables.
//!
//! The module uses only `std`; the proc-macro crate `mcp-runtime-macros` depends on this crate
//! to check templates at compile time with the same parser.
//!
//! ```
//! use std::collections::BTreeMap;
//! use mcp_runtime_core::UriTemplate;
//!
//! let t = UriTemplate::parse("gifts://item/{id}{?lang}").unwrap();
//! assert_eq!(t.variables().collect::<Vec<_>>(), ["id", "lang"]);
//!
//! let vars = t.match_uri("gifts://item/a%20b?lang=en").unwrap();
//! assert_eq!(vars["id"], "a b");
//! assert_eq!(vars["lang"], "en");
//!
//! let mut input = BTreeMap::new();
//! input.insert("id".to_owned(), "a b".to_owned());
//! assert_eq!(t.expand(&input), "gifts://item/a%20b");
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::BuildHasher;
use std::str::FromStr;

mod matching;

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Part {
    Literal(String),
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Expr {
    op: Op,
    vars: Vec<VarSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct VarSpec {
    name: String,
    prefix: Option<usize>,
    explode: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParam,
    Query,
    QueryCont,
}

impl Op {
    fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '+' => Self::Reserved,
            '#' => Self::Fragment,
            '.' => Self::Label,
            '/' => Self::Path,
            ';' => Self::PathParam,
            '?' => Self::Query,
            '&' => Self::QueryCont,
            _ => return None,
        })
    }

    /// (first, separator, named, if-empty, allow reserved)
    fn rules(self) -> (&'static str, &'static str, bool, &'static str, bool) {
        match self {
            Self::Simple => ("", ",", false, "", false),
            Self::Reserved => ("", ",", false, "", true),
            Self::Fragment => ("#", ",", false, "", true),
            Self::Label => (".", ".", false, "", false),
            Self::Path => ("/", "/", false, "", false),
            Self::PathParam => (";", ";", true, "", false),
            Self::Query => ("?", "&", true, "=", false),
            Self::QueryCont => ("&", "&", true, "=", false),
        }
    }
}

/// What is wrong with a template.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UriTemplateErrorKind {
    /// A `{` without a matching `}`.
    UnclosedBrace,
    /// A `}` without a matching `{`.
    UnmatchedClosingBrace,
    /// A `{` inside an expression.
    NestedBrace,
    /// `{}`.
    EmptyExpression,
    /// An empty variable name, as in `{a,}` or `{?}`.
    EmptyVariable,
    /// A character not allowed in a variable name.
    InvalidVariableChar(char),
    /// An operator RFC 6570 reserves for future use (`=`, `,`, `!`, `@`, `|`).
    ReservedOperator(char),
    /// A prefix modifier that is not a number from 1 to 9999.
    InvalidPrefix,
}

/// A template syntax error, with the byte offset where it was found.
///
/// ```
/// use mcp_runtime_core::UriTemplate;
///
/// let err = UriTemplate::parse("file:///{path").unwrap_err();
/// assert_eq!(err.offset(), 8);
/// assert_eq!(err.to_string(), "unclosed `{` at byte 8");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} at byte {offset}", .kind.describe())]
pub struct UriTemplateError {
    offset: usize,
    kind: UriTemplateErrorKind,
}

impl UriTemplateError {
    /// The byte offset of the problem in the template.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What the problem is.
    #[must_use]
    pub fn kind(&self) -> &UriTemplateErrorKind {
        &self.kind
    }
}

impl UriTemplateErrorKind {
    /// The problem in words, without its place.
    fn describe(&self) -> Cow<'static, str> {
        match self {
            Self::UnclosedBrace => "unclosed `{`".into(),
            Self::UnmatchedClosingBrace => "`}` without a matching `{`".into(),
            Self::NestedBrace => "`{` inside an expression".into(),
            Self::EmptyExpression => "empty expression `{}`".into(),
            Self::EmptyVariable => "empty variable name".into(),
            Self::InvalidVariableChar(c) => format!(
                "invalid character `{c}` in a variable name (allowed: letters, digits, `_`, `.` and %-escapes)"
            )
            .into(),
            Self::ReservedOperator(c) => format!("operator `{c}` is reserved by RFC 6570").into(),
            Self::InvalidPrefix => "prefix length must be a number from 1 to 9999".into(),
        }
    }
}

/// A source of variable values for [`UriTemplate::expand`].
pub trait TemplateVars {
    /// The value of `name`, or `None` when it is undefined.
    fn var(&self, name: &str) -> Option<&str>;
}

impl<S: BuildHasher> TemplateVars for HashMap<String, String, S> {
    fn var(&self, name: &str) -> Option<&str> {
        self.get(name).map(String::as_str)
    }
}

impl TemplateVars for BTreeMap<String, String> {
    fn var(&self, name: &str) -> Option<&str> {
        self.get(name).map(String::as_str)
    }
}

impl<S: BuildHasher> TemplateVars for HashMap<&str, &str, S> {
    fn var(&self, name: &str) -> Option<&str> {
        self.get(name).copied()
    }
}

impl TemplateVars for BTreeMap<&str, &str> {
    fn var(&self, name: &str) -> Option<&str> {
        self.get(name).copied()
    }
}

impl<T: TemplateVars + ?Sized> TemplateVars for &T {
    fn var(&self, name: &str) -> Option<&str> {
        (**self).var(name)
    }
}

fn err(offset: usize, kind: UriTemplateErrorKind) -> UriTemplateError {
    UriTemplateError { offset, kind }
}

impl UriTemplate {
    /// Parses a template.
    ///
    /// # Errors
    ///
    /// A [`UriTemplateError`] naming the first problem and its byte offset.
    pub fn parse(template: &str) -> Result<Self, UriTemplateError> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = template.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' => {
                    let mut end = None;
                    for (j, d) in chars.by_ref() {
                        match d {
                            '}' => {
                                end = Some(j);
                                break;
                            }
                            '{' => return Err(err(j, UriTemplateErrorKind::NestedBrace)),
                            _ => {}
                        }
                    }
                    let end = end.ok_or_else(|| err(i, UriTemplateErrorKind::UnclosedBrace))?;
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    parts.push(Part::Expr(parse_expr(&template[i + 1..end], i + 1)?));
                }
                '}' => return Err(err(i, UriTemplateErrorKind::UnmatchedClosingBrace)),
                _ => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(Self {
            source: template.to_owned(),
            parts,
        })
    }

    /// The template text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names, in order of first appearance.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        let mut seen: Vec<&str> = Vec::new();
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Expr(e) => Some(e.vars.iter()),
                Part::Literal(_) => None,
            })
            .flatten()
            .filter_map(move |v| {
                if seen.contains(&v.name.as_str()) {
                    None
                } else {
                    seen.push(&v.name);
                    Some(v.name.as_str())
                }
            })
    }

    /// Whether the template has no expressions (it is a plain URI).
    #[must_use]
    pub fn is_literal(&self) -> bool {
        self.parts.iter().all(|p| matches!(p, Part::Literal(_)))
    }

    /// Expands the template; undefined variables expand to nothing.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use mcp_runtime_core::UriTemplate;
    ///
    /// let t = UriTemplate::parse("https://h{/path}{?q,lang}{#frag}").unwrap();
    /// let vars = HashMap::from([("path", "a/b"), ("q", "x y"), ("frag", "top")]);
    /// assert_eq!(t.expand(&vars), "https://h/a%2Fb?q=x%20y#top");
    /// ```
    pub fn expand(&self, vars: &impl TemplateVars) -> String {
        let mut out = String::with_capacity(self.source.len());
        for part in &self.parts {
            match part {
                Part::Literal(l) => out.push_str(l),
                Part::Expr(e) => expand_expr(e, vars, &mut out),
            }
        }
        out
    }

    /// Matches a URI against the template, returning the percent-decoded variables.
    ///
    /// `{var}` matches one or more characters other than `/`, `?` and `#`; `{+var}` may
    /// also span `/`, and `?` unless a `{?..}` expression follows; `{/var}`, `{.var}` and `{;var}` match one prefixed segment per
    /// variable; `{?a,b}` and `{&c}` match query pairs in any order, all optional;
    /// `{#var}` matches an optional fragment. Variables that did not appear are absent.
    ///
    /// ```
    /// use mcp_runtime_core::UriTemplate;
    ///
    /// let t = UriTemplate::parse("file:///{+path}").unwrap();
    /// assert_eq!(t.match_uri("file:///src/main.rs").unwrap()["path"], "src/main.rs");
    /// let t = UriTemplate::parse("users://{id}/profile").unwrap();
    /// assert!(t.match_uri("users://a/b/profile").is_none());
    /// ```
    #[must_use]
    pub fn match_uri(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        matching::match_uri(&self.parts, uri)
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl FromStr for UriTemplate {
    type Err = UriTemplateError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

fn parse_expr(body: &str, offset: usize) -> Result<Expr, UriTemplateError> {
    let Some(first) = body.chars().next() else {
        return Err(err(offset - 1, UriTemplateErrorKind::EmptyExpression));
    };
    if matches!(first, '=' | ',' | '!' | '@' | '|') {
        return Err(err(offset, UriTemplateErrorKind::ReservedOperator(first)));
    }
    let (op, list, mut pos) = match Op::from_char(first) {
        Some(op) => (op, &body[1..], offset + 1),
        None => (Op::Simple, body, offset),
    };
    let mut vars = Vec::new();
    for spec in list.split(',') {
        vars.push(parse_varspec(spec, pos)?);
        pos += spec.len() + 1;
    }
    Ok(Expr { op, vars })
}

fn parse_varspec(spec: &str, offset: usize) -> Result<VarSpec, UriTemplateError> {
    let bytes = spec.as_bytes();
    let mut i = 0;
    let mut prev_dot = true;
    while i < bytes.len() {
        match bytes[i] {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => {
                prev_dot = false;
                i += 1;
            }
            b'%' if bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit) =>
            {
                prev_dot = false;
                i += 3;
            }
            b'.' if !prev_dot => {
                prev_dot = true;
                i += 1;
            }
            b':' | b'*' => break,
            _ => {
                let c = spec[i..].chars().next().unwrap_or('?');
                return Err(err(
                    offset + i,
                    UriTemplateErrorKind::InvalidVariableChar(c),
                ));
            }
        }
    }
    if i == 0 {
        return Err(err(offset, UriTemplateErrorKind::EmptyVariable));
    }
    if prev_dot {
        return Err(err(
            offset + i - 1,
            UriTemplateErrorKind::InvalidVariableChar('.'),
        ));
    }
    let name = spec[..i].to_owned();
    let rest = &spec[i..];
    let (prefix, explode) = if rest.is_empty() {
        (None, false)
    } else if rest == "*" {
        (None, true)
    } else if let Some(digits) = rest.strip_prefix(':') {
        let n = digits
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=9999).contains(n) && digits.len() <= 4 && !digits.starts_with('+'))
            .ok_or_else(|| err(offset + i, UriTemplateErrorKind::InvalidPrefix))?;
        (Some(n), false)
    } else {
        let c = rest.chars().nth(1).unwrap_or('*');
        return Err(err(
            offset + i + 1,
            UriTemplateErrorKind::InvalidVariableChar(c),
        ));
    };
    Ok(VarSpec {
        name,
        prefix,
        explode,
    })
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

fn encode_into(out: &mut String, value: &str, allow_reserved: bool) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is_unreserved(b) || (allow_reserved && is_reserved(b)) {
            out.push(char::from(b));
        } else if allow_reserved
            && b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.push_str(&value[i..i + 3]);
            i += 3;
            continue;
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
        i += 1;
    }
}

fn expand_expr(expr: &Expr, vars: &impl TemplateVars, out: &mut String) {
    let (first, sep, named, if_empty, allow_reserved) = expr.op.rules();
    let mut wrote_any = false;
    for spec in &expr.vars {
        let Some(value) = vars.var(&spec.name) else {
            continue;
        };
        out.push_str(if wrote_any { sep } else { first });
        wrote_any = true;
        let value = match spec.prefix {
            Some(n) => value
                .char_indices()
                .nth(n)
                .map_or(value, |(end, _)| &value[..end]),
            None => value,
        };
        if named {
            out.push_str(&spec.name);
            if value.is_empty() {
                out.push_str(if_empty);
                continue;
            }
            out.push('=');
        }
        encode_into(out, value, allow_reserved);
    }
}

/// Percent-decodes `s`; invalid escapes are kept as they are.
fn decode(s: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
