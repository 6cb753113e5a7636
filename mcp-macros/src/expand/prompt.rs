//! `#[prompt]`: declared arguments, parsed from strings, and the get.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::{
    Setters, call, completions, default_fn, injections, local, private, register, return_type,
    state_needs,
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
        let mut setters = Setters::default();
        setters.set_some("title", param.title.as_ref());
        setters.set_some("description", param.doc.as_ref());
        if !param.is_optional() {
            setters.set("required", true);
        }
        records.push(quote!(#p::PromptArgRecord::new(#name) #setters));
    }

    let name = item.registered_name();
    let mut setters = Setters::default();
    setters.common(item, def.timeout_ms.as_ref(), def.max_concurrency.as_ref());
    if !records.is_empty() {
        setters.set("arguments", quote!(&[#(#records),*]));
    }
    setters.set_some("completions", completions(item));

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
        ) -> #p::BoxFuture<'static, ::core::result::Result<#p::GetPromptResult, #p::HandlerError>> {
            ::std::boxed::Box::pin(async move {
                #(#reads)*
                #injections
                #call
                <#ret as #p::IntoPromptResult>::into_prompt_result(__mcp_out)
            })
        }

        #p::PromptRecord::new(#name, __mcp_get)
            .with_state_needs(__mcp_state_needs)
            #setters
    }};
    let registration = register::register(item, "PROMPT", quote!(#p::PromptRecord), record);
    quote! {
        #func
        #registration
    }
}
