//! Doc comments as user-facing text: tool, resource and prompt descriptions, and the
//! descriptions of their parameters.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of the `///` (or `#[doc = "..."]`) comments among `attrs`.
///
/// Each line loses one leading space (the one after `///`), lines are joined with `\n` and the
/// whole is trimmed. `None` when there is no doc comment or it is blank. Doc attributes whose
/// value is not a string literal (such as `#[doc = include_str!("..")]`) are skipped.
pub(crate) fn extract(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Some(text) = doc_text(attr) {
            for line in text.split('\n') {
                let line = line.strip_suffix('\r').unwrap_or(line);
                lines.push(line.strip_prefix(' ').unwrap_or(line).to_owned());
            }
        }
    }
    let text = lines.join("\n");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Whether `attr` is a doc comment.
pub(crate) fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

fn doc_text(attr: &Attribute) -> Option<String> {
    match &attr.meta {
        Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn doc_of(attrs: Vec<Attribute>) -> Option<String> {
        extract(&attrs)
    }

    #[test]
    fn strips_one_space_and_joins_lines() {
        let attrs = vec![
            parse_quote!(#[doc = " Suggests gifts."]),
            parse_quote!(#[doc = ""]),
            parse_quote!(#[doc = "   indented example"]),
        ];
        assert_eq!(
            doc_of(attrs).as_deref(),
            Some("Suggests gifts.\n\n  indented example")
        );
    }

    #[test]
    fn no_doc_is_none() {
        assert_eq!(doc_of(vec![parse_quote!(#[inline])]), None);
        assert_eq!(doc_of(vec![parse_quote!(#[doc = "   "])]), None);
    }

    #[test]
    fn block_comments_split_into_lines() {
        let attrs = vec![parse_quote!(#[doc = "\n First\n Second\n "])];
        assert_eq!(doc_of(attrs).as_deref(), Some("First\nSecond"));
    }

    #[test]
    fn non_literal_docs_are_skipped() {
        let attrs = vec![
            parse_quote!(#[doc = include_str!("x.md")]),
            parse_quote!(#[doc = " kept"]),
        ];
        assert_eq!(doc_of(attrs).as_deref(), Some("kept"));
    }
}
