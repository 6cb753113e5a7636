//! The semantic model of one annotated function: what `validate` checks and `expand` generates
//! code from.
//!
//! Building the model never fails: a malformed piece (a duplicated key, an unparsable `#[arg]`) is
//! reported to the [`Ctxt`] and left out, and the rules themselves live in `validate`.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{Expr, FnArg, Ident, ItemFn, LitBool, LitInt, LitStr, Pat, ReturnType, Type};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::docs;
use crate::parse::{
    ArgKey, IconSpec, ItemArgs, ItemKey, ItemValue, Kind, Number, ParamAttrs, ParamValue,
};
use crate::ty;

/// What every annotated function has, whatever the macro.
pub(crate) struct ItemDef {
    pub(crate) kind: Kind,
    /// The user's function with helper attributes and parameter doc comments stripped.
    pub(crate) func: ItemFn,
    /// `name = ".."` as given.
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    /// `description = ".."` as given.
    pub(crate) description: Option<LitStr>,
    /// The function's doc comment.
    pub(crate) doc: Option<String>,
    pub(crate) icons: Vec<IconSpec>,
    pub(crate) meta: Option<LitStr>,
    pub(crate) server: Option<LitStr>,
    /// `scopes = [..]`: the OAuth scopes a caller needs (checked with the `auth` feature).
    pub(crate) scopes: Vec<LitStr>,
    /// `tags = [..]`: what a `Visibility` rule shows or hides the item by.
    pub(crate) tags: Vec<LitStr>,
    /// `rename_all = ".."` as given (tools and prompts); already applied to the parameters.
    pub(crate) rename_all: Option<LitStr>,
    /// `ttl_ms = N` (resources) or `cache_ttl_ms = N` (tools, prompts), with the key written.
    pub(crate) cache_ttl: Option<(ItemKey, LitInt)>,
    /// `cache_scope = "public" | "private"` (checked by `validate`).
    pub(crate) cache_scope: Option<LitStr>,
    /// Every parameter with a plain identifier pattern, in order.
    pub(crate) params: Vec<Param>,
}

impl ItemDef {
    /// The function's name.
    pub(crate) fn ident(&self) -> &Ident {
        &self.func.sig.ident
    }

    /// The registered name: `name = ".."` or the function's name.
    pub(crate) fn registered_name(&self) -> String {
        match &self.name {
            Some(name) => name.value(),
            None => self.ident().unraw().to_string(),
        }
    }

    /// Where errors about the registered name go.
    pub(crate) fn name_span(&self) -> Span {
        self.name
            .as_ref()
            .map_or_else(|| self.ident().span(), LitStr::span)
    }

    /// The description: `description = ".."`, else the doc comment.
    pub(crate) fn description(&self) -> Option<String> {
        self.description
            .as_ref()
            .map(LitStr::value)
            .or_else(|| self.doc.clone())
    }

    /// The declared return type; `()` when there is none.
    pub(crate) fn return_type(&self) -> Type {
        match &self.func.sig.output {
            ReturnType::Default => syn::parse_quote!(()),
            ReturnType::Type(_, ty) => (**ty).clone(),
        }
    }

    /// Whether the function is `async`.
    pub(crate) fn is_async(&self) -> bool {
        self.func.sig.asyncness.is_some()
    }

    /// The parameters that are not injected.
    pub(crate) fn arguments(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.role == Role::Argument)
    }
}

/// A `#[tool]` function.
pub(crate) struct ToolDef {
    pub(crate) item: ItemDef,
    pub(crate) read_only: Option<LitBool>,
    pub(crate) destructive: Option<LitBool>,
    pub(crate) idempotent: Option<LitBool>,
    pub(crate) open_world: Option<LitBool>,
    pub(crate) timeout_ms: Option<LitInt>,
    pub(crate) max_concurrency: Option<LitInt>,
    /// The raw escape hatch: the tool takes the whole arguments object as one parameter.
    pub(crate) input_schema: Option<LitStr>,
    /// `allow_unknown_args` (`= true` or `= false`); the server decides when absent.
    pub(crate) allow_unknown_args: Option<LitBool>,
    /// `task = "forbidden" | "optional" | "required"` (checked by `validate`).
    pub(crate) task: Option<LitStr>,
    /// `ui = WIDGET`: the `#[widget]` const its results render in.
    pub(crate) ui: Option<syn::Path>,
    /// `visibility = ..`: the values as written and the span of the whole value.
    pub(crate) visibility: Option<(Vec<LitStr>, Span)>,
}

/// A `#[resource]` function.
pub(crate) struct ResourceDef {
    pub(crate) item: ItemDef,
    /// Required; its absence is reported by `validate`.
    pub(crate) uri: Option<LitStr>,
    pub(crate) mime: Option<LitStr>,
    pub(crate) timeout_ms: Option<LitInt>,
    pub(crate) max_concurrency: Option<LitInt>,
}

/// A `#[prompt]` function.
pub(crate) struct PromptDef {
    pub(crate) item: ItemDef,
    pub(crate) timeout_ms: Option<LitInt>,
    pub(crate) max_concurrency: Option<LitInt>,
}

/// Any of the three.
pub(crate) enum Def {
    Tool(ToolDef),
    Resource(ResourceDef),
    Prompt(PromptDef),
}

impl Def {
    pub(crate) fn item(&self) -> &ItemDef {
        match self {
            Def::Tool(def) => &def.item,
            Def::Resource(def) => &def.item,
            Def::Prompt(def) => &def.item,
        }
    }
}

/// How a parameter is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Extracted from the request context (`Context`, `State<T>`, or marked `#[ctx]`).
    Injected,
    /// A tool argument, a URI template variable or a prompt argument.
    Argument,
}

/// One parameter of the function.
pub(crate) struct Param {
    /// The binding, without `mut`.
    pub(crate) ident: Ident,
    /// The parameter as written, helper attributes and doc comments stripped: where errors
    /// about the whole parameter go.
    pub(crate) decl: syn::PatType,
    pub(crate) ty: Type,
    pub(crate) role: Role,
    /// The parameter's doc comment: its description.
    pub(crate) doc: Option<String>,
    /// `#[ctx]`, if written.
    pub(crate) ctx: Option<Span>,
    /// `#[arg(..)]`, if written.
    pub(crate) arg: Option<Span>,
    /// Every `#[arg]` key as given, in order (duplicates included), for validation.
    pub(crate) keys: Vec<(ArgKey, Span)>,
    pub(crate) rename: Option<LitStr>,
    /// The name `rename_all` gives, when the item has one.
    pub(crate) cased: Option<String>,
    pub(crate) title: Option<LitStr>,
    pub(crate) default: Option<Expr>,
    pub(crate) min: Option<Number>,
    pub(crate) max: Option<Number>,
    pub(crate) pattern: Option<LitStr>,
    pub(crate) complete: Option<Expr>,
    pub(crate) header: Option<LitStr>,
    /// `#[arg(flatten)]`: the parameter's fields are top-level properties.
    pub(crate) flatten: Option<Span>,
}

impl Param {
    /// The name clients use: `rename`, else the item's `rename_all` applied to the identifier,
    /// else the identifier (without `r#`).
    pub(crate) fn public_name(&self) -> String {
        match (&self.rename, &self.cased) {
            (Some(rename), _) => rename.value(),
            (None, Some(cased)) => cased.clone(),
            (None, None) => self.ident.unraw().to_string(),
        }
    }

    /// The name serde must be told (`#[serde(rename = ..)]`), when it is not the field's.
    pub(crate) fn serde_rename(&self) -> Option<String> {
        (self.rename.is_some() || self.cased.is_some()).then(|| self.public_name())
    }

    /// `T` when the type is `Option<T>`.
    pub(crate) fn option_inner(&self) -> Option<&Type> {
        ty::option_inner(&self.ty)
    }

    /// Whether a client may leave this parameter out.
    pub(crate) fn is_optional(&self) -> bool {
        self.option_inner().is_some() || self.default.is_some()
    }

    /// The type without `Option`: what `min`, `max` and `pattern` look at.
    pub(crate) fn value_type(&self) -> &Type {
        self.option_inner().unwrap_or(&self.ty)
    }
}

/// Builds the model of `func` annotated with `kind` and `args`.
pub(crate) fn build(cx: &Ctxt, kind: Kind, args: ItemArgs, func: &ItemFn) -> Def {
    let mut func = func.clone();
    let params = params(cx, &func);
    strip_param_attrs(&mut func);

    let mut seen: Vec<ItemKey> = Vec::new();
    let mut item = ItemDef {
        kind,
        doc: docs::extract(&func.attrs),
        func,
        name: None,
        title: None,
        description: None,
        icons: Vec::new(),
        meta: None,
        server: None,
        scopes: Vec::new(),
        tags: Vec::new(),
        rename_all: None,
        cache_ttl: None,
        cache_scope: None,
        params,
    };
    let mut read_only = None;
    let mut destructive = None;
    let mut idempotent = None;
    let mut open_world = None;
    let mut timeout_ms = None;
    let mut max_concurrency = None;
    let mut input_schema = None;
    let mut allow_unknown_args = None;
    let mut uri = None;
    let mut mime = None;
    let mut task = None;
    let mut ui = None;
    let mut visibility = None;

    for arg in args.0 {
        if arg.key != ItemKey::Icon && seen.contains(&arg.key) {
            cx.error_at(
                arg.span,
                format!(
                    "duplicate {} argument `{}`; give it once",
                    kind.attr(),
                    arg.key.as_str()
                ),
            );
            continue;
        }
        seen.push(arg.key);
        match (arg.key, arg.value) {
            (ItemKey::Icon, ItemValue::Icon(icon)) => item.icons.push(icon),
            (ItemKey::Name, ItemValue::Str(s)) => item.name = Some(s),
            (ItemKey::Title, ItemValue::Str(s)) => item.title = Some(s),
            (ItemKey::Description, ItemValue::Str(s)) => item.description = Some(s),
            (ItemKey::Meta, ItemValue::Str(s)) => item.meta = Some(s),
            (ItemKey::Server, ItemValue::Str(s)) => item.server = Some(s),
            (ItemKey::Scopes, ItemValue::Strs(list, _)) => item.scopes = list,
            (ItemKey::Tags, ItemValue::Strs(list, _)) => item.tags = list,
            (ItemKey::Uri, ItemValue::Str(s)) => uri = Some(s),
            (ItemKey::Mime, ItemValue::Str(s)) => mime = Some(s),
            (ItemKey::Task, ItemValue::Str(s)) => task = Some(s),
            (ItemKey::InputSchema, ItemValue::Str(s)) => input_schema = Some(s),
            (ItemKey::ReadOnly, ItemValue::Flag(b)) => read_only = Some(b),
            (ItemKey::Destructive, ItemValue::Flag(b)) => destructive = Some(b),
            (ItemKey::Idempotent, ItemValue::Flag(b)) => idempotent = Some(b),
            (ItemKey::OpenWorld, ItemValue::Flag(b)) => open_world = Some(b),
            (ItemKey::AllowUnknownArgs, ItemValue::Flag(b)) => allow_unknown_args = Some(b),
            (ItemKey::TimeoutMs, ItemValue::Int(i)) => timeout_ms = Some(i),
            (ItemKey::MaxConcurrency, ItemValue::Int(i)) => max_concurrency = Some(i),
            (ItemKey::Ui, ItemValue::Path(path)) => ui = Some(path),
            (ItemKey::Visibility, ItemValue::Strs(list, span)) => visibility = Some((list, span)),
            (ItemKey::RenameAll, ItemValue::Str(s)) => item.rename_all = Some(s),
            (ItemKey::TtlMs | ItemKey::CacheTtlMs, ItemValue::Int(i)) => {
                item.cache_ttl = Some((arg.key, i))
            }
            (ItemKey::CacheScope, ItemValue::Str(s)) => item.cache_scope = Some(s),
            // The parser gives every key the value shape it expects.
            (key, _) => cx.error_at(arg.span, format!("unexpected value for `{}`", key.as_str())),
        }
    }

    apply_rename_all(cx, &mut item);

    match kind {
        Kind::Tool => Def::Tool(ToolDef {
            item,
            read_only,
            destructive,
            idempotent,
            open_world,
            timeout_ms,
            max_concurrency,
            input_schema,
            allow_unknown_args,
            task,
            ui,
            visibility,
        }),
        Kind::Resource => Def::Resource(ResourceDef {
            item,
            uri,
            mime,
            timeout_ms,
            max_concurrency,
        }),
        Kind::Prompt => Def::Prompt(PromptDef {
            item,
            timeout_ms,
            max_concurrency,
        }),
    }
}

/// The parameters with plain identifier patterns (`validate` reports the others).
fn params(cx: &Ctxt, func: &ItemFn) -> Vec<Param> {
    let mut out = Vec::new();
    for input in &func.sig.inputs {
        let FnArg::Typed(pat_type) = input else {
            continue;
        };
        let Pat::Ident(pat) = &*pat_type.pat else {
            continue;
        };
        if pat.subpat.is_some() {
            continue;
        }
        let attrs = ParamAttrs::parse(&pat_type.attrs, |error| cx.syn_error(error));
        let ty = (*pat_type.ty).clone();
        let injected = attrs.ctx.is_some()
            || ty::is_injected(&ty)
            || matches!(ty::peel(&ty), Type::Reference(r) if ty::is_injected(&r.elem));
        let mut decl = pat_type.clone();
        decl.attrs
            .retain(|attr| !ParamAttrs::is_helper(attr) && !docs::is_doc(attr));
        let mut param = Param {
            ident: pat.ident.clone(),
            decl,
            role: if injected {
                Role::Injected
            } else {
                Role::Argument
            },
            doc: docs::extract(&pat_type.attrs),
            ctx: attrs.ctx,
            arg: attrs.arg,
            keys: attrs.args.iter().map(|a| (a.key, a.span)).collect(),
            ty,
            rename: None,
            cased: None,
            title: None,
            default: None,
            min: None,
            max: None,
            pattern: None,
            complete: None,
            header: None,
            flatten: None,
        };
        for arg in attrs.args {
            match (arg.key, arg.value) {
                (ArgKey::Rename, ParamValue::Str(s)) => {
                    param.rename = param.rename.take().or(Some(s))
                }
                (ArgKey::Title, ParamValue::Str(s)) => param.title = param.title.take().or(Some(s)),
                (ArgKey::Pattern, ParamValue::Str(s)) => {
                    param.pattern = param.pattern.take().or(Some(s))
                }
                (ArgKey::Header, ParamValue::Str(s)) => {
                    param.header = param.header.take().or(Some(s))
                }
                (ArgKey::Min, ParamValue::Number(n)) => param.min = param.min.take().or(Some(n)),
                (ArgKey::Max, ParamValue::Number(n)) => param.max = param.max.take().or(Some(n)),
                (ArgKey::Default, ParamValue::Expr(e)) => {
                    param.default = param.default.take().or(Some(*e))
                }
                (ArgKey::Complete, ParamValue::Expr(e)) => {
                    param.complete = param.complete.take().or(Some(*e))
                }
                (ArgKey::Flatten, ParamValue::Flag) => {
                    param.flatten = param.flatten.take().or(Some(arg.span))
                }
                (key, _) => {
                    cx.error_at(arg.span, format!("unexpected value for `{}`", key.as_str()))
                }
            }
        }
        out.push(param);
    }
    out
}

/// `rename_all = ".."`: each argument's name in that casing (a `rename` still wins, in
/// [`Param::public_name`]). An unknown casing is reported at its value and renames nothing.
fn apply_rename_all(cx: &Ctxt, item: &mut ItemDef) {
    let Some(written) = &item.rename_all else {
        return;
    };
    let Some(rule) = RenameRule::from_name(&written.value()) else {
        let expected = RenameRule::ALL
            .iter()
            .map(|(name, _)| format!("`\"{name}\"`"))
            .collect::<Vec<_>>()
            .join(", ");
        cx.error_spanned_by(
            written,
            format!(
                "unknown `rename_all` casing {:?}, expected one of {expected}",
                written.value()
            ),
        );
        return;
    };
    for param in &mut item.params {
        if param.role == Role::Argument && param.flatten.is_none() {
            param.cased = Some(rule.apply(&param.ident.unraw().to_string()));
        }
    }
}

/// Removes `#[arg]`, `#[ctx]` and doc comments from the parameters of `func`: rustc rejects doc
/// comments on parameters and does not know the helper attributes.
pub(crate) fn strip_param_attrs(func: &mut ItemFn) {
    for input in &mut func.sig.inputs {
        if let FnArg::Typed(pat_type) = input {
            pat_type
                .attrs
                .retain(|attr| !ParamAttrs::is_helper(attr) && !docs::is_doc(attr));
        }
    }
}
