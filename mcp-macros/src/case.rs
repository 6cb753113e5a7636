//! `rename_all = ".."`: serde's casings, applied to parameter names (which are `snake_case`).
//!
//! The macros compute each argument's wire name themselves, rather than passing `rename_all` on
//! to serde, because the name is also written into records (prompt arguments, completions),
//! messages (`property 'maxItems': ..`) and the typed client struct.

/// One of serde's `rename_all` rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule, as written, in serde's documentation order.
    pub(crate) const ALL: &[(&str, RenameRule)] = &[
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    /// The rule written as `name`.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(written, _)| *written == name)
            .map(|(_, rule)| *rule)
    }

    /// `field` (a `snake_case` identifier) in this casing, as serde renames a field.
    pub(crate) fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::with_capacity(field.len());
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(ch);
                    }
                }
                out
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply(field);
                let mut chars = pascal.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_casing_of_one_name() {
        let cases = [
            ("lowercase", "max_items"),
            ("UPPERCASE", "MAX_ITEMS"),
            ("PascalCase", "MaxItems"),
            ("camelCase", "maxItems"),
            ("snake_case", "max_items"),
            ("SCREAMING_SNAKE_CASE", "MAX_ITEMS"),
            ("kebab-case", "max-items"),
            ("SCREAMING-KEBAB-CASE", "MAX-ITEMS"),
        ];
        for (rule, want) in cases {
            assert_eq!(
                RenameRule::from_name(rule).unwrap().apply("max_items"),
                want
            );
        }
        assert_eq!(RenameRule::Camel.apply("city"), "city");
        assert_eq!(RenameRule::Pascal.apply("city"), "City");
        assert_eq!(RenameRule::from_name("camelcase"), None);
    }
}
