//! `#[widget]`: an MCP Apps widget (a `ui://` resource of MIME type `text/html;profile=mcp-app`)
//! declared on the `const` that holds its HTML.
//!
//! Parse → validate (into the [`Ctxt`]) → expand, like the item macros. The expansion keeps the
//! const as written and adds, in the type namespace under the same name, a companion struct that
//! implements `Widget` (what `#[tool(ui = NAME)]` reads) and carries two resource records: the
//! widget (`RESOURCE`, registered) and its `text/html+skybridge` twin (`SKYBRIDGE`, registered,
//! served only when the server asks for it).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Item, ItemConst, LitBool, LitStr, Token, bracketed, parenthesized};

use crate::ctxt::Ctxt;
use crate::docs;
use mcp_core::apps::is_csp_origin as is_origin;

mod kw {
    syn::custom_keyword!(uri);
    syn::custom_keyword!(name);
    syn::custom_keyword!(title);
    syn::custom_keyword!(description);
    syn::custom_keyword!(prefers_border);
    syn::custom_keyword!(domain);
    syn::custom_keyword!(csp);
    syn::custom_keyword!(permissions);
    syn::custom_keyword!(server);
}

const KEYS: &str = "`uri`, `name`, `title`, `description`, `prefers_border`, `domain`, `csp`, `permissions`, `server`";
const CSP_KEYS: [(&str, &str, &str); 4] = [
    ("connect_domains", "connectDomains", "connect_domains"),
    ("resource_domains", "resourceDomains", "resource_domains"),
    ("frame_domains", "frameDomains", "frame_domains"),
    ("base_uri_domains", "baseUriDomains", ""),
];
const PERMISSIONS: [(&str, &str); 4] = [
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboardWrite"),
];

/// The arguments of `#[widget(..)]`.
#[derive(Default)]
struct WidgetArgs {
    uri: Option<LitStr>,
    name: Option<LitStr>,
    title: Option<LitStr>,
    description: Option<LitStr>,
    prefers_border: Option<LitBool>,
    domain: Option<LitStr>,
    /// `(camelCase key, origins)` in the order given.
    csp: Vec<(&'static str, Vec<LitStr>)>,
    /// camelCase permission names.
    permissions: Vec<&'static str>,
    server: Option<LitStr>,
    seen: Vec<String>,
}

/// The whole pipeline for one `#[widget]`.
pub(crate) fn run(attr: TokenStream, item: TokenStream) -> TokenStream {
    let konst = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Const(konst)) => konst,
        Ok(other) => {
            // Rule `widget-misplaced`.
            let error = syn::Error::new(
                head_span(&other),
                "`#[widget]` can only be applied to a `const` holding the widget's HTML, e.g. `const CARDS: &str = include_str!(\"cards.html\");`",
            )
            .to_compile_error();
            return quote!(#error #item);
        }
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    let cx = Ctxt::new();
    let mut args = WidgetArgs::default();
    let parser = |input: ParseStream<'_>| {
        while !input.is_empty() {
            if let Err(error) = args.parse_one(&cx, input) {
                cx.syn_error(error);
                // Skip to the next top-level comma.
                while !input.is_empty() && !input.peek(Token![,]) {
                    let _: proc_macro2::TokenTree = input.parse()?;
                }
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(())
    };
    if let Err(error) = parser.parse2(attr) {
        cx.syn_error(error);
    }
    validate(&cx, &args);
    match cx.check() {
        Ok(()) => expand(&args, &konst),
        Err(errors) => {
            let errors = errors.to_compile_error();
            quote!(#errors #konst)
        }
    }
}

fn head_span(item: &Item) -> Span {
    match item {
        Item::Fn(f) => f.sig.ident.span(),
        Item::Static(s) => s.ident.span(),
        Item::Struct(s) => s.ident.span(),
        Item::Enum(e) => e.ident.span(),
        other => other.span(),
    }
}

impl WidgetArgs {
    fn once(&mut self, cx: &Ctxt, key: &str, span: Span) {
        if self.seen.iter().any(|k| k == key) {
            // Rule `widget-duplicate-key`.
            cx.error_at(
                span,
                format!("duplicate `#[widget]` argument `{key}`; give it once"),
            );
        }
        self.seen.push(key.to_owned());
    }

    fn parse_one(&mut self, cx: &Ctxt, input: ParseStream<'_>) -> syn::Result<()> {
        let lookahead = input.lookahead1();
        if lookahead.peek(kw::uri) {
            let k: kw::uri = input.parse()?;
            self.once(cx, "uri", k.span);
            self.uri = Some(string(input, "uri", "\"ui://my-server/cards.html\"")?);
        } else if lookahead.peek(kw::name) {
            let k: kw::name = input.parse()?;
            self.once(cx, "name", k.span);
            self.name = Some(string(input, "name", "\"cards\"")?);
        } else if lookahead.peek(kw::title) {
            let k: kw::title = input.parse()?;
            self.once(cx, "title", k.span);
            self.title = Some(string(input, "title", "\"...\"")?);
        } else if lookahead.peek(kw::description) {
            let k: kw::description = input.parse()?;
            self.once(cx, "description", k.span);
            self.description = Some(string(input, "description", "\"...\"")?);
        } else if lookahead.peek(kw::domain) {
            let k: kw::domain = input.parse()?;
            self.once(cx, "domain", k.span);
            self.domain = Some(string(input, "domain", "\"abc123.example.com\"")?);
        } else if lookahead.peek(kw::server) {
            let k: kw::server = input.parse()?;
            self.once(cx, "server", k.span);
            self.server = Some(string(input, "server", "\"admin\"")?);
        } else if lookahead.peek(kw::prefers_border) {
            let k: kw::prefers_border = input.parse()?;
            self.once(cx, "prefers_border", k.span);
            self.prefers_border = Some(if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                input.parse().map_err(|_| {
                    input.error("`prefers_border` takes a boolean, e.g. `prefers_border = true`")
                })?
            } else {
                LitBool::new(true, k.span)
            });
        } else if lookahead.peek(kw::csp) {
            let k: kw::csp = input.parse()?;
            self.once(cx, "csp", k.span);
            let content;
            parenthesized!(content in input);
            self.parse_csp(cx, &content)?;
        } else if lookahead.peek(kw::permissions) {
            let k: kw::permissions = input.parse()?;
            self.once(cx, "permissions", k.span);
            let content;
            parenthesized!(content in input);
            let words = Punctuated::<syn::Ident, Token![,]>::parse_terminated(&content)?;
            for word in words {
                match PERMISSIONS.iter().find(|(rust, _)| word == rust) {
                    Some((_, camel)) => self.permissions.push(camel),
                    // Rule `widget-permission-unknown`.
                    None => cx.error_spanned_by(
                        &word,
                        format!(
                            "unknown permission `{word}`, expected one of `camera`, `microphone`, `geolocation`, `clipboard_write`"
                        ),
                    ),
                }
            }
        } else {
            // Rules `widget-unknown-key` and `widget-mime`.
            let token = input.cursor().token_tree();
            return Err(match token {
                Some((proc_macro2::TokenTree::Ident(ident), _)) if ident == "mime" => {
                    syn::Error::new(
                        ident.span(),
                        "a widget's MIME type is always `text/html;profile=mcp-app`; remove `mime`",
                    )
                }
                Some((proc_macro2::TokenTree::Ident(ident), _)) => syn::Error::new(
                    ident.span(),
                    format!("unknown `#[widget]` argument `{ident}`, expected one of {KEYS}"),
                ),
                _ => lookahead.error(),
            });
        }
        Ok(())
    }

    fn parse_csp(&mut self, cx: &Ctxt, input: ParseStream<'_>) -> syn::Result<()> {
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            let Some((_, camel, _)) = CSP_KEYS.iter().find(|(rust, _, _)| key == rust) else {
                // The rest of the group is left out (a group left half-read is an error too).
                let _: TokenStream = input.parse()?;
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown `csp` key `{key}`, expected one of `connect_domains`, `resource_domains`, `frame_domains`, `base_uri_domains`"
                    ),
                ));
            };
            if self.csp.iter().any(|(k, _)| k == camel) {
                cx.error_spanned_by(&key, format!("duplicate `csp` key `{key}`; give it once"));
            }
            input.parse::<Token![=]>()?;
            let list;
            bracketed!(list in input);
            let origins = Punctuated::<LitStr, Token![,]>::parse_terminated(&list)?;
            self.csp.push((camel, origins.into_iter().collect()));
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(())
    }
}

fn string(input: ParseStream<'_>, key: &str, example: &str) -> syn::Result<LitStr> {
    if !input.peek(Token![=]) {
        return Err(input.error(format!("expected `=` after `{key}`")));
    }
    input.parse::<Token![=]>()?;
    input.parse::<LitStr>().map_err(|error| {
        syn::Error::new(
            error.span(),
            format!("`{key}` takes a string literal, e.g. `{key} = {example}`"),
        )
    })
}

fn validate(cx: &Ctxt, args: &WidgetArgs) {
    match &args.uri {
        // Rule `widget-uri-missing`.
        None => cx.error_at(
            Span::call_site(),
            "`#[widget]` needs a `uri`, e.g. `#[widget(uri = \"ui://my-server/cards.html\")]`",
        ),
        Some(uri) => {
            let text = uri.value();
            let rest = text.strip_prefix("ui://");
            match rest {
                // Rule `widget-uri-scheme`.
                None => cx.error_spanned_by(
                    uri,
                    format!(
                        "a widget's URI must start with `ui://`, e.g. `ui://my-server/cards.html` (got `{text}`)"
                    ),
                ),
                // Rule `widget-uri-shape`.
                Some(rest) if rest.is_empty() || rest.contains(['{', '}', ' ', '#']) => cx
                    .error_spanned_by(
                        uri,
                        "a widget's URI is one fixed `ui://` address, without spaces, `#` or template variables",
                    ),
                Some(_) => {}
            }
        }
    }
    // Rule `widget-csp-origin`.
    for (_, origins) in &args.csp {
        for origin in origins {
            let text = origin.value();
            if !is_origin(&text) {
                let hint = if !text.contains("://") && is_origin(&format!("https://{text}")) {
                    format!("; write `\"https://{text}\"`")
                } else {
                    String::new()
                };
                cx.error_spanned_by(
                    origin,
                    format!(
                        "CSP domains are origins like `https://cdn.example.com` (scheme http, https, ws or wss; `*.` only as the first label; no path){hint}"
                    ),
                );
            }
        }
    }
    if let Some(name) = &args.name
        && name.value().is_empty()
    {
        cx.error_spanned_by(name, "`name` must not be empty");
    }
}

/// A JSON string literal.
fn json_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_list(items: &[LitStr]) -> String {
    let items: Vec<String> = items.iter().map(|l| json_str(&l.value())).collect();
    format!("[{}]", items.join(","))
}

/// `_meta.ui` as JSON object text, or `None` when nothing is declared.
fn ui_json(args: &WidgetArgs) -> Option<String> {
    let mut fields = Vec::new();
    if !args.csp.is_empty() {
        let csp: Vec<String> = args
            .csp
            .iter()
            .map(|(key, list)| format!("\"{key}\":{}", json_list(list)))
            .collect();
        fields.push(format!("\"csp\":{{{}}}", csp.join(",")));
    }
    if !args.permissions.is_empty() {
        let perms: Vec<String> = args
            .permissions
            .iter()
            .map(|p| format!("\"{p}\":{{}}"))
            .collect();
        fields.push(format!("\"permissions\":{{{}}}", perms.join(",")));
    }
    if let Some(domain) = &args.domain {
        fields.push(format!("\"domain\":{}", json_str(&domain.value())));
    }
    if let Some(border) = &args.prefers_border {
        fields.push(format!("\"prefersBorder\":{}", border.value));
    }
    (!fields.is_empty()).then(|| format!("{{{}}}", fields.join(",")))
}

/// The `openai/widget*` keys of the skybridge twin, next to the standard `ui` object.
fn skybridge_json(args: &WidgetArgs, ui: Option<&str>, description: Option<&str>) -> String {
    let mut fields = Vec::new();
    if let Some(ui) = ui {
        fields.push(format!("\"ui\":{ui}"));
    }
    if !args.csp.is_empty() {
        let csp: Vec<String> = args
            .csp
            .iter()
            .filter_map(|(camel, list)| {
                let (_, _, snake) = CSP_KEYS.iter().find(|(_, c, _)| c == camel)?;
                (!snake.is_empty()).then(|| format!("\"{snake}\":{}", json_list(list)))
            })
            .collect();
        fields.push(format!("\"openai/widgetCSP\":{{{}}}", csp.join(",")));
    }
    if let Some(domain) = &args.domain {
        fields.push(format!(
            "\"openai/widgetDomain\":{}",
            json_str(&domain.value())
        ));
    }
    if let Some(border) = &args.prefers_border {
        fields.push(format!("\"openai/widgetPrefersBorder\":{}", border.value));
    }
    if let Some(description) = description {
        fields.push(format!(
            "\"openai/widgetDescription\":{}",
            json_str(description)
        ));
    }
    format!("{{{}}}", fields.join(","))
}

fn skybridge_uri(uri: &str) -> String {
    match uri.strip_suffix(".html") {
        Some(stem) => format!("{stem}.skybridge.html"),
        None => format!("{uri}.skybridge"),
    }
}

fn expand(args: &WidgetArgs, konst: &ItemConst) -> TokenStream {
    let p = quote!(::mcp_runtime::__private);
    let ident = &konst.ident;
    let vis = &konst.vis;
    let ty = &konst.ty;
    let cfgs: Vec<_> = konst
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .collect();
    let uri = args.uri.as_ref().map(LitStr::value).unwrap_or_default();
    let twin = skybridge_uri(&uri);
    let name = args
        .name
        .as_ref()
        .map_or_else(|| ident.to_string().to_lowercase(), LitStr::value);
    let twin_name = format!("{name}.skybridge");
    let title = args.title.as_ref().map(|t| quote!(.with_title(#t)));
    let description = args
        .description
        .as_ref()
        .map(LitStr::value)
        .or_else(|| docs::extract(&konst.attrs));
    let description_tokens = description.as_ref().map(|d| quote!(.with_description(#d)));
    let ui = ui_json(args);
    let meta = ui.as_ref().map(|ui| format!("{{\"ui\":{ui}}}"));
    let meta_tokens = meta.as_ref().map(|m| quote!(.with_meta(#m)));
    let content_meta = meta.clone().unwrap_or_else(|| "{}".to_owned());
    let twin_meta = skybridge_json(args, ui.as_deref(), description.as_deref());
    let server = args.server.as_ref().map(|s| quote!(.with_server(#s)));
    let html =
        quote_spanned!(ty.span()=> <#ty as ::mcp_runtime::__private::IntoHtml>::into_html(#ident));
    let record = |konst_uri: &str,
                  konst_name: &str,
                  mime: TokenStream,
                  meta: Option<TokenStream>,
                  content_meta: &str| {
        quote! {{
            fn __mcp_read(
                _ctx: #p::Context,
                request: #p::ResourceRequest,
            ) -> #p::BoxFuture<'static, ::core::result::Result<::std::vec::Vec<#p::ResourceContents>, #p::HandlerError>> {
                ::std::boxed::Box::pin(async move {
                    #p::widget_contents(#html, &request.uri, #mime, #content_meta)
                })
            }
            // A widget's HTML is a template, not anybody's data: readable with any token the
            // server accepts (no scopes of its own; the server-wide scope still applies).
            #p::ResourceRecord::new(#konst_name, #konst_uri, __mcp_read)
                .with_mime_type(#mime)
                .with_location(#p::Location::new(::core::file!(), ::core::line!(), ::core::column!()))
                #title
                #description_tokens
                #meta
                #server
        }}
    };
    let resource = record(
        &uri,
        &name,
        quote!(#p::APPS_MIME_TYPE),
        meta_tokens,
        &content_meta,
    );
    let skybridge = record(
        &twin,
        &twin_name,
        quote!(#p::APPS_SKYBRIDGE_MIME_TYPE),
        Some(quote!(.with_meta(#twin_meta))),
        &twin_meta,
    );
    let struct_doc = format!(
        "The `{uri}` widget: `{ident}::RESOURCE` (and its skybridge twin `{ident}::SKYBRIDGE`)."
    );
    quote! {
        #konst

        #(#cfgs)*
        #[doc = #struct_doc]
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}

        #(#cfgs)*
        impl #ident {
            /// The widget's resource record, for `Server::builder().resource(..)`.
            #vis const RESOURCE: #p::ResourceRecord = #resource;
            /// Its `text/html+skybridge` twin, served only with `AppsOptions::skybridge`.
            #vis const SKYBRIDGE: #p::ResourceRecord = #skybridge;
        }

        #(#cfgs)*
        impl #p::Widget for #ident {
            const URI: &'static str = #uri;
            const SKYBRIDGE_URI: &'static str = #twin;
        }

        #(#cfgs)*
        #p::inventory::submit! { #ident::RESOURCE }
        #(#cfgs)*
        #p::inventory::submit! { #ident::SKYBRIDGE }
    }
}
