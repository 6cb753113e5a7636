//! Structured results: [`Json<T>`] and [`Structured<T>`], written once into JSON text.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use mcp_core::{CallToolResult, ResourceContents};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::value::RawValue;

use super::{IntoResourceContents, IntoToolResult, text_contents};
use crate::data::StructuredValue;
use crate::error::HandlerError;
use crate::sync::{read, write};

/// Structured output: `structuredContent`, an `outputSchema` derived from `T`, and the same JSON as
/// a text block for clients that read only text.
///
/// The value is serialised once, straight into JSON text: `structuredContent` and the text
/// block list the members in the order the type declares them. A `T` whose schema is not an
/// object (a list, a number) is wrapped as `{"result": …}`, since revisions before 2026-07-28
/// require object-shaped structured content.
///
/// For a text block of your own (a sentence for the model, the value's `Display`, pretty
/// JSON), turn it into a [`Structured<T>`] with [`text`](Self::text),
/// [`text_with`](Self::text_with), [`display`](Self::display) or [`pretty`](Self::pretty).
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// #[mcp_runtime::data]
/// struct Sum { total: i64 }
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> Json<Sum> {
///     Json(Sum { total: a + b })
/// }
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

/// A structured result with the text block its author chose: what [`Json::text`],
/// [`Json::text_with`], [`Json::display`] and [`Json::pretty`] make.
///
/// `structuredContent` and the `outputSchema` are those of [`Json<T>`]; only the text block
/// differs. A tool declares it as its return type:
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::{IntoToolResult, Structured};
///
/// #[mcp_runtime::data]
/// struct Forecast { city: String, celsius: i32 }
///
/// /// Tomorrow's weather.
/// #[tool]
/// async fn forecast(city: String) -> Structured<Forecast> {
///     Json(Forecast { city, celsius: 21 }).text_with(|f| format!("{}: {} °C", f.city, f.celsius))
/// }
///
/// let result = Json(Forecast { city: "Paris".into(), celsius: 21 })
///     .text("Sunny in Paris.")
///     .into_tool_result()
///     .unwrap();
/// assert_eq!(result.content[0].as_text(), Some("Sunny in Paris."));
/// assert_eq!(
///     result.structured_content.unwrap().get(),
///     r#"{"city":"Paris","celsius":21}"#
/// );
/// # fn main() {}
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Structured<T> {
    value: T,
    mirror: Mirror,
}

/// The text block of a [`Structured`] result.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mirror {
    /// The structured content's JSON text (what [`Json`] sends).
    Compact,
    /// The same JSON, indented.
    Pretty,
    /// The author's text.
    Text(String),
}

impl<T> Json<T> {
    /// The text block is `text` (a sentence for the model, say) instead of the JSON.
    ///
    /// ```
    /// use mcp_runtime::{IntoToolResult, Json};
    ///
    /// let result = Json(vec![3, 1]).text("Two numbers.").into_tool_result().unwrap();
    /// assert_eq!(result.content[0].as_text(), Some("Two numbers."));
    /// assert_eq!(result.structured_content.unwrap().get(), r#"{"result":[3,1]}"#);
    /// ```
    pub fn text(self, text: impl Into<String>) -> Structured<T> {
        Structured {
            value: self.0,
            mirror: Mirror::Text(text.into()),
        }
    }

    /// The text block is what `f` writes from the value.
    ///
    /// ```
    /// use mcp_runtime::{IntoToolResult, Json};
    ///
    /// let result = Json(vec![3, 1]).text_with(|v| format!("{} numbers", v.len()));
    /// let result = result.into_tool_result().unwrap();
    /// assert_eq!(result.content[0].as_text(), Some("2 numbers"));
    /// ```
    pub fn text_with(self, f: impl FnOnce(&T) -> String) -> Structured<T> {
        let text = f(&self.0);
        self.text(text)
    }

    /// The text block is the value's `Display`.
    ///
    /// ```
    /// use mcp_runtime::{IntoToolResult, Json};
    ///
    /// let result = Json(42).display().into_tool_result().unwrap();
    /// assert_eq!(result.content[0].as_text(), Some("42"));
    /// assert_eq!(result.structured_content.unwrap().get(), r#"{"result":42}"#);
    /// ```
    pub fn display(self) -> Structured<T>
    where
        T: std::fmt::Display,
    {
        let text = self.0.to_string();
        self.text(text)
    }

    /// The text block is the JSON indented (`structuredContent` stays compact).
    ///
    /// ```
    /// use mcp_runtime::{IntoToolResult, Json};
    ///
    /// let result = Json(vec![1]).pretty().into_tool_result().unwrap();
    /// assert_eq!(result.content[0].as_text(), Some("{\n  \"result\": [\n    1\n  ]\n}"));
    /// ```
    pub fn pretty(self) -> Structured<T> {
        Structured {
            value: self.0,
            mirror: Mirror::Pretty,
        }
    }
}

impl<T> Structured<T> {
    /// The value.
    ///
    /// ```
    /// use mcp_runtime::Json;
    ///
    /// assert_eq!(Json(7).display().into_inner(), 7);
    /// ```
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> From<Json<T>> for Structured<T> {
    /// The default text block: the structured content's JSON.
    fn from(json: Json<T>) -> Self {
        Structured {
            value: json.0,
            mirror: Mirror::Compact,
        }
    }
}

/// What schemars says of a type with the default settings, once per type.
#[derive(Debug, Clone, Copy)]
struct Facts {
    /// Its schema is not an object: its value is wrapped in `{"result": …}`.
    wraps: bool,
    /// Its own schema has a `title` (`#[schemars(title = ..)]`, a titled doc comment).
    titled: bool,
}

fn facts_cache() -> &'static RwLock<HashMap<TypeId, Facts>> {
    static CACHE: OnceLock<RwLock<HashMap<TypeId, Facts>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn facts<T: JsonSchema + 'static>() -> Facts {
    let id = TypeId::of::<T>();
    if let Some(hit) = read(facts_cache()).get(&id) {
        return *hit;
    }
    let schema = T::json_schema(&mut SchemaGenerator::default());
    let facts = Facts {
        wraps: !crate::schema::is_object_schema(&schema),
        titled: schema.get("title").is_some(),
    };
    write(facts_cache()).insert(id, facts);
    facts
}

/// Whether `T`'s structured value must be wrapped in `{"result": …}`: whether its schema, as a
/// generator with the default settings makes it, is not an object. Computed once per type.
pub(crate) fn wraps<T: JsonSchema + 'static>() -> bool {
    facts::<T>().wraps
}

/// `{"result": value}`, serialised without a `Value` in between.
#[derive(Serialize)]
struct Wrapped<'a, T> {
    result: &'a T,
}

/// The value's JSON text (wrapped when its schema is not an object), written once.
fn raw_json<T: Serialize + JsonSchema + 'static>(value: &T) -> Result<Box<RawValue>, HandlerError> {
    let raw = if wraps::<T>() {
        serde_json::value::to_raw_value(&Wrapped { result: value })
    } else {
        serde_json::value::to_raw_value(value)
    };
    raw.map_err(HandlerError::internal)
}

/// `T`'s `outputSchema`: the root schema without the title schemars makes of the Rust type's
/// name (kept when the type gives one itself), wrapped when `T` is not an object.
fn output_schema_of<T: JsonSchema + 'static>(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = generator.root_schema_for::<T>();
    if !facts::<T>().titled
        && let Some(root) = schema.as_object_mut()
        && root.get("title").and_then(serde_json::Value::as_str) == Some(&*T::schema_name())
    {
        root.remove("title");
    }
    if wraps::<T>() {
        crate::schema::wrap_result(schema)
    } else {
        schema
    }
}

impl<T: StructuredValue> IntoToolResult for Structured<T> {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        let raw = raw_json(&self.value)?;
        let text = match self.mirror {
            Mirror::Compact => raw.get().to_owned(),
            Mirror::Pretty if wraps::<T>() => serde_json::to_string_pretty(&Wrapped {
                result: &self.value,
            })
            .map_err(HandlerError::internal)?,
            Mirror::Pretty => {
                serde_json::to_string_pretty(&self.value).map_err(HandlerError::internal)?
            }
            Mirror::Text(text) => text,
        };
        Ok(CallToolResult::structured_raw(raw, text))
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(output_schema_of::<T>(generator))
    }
}

impl<T: StructuredValue> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Structured::from(self).into_tool_result()
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(output_schema_of::<T>(generator))
    }
}

impl<T: Serialize> IntoResourceContents for Json<T> {
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        let text = serde_json::to_string(&self.0).map_err(HandlerError::internal)?;
        Ok(vec![text_contents(
            uri,
            mime.unwrap_or("application/json"),
            text,
        )])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::SchemaProfile;

    #[derive(Serialize, JsonSchema)]
    struct Sum {
        total: i64,
    }

    // A newtype around an object: with the default settings its schema is a `$ref` (so its
    // value is wrapped), inlined it is an object.
    #[derive(Serialize, JsonSchema)]
    struct Wrapped(Sum);

    #[derive(Serialize, JsonSchema)]
    struct Listed(Vec<u8>);

    // Members out of alphabetical order.
    #[derive(Serialize, JsonSchema)]
    struct Ordered {
        zeta: u8,
        alpha: &'static str,
        mid: Vec<u8>,
    }

    #[derive(Serialize, JsonSchema)]
    #[schemars(title = "Ordered")]
    struct Named {
        n: u8,
    }

    fn output<T: IntoToolResult>(profile: SchemaProfile) -> String {
        let schema = T::output_schema(&mut profile.generator()).unwrap();
        profile.finish(schema).to_string()
    }

    #[test]
    fn the_wrap_rule_is_the_default_settings_whatever_the_profile() {
        // Portable: the root is inlined, the decision still the default settings'.
        assert_eq!(
            output::<Json<Wrapped>>(SchemaProfile::Portable),
            r#"{"properties":{"result":{"properties":{"total":{"type":"integer"}},"required":["total"],"type":"object"}},"required":["result"],"type":"object"}"#
        );
        assert!(wraps::<Wrapped>());
        assert!(!wraps::<Sum>());
        assert!(wraps::<Listed>());
        let value = Json(Listed(vec![1])).into_tool_result().unwrap();
        assert_eq!(value.structured_content.unwrap().get(), r#"{"result":[1]}"#);
    }

    #[test]
    fn structured_content_and_its_mirror_keep_the_declared_order() {
        let value = Ordered {
            zeta: 1,
            alpha: "a",
            mid: vec![2],
        };
        let result = Json(value).into_tool_result().unwrap();
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            r#"{"content":[{"type":"text","text":"{\"zeta\":1,\"alpha\":\"a\",\"mid\":[2]}"}],"structuredContent":{"zeta":1,"alpha":"a","mid":[2]}}"#
        );
    }

    #[test]
    fn the_output_schema_has_no_title_made_of_the_type_name() {
        assert_eq!(
            output::<Json<Sum>>(SchemaProfile::Portable),
            r#"{"properties":{"total":{"type":"integer"}},"required":["total"],"type":"object"}"#
        );
        assert_eq!(
            output::<Json<Sum>>(SchemaProfile::Strict2020_12),
            r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"total":{"format":"int64","type":"integer"}},"required":["total"],"type":"object"}"#
        );
        // A title the type gives itself stays, even when it is a type's name.
        assert_eq!(
            output::<Json<Named>>(SchemaProfile::Portable),
            r#"{"properties":{"n":{"maximum":255,"minimum":0,"type":"integer"}},"required":["n"],"title":"Ordered","type":"object"}"#
        );
    }

    #[test]
    fn the_author_chooses_the_text_block() {
        let text = |s: Structured<Sum>| {
            let result = s.into_tool_result().unwrap();
            (
                result.content[0].as_text().unwrap().to_owned(),
                result.structured_content.unwrap().get().to_owned(),
            )
        };
        let json = r#"{"total":3}"#.to_owned();
        assert_eq!(
            text(Json(Sum { total: 3 }).text("three")),
            ("three".to_owned(), json.clone())
        );
        assert_eq!(
            text(Json(Sum { total: 3 }).text_with(|s| format!("total {}", s.total))),
            ("total 3".to_owned(), json.clone())
        );
        assert_eq!(
            text(Json(Sum { total: 3 }).pretty()),
            ("{\n  \"total\": 3\n}".to_owned(), json.clone())
        );
        assert_eq!(
            text(Structured::from(Json(Sum { total: 3 }))),
            (json.clone(), json)
        );
    }
}
