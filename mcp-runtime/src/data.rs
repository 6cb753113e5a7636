//! What a type of your own implements to be a tool argument or a structured result, and the
//! messages when it does not.
//!
//! Both traits are implemented for every type that implements the serde and schemars traits
//! they name; [`#[mcp_runtime::data]`](macro@crate::data) on a struct or an enum derives those.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::error::HandlerError;

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

/// A tool's arguments struct, read and described: its parse function (the call's JSON
/// `arguments` deserialised once into it) and its schema function (the `inputSchema`).
///
/// `#[tool]` makes one from the struct it generates for the function's parameters; the call
/// and the record take its two functions. Its bound is where an argument type that is not a
/// [`ToolArgument`] is reported. A record made by hand may use it too:
///
/// ```
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::registry::{InputSchema, ToolArgumentFns, ToolRecord};
/// use mcp_runtime::protocol::CallToolResult;
/// use mcp_runtime::serde_json::value::RawValue;
/// use mcp_runtime::{BoxFuture, HandlerError};
///
/// #[mcp_runtime::data(input)]
/// struct Echo { text: String }
///
/// const ECHO_ARGS: ToolArgumentFns<Echo> = ToolArgumentFns::of();
///
/// fn echo(_: Context, args: Option<Box<RawValue>>) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
///     let echo = (ECHO_ARGS.parse)(args.as_deref());
///     Box::pin(async move { Ok(CallToolResult::text(echo?.text)) })
/// }
///
/// const ECHO: ToolRecord = ToolRecord::new("echo", InputSchema::Generated(ECHO_ARGS.schema), echo)
///     .with_description("Echoes its text.");
/// let server = Server::builder(server_info!()).tool(ECHO).build().unwrap();
/// assert!(server.listing().contains(r#""text""#));
/// ```
#[derive(Debug)]
pub struct ToolArgumentFns<A> {
    /// Deserialises a call's `arguments` (absent ones count as `{}`).
    pub parse: fn(Option<&RawValue>) -> Result<A, HandlerError>,
    /// The root schema of `A`.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
}

impl<A> ToolArgumentFns<A> {
    /// The functions of `A`.
    pub const fn of() -> Self
    where
        A: DeserializeOwned + JsonSchema,
    {
        ToolArgumentFns {
            parse: parse_args::<A>,
            schema: root_schema_for::<A>,
        }
    }
}

fn root_schema_for<A: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.root_schema_for::<A>()
}

/// Deserialises `arguments` straight into `T`; absent arguments count as `{}`.
pub fn parse_args<T: DeserializeOwned>(raw: Option<&RawValue>) -> Result<T, HandlerError> {
    let text = raw.map_or("{}", RawValue::get);
    // Derived structs would also accept a positional array; MCP arguments are an object.
    if !text.trim_start().starts_with('{') {
        return Err(HandlerError::InvalidArguments(
            crate::validation::not_an_object(text),
        ));
    }
    match serde_json::from_str::<T>(text) {
        // The fast path: one parse; the generated checks of the bounds follow (`Checks`).
        Ok(v) => Ok(v),
        // Every problem: serde's, found past the first, and the bounds of the running call.
        Err(_) => Err(HandlerError::InvalidArguments(crate::validation::render(
            &crate::validation::problems::<T>(text),
        ))),
    }
}
