//! What a type of your own implements to be a tool argument or a structured result, and the
//! messages when it does not.
//!
//! Both traits are implemented for every type that implements the serde and schemars traits
//! they name; [`#[mcp_runtime::data]`](macro@crate::data) on a struct or an enum derives those.

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A tool argument (a parameter of a `#[tool]` function that is not injected): a type read from
/// JSON with serde and described by schemars.
///
/// Implemented for every `T: DeserializeOwned + JsonSchema`: `String`, numbers, `bool`,
/// `Vec<T>`, `Option<T>`, maps, and your own types with
/// [`#[mcp_runtime::data]`](macro@crate::data).
///
/// ```
/// use mcp_runtime::ToolArgument;
///
/// #[mcp_runtime::data]
/// struct Area { city: String, radius: Option<f64> }
///
/// fn takes<T: ToolArgument>() {}
/// takes::<Area>();
/// takes::<Vec<String>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: add `#[mcp_runtime::data]` to it",
    label = "not `Deserialize` + `JsonSchema`",
    note = "a tool argument is read from JSON and described in the input schema: `#[mcp_runtime::data]` on your struct or enum derives both (a type of another crate needs its serde and schemars 1.x support)"
)]
pub trait ToolArgument: DeserializeOwned + JsonSchema {}

// Reported as `ToolArgument` itself, once, instead of each missing trait.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> ToolArgument for T {}

/// The value of a structured result ([`Json<T>`](crate::Json), [`Structured<T>`](crate::Structured)):
/// written as JSON with serde, its `outputSchema` made by schemars.
///
/// Implemented for every `T: Serialize + JsonSchema + 'static`.
///
/// ```
/// use mcp_runtime::StructuredValue;
///
/// #[mcp_runtime::data]
/// struct Sum { total: i64 }
///
/// fn returns<T: StructuredValue>() {}
/// returns::<Sum>();
/// returns::<Vec<u8>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a structured result: add `#[mcp_runtime::data]` to it",
    label = "not `Serialize` + `JsonSchema`",
    note = "`Json<T>` writes `T` as JSON and describes it in the output schema: `#[mcp_runtime::data]` on your struct or enum derives both (a type of another crate needs its serde and schemars 1.x support)"
)]
pub trait StructuredValue: Serialize + JsonSchema + 'static {}

// Reported as `StructuredValue` itself, once, instead of each missing trait.
#[diagnostic::do_not_recommend]
impl<T: Serialize + JsonSchema + 'static> StructuredValue for T {}
