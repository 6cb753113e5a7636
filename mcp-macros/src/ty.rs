//! Type inspection: which role a parameter type plays and which types can never work.
//!
//! A proc macro sees syntax, not types, so these checks look at what is written. They catch the
//! shapes that can never be right (a borrowed argument, `impl Trait`); everything else is left to
//! the spanned trait assertions of the expansion, which see real types.

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit_mut::VisitMut;
use syn::{GenericArgument, PathArguments, PathSegment, Type};

/// `ty` without parentheses and invisible groups.
pub(crate) fn peel(mut ty: &Type) -> &Type {
    loop {
        match ty {
            Type::Paren(inner) => ty = &inner.elem,
            Type::Group(inner) => ty = &inner.elem,
            _ => return ty,
        }
    }
}

/// The last segment of a plain path type (`a::b::C<T>` gives `C<T>`).
pub(crate) fn last_segment(ty: &Type) -> Option<&PathSegment> {
    match peel(ty) {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last(),
        _ => None,
    }
}

/// The single type argument of the last segment, when that segment is named `name`.
fn single_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let segment = last_segment(ty)?;
    if segment.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|arg| match arg {
        GenericArgument::Type(ty) => Some(ty),
        _ => None,
    });
    match (types.next(), types.next()) {
        (Some(ty), None) => Some(ty),
        _ => None,
    }
}

/// `T` when `ty` is `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    single_arg(ty, "Option")
}

/// Whether a parameter of this type is injected from the request context rather than
/// deserialised: its last path segment is `Context`, `State` or `Auth`.
pub(crate) fn is_injected(ty: &Type) -> bool {
    last_segment(ty)
        .is_some_and(|s| s.ident == "Context" || s.ident == "State" || s.ident == "Auth")
}

/// Whether `ty` is `f32` or `f64`.
pub(crate) fn is_float(ty: &Type) -> bool {
    last_segment(ty)
        .is_some_and(|s| (s.ident == "f32" || s.ident == "f64") && s.arguments.is_none())
}

/// Whether `ty` is `&str` (with any lifetime).
pub(crate) fn is_str_ref(ty: &Type) -> bool {
    match peel(ty) {
        Type::Reference(r) => last_segment(&r.elem).is_some_and(|s| s.ident == "str"),
        _ => false,
    }
}

/// Whether `ty` mentions a lifetime other than `'static` (including elided `'_` and `&T`).
pub(crate) fn borrows(ty: &Type) -> bool {
    struct Finder(bool);
    impl VisitMut for Finder {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.as_ref().is_none_or(|l| l.ident != "static") {
                self.0 = true;
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            if l.ident != "static" {
                self.0 = true;
            }
        }
    }
    let mut finder = Finder(false);
    finder.visit_type_mut(&mut ty.clone());
    finder.0
}

/// The type as a person would write it: `Vec<String>`, `&'a str`, `impl Display`.
pub(crate) fn display(ty: &Type) -> String {
    let mut out = String::new();
    write_tokens(&mut out, ty.to_token_stream());
    out
}

fn write_tokens(out: &mut String, tokens: TokenStream) {
    let mut op = String::new();
    for tt in tokens {
        if let TokenTree::Punct(punct) = &tt {
            op.push(punct.as_char());
            if punct.spacing() == Spacing::Joint {
                continue;
            }
            write_op(out, &op);
            op.clear();
            continue;
        }
        if !op.is_empty() {
            write_op(out, &op);
            op.clear();
        }
        match tt {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::Brace => ("{ ", " }"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                if matches!(
                    group.delimiter(),
                    proc_macro2::Delimiter::Brace | proc_macro2::Delimiter::None
                ) {
                    space_before_word(out);
                }
                out.push_str(open);
                write_tokens(out, group.stream());
                out.push_str(close);
            }
            TokenTree::Ident(ident) => {
                space_before_word(out);
                out.push_str(&ident.to_string());
            }
            TokenTree::Literal(lit) => {
                space_before_word(out);
                out.push_str(&lit.to_string());
            }
            TokenTree::Punct(_) => {}
        }
    }
    if !op.is_empty() {
        write_op(out, &op);
    }
}

/// One operator (a run of joint punctuation) with the spacing rustfmt would give it.
fn write_op(out: &mut String, op: &str) {
    match op {
        "," | ";" => {
            out.push_str(op);
            out.push(' ');
        }
        "->" | "=" | "+" => {
            out.push(' ');
            out.push_str(op);
            out.push(' ');
        }
        "'" | "&" | "*" | "&&" => {
            space_before_word(out);
            out.push_str(op);
        }
        _ => out.push_str(op),
    }
}

/// A space between two words (`dyn Trait`, `&'a str`), none after an opening symbol.
fn space_before_word(out: &mut String) {
    if let Some(last) = out.chars().last()
        && (last.is_alphanumeric() || last == '_' || last == ')' || last == ']' || last == '>')
    {
        out.push(' ');
    }
}

/// What a type is known to be, from its spelling alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A primitive integer or float.
    Number,
    /// `String`.
    Text,
    /// A struct-like value with named fields: a map type.
    Map,
    /// Something else that is neither: `bool`, `char`, a sequence, a tuple, a reference.
    Other,
}

/// The shape of `ty` when its name says it, `None` for user types and aliases.
pub(crate) fn shape(ty: &Type) -> Option<Shape> {
    const NUMBERS: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "f32", "f64",
    ];
    const SEQUENCES: &[&str] = &[
        "Vec",
        "VecDeque",
        "HashSet",
        "BTreeSet",
        "LinkedList",
        "bool",
        "char",
    ];
    const MAPS: &[&str] = &["HashMap", "BTreeMap", "IndexMap", "Map"];
    match peel(ty) {
        Type::Path(path) if path.qself.is_none() => {
            let segment = path.path.segments.last()?;
            let name = segment.ident.to_string();
            let bare = segment.arguments.is_none();
            if bare && NUMBERS.contains(&name.as_str()) {
                Some(Shape::Number)
            } else if bare && name == "String" {
                Some(Shape::Text)
            } else if SEQUENCES.contains(&name.as_str()) {
                Some(Shape::Other)
            } else if MAPS.contains(&name.as_str()) {
                Some(Shape::Map)
            } else {
                None
            }
        }
        Type::Reference(_)
        | Type::Tuple(_)
        | Type::Array(_)
        | Type::Slice(_)
        | Type::BareFn(_)
        | Type::Ptr(_)
        | Type::Never(_) => Some(Shape::Other),
        _ => None,
    }
}

/// Why `ty` can never be a tool argument, if it cannot.
pub(crate) fn tool_arg_problem(ty: &Type) -> Option<String> {
    const RULE: &str = "tool arguments are deserialised from JSON into owned types implementing `Deserialize` + `JsonSchema`";
    let shown = display(ty);
    let fix = match peel(ty) {
        Type::Reference(r) if is_str_ref(ty) => {
            let _ = r;
            "use `String`".to_owned()
        }
        Type::Reference(r) => match peel(&r.elem) {
            Type::Slice(slice) => format!("use `Vec<{}>`", display(&slice.elem)),
            elem => format!("use `{}`", display(elem)),
        },
        Type::Slice(slice) => format!("use `Vec<{}>`", display(&slice.elem)),
        Type::ImplTrait(_) | Type::TraitObject(_) => "use a concrete type such as `String` or a type of your own with `#[mcp_runtime::data]`".to_owned(),
        Type::BareFn(_) | Type::Ptr(_) | Type::Never(_) | Type::Infer(_) => {
            "use an owned type such as `String`, `u32`, `Vec<T>` or a type of your own with `#[mcp_runtime::data]`".to_owned()
        }
        _ if borrows(ty) => "use an owned type such as `String` instead of a borrowed one".to_owned(),
        _ => return None,
    };
    Some(format!(
        "`{shown}` cannot be a tool argument: {RULE}; {fix}"
    ))
}

/// Why `ty` can never be parsed from a string (prompt arguments, URI template variables).
///
/// `source` names where the strings come from: "prompt arguments".
pub(crate) fn from_str_problem(ty: &Type, source: &str) -> Option<String> {
    const COLLECTIONS: &[&str] = &[
        "Vec",
        "VecDeque",
        "HashMap",
        "BTreeMap",
        "HashSet",
        "BTreeSet",
        "IndexMap",
        "LinkedList",
    ];
    let never = match peel(ty) {
        Type::Reference(_)
        | Type::Tuple(_)
        | Type::Array(_)
        | Type::Slice(_)
        | Type::ImplTrait(_)
        | Type::TraitObject(_)
        | Type::BareFn(_)
        | Type::Ptr(_)
        | Type::Never(_)
        | Type::Infer(_) => true,
        Type::Path(path) if path.qself.is_none() => {
            let segments: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let last = segments.last().map(String::as_str).unwrap_or_default();
            COLLECTIONS.contains(&last)
                || (last == "Value"
                    && segments.len() >= 2
                    && segments[segments.len() - 2] == "serde_json")
        }
        _ => false,
    };
    never.then(|| {
        format!(
            "{source} arrive as strings: `{}` cannot be parsed from one; use `String` or a type that implements `FromStr`",
            display(ty)
        )
    })
}

/// Why `ty` can never be returned by an annotated fn, if it cannot. `supported` lists what can.
pub(crate) fn return_problem(ty: &Type, attr: &str, supported: &str) -> Option<String> {
    let why = match peel(ty) {
        Type::ImplTrait(_) => "its type must be nameable to find the output schema",
        Type::TraitObject(_) | Type::Slice(_) => "it has no size known at compile time",
        Type::Tuple(tuple) if !tuple.elems.is_empty() => "tuples are not results",
        Type::BareFn(_) | Type::Ptr(_) | Type::Infer(_) => "it is not a result",
        Type::Never(_) => "the function must return",
        _ if borrows(ty) => "a result must own its data",
        _ => return None,
    };
    Some(format!(
        "`{}` cannot be returned from a {attr} function: {why}; return {supported}",
        display(ty)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn displays_types_as_written() {
        let cases: Vec<(Type, &str)> = vec![
            (parse_quote!(Vec<String>), "Vec<String>"),
            (parse_quote!(&'a mut str), "&'a mut str"),
            (
                parse_quote!(impl std::fmt::Display + Send),
                "impl std::fmt::Display + Send",
            ),
            (
                parse_quote!(HashMap<String, Vec<u8>>),
                "HashMap<String, Vec<u8>>",
            ),
            (parse_quote!((u8, &str)), "(u8, &str)"),
            (parse_quote!([u8; 4]), "[u8; 4]"),
            (parse_quote!(fn(u8) -> u8), "fn(u8) -> u8"),
            (parse_quote!(dyn Fn() -> u8), "dyn Fn() -> u8"),
            (parse_quote!(<T as Trait>::Out), "<T as Trait>::Out"),
        ];
        for (ty, want) in cases {
            assert_eq!(display(&ty), want);
        }
    }

    #[test]
    fn roles_and_options() {
        assert!(is_injected(&parse_quote!(Context)));
        assert!(is_injected(&parse_quote!(mcp_runtime::State<Db>)));
        assert!(!is_injected(&parse_quote!(String)));
        assert!(!is_injected(&parse_quote!(&Context)));
        let option: Type = parse_quote!(Option<Vec<u8>>);
        let inner = option_inner(&option).unwrap();
        assert_eq!(display(inner), "Vec<u8>");
        assert!(option_inner(&parse_quote!(Result<u8, E>)).is_none());
        assert!(is_float(&parse_quote!(f64)));
        assert!(!is_float(&parse_quote!(u64)));
    }

    #[test]
    fn borrowed_types_are_found() {
        assert!(borrows(&parse_quote!(&str)));
        assert!(borrows(&parse_quote!(Cow<'_, str>)));
        assert!(!borrows(&parse_quote!(&'static str)));
        assert!(!borrows(&parse_quote!(Vec<String>)));
    }

    #[test]
    fn tool_argument_types() {
        let msg = tool_arg_problem(&parse_quote!(&str)).unwrap();
        assert!(msg.starts_with("`&str` cannot be a tool argument"), "{msg}");
        assert!(msg.ends_with("; use `String`"), "{msg}");
        assert!(
            tool_arg_problem(&parse_quote!(&[u8]))
                .unwrap()
                .ends_with("use `Vec<u8>`")
        );
        assert!(tool_arg_problem(&parse_quote!(impl Trait)).is_some());
        assert!(tool_arg_problem(&parse_quote!(Option<Vec<String>>)).is_none());
        assert!(tool_arg_problem(&parse_quote!((u8, String))).is_none());
    }

    #[test]
    fn string_argument_types() {
        let msg = from_str_problem(&parse_quote!(Vec<String>), "prompt arguments").unwrap();
        assert_eq!(
            msg,
            "prompt arguments arrive as strings: `Vec<String>` cannot be parsed from one; use `String` or a type that implements `FromStr`"
        );
        assert!(from_str_problem(&parse_quote!(serde_json::Value), "x").is_some());
        assert!(from_str_problem(&parse_quote!(Value), "x").is_none());
        assert!(from_str_problem(&parse_quote!(u32), "x").is_none());
        assert!(from_str_problem(&parse_quote!(&str), "x").is_some());
    }

    #[test]
    fn shapes_known_by_name() {
        assert_eq!(shape(&parse_quote!(u32)), Some(Shape::Number));
        assert_eq!(
            shape(&parse_quote!(std::primitive::f64)),
            Some(Shape::Number)
        );
        assert_eq!(shape(&parse_quote!(String)), Some(Shape::Text));
        assert_eq!(shape(&parse_quote!(Vec<u8>)), Some(Shape::Other));
        assert_eq!(shape(&parse_quote!(bool)), Some(Shape::Other));
        assert_eq!(shape(&parse_quote!((u8, u8))), Some(Shape::Other));
        assert_eq!(shape(&parse_quote!(HashMap<String, u8>)), Some(Shape::Map));
        assert_eq!(shape(&parse_quote!(Budget)), None);
        assert_eq!(shape(&parse_quote!(Wrapper<u32>)), None);
    }

    #[test]
    fn return_types() {
        assert!(return_problem(&parse_quote!(impl Display), "`#[tool]`", "x").is_some());
        assert!(return_problem(&parse_quote!((String, u8)), "`#[tool]`", "x").is_some());
        assert!(return_problem(&parse_quote!(()), "`#[tool]`", "x").is_none());
        assert!(return_problem(&parse_quote!(Result<Json<T>, E>), "`#[tool]`", "x").is_none());
        assert!(return_problem(&parse_quote!(&'static str), "`#[tool]`", "x").is_none());
    }
}
