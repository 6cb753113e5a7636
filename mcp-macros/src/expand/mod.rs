//! Code generation from a validated model. Nothing here can fail: every rule has been checked.
//!
//! Each macro emits the user's function (helper attributes stripped), a companion struct with the
//! function's name holding the const record, and one `inventory::submit!` of that record. The
//! generated glue lives inside the record's const initialiser, so it cannot clash with anything.

mod prompt;
mod register;
mod resource;
mod tool;
pub(crate) mod typed;

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, Item, LitInt, LitStr, Type};

use crate::ctxt::Ctxt;
use crate::fallback;
use crate::model::{self, Def, ItemDef, Param, Role};
use crate::parse::{ItemArgs, Kind};
use crate::validate;

/// The whole pipeline for one invocation: parse, validate, expand (or fall back).
pub(crate) fn run(kind: Kind, attr: TokenStream, item: TokenStream) -> TokenStream {
    let func = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(func)) => func,
        Ok(other) => return fallback::misplaced(kind, &other, item),
        Err(error) => return fallback::unparsed(item, error),
    };
    let cx = Ctxt::new();
    let args = ItemArgs::parse(kind, attr, |error| cx.syn_error(error));
    let def = model::build(&cx, kind, args, &func);
    validate::check(&cx, &def);
    match cx.check() {
        Ok(()) => match &def {
            Def::Tool(def) => tool::expand(def),
            Def::Resource(def) => resource::expand(def),
            Def::Prompt(def) => prompt::expand(def),
        },
        Err(errors) => fallback::with_errors(&func, errors),
    }
}

/// `::mcp_runtime::__private`, the only door the generated code goes through.
fn private() -> TokenStream {
    quote!(::mcp_runtime::__private)
}

fn some_str(value: Option<String>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

fn some_lit(value: Option<&LitStr>) -> TokenStream {
    some_str(value.map(LitStr::value))
}

/// The `.with_*(..)` calls that follow a record's `new`, one for each part the declaration
/// gives: `new` takes the parts every item has, and the record's defaults stand for the rest.
#[derive(Default)]
struct Setters(Vec<TokenStream>);

impl Setters {
    /// `.with_{part}(value)`.
    fn set(&mut self, part: &str, value: impl ToTokens) {
        let setter = format_ident!("with_{part}");
        self.0.push(quote!(.#setter(#value)));
    }

    /// `.with_{part}(value)` when there is a value.
    fn set_some(&mut self, part: &str, value: Option<impl ToTokens>) {
        if let Some(value) = value {
            self.set(part, value);
        }
    }

    /// The parts every item kind shares: title, description, icons, `_meta`, server, limits,
    /// declaration site and scopes.
    fn common(&mut self, item: &ItemDef, timeout_ms: Option<&LitInt>, max: Option<&LitInt>) {
        self.set("location", location(item));
        self.set_some("title", item.title.as_ref());
        self.set_some("description", item.description());
        if !item.icons.is_empty() {
            self.set("icons", icons(item));
        }
        self.set_some("meta", item.meta.as_ref());
        self.set_some("server", item.server.as_ref());
        self.set_some("timeout_ms", timeout_ms);
        self.set_some("max_concurrency", max);
        if item.cache_ttl.is_some() || item.cache_scope.is_some() {
            let p = private();
            let ttl = item
                .cache_ttl
                .as_ref()
                .map_or(0, |(_, v)| v.base10_parse::<u64>().unwrap_or(0));
            let scope = match item.cache_scope.as_ref().map(LitStr::value).as_deref() {
                Some("public") => quote!(#p::CacheScope::Public),
                _ => quote!(#p::CacheScope::Private),
            };
            self.0.push(quote!(.with_cache(#ttl, #scope)));
        }
        if !item.scopes.is_empty() {
            let scopes = &item.scopes;
            self.set("scopes", quote!(&[#(#scopes),*]));
        }
        if !item.tags.is_empty() {
            let tags = &item.tags;
            self.set("tags", quote!(&[#(#tags),*]));
        }
    }
}

impl ToTokens for Setters {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.0.iter().cloned());
    }
}

/// `&[IconRecord::new(..).with_*(..), ..]`.
fn icons(item: &ItemDef) -> TokenStream {
    let p = private();
    let icons = item.icons.iter().map(|icon| {
        let src = icon.src.as_ref().map(LitStr::value).unwrap_or_default();
        let mut setters = Setters::default();
        setters.set_some("mime_type", icon.mime.as_ref());
        if !icon.sizes.is_empty() {
            let sizes = icon.sizes.iter().map(LitStr::value);
            setters.set("sizes", quote!(&[#(#sizes),*]));
        }
        setters.set_some("theme", icon.theme.as_ref());
        quote!(#p::IconRecord::new(#src) #setters)
    });
    quote!(&[#(#icons),*])
}

/// The declaration site, spanned at the function's name so `line!()` points there.
fn location(item: &ItemDef) -> TokenStream {
    let p = private();
    let span = item.ident().span();
    quote_spanned!(span=> #p::Location::new(::core::file!(), ::core::line!(), ::core::column!()))
}

/// The local that holds a parameter's value in the generated call.
fn local(param: &Param) -> Ident {
    format_ident!("__mcp_p_{}", param.ident.unraw())
}

/// `let __mcp_p_ctx = <Context as FromContext>::from_context(&__mcp_ctx)?;` for each injected
/// parameter. The type keeps the user's spans, so a type that cannot be injected is reported on
/// the parameter's type with `FromContext`'s `on_unimplemented` message.
fn injections(item: &ItemDef) -> TokenStream {
    let p = private();
    let lets = item
        .params
        .iter()
        .filter(|param| param.role == Role::Injected)
        .map(|param| {
            let local = local(param);
            let ty = &param.ty;
            quote!(let #local: #ty = <#ty as #p::FromContext>::from_context(&__mcp_ctx)?;)
        });
    quote!(#(#lets)*)
}

/// Calls the user's function with every parameter's local, awaiting it when it is `async`, into
/// `__mcp_out`. The future must be `Send`: the assertion puts that error on the function's name.
/// It sits in a closure that is never called, so that it is checked but not compiled: a call
/// would instantiate `assert_send` for the function's future in the runtime's code unit of the
/// server crate, and every edit of any tool's body would regenerate that unit.
fn call(item: &ItemDef) -> TokenStream {
    let p = private();
    let ident = item.ident();
    let locals = item.params.iter().map(local);
    if item.is_async() {
        let send = quote_spanned!(ident.span()=> let _ = || #p::assert_send(&__mcp_future););
        quote! {
            let __mcp_future = #ident(#(#locals),*);
            #send
            let __mcp_out = __mcp_future.await;
        }
    } else {
        quote!(let __mcp_out = #ident(#(#locals),*);)
    }
}

/// The declared return type (`()` when there is none).
///
/// Its trait (`IntoToolResult`, ..) is named as `<Ret as Trait>` with the user's tokens, so an
/// unsupported return type is reported once, on the return type, with the trait's
/// `on_unimplemented` message (rustc merges the identical errors of the several uses).
fn return_type(item: &ItemDef) -> Type {
    item.return_type()
}

/// The value of `#[arg(default = EXPR)]` for a parameter of type `ty`: an integer literal becomes
/// a float for `f32`/`f64`, a string literal is `.into()`-ed unless the type is `&str`.
fn default_value(expr: &Expr, ty: &Type) -> TokenStream {
    if let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(_),
        ..
    }) = expr
        && !crate::ty::is_str_ref(ty)
    {
        return quote_spanned!(expr.span()=> ::core::convert::Into::into(#expr));
    }
    if crate::ty::is_float(ty) {
        let (negative, inner) = match expr {
            Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) => (true, &**expr),
            other => (false, other),
        };
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) = inner
        {
            let float = syn::LitFloat::new(&format!("{}.0", int.base10_digits()), int.span());
            return if negative {
                quote!(-#float)
            } else {
                quote!(#float)
            };
        }
    }
    quote!(#expr)
}

/// `fn __mcp_default_<fn>_<param>() -> T { EXPR }` and its name, for parameters with a default.
fn default_fn(item: &ItemDef, param: &Param) -> Option<(Ident, TokenStream)> {
    let expr = param.default.as_ref()?;
    let name = format_ident!(
        "__mcp_default_{}_{}",
        item.ident().unraw(),
        param.ident.unraw()
    );
    let ty = &param.ty;
    let value = default_value(expr, ty);
    let item = quote! {
        #[allow(non_snake_case)]
        fn #name() -> #ty {
            #value
        }
    };
    Some((name, item))
}

/// `&[CompletionRecord::new(..).with_state_needs(..), ..]` for the parameters with
/// `#[arg(complete = ..)]`; `None` when no parameter has one.
///
/// Each hook, whatever its shape (sync or `async`, with injected parameters or not), is wrapped
/// in an adapter of the one type the record holds; a hook of no supported shape is reported on
/// the hook's tokens with `CompletionHook`'s message.
fn completions(item: &ItemDef) -> Option<TokenStream> {
    let p = private();
    let records: Vec<TokenStream> = item.arguments().filter_map(|param| {
        let hook = param.complete.as_ref()?;
        let name = param.public_name();
        Some(quote! {
            #p::CompletionRecord::new(
                #name,
                {
                    fn __mcp_complete(
                        __mcp_ctx: #p::Context,
                        __mcp_request: #p::CompletionRequest,
                    ) -> #p::BoxFuture<'static, ::core::result::Result<::std::vec::Vec<::std::string::String>, #p::HandlerError>> {
                        #p::hook(#hook).complete(__mcp_ctx, __mcp_request)
                    }
                    __mcp_complete
                },
            )
            .with_state_needs({
                fn __mcp_state_needs(__mcp_needs: &mut #p::StateNeeds) {
                    #p::hook(#hook).state_needs(__mcp_needs)
                }
                __mcp_state_needs
            })
        })
    }).collect();
    (!records.is_empty()).then(|| quote!(&[#(#records),*]))
}

/// `fn __mcp_state_needs(..)`: the state every injected parameter declares it reads (see
/// `FromContext::state_needs`), for the build-time check.
fn state_needs(item: &ItemDef) -> TokenStream {
    let p = private();
    let needs = item
        .params
        .iter()
        .filter(|param| param.role == Role::Injected)
        .map(|param| {
            let ty = &param.ty;
            quote!(<#ty as #p::FromContext>::state_needs(__mcp_needs);)
        });
    quote! {
        #[allow(unused_variables)]
        fn __mcp_state_needs(__mcp_needs: &mut #p::StateNeeds) {
            #(#needs)*
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn defaults_fit_the_type() {
        let int: Expr = parse_quote!(5);
        assert_eq!(default_value(&int, &parse_quote!(f64)).to_string(), "5.0");
        assert_eq!(
            default_value(&parse_quote!(-5), &parse_quote!(f32)).to_string(),
            "- 5.0"
        );
        assert_eq!(default_value(&int, &parse_quote!(u8)).to_string(), "5");
        let s: Expr = parse_quote!("x");
        assert_eq!(
            default_value(&s, &parse_quote!(String)).to_string(),
            ":: core :: convert :: Into :: into (\"x\")"
        );
        assert_eq!(
            default_value(&s, &parse_quote!(&'static str)).to_string(),
            "\"x\""
        );
    }
}
