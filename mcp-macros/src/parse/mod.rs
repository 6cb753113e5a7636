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
use syn::{LitBool, LitInt, LitStr, Token, bracketed, parenthesized};

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
                Tags,
                Task,
                Ui,
                Visibility,
                RenameAll,
                CacheTtlMs,
                CacheScope,
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
                Tags,
                TtlMs,
                CacheScope,
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
                Tags,
                RenameAll,
                CacheTtlMs,
                CacheScope,
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
        Tags => tags,
        Task => task,
        Ui => ui,
        Visibility => visibility,
        RenameAll => rename_all,
        TtlMs => ttl_ms,
        CacheTtlMs => cache_ttl_ms,
        CacheScope => cache_scope,
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

mod param;

pub(crate) use param::{Number, ParamAttrs, ParamValue};

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
            ItemKey::TtlMs | ItemKey::CacheTtlMs => ItemValue::Int(assigned(
                input,
                key.as_str(),
                "an integer literal",
                "60000",
            )?),
            ItemKey::CacheScope => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                "\"public\"",
            )?),
            ItemKey::MaxConcurrency => {
                ItemValue::Int(assigned(input, key.as_str(), "an integer literal", "4")?)
            }
            ItemKey::Icon => ItemValue::Icon(IconSpec::parse(span, input)?),
            ItemKey::Scopes => strings(input, "scopes", "[\"notes:write\"]")?,
            ItemKey::Tags => strings(input, "tags", "[\"admin\"]")?,
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
            ItemKey::RenameAll => ItemValue::Str(assigned(
                input,
                key.as_str(),
                "a string literal",
                "\"camelCase\"",
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
mod tests;

/// `= ["a", "b"]`: a list of string literals, with the span of the list.
fn strings(input: ParseStream<'_>, key: &str, example: &str) -> syn::Result<ItemValue> {
    eq(input, key)?;
    if !input.peek(syn::token::Bracket) {
        return Err(input.error(format!(
            "`{key}` takes a list of strings, e.g. `{key} = {example}`"
        )));
    }
    let span = input.span();
    let list;
    bracketed!(list in input);
    let items = Punctuated::<LitStr, Token![,]>::parse_terminated(&list)?;
    Ok(ItemValue::Strs(items.into_iter().collect(), span))
}
