//! `#[mcp_runtime::data]`: the serde and schemars derives of a type of your own, through the
//! crates `mcp-runtime` re-exports.

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Which derives the attribute adds.
struct Uses {
    input: bool,
    output: bool,
}

/// `data`, `data(input)`, `data(output)` or `data(input, output)`.
fn uses(attr: TokenStream) -> syn::Result<Uses> {
    if attr.is_empty() {
        return Ok(Uses {
            input: true,
            output: true,
        });
    }
    let words = syn::parse::Parser::parse2(
        syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated,
        attr,
    )?;
    let mut uses = Uses {
        input: false,
        output: false,
    };
    for word in words {
        match word.to_string().as_str() {
            "input" => uses.input = true,
            "output" => uses.output = true,
            other => {
                return Err(syn::Error::new(
                    word.span(),
                    format!(
                        "unknown `#[mcp_runtime::data]` argument `{other}`, expected `input` (arguments: `Deserialize`), `output` (results: `Serialize`) or nothing (both)"
                    ),
                ));
            }
        }
    }
    Ok(uses)
}

/// Adds the derives (`JsonSchema` always, `Deserialize` for input, `Serialize` for output) and
/// the `crate = ..` attributes that point them at `::mcp_runtime`'s re-exports. The item keeps
/// its own attributes (`#[serde(rename_all = ..)]`, doc comments) as written.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let uses = match uses(attr) {
        Ok(uses) => uses,
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Struct(_) | syn::Item::Enum(_)) => {}
        _ => {
            let error = syn::Error::new(
                Span::call_site(),
                "`#[mcp_runtime::data]` goes on a struct or an enum",
            )
            .to_compile_error();
            return quote!(#error #item);
        }
    }
    let mut derives = Vec::new();
    if uses.output {
        derives.push(quote!(::mcp_runtime::serde::Serialize));
    }
    if uses.input {
        derives.push(quote!(::mcp_runtime::serde::Deserialize));
    }
    derives.push(quote!(::mcp_runtime::schemars::JsonSchema));
    quote! {
        #[derive(#(#derives),*)]
        #[serde(crate = "::mcp_runtime::serde")]
        #[schemars(crate = "::mcp_runtime::schemars")]
        #item
    }
}
