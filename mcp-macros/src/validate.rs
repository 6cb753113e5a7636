//! Every compile-time rule, in one place. Each rule reports into the [`Ctxt`], on the narrowest
//! span, so a build shows all of its errors at once; each has a UI test named after it.

// The RFC 6570 parser of mcp-core: templates are checked at compile time by the very code that
// matches them at run time.
use mcp_core::uri_template::UriTemplate;
use syn::{FnArg, ItemFn, LitInt, LitStr, Pat, Type};

use crate::ctxt::Ctxt;
use crate::json;
use crate::model::{Def, ItemDef, Param, PromptDef, ResourceDef, Role, ToolDef};
use crate::parse::{ArgKey, Kind};
use crate::ty;

/// Checks `def` (and the signature it came from) against every rule of its macro.
pub(crate) fn check(cx: &Ctxt, def: &Def) {
    let item = def.item();
    signature(cx, item.kind, &item.func);
    common(cx, item);
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

/// Rules on `#[arg]` and `#[ctx]` of one parameter.
fn param_attrs(cx: &Ctxt, kind: Kind, param: &Param) {
    let mut seen: Vec<ArgKey> = Vec::new();
    for (key, span) in &param.keys {
        if seen.contains(key) {
            cx.error_at(
                *span,
                format!(
                    "duplicate `#[arg]` argument `{}`; give it once",
                    key.as_str()
                ),
            );
        }
        seen.push(*key);
    }
    if param.role == Role::Injected {
        if let Type::Reference(reference) = ty::peel(&param.ty) {
            cx.error_spanned_by(
                &param.ty,
                format!(
                    "injected parameters are taken by value: write `{}`, not `{}`",
                    ty::display(&reference.elem),
                    ty::display(&param.ty)
                ),
            );
        }
        if let Some(span) = param.arg {
            let why = if param.ctx.is_some() {
                "a `#[ctx]` parameter"
            } else {
                "this parameter"
            };
            cx.error_at(span, format!("`#[arg]` does not apply: {why} is injected from the request context, not read from the arguments; remove `#[arg(..)]`"));
        }
        return;
    }
    for (key, span) in &param.keys {
        let allowed = match kind {
            Kind::Tool => !matches!(key, ArgKey::Complete),
            Kind::Resource => matches!(key, ArgKey::Rename | ArgKey::Complete),
            Kind::Prompt => matches!(
                key,
                ArgKey::Rename | ArgKey::Title | ArgKey::Default | ArgKey::Complete
            ),
        };
        if allowed {
            continue;
        }
        let message = match (kind, key) {
            (Kind::Tool, _) => "completion is only for prompt arguments and resource template variables; remove `complete`".to_owned(),
            (Kind::Resource, _) => format!(
                "`{}` does not apply to a URI template variable: variables are matched in the URI; only `rename` and `complete` are supported",
                key.as_str()
            ),
            (Kind::Prompt, _) => format!(
                "`{}` does not apply to a prompt argument; only `rename`, `title`, `default` and `complete` are supported",
                key.as_str()
            ),
        };
        cx.error_at(*span, message);
    }
    if let Some(rename) = &param.rename
        && rename.value().is_empty()
    {
        cx.error_spanned_by(rename, "`rename` cannot be empty");
    }
    if let (Some(default), Some(inner)) = (&param.default, param.option_inner()) {
        cx.error_spanned_by(
            default,
            format!("an `Option` parameter is already optional and defaults to `None`; remove `default` or make the type `{}`", ty::display(inner)),
        );
    }
    if let (Some(min), Some(max)) = (&param.min, &param.max)
        && min.value > max.value
    {
        cx.error_at(
            max.span,
            format!("`max` ({}) is below `min` ({})", max.value, min.value),
        );
    }
    if let Some(pattern) = &param.pattern {
        if pattern.value().is_empty() {
            cx.error_spanned_by(
                pattern,
                "`pattern` cannot be empty; remove it to accept any string",
            );
        } else if let Err(error) = regex_lite::Regex::new(&pattern.value()) {
            // Rule `arg-pattern-invalid`: the runtime matches with the same engine.
            let why = error.to_string().replace('\n', " ");
            cx.error_spanned_by(
                pattern,
                format!("`pattern` is not a valid regular expression: {why}"),
            );
        }
    }
    if kind == Kind::Tool {
        value_shape(cx, param);
        flatten(cx, param);
    }
}

/// Rule `arg-min-max-not-number` (and its twin for `pattern`): bounds on a type that is not a
/// number, a pattern on one that is not a string, when the type's name says so.
fn value_shape(cx: &Ctxt, param: &Param) {
    let ty = param.value_type();
    let shape = ty::shape(ty);
    let not_number = shape.is_some_and(|s| s != ty::Shape::Number);
    let not_text = shape.is_some_and(|s| s != ty::Shape::Text);
    for (key, span) in &param.keys {
        match key {
            ArgKey::Min | ArgKey::Max if not_number => cx.error_at(
                *span,
                format!(
                    "`min` and `max` apply to numbers, and `{}` is not one; remove `{}`{}",
                    ty::display(ty),
                    key.as_str(),
                    if shape == Some(ty::Shape::Text) {
                        ", or constrain the text with `pattern = \"..\"`"
                    } else {
                        ""
                    }
                ),
            ),
            ArgKey::Pattern if not_text => cx.error_at(
                *span,
                format!(
                    "`pattern` applies to strings, and `{}` is not one; remove `pattern`{}",
                    ty::display(ty),
                    if shape == Some(ty::Shape::Number) {
                        ", or bound the number with `min` and `max`"
                    } else {
                        ""
                    }
                ),
            ),
            _ => {}
        }
    }
}

/// Rules `arg-flatten-*`: a flattened parameter is a struct (or a map) whose fields are the
/// properties, so nothing else about it can be said in `#[arg]`.
fn flatten(cx: &Ctxt, param: &Param) {
    if param.flatten.is_none() {
        return;
    }
    for (key, span) in &param.keys {
        if *key != ArgKey::Flatten {
            cx.error_at(
                *span,
                format!(
                    "`{}` does not apply to a flattened parameter: its fields are the properties; describe them on the struct's fields (doc comments, `#[serde]`, `#[schemars]`)",
                    key.as_str()
                ),
            );
        }
    }
    let ty = param.value_type();
    if matches!(
        ty::shape(ty),
        Some(ty::Shape::Number | ty::Shape::Text | ty::Shape::Other)
    ) {
        cx.error_spanned_by(
            ty,
            format!(
                "`#[arg(flatten)]` spreads the fields of a struct as top-level properties, and `{}` has none; use a `#[derive(Deserialize, JsonSchema)]` struct, or remove `flatten`",
                ty::display(ty)
            ),
        );
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
mod pipeline_tests {
    //! The rules through the whole front half of the pipeline (parse, model, validate), as pure
    //! functions of tokens.

    use proc_macro2::TokenStream;
    use quote::quote;

    use crate::ctxt::Ctxt;
    use crate::model;
    use crate::parse::{ItemArgs, Kind};

    fn errors(kind: Kind, attr: TokenStream, item: TokenStream) -> Vec<String> {
        let func: syn::ItemFn = syn::parse2(item).expect("a function");
        let cx = Ctxt::new();
        let args = ItemArgs::parse(kind, attr, |e| cx.syn_error(e));
        let def = model::build(&cx, kind, args, &func);
        super::check(&cx, &def);
        match cx.check() {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn a_valid_tool_has_no_error() {
        let found = errors(
            Kind::Tool,
            quote!(name = "add", read_only),
            quote!(
                async fn add(#[arg(min = 0)] a: f64, b: Option<String>, ctx: Context) -> String {
                    todo!()
                }
            ),
        );
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn template_variables_and_parameters_must_match() {
        let found = errors(
            Kind::Resource,
            quote!(uri = "x://{a}/{b}"),
            quote!(
                fn r(a: String, c: String, ctx: Context) -> String {
                    todo!()
                }
            ),
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("URI template variable `b` has no parameter"));
        assert!(found[1].starts_with("parameter `c` is not a variable of the URI template"));
        let renamed = errors(
            Kind::Resource,
            quote!(uri = "x://{itemId}"),
            quote!(
                fn r(#[arg(rename = "itemId")] id: u32) -> String {
                    todo!()
                }
            ),
        );
        assert_eq!(renamed, Vec::<String>::new());
    }

    #[test]
    fn every_error_of_a_build_is_reported() {
        let found = errors(
            Kind::Tool,
            quote!(name = "bad name", nmae = "x", meta = "[]"),
            quote!(
                fn t<T>(&self, (a, b): (u8, u8), s: &str, #[arg(complete = f)] c: String) {}
            ),
        );
        assert_eq!(found.len(), 8, "{found:#?}");
    }

    #[test]
    fn prompt_arguments_must_come_from_strings() {
        let found = errors(
            Kind::Prompt,
            quote!(),
            quote!(
                fn p(
                    a: Vec<String>,
                    b: Option<HashMap<String, u8>>,
                    c: Option<u8>,
                    d: serde_json::Value,
                ) -> String {
                    todo!()
                }
            ),
        );
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(found[1].contains("`HashMap<String, u8>`"));
    }

    #[test]
    fn limits_are_checked_on_every_kind() {
        let item = || {
            quote!(
                fn f() -> String {
                    todo!()
                }
            )
        };
        for (kind, attr) in [
            (
                Kind::Tool,
                quote!(timeout_ms = 0, max_concurrency = 5000000000),
            ),
            (
                Kind::Resource,
                quote!(uri = "a://b", timeout_ms = 0, max_concurrency = 5000000000),
            ),
            (
                Kind::Prompt,
                quote!(timeout_ms = 0, max_concurrency = 5000000000),
            ),
        ] {
            assert_eq!(
                errors(kind, attr, item()),
                [
                    "`timeout_ms` must be a whole number, at least 1",
                    "`max_concurrency` must be a whole number, 1 to 4294967295",
                ],
                "{kind:?}"
            );
        }
        let found = errors(
            Kind::Resource,
            quote!(
                uri = "a://{id}",
                timeout_ms = 18446744073709551615,
                max_concurrency = 1
            ),
            quote!(
                fn f(id: u32) -> String {
                    todo!()
                }
            ),
        );
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn a_resource_without_uri_is_reported_once() {
        let found = errors(
            Kind::Resource,
            quote!(mime = "text/plain"),
            quote!(
                fn r() -> String {
                    todo!()
                }
            ),
        );
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("`#[resource]` needs a URI"));
    }

    #[test]
    fn patterns_are_compiled_and_bounds_fit_the_type() {
        let found = errors(
            Kind::Tool,
            quote!(),
            quote!(
                fn t(
                    #[arg(pattern = "[a-z")] a: String,
                    #[arg(pattern = "^(a|b)+$")] b: Option<String>,
                    #[arg(max = 100)] c: String,
                    #[arg(min = 1, max = 2)] d: Option<u8>,
                    #[arg(pattern = "x")] e: f64,
                    #[arg(min = 0)] f: Budget,
                ) {
                }
            ),
        );
        assert_eq!(
            found,
            [
                "`pattern` is not a valid regular expression: found unclosed character class",
                "`min` and `max` apply to numbers, and `String` is not one; remove `max`, or constrain the text with `pattern = \"..\"`",
                "`pattern` applies to strings, and `f64` is not one; remove `pattern`, or bound the number with `min` and `max`",
            ]
        );
    }

    #[test]
    fn a_flattened_parameter_takes_no_other_key() {
        let found = errors(
            Kind::Tool,
            quote!(),
            quote!(
                fn t(
                    #[arg(flatten)] a: Paging,
                    #[arg(flatten, title = "x")] b: Filter,
                    #[arg(flatten)] c: Vec<u8>,
                ) {
                }
            ),
        );
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found[0].starts_with("`title` does not apply to a flattened parameter"));
        assert!(found[1].starts_with("`#[arg(flatten)]` spreads the fields of a struct"));
    }

    #[test]
    fn allow_unknown_args_is_a_tool_flag() {
        let found = errors(
            Kind::Tool,
            quote!(allow_unknown_args, allow_unknown_args = false),
            quote!(
                fn t() {}
            ),
        );
        assert_eq!(
            found,
            ["duplicate `#[tool]` argument `allow_unknown_args`; give it once"]
        );
        let found = errors(
            Kind::Prompt,
            quote!(allow_unknown_args),
            quote!(
                fn p() {}
            ),
        );
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("unknown `#[prompt]` argument `allow_unknown_args`"));
        let found = errors(
            Kind::Tool,
            quote!(input_schema = "{}", allow_unknown_args = false),
            quote!(
                fn t(args: Value) {}
            ),
        );
        assert_eq!(
            found,
            [
                "`allow_unknown_args` does not apply with a raw `input_schema`: the arguments arrive as sent, whatever they name; remove it"
            ]
        );
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
