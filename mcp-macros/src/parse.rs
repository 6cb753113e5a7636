//! Attribute syntax: the arguments of `#[tool(..)]`, `#[resource(..)]`, `#[prompt(..)]` and of the
//! parameter attributes `#[arg(..)]` and `#[ctx]`, parsed into spanned values.
//!
//! This module knows the grammar only. Whether a key may be given twice, or whether a value makes
//! sense, is decided later (`model` and `validate`), so that every such error of a build is
//! reported at once.

use proc_macro2::{Span, TokenStream};
use syn::parse::discouraged::Speculative;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, LitBool, LitInt, LitStr, Token, bracketed, parenthesized};

/// Which macro is being expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Tool,
    Resource,
    Prompt,
}

impl Kind {
    /// The attribute as the user writes it: `#[tool]`.
    pub(crate) fn attr(self) -> &'static str {
        match self {
            Kind::Tool => "`#[tool]`",
            Kind::Resource => "`#[resource]`",
            Kind::Prompt => "`#[prompt]`",
        }
    }

    /// The item keys this macro accepts, in documentation order.
    pub(crate) fn keys(self) -> &'static [ItemKey] {
        use ItemKey::*;
        match self {
            Kind::Tool => &[
                Name,
                Title,
                Description,
                ReadOnly,
                Destructive,
                Idempotent,
                OpenWorld,
                Icon,
                Meta,
                Server,
                TimeoutMs,
                MaxConcurrency,
                InputSchema,
                AllowUnknownArgs,
                Scopes,
                Task,
                Ui,
                Visibility,
            ],
            Kind::Resource => &[
                Uri,
                Name,
                Title,
                Description,
                Mime,
                Icon,
                Meta,
                Server,
                TimeoutMs,
                MaxConcurrency,
                Scopes,
            ],
            Kind::Prompt => &[
                Name,
                Title,
                Description,
                Icon,
                Meta,
                Server,
                TimeoutMs,
                MaxConcurrency,
                Scopes,
            ],
        }
    }
}

/// Declares the custom keywords of one attribute and a key enum that maps them to names.
macro_rules! keys {
    ($vis:vis mod $kw:ident; $vis2:vis enum $Key:ident { $($Variant:ident => $word:ident,)* }) => {
        $vis mod $kw {
            $(syn::custom_keyword!($word);)*
        }

        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis2 enum $Key {
            $($Variant,)*
        }

        impl $Key {
            /// The key as written.
            pub(crate) fn as_str(self) -> &'static str {
                match self {
                    $($Key::$Variant => stringify!($word),)*
                }
            }

            /// Parses the next key if it is one of ours, with its span.
            fn peek_parse(input: ParseStream<'_>) -> syn::Result<Option<(Self, Span)>> {
                $(
                    if input.peek($kw::$word) {
                        let word: $kw::$word = input.parse()?;
                        return Ok(Some(($Key::$Variant, word.span)));
                    }
                )*
                Ok(None)
            }
        }
    };
}

keys! {
    pub(crate) mod item_kw;
    pub(crate) enum ItemKey {
        Name => name,
        Title => title,
        Description => description,
        ReadOnly => read_only,
        Destructive => destructive,
        Idempotent => idempotent,
        OpenWorld => open_world,
        Icon => icon,
        Meta => meta,
        Server => server,
        TimeoutMs => timeout_ms,
        MaxConcurrency => max_concurrency,
        InputSchema => input_schema,
        AllowUnknownArgs => allow_unknown_args,
        Uri => uri,
        Mime => mime,
        Scopes => scopes,
        Task => task,
        Ui => ui,
        Visibility => visibility,
    }
}

keys! {
    pub(crate) mod arg_kw;
    pub(crate) enum ArgKey {
        Rename => rename,
        Title => title,
        Default => default,
        Min => min,
        Max => max,
        Pattern => pattern,
        Complete => complete,
        Header => header,
        Flatten => flatten,
    }
}

keys! {
    pub(crate) mod icon_kw;
    pub(crate) enum IconKey {
        Src => src,
        Mime => mime,
        Sizes => sizes,
        Theme => theme,
    }
}

const ARG_KEYS: &[ArgKey] = &[
    ArgKey::Rename,
    ArgKey::Title,
    ArgKey::Default,
    ArgKey::Min,
    ArgKey::Max,
    ArgKey::Pattern,
    ArgKey::Complete,
    ArgKey::Header,
    ArgKey::Flatten,
];

const ICON_KEYS: &[IconKey] = &[IconKey::Src, IconKey::Mime, IconKey::Sizes, IconKey::Theme];

/// One `key = value` (or bare flag) of an item attribute.
pub(crate) struct ItemArg {
    pub(crate) key: ItemKey,
    pub(crate) span: Span,
    pub(crate) value: ItemValue,
}

/// The value of an item argument; its shape follows from the key.
pub(crate) enum ItemValue {
    Str(LitStr),
    /// A hint flag: `read_only` (true, at the key's span) or `read_only = false`.
    Flag(LitBool),
    Int(LitInt),
    Icon(IconSpec),
    /// A list of strings with the span of the value: `scopes = ["notes:read"]`,
    /// `visibility = "app"` or `visibility = ["model", "app"]`.
    Strs(Vec<LitStr>, Span),
    /// `ui = WIDGET`: the path of a `#[widget]` const.
    Path(syn::Path),
}

/// An icon: `icon = "src"` or `icon(src = "..", mime = "..", sizes = [".."], theme = "..")`.
pub(crate) struct IconSpec {
    pub(crate) span: Span,
    pub(crate) src: Option<LitStr>,
    pub(crate) mime: Option<LitStr>,
    pub(crate) sizes: Vec<LitStr>,
    pub(crate) theme: Option<LitStr>,
    /// Keys given more than once (reported by validation).
    pub(crate) duplicates: Vec<(IconKey, Span)>,
}

/// The arguments of an item attribute, in source order.
pub(crate) struct ItemArgs(pub(crate) Vec<ItemArg>);

impl ItemArgs {
    /// Parses the tokens inside `#[tool(...)]` (or `#[resource]`, `#[prompt]`).
    ///
    /// Each comma-separated argument is parsed on its own: a malformed one is reported to
    /// `on_error` and left out, and the others are kept, so one typo does not hide the rest.
    pub(crate) fn parse(
        kind: Kind,
        tokens: TokenStream,
        mut on_error: impl FnMut(syn::Error),
    ) -> Self {
        let mut args = Vec::new();
        let chunks = split_commas(tokens);
        let count = chunks.len();
        for (index, (chunk, comma)) in chunks.into_iter().enumerate() {
            if chunk.is_empty() {
                if index + 1 < count || comma.is_some() {
                    let span = comma.unwrap_or_else(Span::call_site);
                    on_error(syn::Error::new(
                        span,
                        format!("expected a {} argument before this `,`", kind.attr()),
                    ));
                }
                continue;
            }
            let parser = |input: ParseStream<'_>| {
                let arg = ItemArg::parse(kind, input)?;
                if !input.is_empty() {
                    return Err(input.error("expected `,` between arguments"));
                }
                Ok(arg)
            };
            match parser.parse2(chunk) {
                Ok(arg) => args.push(arg),
                Err(error) => on_error(error),
            }
        }
        ItemArgs(args)
    }
}

/// Splits `tokens` at its top-level commas; each piece comes with the span of the comma that
/// ends it. Item arguments hold no expressions, so a comma inside them is always in a group.
fn split_commas(tokens: TokenStream) -> Vec<(TokenStream, Option<Span>)> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for tt in tokens {
        match &tt {
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ',' => {
                out.push((current.drain(..).collect(), Some(p.span())));
            }
            _ => current.push(tt),
        }
    }
    if !current.is_empty() {
        out.push((current.into_iter().collect(), None));
    }
    out
}

impl ItemArg {
    fn parse(kind: Kind, input: ParseStream<'_>) -> syn::Result<Self> {
        let fork = input.fork();
        let (key, span) = match ItemKey::peek_parse(&fork)? {
            Some((key, span)) if kind.keys().contains(&key) => {
                input.advance_to(&fork);
                (key, span)
            }
            _ => {
                return Err(unknown_key(
                    input,
                    kind.attr(),
                    kind.keys().iter().map(|k| k.as_str()),
                ));
            }
        };
        let value = match key {
            ItemKey::ReadOnly
            | ItemKey::Destructive
            | ItemKey::Idempotent
            | ItemKey::OpenWorld
            | ItemKey::AllowUnknownArgs => {
                if input.peek(Token![=]) {
                    input.parse::<Token![=]>()?;
                    ItemValue::Flag(value(input, key.as_str(), "a boolean", "true")?)
                } else {
                    ItemValue::Flag(LitBool::new(true, span))
                }
            }
            ItemKey::TimeoutMs => {
                ItemValue::Int(assigned(input, key.as_str(), "an integer literal", "5000")?)
            }
            ItemKey::MaxConcurrency => {
                ItemValue::Int(assigned(input, key.as_str(), "an integer literal", "4")?)
            }
            ItemKey::Icon => ItemValue::Icon(IconSpec::parse(span, input)?),
            ItemKey::Scopes => {
                eq(input, "scopes")?;
                if !input.peek(syn::token::Bracket) {
                    return Err(input.error(
                        "`scopes` takes a list of strings, e.g. `scopes = [\"notes:write\"]`",
                    ));
                }
                let span = input.span();
                let list;
                bracketed!(list in input);
                let scopes = Punctuated::<LitStr, Token![,]>::parse_terminated(&list)?;
                ItemValue::Strs(scopes.into_iter().collect(), span)
            }
            ItemKey::Meta => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                r##"r#"{"key": 1}"#"##,
            )?),
            ItemKey::InputSchema => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                r##"r#"{"type": "object"}"#"##,
            )?),
            ItemKey::Uri => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                "\"file:///{path}\"",
            )?),
            ItemKey::Mime => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                "\"text/plain\"",
            )?),
            ItemKey::Task => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                "\"optional\"",
            )?),
            ItemKey::Ui => {
                eq(input, "ui")?;
                if input.peek(LitStr) {
                    let lit: LitStr = input.parse()?;
                    return Err(syn::Error::new(
                        lit.span(),
                        "`ui` names the widget's const, not its URI: declare the widget with `#[widget(uri = \"ui://...\")] const MY_WIDGET: &str = ..;` and write `ui = MY_WIDGET`",
                    ));
                }
                ItemValue::Path(value(
                    input,
                    "ui",
                    "the path of a `#[widget]` const",
                    "GIFT_CARDS",
                )?)
            }
            ItemKey::Visibility => {
                eq(input, "visibility")?;
                let span = input.span();
                if input.peek(syn::token::Bracket) {
                    let list;
                    bracketed!(list in input);
                    let values = Punctuated::<LitStr, Token![,]>::parse_terminated(&list)?;
                    ItemValue::Strs(values.into_iter().collect(), span)
                } else {
                    let one: LitStr = value(
                        input,
                        "visibility",
                        "a string or a list of strings",
                        "\"app\"",
                    )?;
                    ItemValue::Strs(vec![one], span)
                }
            }
            ItemKey::Name | ItemKey::Title | ItemKey::Description | ItemKey::Server => {
                ItemValue::Str(assigned(
                    input,
                    key.as_str(),
                    "a string literal",
                    "\"...\"",
                )?)
            }
        };
        Ok(ItemArg { key, span, value })
    }
}

impl IconSpec {
    fn parse(span: Span, input: ParseStream<'_>) -> syn::Result<Self> {
        let mut icon = IconSpec {
            span,
            src: None,
            mime: None,
            sizes: Vec::new(),
            theme: None,
            duplicates: Vec::new(),
        };
        if input.peek(Token![=]) {
            icon.src = Some(assigned(
                input,
                "icon",
                "a string literal or a list",
                "\"https://example.com/icon.png\"",
            )?);
            return Ok(icon);
        }
        if !input.peek(syn::token::Paren) {
            return Err(input.error(
                "`icon` takes a source or a list: `icon = \"https://..\"` or `icon(src = \"..\", mime = \"..\", sizes = [\"48x48\"], theme = \"dark\")`",
            ));
        }
        let content;
        parenthesized!(content in input);
        while !content.is_empty() {
            icon.parse_entry(&content)?;
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        Ok(icon)
    }

    fn parse_entry(&mut self, input: ParseStream<'_>) -> syn::Result<()> {
        let Some((key, span)) = IconKey::peek_parse(input)? else {
            return Err(unknown_key(
                input,
                "`icon`",
                ICON_KEYS.iter().map(|k| k.as_str()),
            ));
        };
        let given = match key {
            IconKey::Src => self.src.is_some(),
            IconKey::Mime => self.mime.is_some(),
            IconKey::Sizes => !self.sizes.is_empty(),
            IconKey::Theme => self.theme.is_some(),
        };
        if given {
            self.duplicates.push((key, span));
        }
        match key {
            IconKey::Src => {
                self.src = Some(assigned(
                    input,
                    "src",
                    "a string literal",
                    "\"https://..\"",
                )?)
            }
            IconKey::Mime => {
                self.mime = Some(assigned(
                    input,
                    "mime",
                    "a string literal",
                    "\"image/png\"",
                )?)
            }
            IconKey::Theme => {
                self.theme = Some(assigned(input, "theme", "a string literal", "\"dark\"")?)
            }
            IconKey::Sizes => {
                eq(input, "sizes")?;
                if !input.peek(syn::token::Bracket) {
                    return Err(input.error(
                        "`sizes` takes a list of strings, e.g. `sizes = [\"48x48\", \"any\"]`",
                    ));
                }
                let list;
                bracketed!(list in input);
                let sizes = Punctuated::<LitStr, Token![,]>::parse_terminated(&list)?;
                self.sizes.extend(sizes);
            }
        }
        Ok(())
    }
}

/// The parsed `#[arg(..)]` and `#[ctx]` attributes of one parameter.
#[derive(Default)]
pub(crate) struct ParamAttrs {
    pub(crate) args: Vec<ParamArg>,
    /// The span of `#[ctx]`, if present.
    pub(crate) ctx: Option<Span>,
    /// The span of the first `#[arg]`, if present.
    pub(crate) arg: Option<Span>,
}

/// One `key = value` of `#[arg(..)]`.
pub(crate) struct ParamArg {
    pub(crate) key: ArgKey,
    pub(crate) span: Span,
    pub(crate) value: ParamValue,
}

/// The value of a parameter argument.
pub(crate) enum ParamValue {
    Str(LitStr),
    Expr(Box<Expr>),
    Number(Number),
    /// A bare key: `flatten`.
    Flag,
}

/// A number literal, possibly negative: the bound of `min`/`max`.
#[derive(Clone)]
pub(crate) struct Number {
    pub(crate) span: Span,
    pub(crate) value: f64,
    /// The tokens as written (`-5`, `0.5`), for schemars.
    pub(crate) tokens: TokenStream,
}

impl Parse for Number {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let expr: Expr = input.parse()?;
        let (negative, lit) = match &expr {
            Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) => (true, &**expr),
            other => (false, other),
        };
        let value = match lit {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(int),
                ..
            }) => int.base10_digits().parse::<f64>().ok(),
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Float(float),
                ..
            }) => float.base10_digits().parse::<f64>().ok(),
            _ => None,
        };
        match value {
            Some(value) if value.is_finite() => Ok(Number {
                span: expr.span(),
                value: if negative { -value } else { value },
                tokens: quote::ToTokens::into_token_stream(&expr),
            }),
            _ => Err(syn::Error::new_spanned(
                expr,
                "expected a number literal, e.g. `0`, `-1.5` or `100`",
            )),
        }
    }
}

impl ParamAttrs {
    /// Whether `attr` is one of ours (`#[arg]` or `#[ctx]`), to be stripped from the fn.
    pub(crate) fn is_helper(attr: &Attribute) -> bool {
        attr.path().is_ident("arg") || attr.path().is_ident("ctx")
    }

    /// Parses the helper attributes among `attrs`; errors go to `on_error` and parsing goes on.
    pub(crate) fn parse(attrs: &[Attribute], mut on_error: impl FnMut(syn::Error)) -> Self {
        let mut out = ParamAttrs::default();
        for attr in attrs {
            if attr.path().is_ident("ctx") {
                if let syn::Meta::Path(_) = attr.meta {
                    out.ctx.get_or_insert(attr.span());
                } else {
                    on_error(syn::Error::new_spanned(
                        &attr.meta,
                        "`#[ctx]` takes no arguments; write `#[ctx]`",
                    ));
                }
            } else if attr.path().is_ident("arg") {
                out.arg.get_or_insert(attr.span());
                let parsed = match &attr.meta {
                    syn::Meta::List(list) => list.parse_args_with(|input: ParseStream<'_>| {
                        Punctuated::<ParamArg, Token![,]>::parse_terminated(input)
                    }),
                    other => Err(syn::Error::new_spanned(
                        other,
                        "`#[arg]` takes a list of arguments, e.g. `#[arg(rename = \"jsonName\")]`",
                    )),
                };
                match parsed {
                    Ok(args) => out.args.extend(args),
                    Err(error) => on_error(error),
                }
            }
        }
        out
    }
}

impl Parse for ParamArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let Some((key, span)) = ArgKey::peek_parse(input)? else {
            return Err(unknown_key(
                input,
                "`#[arg]`",
                ARG_KEYS.iter().map(|k| k.as_str()),
            ));
        };
        let value = match key {
            ArgKey::Rename => ParamValue::Str(assigned(
                input,
                "rename",
                "a string literal",
                "\"jsonName\"",
            )?),
            ArgKey::Title => {
                ParamValue::Str(assigned(input, "title", "a string literal", "\"...\"")?)
            }
            ArgKey::Pattern => ParamValue::Str(assigned(
                input,
                "pattern",
                "a string literal",
                "\"^[a-z]+$\"",
            )?),
            ArgKey::Header => {
                ParamValue::Str(assigned(input, "header", "a string literal", "\"Region\"")?)
            }
            ArgKey::Min | ArgKey::Max => {
                eq(input, key.as_str())?;
                ParamValue::Number(input.parse()?)
            }
            ArgKey::Default | ArgKey::Complete => {
                eq(input, key.as_str())?;
                ParamValue::Expr(Box::new(input.parse()?))
            }
            ArgKey::Flatten => {
                if input.peek(Token![=]) {
                    return Err(input.error("`flatten` takes no value; write `#[arg(flatten)]`"));
                }
                ParamValue::Flag
            }
        };
        Ok(ParamArg { key, span, value })
    }
}

/// "unknown `#[tool]` argument `nmae`, expected one of `name`, `title`, ..." at the bad token.
fn unknown_key<'a>(
    input: ParseStream<'_>,
    attr: &str,
    keys: impl Iterator<Item = &'a str>,
) -> syn::Error {
    let expected = keys
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let token = input.cursor().token_tree();
    match token {
        Some((proc_macro2::TokenTree::Ident(ident), _)) => syn::Error::new(
            ident.span(),
            format!("unknown {attr} argument `{ident}`, expected one of {expected}"),
        ),
        _ => input.error(format!("expected one of the {attr} arguments {expected}")),
    }
}

fn eq(input: ParseStream<'_>, key: &str) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        Ok(())
    } else {
        Err(input.error(format!("expected `=` after `{key}`")))
    }
}

/// `= <value>` with a precise message when the value has the wrong shape.
fn assigned<T: Parse>(
    input: ParseStream<'_>,
    key: &str,
    what: &str,
    example: &str,
) -> syn::Result<T> {
    eq(input, key)?;
    value(input, key, what, example)
}

fn value<T: Parse>(input: ParseStream<'_>, key: &str, what: &str, example: &str) -> syn::Result<T> {
    let fork = input.fork();
    match fork.parse::<T>() {
        Ok(_) => input.parse(),
        Err(_) => {
            let span = input
                .cursor()
                .token_tree()
                .map_or_else(|| input.span(), |(tt, _)| tt.span());
            Err(syn::Error::new(
                span,
                format!("`{key}` takes {what}, e.g. `{key} = {example}`"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

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
        assert!(
            errors[0].starts_with("unknown `#[arg]` argument `renam`, expected one of `rename`")
        );
        assert_eq!(
            errors[1],
            "expected a number literal, e.g. `0`, `-1.5` or `100`"
        );
    }
}
