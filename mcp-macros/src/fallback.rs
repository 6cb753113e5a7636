//! What is emitted when a rule is broken: the user's item, so the rest of the crate (and the
//! IDE) keeps working, plus every error, and no registration, so no error cascades from it.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Item, ItemFn};

use crate::model;
use crate::parse::Kind;

/// The function with helper attributes and parameter doc comments stripped, and the errors.
pub(crate) fn with_errors(func: &ItemFn, errors: syn::Error) -> TokenStream {
    let mut func = func.clone();
    model::strip_param_attrs(&mut func);
    let errors = errors.to_compile_error();
    quote!(#errors #func)
}

/// Rule `misplaced-attribute`: the attribute is on something other than a function.
pub(crate) fn misplaced(kind: Kind, item: &Item, original: TokenStream) -> TokenStream {
    let (what, head) = describe(item);
    let message = format!(
        "{} can only be applied to a function, not to {what}",
        kind.attr()
    );
    let error = match head {
        Some(head) => syn::Error::new_spanned(head, message),
        None => syn::Error::new_spanned(&original, message),
    };
    let error = error.to_compile_error();
    quote!(#error #original)
}

/// An item syn could not parse: rustc will report the syntax error itself.
pub(crate) fn unparsed(original: TokenStream, error: syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    quote!(#error #original)
}

/// What the item is, in words, and its head (keyword and name) to put the error on.
fn describe(item: &Item) -> (&'static str, Option<TokenStream>) {
    fn head(keyword: impl ToTokens, name: impl ToTokens) -> Option<TokenStream> {
        let mut tokens = keyword.into_token_stream();
        name.to_tokens(&mut tokens);
        Some(tokens)
    }
    match item {
        Item::Struct(i) => ("a struct", head(i.struct_token, &i.ident)),
        Item::Enum(i) => ("an enum", head(i.enum_token, &i.ident)),
        Item::Union(i) => ("a union", head(i.union_token, &i.ident)),
        Item::Const(i) => ("a constant", head(i.const_token, &i.ident)),
        Item::Static(i) => ("a static", head(i.static_token, &i.ident)),
        Item::Trait(i) => ("a trait", head(i.trait_token, &i.ident)),
        Item::TraitAlias(i) => ("a trait alias", head(i.trait_token, &i.ident)),
        Item::Type(i) => ("a type alias", head(i.type_token, &i.ident)),
        Item::Mod(i) => ("a module", head(i.mod_token, &i.ident)),
        Item::Impl(i) => ("an `impl` block", head(i.impl_token, &i.self_ty)),
        Item::Use(i) => ("a `use` declaration", head(i.use_token, &i.tree)),
        Item::ExternCrate(i) => (
            "an `extern crate` declaration",
            head(i.extern_token, &i.ident),
        ),
        Item::ForeignMod(i) => ("an `extern` block", head(&i.abi, TokenStream::new())),
        Item::Macro(i) => ("a macro invocation", head(&i.mac.path, TokenStream::new())),
        _ => ("this item", None),
    }
}
