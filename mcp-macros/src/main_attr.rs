//! `#[mcp_runtime::main]` and `#[mcp_runtime::test]`: `#[tokio::main]` and `#[tokio::test]`
//! through the Tokio that `mcp-runtime` re-exports.

use proc_macro2::TokenStream;
use quote::quote;

/// Forwards the attribute's arguments (`flavor = "current_thread"`, `worker_threads = 2`, …)
/// to `tokio::main`, adding the path of the re-exported crate, so that the application need
/// not depend on Tokio itself.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = if attr.is_empty() {
        quote!(crate = "::mcp_runtime::tokio")
    } else {
        quote!(#attr, crate = "::mcp_runtime::tokio")
    };
    quote! {
        #[::mcp_runtime::tokio::main(#args)]
        #item
    }
}

/// `#[mcp_runtime::test]`: `#[tokio::test]` through the re-export, its arguments forwarded.
pub(crate) fn test(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = if attr.is_empty() {
        quote!(crate = "::mcp_runtime::tokio")
    } else {
        quote!(#attr, crate = "::mcp_runtime::tokio")
    };
    quote! {
        #[::mcp_runtime::tokio::test(#args)]
        #item
    }
}
