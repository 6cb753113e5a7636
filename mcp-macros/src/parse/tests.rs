use super::*;
use quote::quote;
use syn::Attribute;

fn item(kind: Kind, tokens: TokenStream) -> Result<ItemArgs, String> {
    let mut errors = Vec::new();
    let args = ItemArgs::parse(kind, tokens, |e| errors.push(e.to_string()));
    match errors.into_iter().next() {
        Some(error) => Err(error),
        None => Ok(args),
    }
}

#[test]
fn one_bad_argument_keeps_the_others() {
    let mut errors = Vec::new();
    let args = ItemArgs::parse(
        Kind::Resource,
        quote!(nmae = "x", uri = "a://b", mime = 3,),
        |e| errors.push(e.to_string()),
    );
    assert_eq!(args.0.len(), 1);
    assert_eq!(args.0[0].key, ItemKey::Uri);
    assert_eq!(errors.len(), 2, "{errors:?}");
    let mut errors = Vec::new();
    ItemArgs::parse(Kind::Tool, quote!(name = "a" title = "b"), |e| {
        errors.push(e.to_string())
    });
    assert_eq!(errors, ["expected `,` between arguments"]);
}

#[test]
fn parses_every_tool_key() {
    let args = item(
        Kind::Tool,
        quote!(
            name = "a",
            title = "T",
            description = "d",
            read_only,
            destructive = false,
            idempotent,
            open_world = true,
            icon = "https://x/i.png",
            icon(
                src = "data:,",
                mime = "image/png",
                sizes = ["1x1", "any"],
                theme = "dark"
            ),
            meta = r#"{"k":1}"#,
            server = "s",
            timeout_ms = 5000,
            max_concurrency = 4,
            input_schema = "{}"
        ),
    )
    .unwrap();
    let keys: Vec<&str> = args.0.iter().map(|a| a.key.as_str()).collect();
    assert_eq!(keys.len(), 14);
    assert!(matches!(&args.0[4].value, ItemValue::Flag(b) if !b.value));
    assert!(matches!(&args.0[3].value, ItemValue::Flag(b) if b.value));
    let ItemValue::Icon(icon) = &args.0[8].value else {
        panic!("icon")
    };
    assert_eq!(icon.sizes.len(), 2);
    assert_eq!(icon.theme.as_ref().unwrap().value(), "dark");
}

#[test]
fn resources_and_prompts_take_limits() {
    for (kind, tokens) in [
        (
            Kind::Resource,
            quote!(uri = "a://b", timeout_ms = 5000, max_concurrency = 4),
        ),
        (Kind::Prompt, quote!(timeout_ms = 5000, max_concurrency = 4)),
    ] {
        let args = item(kind, tokens).unwrap();
        let limits: Vec<(&str, u64)> = args
            .0
            .iter()
            .filter_map(|a| match &a.value {
                ItemValue::Int(i) => Some((a.key.as_str(), i.base10_parse().unwrap())),
                _ => None,
            })
            .collect();
        assert_eq!(limits, [("timeout_ms", 5000), ("max_concurrency", 4)]);
    }
    let err = item(Kind::Prompt, quote!(max_concurrency = "4"))
        .err()
        .unwrap();
    assert_eq!(
        err,
        "`max_concurrency` takes an integer literal, e.g. `max_concurrency = 4`"
    );
}

#[test]
fn unknown_key_lists_the_expected_ones() {
    let err = item(Kind::Tool, quote!(nmae = "x")).err().unwrap();
    assert!(
        err.starts_with("unknown `#[tool]` argument `nmae`, expected one of `name`, `title`"),
        "{err}"
    );
    let err = item(Kind::Prompt, quote!(read_only)).err().unwrap();
    assert!(
        err.starts_with("unknown `#[prompt]` argument `read_only`"),
        "{err}"
    );
}

#[test]
fn wrong_value_shape_says_what_is_expected() {
    let err = item(Kind::Tool, quote!(name = add)).err().unwrap();
    assert_eq!(err, "`name` takes a string literal, e.g. `name = \"...\"`");
    let err = item(Kind::Tool, quote!(timeout_ms = "5")).err().unwrap();
    assert_eq!(
        err,
        "`timeout_ms` takes an integer literal, e.g. `timeout_ms = 5000`"
    );
}

#[test]
fn parses_param_attributes() {
    let attrs: Vec<Attribute> = vec![
        syn::parse_quote!(#[arg(rename = "x", default = 3, min = -1, max = 2.5, pattern = "^a$", complete = a::b, header = "H", title = "t")]),
        syn::parse_quote!(#[ctx]),
    ];
    let mut errors = Vec::new();
    let parsed = ParamAttrs::parse(&attrs, |e| errors.push(e.to_string()));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(parsed.args.len(), 8);
    assert!(parsed.ctx.is_some());
    let ParamValue::Number(min) = &parsed.args[2].value else {
        panic!("min")
    };
    assert_eq!(min.value, -1.0);
}

#[test]
fn bad_param_attributes_are_reported() {
    let attrs: Vec<Attribute> = vec![
        syn::parse_quote!(#[arg(renam = "x")]),
        syn::parse_quote!(#[arg(min = "a")]),
    ];
    let mut errors = Vec::new();
    ParamAttrs::parse(&attrs, |e| errors.push(e.to_string()));
    assert_eq!(errors.len(), 2);
    assert!(errors[0].starts_with("unknown `#[arg]` argument `renam`, expected one of `rename`"));
    assert_eq!(
        errors[1],
        "expected a number literal, e.g. `0`, `-1.5` or `100`"
    );
}
