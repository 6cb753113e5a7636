//! `#[prompt]`: declared arguments, parsed from strings, and the get.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::{
    call, completions, default_fn, icons, injections, local, location, private, register,
    return_type, some_int, some_lit, some_str, state_needs,
};
use crate::model::PromptDef;

pub(crate) fn expand(def: &PromptDef) -> TokenStream {
    let p = private();
    let item = &def.item;
    let func = &item.func;
    let ret = return_type(item);
    let injections = injections(item);
    let state_needs = state_needs(item);
    let call = call(item);

    let mut arg_checks = Vec::new();
    let mut reads = Vec::new();
    let mut defaults = Vec::new();
    let mut records = Vec::new();
    for param in item.arguments() {
        let local = local(param);
        let name = param.public_name();
        let ty = &param.ty;
        let parsed = param.option_inner().unwrap_or(ty);
        arg_checks.push(quote_spanned!(parsed.span()=> #p::assert_from_str::<#parsed>();));
        let read = match (param.option_inner(), default_fn(item, param)) {
            (Some(inner), _) => quote!(#p::optional_prompt_arg::<#inner>(&__mcp_arguments, #name)?),
            (None, Some((default, default_item))) => {
                defaults.push(default_item);
                quote!(::core::option::Option::unwrap_or_else(#p::optional_prompt_arg::<#ty>(&__mcp_arguments, #name)?, #default))
            }
            (None, None) => quote!(#p::required_prompt_arg::<#ty>(&__mcp_arguments, #name)?),
        };
        reads.push(quote!(let #local: #ty = #read;));
        let title = some_lit(param.title.as_ref());
        let description = some_str(param.doc.clone());
        let required = !param.is_optional();
        records.push(quote! {
            #p::PromptArgRecord { name: #name, title: #title, description: #description, required: #required }
        });
    }

    let name = item.registered_name();
    let title = some_lit(item.title.as_ref());
    let description = some_str(item.description());
    let icons = icons(item);
    let meta = some_lit(item.meta.as_ref());
    let completions = completions(item);
    let server = item
        .server
        .as_ref()
        .map(syn::LitStr::value)
        .unwrap_or_default();
    let timeout_ms = some_int(def.timeout_ms.as_ref());
    let max_concurrency = some_int(def.max_concurrency.as_ref());
    let location = location(item);
    let scopes = &item.scopes;

    let record = quote! {{
        #[allow(dead_code)]
        fn __mcp_check() {
            #(#arg_checks)*
        }

        #(#defaults)*

        #state_needs

        #[allow(deprecated, unused_variables)]
        fn __mcp_get(
            __mcp_ctx: #p::Context,
            __mcp_arguments: #p::PromptArguments,
        ) -> #p::BoxFuture<::core::result::Result<#p::GetPromptResult, #p::HandlerError>> {
            ::std::boxed::Box::pin(async move {
                #(#reads)*
                #injections
                #call
                <#ret as #p::IntoPromptResult>::into_prompt_result(__mcp_out)
            })
        }

        #p::PromptRecord {
            name: #name,
            title: #title,
            description: #description,
            icons: #icons,
            meta: #meta,
            arguments: &[#(#records),*],
            get: __mcp_get,
            state_needs: __mcp_state_needs,
            completions: #completions,
            server: #server,
            timeout_ms: #timeout_ms,
            max_concurrency: #max_concurrency,
            location: #location,
            scopes: &[#(#scopes),*],
        }
    }};
    let registration = register::register(item, "PROMPT", quote!(#p::PromptRecord), record);
    quote! {
        #func
        #registration
    }
}
