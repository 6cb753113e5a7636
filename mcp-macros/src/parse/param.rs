//! The parameter attributes: `#[arg(..)]` and `#[ctx]`.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, LitStr, Token};

use super::{ARG_KEYS, ArgKey, assigned, eq, unknown_key};

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
