//! `#[resource]`: template variables bound to parameters, and the read.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::{
    Setters, call, completions, injections, local, private, register, return_type, some_lit,
    state_needs,
};
use crate::model::ResourceDef;

pub(crate) fn expand(def: &ResourceDef) -> TokenStream {
    let p = private();
    let item = &def.item;
    let func = &item.func;
    let ret = return_type(item);
    let injections = injections(item);
    let state_needs = state_needs(item);
    let call = call(item);

    let mut var_checks = Vec::new();
    let mut vars = Vec::new();
    for param in item.arguments() {
        let local = local(param);
        let name = param.public_name();
        let ty = &param.ty;
        let (read, parsed) = match param.option_inner() {
            Some(inner) => (quote!(optional_var), inner),
            None => (quote!(required_var), ty),
        };
        var_checks.push(quote_spanned!(parsed.span()=> #p::assert_from_str::<#parsed>();));
        vars.push(quote!(let #local: #ty = #p::#read::<#parsed>(&__mcp_request, #name)?;));
    }

    let name = item.registered_name();
    let uri = def.uri.as_ref().map(syn::LitStr::value).unwrap_or_default();
    let mime = some_lit(def.mime.as_ref());
    let mut setters = Setters::default();
    setters.common(item, def.timeout_ms.as_ref(), def.max_concurrency.as_ref());
    setters.set_some("mime_type", def.mime.as_ref());
    setters.set_some("completions", completions(item));

    let record = quote! {{
        #[allow(dead_code)]
        fn __mcp_check() {
            #(#var_checks)*
        }

        #state_needs

        #[allow(deprecated, unused_variables)]
        fn __mcp_read(
            __mcp_ctx: #p::Context,
            __mcp_request: #p::ResourceRequest,
        ) -> #p::BoxFuture<'static, ::core::result::Result<::std::vec::Vec<#p::ResourceContents>, #p::HandlerError>> {
            ::std::boxed::Box::pin(async move {
                #(#vars)*
                #injections
                #call
                <#ret as #p::IntoResourceContents>::into_resource_contents(__mcp_out, &__mcp_request.uri, #mime)
            })
        }

        #p::ResourceRecord::new(#name, #uri, __mcp_read)
            .with_state_needs(__mcp_state_needs)
            #setters
    }};
    let registration = register::register(item, "RESOURCE", quote!(#p::ResourceRecord), record);
    quote! {
        #func
        #registration
    }
}
