//! `#[tool]`: the hidden argument struct, its checks and the call.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

use super::{
    Setters, call, default_fn, injections, local, private, register, return_type, state_needs,
};
use crate::model::ToolDef;

pub(crate) fn expand(def: &ToolDef) -> TokenStream {
    let p = private();
    let item = &def.item;
    let func = &item.func;
    let ret = return_type(item);
    let Arguments {
        items: glue,
        read,
        schema: input_schema,
    } = match &def.input_schema {
        Some(schema) => raw_arguments(def, schema),
        None => generated_arguments(def),
    };
    let injections = injections(item);
    let state_needs = state_needs(item);
    let call = call(item);
    let undocumented = undocumented(def);

    let name = item.registered_name();
    let mut setters = Setters::default();
    setters.common(item, def.timeout_ms.as_ref(), def.max_concurrency.as_ref());
    let hints = [
        ("read_only", &def.read_only),
        ("destructive", &def.destructive),
        ("idempotent", &def.idempotent),
        ("open_world", &def.open_world),
    ];
    if hints.iter().any(|(_, flag)| flag.is_some()) {
        let mut hint_setters = Setters::default();
        for (hint, flag) in hints {
            hint_setters.set_some(hint, flag.as_ref());
        }
        setters.set("hints", quote!(#p::ToolHints::NONE #hint_setters));
    }
    setters.set_some("allow_unknown_args", def.allow_unknown_args.as_ref());
    match def.task.as_ref().map(syn::LitStr::value).as_deref() {
        Some("optional") => setters.set("task_support", quote!(#p::TaskSupport::Optional)),
        Some("required") => setters.set("task_support", quote!(#p::TaskSupport::Required)),
        _ => {}
    }
    setters.set_some("ui", ui(def));

    let record = quote! {{
        #glue

        #state_needs

        #[allow(deprecated, unused_variables)]
        fn __mcp_call(
            __mcp_ctx: #p::Context,
            __mcp_args: ::core::option::Option<::std::boxed::Box<#p::RawValue>>,
        ) -> #p::BoxFuture<'static, ::core::result::Result<#p::CallToolResult, #p::HandlerError>> {
            ::std::boxed::Box::pin(async move {
                let __mcp_args = ::core::option::Option::as_deref(&__mcp_args);
                #read
                #injections
                #call
                <#ret as #p::IntoToolResult>::into_tool_result(__mcp_out)
            })
        }

        #p::ToolRecord::new(#name, #input_schema, __mcp_call)
            .with_derived_output_schema(<#ret as #p::IntoToolResult>::output_schema)
            .__with_output_schema_derived(<#ret as #p::IntoToolResult>::OUTPUT_SCHEMA_DERIVED)
            .with_state_needs(__mcp_state_needs)
            #setters
    }};
    let registration = register::register(item, "TOOL", quote!(#p::ToolRecord), record);
    quote! {
        #func
        #registration
        #undocumented
    }
}

/// A tool without a description gets a warning on its name (a proc macro cannot emit one on
/// stable Rust, so it is the `deprecated` lint, raised by a use of a deprecated item): a model
/// picks tools by their descriptions.
fn undocumented(def: &ToolDef) -> TokenStream {
    let item = &def.item;
    if item.description().is_some() {
        return TokenStream::new();
    }
    let ident = item.ident();
    let note = format!(
        "the tool `{}` has no description, and a model picks tools by their descriptions: add a `///` doc comment to `{ident}`, or `description = \"..\"` to `#[tool]`",
        item.registered_name()
    );
    let cfgs = item
        .func
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("cfg"));
    let warning = format_ident!("undocumented_tool", span = ident.span());
    quote! {
        #(#cfgs)*
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_camel_case_types)]
            struct undocumented_tool;
            let _ = #warning;
        };
    }
}

/// How a tool reads its JSON arguments.
struct Arguments {
    /// Items next to the call fn (the argument struct and what it needs).
    items: TokenStream,
    /// Statements in the call fn that turn `__mcp_args` into the parameters' locals.
    read: TokenStream,
    /// The `InputSchema` of the record.
    schema: TokenStream,
}

/// The arguments struct with its derives, the checks after parsing, and `InputSchema::Generated`.
///
/// The struct's fields have generic types (`__A0`, ...), bounded by `ToolArgument` in the derived
/// impls, and one const instantiates it with the parameters' types through
/// `ToolArgumentFns::of`: a type that is not an argument is reported there once, by
/// `ToolArgument`'s message, instead of inside every derived function. (A parameter with a
/// `default` keeps its own type: the default's function returns it.)
fn generated_arguments(def: &ToolDef) -> Arguments {
    let p = private();
    let item = &def.item;
    let args_ident = format_ident!("__mcp_args_{}", item.ident().unraw());
    let mut fields = Vec::new();
    let mut defaults = Vec::new();
    let mut statics = Vec::new();
    let mut checks = Vec::new();
    let mut unpack = Vec::new();
    let mut generics = Vec::new();
    let mut given = Vec::new();
    for param in item.arguments() {
        let ident = &param.ident;
        let ty = &param.ty;
        let path = param.public_name();
        let mut attrs = Vec::new();
        let mut field_ty = |has_default: bool| {
            if has_default {
                return quote!(#ty);
            }
            let generic = format_ident!("__A{}", generics.len());
            generics.push(generic.clone());
            given.push(ty.clone());
            quote!(#generic)
        };
        if param.flatten.is_some() {
            let field_ty = field_ty(false);
            fields.push(quote! {
                #[serde(flatten)]
                #ident: #field_ty,
            });
            let local = local(param);
            unpack.push(quote!(let #local = __mcp_a.#ident;));
            continue;
        }
        if let Some(doc) = &param.doc {
            attrs.push(quote!(#[doc = #doc]));
        }
        if let Some(rename) = param.serde_rename() {
            attrs.push(quote!(#[serde(rename = #rename)]));
        }
        let mut has_default = false;
        if let Some((name, default)) = default_fn(item, param) {
            let name = name.to_string();
            attrs.push(quote!(#[serde(default = #name)]));
            defaults.push(default);
            has_default = true;
        }
        if let Some(title) = &param.title {
            attrs.push(quote!(#[schemars(title = #title)]));
        }
        if param.min.is_some() || param.max.is_some() {
            let min = param.min.as_ref().map(|n| {
                let tokens = &n.tokens;
                quote!(min = #tokens)
            });
            let max = param.max.as_ref().map(|n| {
                let tokens = &n.tokens;
                quote!(max = #tokens)
            });
            let bounds = min.into_iter().chain(max);
            attrs.push(quote!(#[schemars(range(#(#bounds),*))]));
            let bound = |n: Option<&crate::parse::Number>| match n {
                Some(n) => {
                    let value = n.value.abs();
                    let sign = (n.value < 0.0).then(|| quote!(-));
                    quote!(::core::option::Option::Some(#sign #value))
                }
                None => quote!(::core::option::Option::None),
            };
            let (min, max) = (bound(param.min.as_ref()), bound(param.max.as_ref()));
            let span = param
                .min
                .as_ref()
                .or(param.max.as_ref())
                .map_or_else(|| ident.span(), |n| n.span);
            checks
                .push(quote_spanned!(span=> __mcp_checks.add(#p::check_range(&__mcp_a.#ident, #path, #min, #max));));
        }
        if let Some(pattern) = &param.pattern {
            attrs.push(quote!(#[schemars(regex(pattern = #pattern))]));
            let name = format_ident!("__MCP_PATTERN_{}", ident.unraw());
            statics.push(quote! {
                #[allow(non_upper_case_globals)]
                static #name: #p::LazyPattern = #p::LazyPattern::new(#pattern);
            });
            checks.push(quote_spanned!(pattern.span()=> __mcp_checks.add(#p::check_pattern(&__mcp_a.#ident, #path, &#name));));
        }
        if let Some(header) = &param.header {
            attrs.push(quote!(#[schemars(extend("x-mcp-header" = #header))]));
        }
        let field_ty = field_ty(has_default);
        fields.push(quote! {
            #(#attrs)*
            #ident: #field_ty,
        });
        let local = local(param);
        unpack.push(quote!(let #local = __mcp_a.#ident;));
    }
    let (declared, bounds) = if generics.is_empty() {
        (TokenStream::new(), TokenStream::new())
    } else {
        let bound = generics
            .iter()
            .map(|g| format!("{g}: ::mcp_runtime::ToolArgument"))
            .collect::<Vec<_>>()
            .join(", ");
        (
            quote!(<#(#generics),*>),
            quote! {
                #[serde(bound = #bound)]
                #[schemars(bound = #bound)]
            },
        )
    };
    // Errors about the argument types land on the parameter list.
    let at = item.func.sig.paren_token.span.join();
    let named_at = syn::Ident::new(&args_ident.to_string(), at);
    let instance = if given.is_empty() {
        quote_spanned!(at=> #named_at)
    } else {
        quote_spanned!(at=> #named_at<#(#given),*>)
    };
    let funnel = quote_spanned!(at=> ::mcp_runtime::__private::ToolArgumentFns::<#instance>::of());
    let items = quote! {
        #[allow(non_camel_case_types, dead_code)]
        // Derived through the public re-exports, so that a diagnostic names these paths.
        #[derive(::mcp_runtime::serde::Deserialize, ::mcp_runtime::schemars::JsonSchema)]
        #[serde(crate = "::mcp_runtime::serde")]
        #[schemars(crate = "::mcp_runtime::schemars")]
        #bounds
        struct #args_ident #declared {
            #(#fields)*
        }

        const __MCP_ARGUMENTS: #p::ToolArgumentFns<#instance> = #funnel;

        #(#defaults)*
        #(#statics)*
    };
    // Every check runs, so that one refusal lists every bound the arguments break.
    let checks = if checks.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            let mut __mcp_checks = #p::Checks::new();
            #(#checks)*
            __mcp_checks.finish(__mcp_args)?;
        }
    };
    let read = quote! {
        let __mcp_a = (__MCP_ARGUMENTS.parse)(__mcp_args)?;
        #checks
        #(#unpack)*
    };
    let schema = quote!(#p::InputSchema::Generated(__MCP_ARGUMENTS.schema));
    Arguments {
        items,
        read,
        schema,
    }
}

/// `input_schema = ".."`: the schema is used verbatim and the one argument parameter (if any)
/// is deserialised from the whole arguments object.
fn raw_arguments(def: &ToolDef, schema: &syn::LitStr) -> Arguments {
    let p = private();
    let read = match def.item.arguments().next() {
        Some(param) => {
            let ty = &param.ty;
            let local = local(param);
            let parse = quote_spanned!(ty.span()=> #p::parse_args::<#ty>(__mcp_args));
            quote!(let #local: #ty = #parse?;)
        }
        None => quote!(let _ = __mcp_args;),
    };
    Arguments {
        items: TokenStream::new(),
        read,
        schema: quote!(#p::InputSchema::Raw(#schema)),
    }
}

/// `ToolUi::from_parts(..)` read through the widget's `Widget` impl (`None` without `ui`), spanned at the path so that a
/// name that is not a widget is reported there.
fn ui(def: &ToolDef) -> Option<TokenStream> {
    let p = private();
    let path = def.ui.as_ref()?;
    let names: Vec<String> = def
        .visibility
        .as_ref()
        .map(|(values, _)| values.iter().map(syn::LitStr::value).collect())
        .unwrap_or_default();
    let (model, app) = if names.is_empty() {
        (true, true)
    } else {
        (
            names.iter().any(|n| n == "model"),
            names.iter().any(|n| n == "app"),
        )
    };
    Some(quote_spanned! {path.span()=>
        #p::ToolUi::from_parts(
            <#path as #p::Widget>::URI,
            <#path as #p::Widget>::SKYBRIDGE_URI,
            #p::Visibility { model: #model, app: #app },
        )
    })
}
