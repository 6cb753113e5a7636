//! `#[openapi::tools(path = "..")] mod api {}`: an OpenAPI document read while compiling,
//! mapped by `mcp-runtime-openapi` (the mapping the run-time path uses), and written into the
//! module as typed tools and a typed client.
//!
//! For each operation: an argument struct (its fields the operation's parameters and body
//! members, with their descriptions as doc comments, and the document's schema for each
//! member, so the tool lists the same input schema as the run-time path), a `#[tool]` function
//! taking it flattened (the usual schema and validation path: the arguments are read into the
//! struct in one pass), a result type whose output schema is the document's, and a method of
//! the typed client `Api`. The document is embedded with `include_str!`, so cargo rebuilds
//! when it changes. Whatever the mapping cannot turn into a tool is a compile error at the
//! path, naming the JSON pointer.

mod types;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{LitStr, Token, bracketed};

use mcp_openapi::{Api, OpenApiTool, Options};
use types::{Types, field_attrs, field_type};

/// The attribute's arguments.
struct Args {
    path: LitStr,
    /// `include_tags = ["pets"]` and the other filters: the `Options` setter each value is
    /// given to, and the values.
    filters: Vec<(&'static str, Vec<LitStr>)>,
}

/// The filter keys, and the `Options` setter each calls once per value.
const FILTERS: [(&str, &str); 6] = [
    ("include_tags", "include_tag"),
    ("exclude_tags", "exclude_tag"),
    ("include_paths", "include_path"),
    ("exclude_paths", "exclude_path"),
    ("include_methods", "include_method"),
    ("exclude_methods", "exclude_method"),
];

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut path = None;
        let mut filters = Vec::new();
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            if key == "path" {
                if path.is_some() {
                    return Err(syn::Error::new(key.span(), "`path` is given twice"));
                }
                path = Some(input.parse::<LitStr>()?);
            } else if let Some((_, setter)) = FILTERS.iter().find(|(k, _)| key == k) {
                let content;
                bracketed!(content in input);
                let list = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
                filters.push((*setter, list.into_iter().collect()));
            } else {
                let keys: Vec<&str> = FILTERS.iter().map(|(k, _)| *k).collect();
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown key `{key}`: expected `path` or one of {}",
                        keys.join(", ")
                    ),
                ));
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        let path = path.ok_or_else(|| {
            syn::Error::new(
                Span::call_site(),
                "`#[openapi::tools]` needs `path = \"..\"`: the OpenAPI document, relative to the crate's Cargo.toml",
            )
        })?;
        Ok(Self { path, filters })
    }
}

impl Args {
    /// The options as the mapping takes them (the same call chain is emitted for run time).
    fn options(&self) -> Options {
        let mut options = Options::new().strict(true);
        for (setter, values) in &self.filters {
            for v in values {
                let v = v.value();
                options = match *setter {
                    "include_tag" => options.include_tag(v),
                    "exclude_tag" => options.exclude_tag(v),
                    "include_path" => options.include_path(v),
                    "exclude_path" => options.exclude_path(v),
                    "include_method" => options.include_method(v),
                    _ => options.exclude_method(v),
                };
            }
        }
        options
    }

    /// The same options, as code.
    fn options_code(&self) -> TokenStream {
        let calls = self.filters.iter().flat_map(|(setter, values)| {
            let setter = format_ident!("{setter}");
            values.iter().map(move |v| quote!(.#setter(#v)))
        });
        quote!(::mcp_runtime::openapi::Options::new().strict(true) #(#calls)*)
    }
}

pub(crate) fn run(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args: Args = match syn::parse2(attr) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error(),
    };
    let module: syn::ItemMod = match syn::parse2(item) {
        Ok(m) => m,
        Err(e) => {
            return syn::Error::new(
                e.span(),
                "`#[openapi::tools]` goes on a module: `mod api {}`",
            )
            .to_compile_error();
        }
    };
    match expand(&args, module) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn expand(args: &Args, module: syn::ItemMod) -> syn::Result<TokenStream> {
    let span = args.path.span();
    let err = |message: String| syn::Error::new(span, message);
    let Some((_, existing)) = &module.content else {
        return Err(syn::Error::new_spanned(
            &module,
            "`#[openapi::tools]` needs an inline module: `mod api {}`",
        ));
    };
    let given = args.path.value();
    let file = crate::skills::resolve(&given)
        .ok_or_else(|| err("CARGO_MANIFEST_DIR is not set (build with cargo)".into()))?;
    let read = |e: std::io::Error| err(format!("cannot read the OpenAPI document `{given}`: {e}"));
    // Absolute, for `include_str!` (which would resolve a relative path from the file).
    let file = std::fs::canonicalize(&file).map_err(read)?;
    let text = std::fs::read_to_string(&file).map_err(read)?;
    let api = Api::from_text(&text, &args.options()).map_err(|e| err(e.to_string()))?;
    if api.tools.is_empty() {
        return Err(err(format!(
            "the OpenAPI document `{given}` has no operation to make a tool of (after the filters)"
        )));
    }
    let mut types = Types::default();
    for reserved in ["Api", "TOOLS", "DOCUMENT"] {
        types.take(reserved);
    }
    let mut fns: Vec<String> = Vec::new();
    let mut tools = Vec::with_capacity(api.tools.len());
    for tool in &api.tools {
        tools.push(one_tool(tool, &mut types, &mut fns).map_err(err)?);
    }
    let (tool_items, methods): (Vec<_>, Vec<_>) = tools.into_iter().unzip();
    let items = &types.items;
    let path = file.to_string_lossy().into_owned();
    let options = args.options_code();
    let records = fns.iter().map(|f| format_ident!("{f}"));
    let syn::ItemMod {
        attrs, vis, ident, ..
    } = &module;
    let title = api.title.as_deref().unwrap_or("the API");
    let api_doc = format!(
        " A typed client of {title}, and the state the module's tools call it through \
         (`.state(Api::new()?)`)."
    );
    Ok(quote! {
        #(#attrs)*
        #vis mod #ident {
            #(#existing)*

            /// The OpenAPI document these items were generated from.
            pub const DOCUMENT: &str = include_str!(#path);

            /// The module's tools, for `Server::builder(..).tool(..)`.
            pub const TOOLS: &[::mcp_runtime::registry::ToolRecord] = &[#(#records::TOOL),*];

            #[doc = #api_doc]
            #[derive(Debug, Clone)]
            pub struct Api(::mcp_runtime::openapi::HttpApi);

            impl Api {
                /// The document's operations as the macro read them (its filters applied),
                /// to configure: `with_base_url`, `credential`, `timeout`, …
                pub fn document() -> ::core::result::Result<::mcp_runtime::openapi::OpenApi, ::mcp_runtime::openapi::LoadError> {
                    ::mcp_runtime::openapi::OpenApi::from_text(DOCUMENT, &#options)
                }

                /// The API with the document's first server URL and the credentials in the
                /// environment (`MCP_OPENAPI_<SCHEME>`).
                pub fn new() -> ::core::result::Result<Self, ::mcp_runtime::openapi::LoadError> {
                    Self::connect(&Self::document()?)
                }

                /// The API as `api` configures it.
                pub fn connect(api: &::mcp_runtime::openapi::OpenApi) -> ::core::result::Result<Self, ::mcp_runtime::openapi::LoadError> {
                    ::mcp_runtime::openapi::HttpApi::new(api).map(Self)
                }

                /// The untyped client underneath.
                pub fn http(&self) -> &::mcp_runtime::openapi::HttpApi {
                    &self.0
                }

                #(#methods)*
            }

            #(#items)*

            #(#tool_items)*
        }
    })
}

/// The items of one operation's tool, and its client method.
fn one_tool(
    tool: &OpenApiTool,
    types: &mut Types,
    fns: &mut Vec<String>,
) -> Result<(TokenStream, TokenStream), String> {
    let name = &tool.name;
    let snake = match types::snake(name) {
        s if s.is_empty() => {
            return Err(format!(
                "cannot map {}: the tool name `{name}` makes no Rust name",
                tool.pointer
            ));
        }
        s => s,
    };
    if fns.contains(&snake) {
        return Err(format!(
            "cannot map {}: the tool `{name}` would be the Rust function `{snake}` of another tool",
            tool.pointer
        ));
    }
    fns.push(snake.clone());
    let func = types::ident(&snake);
    let args = types.fresh(&format!("{name}_args"));
    let output = types.fresh(&format!("{name}_output"));
    let fields = types.fields(&tool.input_schema, name, &tool.pointer)?;
    let mut schema_fns = Vec::with_capacity(fields.len());
    let mut field_tokens = Vec::with_capacity(fields.len());
    for field in &fields {
        let schema_fn = format_ident!(
            "__schema_{}_{}",
            snake,
            field.ident.to_string().trim_start_matches("r#")
        );
        let text = field.schema.to_string();
        schema_fns.push(quote! {
            #[doc(hidden)]
            fn #schema_fn(_: &mut ::mcp_runtime::schemars::SchemaGenerator) -> ::mcp_runtime::schemars::Schema {
                ::mcp_runtime::serde_json::from_str(#text).unwrap_or_default()
            }
        });
        let attrs = field_attrs(field, true);
        let ident = &field.ident;
        let ty = field_type(field);
        let schema_with = schema_fn.to_string();
        field_tokens.push(quote! {
            #attrs
            #[schemars(schema_with = #schema_with)]
            pub #ident: #ty,
        });
    }
    // The mapping always gives one (the summary, the description, else the method and path).
    let description = tool.description.as_deref().unwrap_or("");
    let args_doc = format!(
        " The arguments of `{name}`, {} {}.",
        tool.plan.method, tool.plan.path
    );
    let output_doc = format!(" The result of `{name}`: its output schema is the document's.");
    let output_schema = tool.output_schema.as_ref().map(|s| s.to_string());
    let output_fn = match &output_schema {
        Some(text) => quote!(::mcp_runtime::serde_json::from_str(#text).ok()),
        None => quote!(::core::option::Option::None),
    };
    let read_only = tool.plan.read_only();
    let idempotent = tool.plan.idempotent().then(|| quote!(idempotent,));
    let meta = tool
        .meta()
        .map(|m| m.to_string())
        .map(|m| quote!(meta = #m,));
    let tags = &tool.tags;
    let description_key = (!description.is_empty()).then(|| quote!(description = #description,));
    let fn_doc = format!(
        " The tool `{name}`: {} {}.",
        tool.plan.method, tool.plan.path
    );
    let method_doc = match description {
        "" => format!(" `{name}`: {} {}.", tool.plan.method, tool.plan.path),
        d => format!(" {d}"),
    };
    let method_doc = method_doc.lines().map(|l| format!(" {}", l.trim_start()));
    let items = quote! {
        #[doc = #args_doc]
        #[allow(missing_docs)]
        #[derive(Debug, Clone, PartialEq,
            ::mcp_runtime::serde::Serialize, ::mcp_runtime::serde::Deserialize,
            ::mcp_runtime::schemars::JsonSchema)]
        #[serde(crate = "::mcp_runtime::serde")]
        #[schemars(crate = "::mcp_runtime::schemars")]
        pub struct #args {
            #(#field_tokens)*
        }

        #(#schema_fns)*

        #[doc = #output_doc]
        #[derive(Debug)]
        pub struct #output(pub ::core::result::Result<::mcp_runtime::protocol::CallToolResult, ::mcp_runtime::HandlerError>);

        impl ::mcp_runtime::IntoToolResult for #output {
            fn into_tool_result(self) -> ::core::result::Result<::mcp_runtime::protocol::CallToolResult, ::mcp_runtime::HandlerError> {
                self.0
            }

            fn output_schema(_: &mut ::mcp_runtime::schemars::SchemaGenerator) -> ::core::option::Option<::mcp_runtime::schemars::Schema> {
                #output_fn
            }

            // The document's schema and the API's answer: checked, not trusted.
            const OUTPUT_SCHEMA_DERIVED: bool = false;
        }

        #[doc = #fn_doc]
        #[::mcp_runtime::tool(
            name = #name,
            #description_key
            read_only = #read_only,
            #idempotent
            open_world,
            tags = [#(#tags),*],
            #meta
        )]
        pub async fn #func(
            api: ::mcp_runtime::State<Api>,
            #[arg(flatten)] args: #args,
        ) -> #output {
            #output(api.0.call_tool(#name, &args).await)
        }
    };
    let method = quote! {
        #(#[doc = #method_doc])*
        pub async fn #func(&self, args: &#args) -> ::core::result::Result<::mcp_runtime::openapi::Response, ::mcp_runtime::openapi::CallError> {
            self.0.send(#name, args).await
        }
    };
    Ok((items, method))
}
