//! Every compile-time rule, in one place. Each rule reports into the [`Ctxt`], on the narrowest
//! span, so a build shows all of its errors at once; each has a UI test named after it.

// The RFC 6570 parser of mcp-core: templates are checked at compile time by the very code that
// matches them at run time.
use mcp_core::uri_template::UriTemplate;
use syn::{FnArg, ItemFn, LitInt, LitStr, Pat};

use crate::ctxt::Ctxt;
use crate::json;
use crate::model::{Def, ItemDef, Param, PromptDef, ResourceDef, ToolDef};
use crate::parse::Kind;
use crate::ty;

mod params;

use params::param_attrs;

/// Checks `def` (and the signature it came from) against every rule of its macro.
pub(crate) fn check(cx: &Ctxt, def: &Def) {
    let item = def.item();
    signature(cx, item.kind, &item.func);
    common(cx, item);
    cache(cx, item);
    match def {
        Def::Tool(def) => tool(cx, def),
        Def::Resource(def) => resource(cx, def),
        Def::Prompt(def) => prompt(cx, def),
    }
}

/// Rule `method-receiver`, `generic-fn`, `non-ident-pattern` and the other shapes a registered
/// function cannot have.
fn signature(cx: &Ctxt, kind: Kind, func: &ItemFn) {
    let attr = kind.attr();
    let sig = &func.sig;
    for other in &func.attrs {
        let path = other.path();
        let is_ours = path
            .segments
            .last()
            .is_some_and(|s| ["tool", "resource", "prompt"].iter().any(|k| s.ident == k))
            && (path.segments.len() == 1
                || path
                    .segments
                    .first()
                    .is_some_and(|s| s.ident == "mcp_runtime"));
        if is_ours {
            cx.error_spanned_by(
                other,
                format!("a function carries only one of `#[tool]`, `#[resource]` and `#[prompt]`, and this one already has {attr}; to expose the same code twice, call it from a second annotated function"),
            );
        }
    }
    if !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.generics,
            format!("{attr} functions cannot be generic: a registered function has one concrete signature; remove the generic parameters"),
        );
    } else if let Some(where_clause) = &sig.generics.where_clause {
        cx.error_spanned_by(
            where_clause,
            format!("{attr} functions cannot have a `where` clause; remove it"),
        );
    }
    if let Some(token) = &sig.unsafety {
        cx.error_spanned_by(
            token,
            format!(
                "{attr} functions cannot be `unsafe`; call the unsafe code from a safe function"
            ),
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(
            abi,
            format!("{attr} functions cannot have an `extern` ABI; remove it"),
        );
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, format!("{attr} functions cannot be variadic"));
    }
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => cx.error_spanned_by(
                receiver,
                format!("{attr} cannot be applied to a method: `self` parameters are not supported; use a free function and reach shared data through a `State<T>` parameter"),
            ),
            FnArg::Typed(pat_type) => match &*pat_type.pat {
                Pat::Ident(pat) if pat.subpat.is_none() => {}
                pat => cx.error_spanned_by(
                    pat,
                    format!("parameters of {attr} functions must be plain identifiers such as `name` or `mut name`: the name is the argument's name; destructure inside the function body"),
                ),
            },
        }
    }
}

/// Rules shared by the three macros: names, metadata, parameter attributes.
fn common(cx: &Ctxt, item: &ItemDef) {
    let attr = item.kind.attr();
    for scope in &item.scopes {
        if let Err(why) = scope_token(&scope.value()) {
            cx.error_spanned_by(scope, why);
        }
    }
    for (i, tag) in item.tags.iter().enumerate() {
        let value = tag.value();
        if value.trim().is_empty() {
            cx.error_spanned_by(tag, "a tag cannot be empty, e.g. `tags = [\"admin\"]`");
        } else if item.tags[..i].iter().any(|t| t.value() == value) {
            cx.error_spanned_by(
                tag,
                format!("the tag {value:?} is given twice; give it once"),
            );
        }
    }
    if let Some(name) = &item.name
        && name.value().trim().is_empty()
    {
        cx.error_spanned_by(
            name,
            format!("the {attr} name cannot be empty; remove `name` to use the function's name"),
        );
    }
    if let Some(meta) = &item.meta
        && let Err(why) = json::check_object(&meta.value())
    {
        cx.error_spanned_by(meta, format!("`meta` must be the text of a JSON object, e.g. `meta = r#\"{{\"key\": 1}}\"#`: {why}"));
    }
    for icon in &item.icons {
        for (key, span) in &icon.duplicates {
            cx.error_at(
                *span,
                format!("duplicate `icon` argument `{}`; give it once", key.as_str()),
            );
        }
        match &icon.src {
            None => cx.error_at(icon.span, "`icon(..)` needs a source: add `src = \"https://..\"`"),
            Some(src) if !src.value().contains(':') => cx.error_spanned_by(
                src,
                "an icon source must be a URI such as `https://example.com/icon.png` or `data:image/png;base64,..`",
            ),
            Some(_) => {}
        }
        if let Some(theme) = &icon.theme
            && theme.value() != "light"
            && theme.value() != "dark"
        {
            cx.error_spanned_by(theme, "an icon `theme` is `\"light\"` or `\"dark\"`");
        }
    }
    if let syn::ReturnType::Type(_, ret) = &item.func.sig.output {
        let supported = match item.kind {
            Kind::Tool => {
                "`String`, `Json<T>`, a content block, a `Vec` of content blocks, `CallToolResult`, `()`, or `Result<T, E>` of one of these"
            }
            Kind::Resource => {
                "`String`, `Vec<u8>`, `Json<T>`, `ResourceContents`, a `Vec` of them, or `Result<T, E>` of one of these"
            }
            Kind::Prompt => {
                "`String`, a `PromptMessage`, `Vec<PromptMessage>`, `GetPromptResult`, or `Result<T, E>` of one of these"
            }
        };
        if let Some(message) = ty::return_problem(ret, attr, supported) {
            cx.error_spanned_by(ret, message);
        }
    }
    for param in &item.params {
        param_attrs(cx, item.kind, param);
    }
    let mut names: Vec<(String, &Param)> = Vec::new();
    for param in item.arguments() {
        let name = param.public_name();
        if names.iter().any(|(n, _)| *n == name) {
            let at = param
                .rename
                .as_ref()
                .map_or_else(|| param.ident.span(), LitStr::span);
            cx.error_at(
                at,
                format!(
                    "two parameters are named `{name}`; rename one with `#[arg(rename = \"..\")]`"
                ),
            );
        }
        names.push((name, param));
    }
}

fn tool(cx: &Ctxt, def: &ToolDef) {
    let item = &def.item;
    visibility(cx, def);
    let name = item.registered_name();
    if let Err(why) = tool_name(&name) {
        cx.error_at(item.name_span(), why);
    }
    limits(cx, def.timeout_ms.as_ref(), def.max_concurrency.as_ref());
    if let Some((key, value)) = &item.cache_ttl
        && !def.read_only.as_ref().is_some_and(syn::LitBool::value)
    {
        cx.error_spanned_by(
            value,
            format!("`{}` caches a read-only tool's results only: add `read_only` (the cache must not replay a call that changes something) or remove `{}`", key.as_str(), key.as_str()),
        );
    }
    if let Some(task) = &def.task
        && !matches!(task.value().as_str(), "forbidden" | "optional" | "required")
    {
        cx.error_spanned_by(
            task,
            format!(
                "unknown task support {:?}, expected one of `\"forbidden\"`, `\"optional\"`, `\"required\"`, e.g. `task = \"optional\"`",
                task.value()
            ),
        );
    }
    if let Some(schema) = &def.input_schema {
        if let Err(why) = json::check_object(&schema.value()) {
            cx.error_spanned_by(schema, format!("`input_schema` must be a JSON Schema object, e.g. `input_schema = r#\"{{\"type\": \"object\"}}\"#`: {why}"));
        }
        let mut arguments = item.arguments();
        if let (Some(_), Some(second)) = (arguments.next(), arguments.next()) {
            cx.error_spanned_by(
                &second.decl,
                "a tool with a raw `input_schema` takes its arguments as one parameter: use a single `serde_json::Value` or `#[derive(Deserialize)]` struct parameter",
            );
        }
        for param in item.arguments() {
            if let Some(span) = param.arg {
                cx.error_at(span, "`#[arg]` does not apply with a raw `input_schema`: the schema describes the arguments; remove `#[arg(..)]`");
            }
        }
        if let Some(flag) = &def.allow_unknown_args {
            cx.error_spanned_by(
                flag,
                "`allow_unknown_args` does not apply with a raw `input_schema`: the arguments arrive as sent, whatever they name; remove it",
            );
        }
        return;
    }
    for param in item.arguments() {
        if let Some(message) = ty::tool_arg_problem(&param.ty) {
            cx.error_spanned_by(&param.ty, message);
        }
    }
}

/// Rules `visibility-without-ui`, `visibility-value`, `visibility-empty` and
/// `visibility-duplicate`: `visibility` says who may call a widget-linked tool, with the values
/// `"model"` and `"app"`.
fn visibility(cx: &Ctxt, def: &ToolDef) {
    let Some((values, span)) = &def.visibility else {
        return;
    };
    if def.ui.is_none() {
        cx.error_at(
            *span,
            "`visibility` only applies to a tool linked to a widget; add `ui = MY_WIDGET` or remove `visibility`",
        );
    }
    if values.is_empty() {
        cx.error_at(
            *span,
            "`visibility` needs at least one of \"model\" and \"app\"",
        );
    }
    let mut seen = Vec::new();
    for value in values {
        let text = value.value();
        if text != "model" && text != "app" {
            cx.error_spanned_by(
                value,
                format!("unknown visibility `{text}`, expected \"model\" or \"app\""),
            );
        } else if seen.contains(&text) {
            cx.error_spanned_by(value, format!("`{text}` is given twice; give it once"));
        } else {
            seen.push(text);
        }
    }
}

/// `timeout_ms` and `max_concurrency`, of any of the three macros: positive, and in range of the
/// record's `u64` and `u32`.
fn limits(cx: &Ctxt, timeout_ms: Option<&LitInt>, max_concurrency: Option<&LitInt>) {
    if let Some(value) = timeout_ms {
        positive(cx, "timeout_ms", value, false);
    }
    if let Some(value) = max_concurrency {
        positive(cx, "max_concurrency", value, true);
    }
}

/// Rules `cache-ttl-range`, `cache-scope-value` and `cache-scope-without-ttl`: a TTL is a
/// whole number of milliseconds, 0 or more (the specification: "Servers MUST provide a `ttlMs`
/// value that is `>= 0`"); the scope is `"public"` or `"private"`; on a tool or a prompt, whose
/// results carry no hint, a scope only means something with `cache_ttl_ms`.
fn cache(cx: &Ctxt, item: &ItemDef) {
    if let Some((key, value)) = &item.cache_ttl
        && value.base10_parse::<u64>().is_err()
    {
        cx.error_spanned_by(
            value,
            format!(
                "`{}` must be a whole number of milliseconds, 0 or more, e.g. `{} = 60000`",
                key.as_str(),
                key.as_str()
            ),
        );
    }
    if let Some(scope) = &item.cache_scope {
        if !matches!(scope.value().as_str(), "public" | "private") {
            cx.error_spanned_by(
                scope,
                format!(
                    "unknown cache scope {:?}, expected `\"public\"` or `\"private\"`",
                    scope.value()
                ),
            );
        } else if item.cache_ttl.is_none() && item.kind != Kind::Resource {
            cx.error_spanned_by(
                scope,
                "`cache_scope` says who may share a cached result: give `cache_ttl_ms = ..` too, or remove it",
            );
        }
    }
}

fn positive(cx: &Ctxt, key: &str, value: &LitInt, small: bool) {
    let ok = if small {
        value.base10_parse::<u32>().is_ok_and(|v| v > 0)
    } else {
        value.base10_parse::<u64>().is_ok_and(|v| v > 0)
    };
    if !ok {
        let range = if small {
            "1 to 4294967295"
        } else {
            "at least 1"
        };
        cx.error_spanned_by(value, format!("`{key}` must be a whole number, {range}"));
    }
}

fn resource(cx: &Ctxt, def: &ResourceDef) {
    let item = &def.item;
    if item.registered_name().trim().is_empty() {
        cx.error_at(item.name_span(), "a resource name cannot be empty");
    }
    from_str_params(cx, item, "URI template variables");
    limits(cx, def.timeout_ms.as_ref(), def.max_concurrency.as_ref());
    let Some(uri) = &def.uri else {
        cx.error_at(
            proc_macro2::Span::call_site(),
            "`#[resource]` needs a URI: add `uri = \"scheme://path\"` (or a template such as `uri = \"file:///{path}\"`)",
        );
        return;
    };
    let text = uri.value();
    if text.trim().is_empty() {
        cx.error_spanned_by(uri, "the resource URI cannot be empty");
        return;
    }
    let template = match UriTemplate::parse(&text) {
        Ok(template) => template,
        Err(error) => {
            cx.error_spanned_by(uri, format!("invalid URI template: {error}"));
            return;
        }
    };
    let variables: Vec<String> = template.variables().map(str::to_owned).collect();
    if !text.starts_with('{') && !has_scheme(&text) {
        cx.error_spanned_by(
            uri,
            "a resource URI needs a scheme, e.g. `file:///notes.txt` or `gifts://item/{id}`",
        );
    }
    let arguments: Vec<&Param> = item.arguments().collect();
    for variable in &variables {
        if !arguments.iter().any(|p| p.public_name() == *variable) {
            cx.error_spanned_by(
                uri,
                format!("URI template variable `{variable}` has no parameter; add a parameter `{variable}: String` (or any type implementing `FromStr`)"),
            );
        }
    }
    for param in arguments {
        let name = param.public_name();
        if variables.contains(&name) {
            continue;
        }
        let message = if variables.is_empty() {
            format!(
                "parameter `{name}` is not a variable of the URI `{text}`: a fixed-URI resource takes no arguments; add `{{{name}}}` to the URI to make it a template, or remove the parameter"
            )
        } else {
            format!(
                "parameter `{name}` is not a variable of the URI template `{text}`; add `{{{name}}}` to the template, rename it with `#[arg(rename = \"..\")]`, or remove it"
            )
        };
        cx.error_spanned_by(&param.decl, message);
    }
}

fn prompt(cx: &Ctxt, def: &PromptDef) {
    let item = &def.item;
    if item.registered_name().trim().is_empty() {
        cx.error_at(item.name_span(), "a prompt name cannot be empty");
    }
    from_str_params(cx, item, "prompt arguments");
    limits(cx, def.timeout_ms.as_ref(), def.max_concurrency.as_ref());
}

/// Rule `prompt-arg-not-from-str` (and its resource twin): types never parsed from a string.
fn from_str_params(cx: &Ctxt, item: &ItemDef, source: &str) {
    for param in item.arguments() {
        let ty = param.option_inner().unwrap_or(&param.ty);
        if let Some(message) = ty::from_str_problem(ty, source) {
            cx.error_spanned_by(ty, message);
        }
    }
}

/// Rule `tool-name-invalid` / `tool-name-too-long`: 1 to 128 of `A-Za-z0-9`, `_`, `-`, `.`.
pub(crate) fn tool_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(
            "a tool name cannot be empty; use 1 to 128 of `A-Za-z0-9`, `_`, `-` and `.`".to_owned(),
        );
    }
    let length = name.chars().count();
    if length > 128 {
        return Err(format!(
            "tool name is {length} characters long, more than the 128 allowed; shorten it with `name = \"..\"`"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        let shown = match bad {
            ' ' => "a space".to_owned(),
            c if c.is_control() || c.is_whitespace() => format!("{:?}", c),
            c => format!("`{c}`"),
        };
        return Err(format!(
            "tool name `{name}` contains {shown} (U+{:04X}), which is not allowed; use only `A-Za-z0-9`, `_`, `-` and `.`",
            bad as u32
        ));
    }
    Ok(())
}

/// Whether `uri` starts with an RFC 3986 scheme and `:`.
fn has_scheme(uri: &str) -> bool {
    match uri.split_once(':') {
        Some((scheme, _)) => {
            let mut chars = scheme.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// Rule `scope-token`: an OAuth scope is one RFC 6749 scope-token (printable ASCII without
/// space, `"` or `\\`).
pub(crate) fn scope_token(scope: &str) -> Result<(), String> {
    if scope.is_empty() {
        return Err("a scope cannot be empty, e.g. `scopes = [\"notes:read\"]`".into());
    }
    match scope
        .chars()
        .find(|&c| !(c == '!' || ('#'..='[').contains(&c) || (']'..='~').contains(&c)))
    {
        Some(c) => Err(format!(
            "a scope is one OAuth scope token: {c:?} is not allowed (no spaces, quotes, backslashes or non-ASCII); give several scopes as separate strings"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::{has_scheme, tool_name};

    #[test]
    fn schemes() {
        assert!(has_scheme("gifts://item/{id}"));
        assert!(has_scheme("file:///a.txt"));
        assert!(has_scheme("urn:isbn:1"));
        assert!(!has_scheme("/no/scheme"));
        assert!(!has_scheme("1abc://x"));
        assert!(!has_scheme("a b://x"));
    }

    #[test]
    fn tool_names() {
        assert_eq!(tool_name("get_weather-v2.1"), Ok(()));
        assert_eq!(tool_name(&"a".repeat(128)), Ok(()));
        assert_eq!(
            tool_name(&"a".repeat(129)).unwrap_err(),
            "tool name is 129 characters long, more than the 128 allowed; shorten it with `name = \"..\"`"
        );
        assert_eq!(
            tool_name("get weather").unwrap_err(),
            "tool name `get weather` contains a space (U+0020), which is not allowed; use only `A-Za-z0-9`, `_`, `-` and `.`"
        );
        assert!(tool_name("café").unwrap_err().contains("`é` (U+00E9)"));
        assert!(tool_name("a/b").unwrap_err().contains("`/` (U+002F)"));
        assert!(tool_name("").is_err());
    }
}

#[cfg(test)]
mod pipeline_tests;
