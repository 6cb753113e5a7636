//! One change between two lists: where it is, what it is, and whether it breaks a client.

use std::fmt;

use serde_json::Value;

/// One change, printed as `PATH: WHAT (breaking)` or `PATH: WHAT (compatible)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Change {
    /// Where: `tool search: argument "limit"`.
    pub(crate) path: String,
    /// What: `type integer -> string`.
    pub(crate) what: String,
    /// Whether a client of the old lists can fail with the new ones.
    pub(crate) breaking: bool,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.breaking {
            "breaking"
        } else {
            "compatible"
        };
        write!(f, "{}: {} ({kind})", self.path, self.what)
    }
}

/// The changes found so far, under one item (`tool search`).
#[derive(Debug)]
pub(crate) struct Changes {
    item: String,
    pub(crate) found: Vec<Change>,
}

impl Changes {
    /// The changes of the item `item` (`tool search`).
    pub(crate) fn of(item: String) -> Self {
        Self {
            item,
            found: Vec::new(),
        }
    }

    /// A change at `at` (empty: the item itself) of this item.
    pub(crate) fn push(&mut self, at: &str, what: String, breaking: bool) {
        let path = if at.is_empty() {
            self.item.clone()
        } else {
            format!("{}: {at}", self.item)
        };
        self.found.push(Change {
            path,
            what,
            breaking,
        });
    }

    /// `description` and `title` of two descriptors (or schemas): compatible when they differ.
    pub(crate) fn texts(&mut self, at: &str, old: &Value, new: &Value) {
        for key in ["title", "description"] {
            if old.get(key) != new.get(key) {
                self.push(at, format!("{key} changed"), false);
            }
        }
    }
}

/// A JSON value in a message: strings as they are written in JSON, `none` for absent.
pub(crate) fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "none".to_owned(), Value::to_string)
}
