//! Arguments naming properties a tool does not take: found from the keys alone, before the
//! call, and named with the closest allowed property when one is a likely typo.

use super::json::{SHOWN, object_keys, shown};

/// The message for arguments naming properties the tool does not take (`known`, sorted), or
/// `None` when every property is known (or `text` is not an object: parsing reports that).
pub(crate) fn unknown_properties(text: &str, known: &[String]) -> Option<String> {
    let keys = object_keys(text)?;
    let mut unknown: Vec<&str> = Vec::new();
    for key in &keys {
        let key = key.as_ref();
        if known.binary_search_by(|k| k.as_str().cmp(key)).is_err() && !unknown.contains(&key) {
            unknown.push(key);
        }
    }
    if unknown.is_empty() {
        return None;
    }
    const LISTED: usize = 5;
    let mut listed: Vec<String> = unknown
        .iter()
        .take(LISTED)
        .map(|key| match closest(key, known) {
            Some(near) => format!("'{}' (did you mean '{near}'?)", shown(key)),
            None => format!("'{}'", shown(key)),
        })
        .collect();
    if unknown.len() > LISTED {
        listed.push(format!("and {} more", unknown.len() - LISTED));
    }
    let head = if unknown.len() == 1 {
        "unknown property"
    } else {
        "unknown properties"
    };
    let tail = if known.is_empty() {
        "this tool takes no arguments".to_owned()
    } else {
        let names: Vec<String> = known.iter().map(|k| format!("'{k}'")).collect();
        format!("allowed properties are {}", names.join(", "))
    };
    Some(format!("{head} {}; {tail}", listed.join(", ")))
}

/// The known property a misspelt one most likely meant: the same but for case, or one or two
/// edits away (the closest, the first of equals).
fn closest<'a>(key: &str, known: &'a [String]) -> Option<&'a str> {
    if key.chars().count() > SHOWN {
        return None;
    }
    if let Some(same) = known.iter().find(|k| k.eq_ignore_ascii_case(key)) {
        return Some(same);
    }
    known
        .iter()
        .map(|k| (edits(key, k), k))
        .filter(|(d, k)| *d <= 2 && *d < k.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
}

/// The Levenshtein distance between two short strings.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn unknown_properties_are_named_with_the_allowed_ones() {
        let k = known(&["limit", "priority", "query"]);
        assert_eq!(
            unknown_properties(r#"{"query": "x", "limit": 1}"#, &k),
            None
        );
        assert_eq!(
            unknown_properties(r#"{"query": "x", "limt": 1}"#, &k).unwrap(),
            "unknown property 'limt' (did you mean 'limit'?); allowed properties are 'limit', 'priority', 'query'"
        );
        assert_eq!(
            unknown_properties(
                r#"{"priorty": 1, "sort": "asc", "Query": "x", "sort": "x"}"#,
                &k
            )
            .unwrap(),
            "unknown properties 'priorty' (did you mean 'priority'?), 'sort', 'Query' (did you mean 'query'?); allowed properties are 'limit', 'priority', 'query'"
        );
        assert_eq!(
            unknown_properties(r#"{"x": 1}"#, &[]).unwrap(),
            "unknown property 'x'; this tool takes no arguments"
        );
        let many = r#"{"a1":1,"a2":1,"a3":1,"a4":1,"a5":1,"a6":1,"a7":1}"#;
        assert_eq!(
            unknown_properties(many, &known(&["zzzzzz"])).unwrap(),
            "unknown properties 'a1', 'a2', 'a3', 'a4', 'a5', and 2 more; allowed properties are 'zzzzzz'"
        );
        // Not an object, or not JSON: the parse that follows reports it.
        assert_eq!(unknown_properties("[1]", &k), None);
        assert_eq!(unknown_properties("{", &k), None);
        // Escaped keys are compared unescaped.
        assert_eq!(unknown_properties(r#"{"\u006cimit": 1}"#, &k), None);
    }

    #[test]
    fn edit_distance() {
        assert_eq!(edits("limt", "limit"), 1);
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "ab"), 2);
        assert_eq!(closest("a", &known(&["b"])), None);
    }
}
