//! JSON Schemas of an OpenAPI document as Rust types: the argument structs of the tools that
//! `#[openapi::tools]` generates, their nested structs and string enums.
//!
//! Every schema has a type: what has no precise one (`oneOf`, `anyOf`, `allOf`, a list of
//! types, no `type`) is a `serde_json::Value`. The schema a model sees is the document's own
//! (each field's `schema_with`), so the types only have to read and write the same JSON.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

/// The Rust keywords that cannot be raw identifiers.
const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// `petId`, `pet-id`, `PetID` → `pet_id`; empty when nothing is left.
pub(crate) fn snake(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 4);
    let mut prev_lower = false;
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(c.to_ascii_lowercase());
        } else {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `find_pets-byStatus` → `FindPetsByStatus`; empty when nothing is left.
pub(crate) fn pascal(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for word in snake(raw).split('_').filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// An identifier for `name` (snake case already), raw when it is a keyword.
pub(crate) fn ident(name: &str) -> syn::Ident {
    if NOT_RAW.contains(&name) {
        return format_ident!("{name}_");
    }
    match syn::parse_str::<syn::Ident>(name) {
        Ok(ident) => ident,
        Err(_) => syn::Ident::new_raw(name, Span::call_site()),
    }
}

/// The items made so far and the type names taken.
#[derive(Default)]
pub(crate) struct Types {
    pub(crate) items: Vec<TokenStream>,
    names: BTreeSet<String>,
}

/// One field of a generated struct.
pub(crate) struct Field {
    /// The JSON member name.
    pub(crate) json: String,
    pub(crate) ident: syn::Ident,
    /// The type, without the `Option` of a nullable or optional member.
    pub(crate) ty: TokenStream,
    pub(crate) required: bool,
    pub(crate) nullable: bool,
    pub(crate) description: Option<String>,
    /// The member's schema as the document gives it.
    pub(crate) schema: Value,
}

impl Types {
    /// A type name made of `hint`, not taken yet (`Name`, `Name2`, …).
    pub(crate) fn fresh(&mut self, hint: &str) -> syn::Ident {
        let base = match pascal(hint) {
            b if b.is_empty() => "Value".to_owned(),
            b => b,
        };
        let mut name = base.clone();
        let mut n = 1;
        while !self.names.insert(name.clone()) {
            n += 1;
            name = format!("{base}{n}");
        }
        format_ident!("{name}")
    }

    /// Takes `name` (a name the caller chose), or says it is taken.
    pub(crate) fn take(&mut self, name: &str) -> bool {
        self.names.insert(name.to_owned())
    }

    /// The Rust type of `schema`, named after `hint` when it needs an item of its own.
    pub(crate) fn of(
        &mut self,
        schema: &Value,
        hint: &str,
        at: &str,
    ) -> Result<TokenStream, String> {
        let (ty, nullable) = self.plain(schema, hint, at)?;
        Ok(if nullable {
            quote!(::core::option::Option<#ty>)
        } else {
            ty
        })
    }

    /// The type without the `Option` of a nullable schema, and whether it is nullable.
    fn plain(
        &mut self,
        schema: &Value,
        hint: &str,
        at: &str,
    ) -> Result<(TokenStream, bool), String> {
        let value = quote!(::mcp_runtime::serde_json::Value);
        let Some(obj) = schema.as_object() else {
            return Ok((value, false));
        };
        let mut nullable = obj.get("nullable") == Some(&Value::Bool(true));
        let ty = match obj.get("type") {
            Some(Value::String(t)) => Some(t.as_str()),
            Some(Value::Array(list)) => {
                let named: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                nullable |= named.contains(&"null");
                let rest: Vec<&str> = named.into_iter().filter(|t| *t != "null").collect();
                match rest.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                }
            }
            _ => None,
        };
        if ["oneOf", "anyOf", "allOf", "not"]
            .iter()
            .any(|k| obj.contains_key(*k))
        {
            return Ok((value, false));
        }
        let ty = match ty {
            Some("string") => match obj.get("enum") {
                Some(Value::Array(values)) => match self.string_enum(values, hint) {
                    Some(ty) => ty,
                    None => quote!(::std::string::String),
                },
                _ => quote!(::std::string::String),
            },
            Some("integer") => quote!(i64),
            Some("number") => quote!(f64),
            Some("boolean") => quote!(bool),
            Some("array") => {
                let items = obj.get("items").cloned().unwrap_or(Value::Bool(true));
                let item = self.of(&items, &format!("{hint}_item"), at)?;
                quote!(::std::vec::Vec<#item>)
            }
            Some("object") => match obj.get("properties") {
                Some(Value::Object(p)) if !p.is_empty() => {
                    let name = self.fresh(hint);
                    let doc = obj.get("description").and_then(Value::as_str);
                    let fields = self.fields(schema, hint, at)?;
                    self.items.push(nested(&name, doc, &fields));
                    quote!(#name)
                }
                _ => match obj.get("additionalProperties") {
                    Some(extra @ Value::Object(_)) => {
                        let item = self.of(extra, &format!("{hint}_value"), at)?;
                        quote!(::std::collections::BTreeMap<::std::string::String, #item>)
                    }
                    _ => quote!(::mcp_runtime::serde_json::Map<::std::string::String, #value>),
                },
            },
            _ => value,
        };
        Ok((ty, nullable))
    }

    /// The fields of an object schema, each a Rust identifier of its own.
    pub(crate) fn fields(
        &mut self,
        schema: &Value,
        hint: &str,
        at: &str,
    ) -> Result<Vec<Field>, String> {
        let required: BTreeSet<&str> = match schema.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => BTreeSet::new(),
        };
        let Some(Value::Object(properties)) = schema.get("properties") else {
            return Ok(Vec::new());
        };
        let mut out: Vec<Field> = Vec::with_capacity(properties.len());
        for (json, member) in properties {
            let name = snake(json);
            if name.is_empty() {
                return Err(format!(
                    "cannot map {at}: the member name `{json}` has no letter or digit to make a Rust field of"
                ));
            }
            if let Some(other) = out.iter().find(|f| snake(&f.json) == name) {
                return Err(format!(
                    "cannot map {at}: the members `{}` and `{json}` would both be the Rust field `{name}`",
                    other.json
                ));
            }
            let (ty, nullable) = self.plain(member, &format!("{hint}_{name}"), at)?;
            out.push(Field {
                json: json.clone(),
                ident: ident(&name),
                ty,
                required: required.contains(json.as_str()),
                nullable,
                description: member
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                schema: member.clone(),
            });
        }
        Ok(out)
    }

    /// An enum of string values, or `None` when two values make the same variant.
    fn string_enum(&mut self, values: &[Value], hint: &str) -> Option<TokenStream> {
        // A `null` among the values is the schema's nullability, said by its `Option`.
        let strings: Vec<&str> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(Value::as_str)
            .collect::<Option<_>>()?;
        if strings.is_empty() {
            return None;
        }
        let mut variants: Vec<String> = Vec::with_capacity(strings.len());
        for s in &strings {
            let v = match pascal(s) {
                v if v.is_empty() => "Empty".to_owned(),
                v => v,
            };
            if variants.contains(&v) {
                return None;
            }
            variants.push(v);
        }
        let name = self.fresh(hint);
        let idents = variants.iter().map(|v| ident(v));
        let doc = format!(" The values of `{}`.", hint);
        self.items.push(quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
                ::mcp_runtime::serde::Serialize, ::mcp_runtime::serde::Deserialize)]
            #[serde(crate = "::mcp_runtime::serde")]
            pub enum #name {
                #(
                    #[doc = concat!(" `", #strings, "`")]
                    #[serde(rename = #strings)]
                    #idents,
                )*
            }
        });
        Some(quote!(#name))
    }
}

/// The serde attributes and doc comment of one field (the member's description; `schema`: for
/// a field whose schema the document gives, where a doc comment would be the schema's
/// `description`, only a member with a description has one, given to schemars exactly).
pub(crate) fn field_attrs(field: &Field, schema: bool) -> TokenStream {
    let fallback = format!("`{}`.", field.json);
    let text = match (&field.description, schema) {
        (Some(d), _) => Some(d.as_str()),
        (None, false) => Some(fallback.as_str()),
        (None, true) => None,
    };
    let lines = text
        .into_iter()
        .flat_map(str::lines)
        .map(|l| format!(" {l}"));
    let exact = match (&field.description, schema) {
        (Some(d), true) => Some(quote!(#[schemars(description = #d)])),
        _ => None,
    };
    let doc = quote!(#(#[doc = #lines])* #exact);
    let json = &field.json;
    let rename = (field.ident.to_string().trim_start_matches("r#") != json.as_str())
        .then(|| quote!(#[serde(rename = #json)]));
    let optional = (!field.required).then(
        || quote!(#[serde(default, skip_serializing_if = "::core::option::Option::is_none")]),
    );
    quote!(#doc #rename #optional)
}

/// The field's type: optional and nullable members are `Option`s (one `Option` for both: an
/// absent member and a `null` are read the same).
pub(crate) fn field_type(field: &Field) -> TokenStream {
    let ty = &field.ty;
    if field.required && !field.nullable {
        quote!(#ty)
    } else {
        quote!(::core::option::Option<#ty>)
    }
}

/// A struct of a nested object: serde only (its schema is the document's, given by the
/// argument struct's field).
fn nested(name: &syn::Ident, doc: Option<&str>, fields: &[Field]) -> TokenStream {
    let doc = doc.unwrap_or("An object of the API.");
    let doc = doc.lines().map(|l| format!(" {l}"));
    let attrs = fields.iter().map(|f| field_attrs(f, false));
    let idents = fields.iter().map(|f| &f.ident);
    let types = fields.iter().map(field_type);
    quote! {
        #(#[doc = #doc])*
        #[derive(Debug, Clone, PartialEq, ::mcp_runtime::serde::Serialize, ::mcp_runtime::serde::Deserialize)]
        #[serde(crate = "::mcp_runtime::serde")]
        pub struct #name {
            #( #attrs pub #idents: #types, )*
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("petId"), "pet_id");
        assert_eq!(snake("X-API-Key"), "x_api_key");
        assert_eq!(snake("PetID"), "pet_id");
        assert_eq!(snake("2fa"), "_2fa");
        assert_eq!(snake("__"), "");
        assert_eq!(pascal("findPetsByStatus"), "FindPetsByStatus");
        assert_eq!(pascal("in-stock"), "InStock");
        assert_eq!(pascal("404"), "V404");
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
    }

    #[test]
    fn types() {
        let mut t = Types::default();
        let of = |t: &mut Types, s: Value| t.of(&s, "x", "#").unwrap().to_string().replace(' ', "");
        assert_eq!(of(&mut t, serde_json::json!({"type": "integer"})), "i64");
        assert_eq!(
            of(&mut t, serde_json::json!({"type": ["string", "null"]})),
            "::core::option::Option<::std::string::String>"
        );
        assert_eq!(
            of(
                &mut t,
                serde_json::json!({"type": "array", "items": {"type": "boolean"}})
            ),
            "::std::vec::Vec<bool>"
        );
        assert_eq!(
            of(&mut t, serde_json::json!({"oneOf": []})),
            "::mcp_runtime::serde_json::Value"
        );
        assert_eq!(
            of(
                &mut t,
                serde_json::json!({"type": "string", "enum": ["a", "b"]})
            ),
            "X"
        );
        assert_eq!(
            of(
                &mut t,
                serde_json::json!({"type": "string", "enum": ["a", "A"]})
            ),
            "::std::string::String"
        );
        let clash =
            serde_json::json!({"type": "object", "properties": {"petId": {}, "pet_id": {}}});
        assert_eq!(
            t.fields(&clash, "y", "#").err().unwrap(),
            "cannot map #: the members `petId` and `pet_id` would both be the Rust field `pet_id`"
        );
    }
}
