//! The rules on one parameter: its `#[arg]` and `#[ctx]` keys, the shape of its value, and
//! `flatten`.

use syn::Type;

use crate::ctxt::Ctxt;
use crate::model::{Param, Role};
use crate::parse::{ArgKey, Kind};
use crate::ty;

/// Rules on `#[arg]` and `#[ctx]` of one parameter.
pub(super) fn param_attrs(cx: &Ctxt, kind: Kind, param: &Param) {
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
                "`#[arg(flatten)]` spreads the fields of a struct as top-level properties, and `{}` has none; use a struct with `#[mcp_runtime::data]`, or remove `flatten`",
                ty::display(ty)
            ),
        );
    }
}
