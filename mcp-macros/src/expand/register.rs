//! Registration: the companion struct that carries the const record, and its `inventory` entry.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::model::ItemDef;

/// Emits, next to the user's function `f`:
///
/// ```text
/// #[doc(hidden)] pub struct f {}           // types and values live in different namespaces
/// impl f { pub const TOOL: ToolRecord = { ..glue.. }; }
/// inventory::submit! { f::TOOL }
/// ```
///
/// `#[cfg]` attributes of the function are repeated on each, so they come and go together.
pub(crate) fn register(
    item: &ItemDef,
    konst: &str,
    record_type: TokenStream,
    record: TokenStream,
) -> TokenStream {
    let ident = item.ident();
    let vis = &item.func.vis;
    let konst = Ident::new(konst, Span::call_site());
    let cfgs: Vec<_> = item
        .func
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("cfg"))
        .collect();
    let what = match item.kind {
        crate::parse::Kind::Tool => "tool",
        crate::parse::Kind::Resource => "resource",
        crate::parse::Kind::Prompt => "prompt",
    };
    let struct_doc =
        format!("Registration of the `{ident}` {what}; its record is `{ident}::{konst}`.");
    let const_doc =
        format!("The record of the `{ident}` {what}, for `Server::builder().{what}(..)`.");
    quote! {
        #(#cfgs)*
        #[doc = #struct_doc]
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}

        #(#cfgs)*
        impl #ident {
            #[doc = #const_doc]
            #vis const #konst: #record_type = #record;
        }

        #(#cfgs)*
        ::mcp_runtime::__private::inventory::submit! { #ident::#konst }
    }
}
