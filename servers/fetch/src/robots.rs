//! robots.txt as the original reads it (Protego, after removing `#` comment lines): groups of
//! `User-agent` lines and their `Allow`/`Disallow` rules; a group applies when its agent name
//! is part of the user agent (case-insensitively), the longest such name winning, `*` else;
//! the longest matching rule decides (`*` wildcards, `$` anchors), `Allow` winning a tie.

/// A parsed robots.txt.
#[derive(Debug, Default)]
pub struct Robots {
    groups: Vec<Group>,
}

#[derive(Debug, Default)]
struct Group {
    agents: Vec<String>,
    rules: Vec<(bool, String)>,
}

impl Robots {
    /// Parses the text; lines that are not `field: value` are ignored.
    ///
    /// ```
    /// let robots = mcp_server_fetch::robots::Robots::parse("User-agent: *\nDisallow: /private");
    /// assert!(!robots.can_fetch("/private/x", "Bot/1.0"));
    /// assert!(robots.can_fetch("/public", "Bot/1.0"));
    /// ```
    pub fn parse(text: &str) -> Self {
        let mut groups: Vec<Group> = Vec::new();
        let mut last_was_agent = false;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("");
            let Some((field, value)) = line.split_once(':') else {
                continue;
            };
            let field = field.trim().to_ascii_lowercase();
            let value = value.trim();
            match field.as_str() {
                "user-agent" | "useragent" | "user agent" => {
                    if !last_was_agent || groups.is_empty() {
                        groups.push(Group::default());
                    }
                    if let Some(g) = groups.last_mut() {
                        g.agents.push(value.to_ascii_lowercase());
                    }
                    last_was_agent = true;
                }
                "allow" | "disallow" => {
                    last_was_agent = false;
                    if let Some(g) = groups.last_mut()
                        && !value.is_empty()
                    {
                        g.rules.push((field == "allow", value.to_owned()));
                    }
                }
                _ => last_was_agent = false,
            }
        }
        Self { groups }
    }

    /// Whether `user_agent` may fetch `path` (the URL's path and query).
    pub fn can_fetch(&self, path: &str, user_agent: &str) -> bool {
        let ua = user_agent.to_ascii_lowercase();
        let mut best: Option<(&Group, usize)> = None;
        for g in &self.groups {
            for a in &g.agents {
                if a != "*"
                    && !a.is_empty()
                    && ua.contains(a.as_str())
                    && best.is_none_or(|(_, n)| a.len() > n)
                {
                    best = Some((g, a.len()));
                }
            }
        }
        let group = best.map(|(g, _)| g).or_else(|| {
            self.groups
                .iter()
                .find(|g| g.agents.iter().any(|a| a == "*"))
        });
        let Some(group) = group else { return true };
        let mut decision: Option<(usize, bool)> = None;
        for (allow, pattern) in &group.rules {
            if matches(pattern, path) {
                let len = pattern.len();
                let better = match decision {
                    None => true,
                    Some((n, a)) => len > n || (len == n && *allow && !a),
                };
                if better {
                    decision = Some((len, *allow));
                }
            }
        }
        decision.is_none_or(|(_, allow)| allow)
    }
}

/// Whether a rule's pattern matches the start of `path` (`*`: any run, `$` at the end: the end).
fn matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut pos = 0;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            if !path.starts_with(part) {
                return false;
            }
            pos = part.len();
            continue;
        }
        let last = i == parts.len() - 1;
        if last && anchored {
            return path.len() >= pos + part.len() && path.ends_with(part);
        }
        match path[pos..].find(part) {
            Some(at) => pos += at + part.len(),
            None => return false,
        }
    }
    !anchored || pos == path.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const UA: &str =
        "ModelContextProtocol/1.0 (Autonomous; +https://github.com/modelcontextprotocol/servers)";

    #[test]
    fn the_named_group_wins_over_the_star() {
        let r = Robots::parse(
            "User-agent: *\nDisallow: /\n\nUser-agent: ModelContextProtocol\nDisallow: /secret\n",
        );
        assert!(r.can_fetch("/page", UA));
        assert!(!r.can_fetch("/secret/1", UA));
        assert!(!r.can_fetch("/page", "OtherBot"));
    }

    #[test]
    fn longest_rule_decides_and_allow_wins_ties() {
        let r =
            Robots::parse("User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /x\nAllow: /x\n");
        assert!(!r.can_fetch("/a/c", UA));
        assert!(r.can_fetch("/a/b/c", UA));
        assert!(r.can_fetch("/x", UA));
    }

    #[test]
    fn wildcards_and_anchors() {
        let r = Robots::parse("User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp*/x\n");
        assert!(!r.can_fetch("/docs/a.pdf", UA));
        assert!(r.can_fetch("/docs/a.pdf?x=1", UA));
        assert!(!r.can_fetch("/tmp123/x", UA));
        assert!(r.can_fetch("/tm/x", UA));
    }

    #[test]
    fn empty_disallow_and_no_group_allow_everything() {
        assert!(Robots::parse("User-agent: *\nDisallow:\n").can_fetch("/a", UA));
        assert!(Robots::parse("").can_fetch("/a", UA));
    }
}
