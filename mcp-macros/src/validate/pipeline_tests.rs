//! The rules through the whole front half of the pipeline (parse, model, validate), as pure
//! functions of tokens.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctxt::Ctxt;
use crate::model;
use crate::parse::{ItemArgs, Kind};

fn errors(kind: Kind, attr: TokenStream, item: TokenStream) -> Vec<String> {
    let func: syn::ItemFn = syn::parse2(item).expect("a function");
    let cx = Ctxt::new();
    let args = ItemArgs::parse(kind, attr, |e| cx.syn_error(e));
    let def = model::build(&cx, kind, args, &func);
    super::check(&cx, &def);
    match cx.check() {
        Ok(()) => Vec::new(),
        Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn a_valid_tool_has_no_error() {
    let found = errors(
        Kind::Tool,
        quote!(name = "add", read_only),
        quote!(
            async fn add(#[arg(min = 0)] a: f64, b: Option<String>, ctx: Context) -> String {
                todo!()
            }
        ),
    );
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn template_variables_and_parameters_must_match() {
    let found = errors(
        Kind::Resource,
        quote!(uri = "x://{a}/{b}"),
        quote!(
            fn r(a: String, c: String, ctx: Context) -> String {
                todo!()
            }
        ),
    );
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("URI template variable `b` has no parameter"));
    assert!(found[1].starts_with("parameter `c` is not a variable of the URI template"));
    let renamed = errors(
        Kind::Resource,
        quote!(uri = "x://{itemId}"),
        quote!(
            fn r(#[arg(rename = "itemId")] id: u32) -> String {
                todo!()
            }
        ),
    );
    assert_eq!(renamed, Vec::<String>::new());
}

#[test]
fn every_error_of_a_build_is_reported() {
    let found = errors(
        Kind::Tool,
        quote!(name = "bad name", nmae = "x", meta = "[]"),
        quote!(
            fn t<T>(&self, (a, b): (u8, u8), s: &str, #[arg(complete = f)] c: String) {}
        ),
    );
    assert_eq!(found.len(), 8, "{found:#?}");
}

#[test]
fn prompt_arguments_must_come_from_strings() {
    let found = errors(
        Kind::Prompt,
        quote!(),
        quote!(
            fn p(
                a: Vec<String>,
                b: Option<HashMap<String, u8>>,
                c: Option<u8>,
                d: serde_json::Value,
            ) -> String {
                todo!()
            }
        ),
    );
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[1].contains("`HashMap<String, u8>`"));
}

#[test]
fn limits_are_checked_on_every_kind() {
    let item = || {
        quote!(
            fn f() -> String {
                todo!()
            }
        )
    };
    for (kind, attr) in [
        (
            Kind::Tool,
            quote!(timeout_ms = 0, max_concurrency = 5000000000),
        ),
        (
            Kind::Resource,
            quote!(uri = "a://b", timeout_ms = 0, max_concurrency = 5000000000),
        ),
        (
            Kind::Prompt,
            quote!(timeout_ms = 0, max_concurrency = 5000000000),
        ),
    ] {
        assert_eq!(
            errors(kind, attr, item()),
            [
                "`timeout_ms` must be a whole number, at least 1",
                "`max_concurrency` must be a whole number, 1 to 4294967295",
            ],
            "{kind:?}"
        );
    }
    let found = errors(
        Kind::Resource,
        quote!(
            uri = "a://{id}",
            timeout_ms = 18446744073709551615,
            max_concurrency = 1
        ),
        quote!(
            fn f(id: u32) -> String {
                todo!()
            }
        ),
    );
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn a_resource_without_uri_is_reported_once() {
    let found = errors(
        Kind::Resource,
        quote!(mime = "text/plain"),
        quote!(
            fn r() -> String {
                todo!()
            }
        ),
    );
    assert_eq!(found.len(), 1);
    assert!(found[0].starts_with("`#[resource]` needs a URI"));
}

#[test]
fn patterns_are_compiled_and_bounds_fit_the_type() {
    let found = errors(
        Kind::Tool,
        quote!(),
        quote!(
            fn t(
                #[arg(pattern = "[a-z")] a: String,
                #[arg(pattern = "^(a|b)+$")] b: Option<String>,
                #[arg(max = 100)] c: String,
                #[arg(min = 1, max = 2)] d: Option<u8>,
                #[arg(pattern = "x")] e: f64,
                #[arg(min = 0)] f: Budget,
            ) {
            }
        ),
    );
    assert_eq!(
        found,
        [
            "`pattern` is not a valid regular expression: found unclosed character class",
            "`min` and `max` apply to numbers, and `String` is not one; remove `max`, or constrain the text with `pattern = \"..\"`",
            "`pattern` applies to strings, and `f64` is not one; remove `pattern`, or bound the number with `min` and `max`",
        ]
    );
}

#[test]
fn a_flattened_parameter_takes_no_other_key() {
    let found = errors(
        Kind::Tool,
        quote!(),
        quote!(
            fn t(
                #[arg(flatten)] a: Paging,
                #[arg(flatten, title = "x")] b: Filter,
                #[arg(flatten)] c: Vec<u8>,
            ) {
            }
        ),
    );
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("`title` does not apply to a flattened parameter"));
    assert!(found[1].starts_with("`#[arg(flatten)]` spreads the fields of a struct"));
}

#[test]
fn allow_unknown_args_is_a_tool_flag() {
    let found = errors(
        Kind::Tool,
        quote!(allow_unknown_args, allow_unknown_args = false),
        quote!(
            fn t() {}
        ),
    );
    assert_eq!(
        found,
        ["duplicate `#[tool]` argument `allow_unknown_args`; give it once"]
    );
    let found = errors(
        Kind::Prompt,
        quote!(allow_unknown_args),
        quote!(
            fn p() {}
        ),
    );
    assert_eq!(found.len(), 1);
    assert!(found[0].starts_with("unknown `#[prompt]` argument `allow_unknown_args`"));
    let found = errors(
        Kind::Tool,
        quote!(input_schema = "{}", allow_unknown_args = false),
        quote!(
            fn t(args: Value) {}
        ),
    );
    assert_eq!(
        found,
        [
            "`allow_unknown_args` does not apply with a raw `input_schema`: the arguments arrive as sent, whatever they name; remove it"
        ]
    );
}
