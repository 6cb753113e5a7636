//! The builders a handler calls on its [`Context`]: `elicit`, `elicit_url`, `sample` and
//! `roots`, each a value to configure and `.await` ([`Elicit`], [`ElicitUrl`], [`Sample`],
//! [`Roots`]). Each shapes its request's params (a form's schema made once per type) and reads
//! its typed answer; the asking itself is `Context::ask` (`handler/ask`).

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::future::IntoFuture;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_core::jsonrpc::echo;
use mcp_core::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, ErrorObject, ForVersion, ListRootsResult, Root,
};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::future::BoxFuture;
use crate::handler::ask::{Elicitation, InteractionError, Need, check, strip_position};
use crate::handler::context::Context;
use crate::handler::rounds::Kind;
use crate::schema::SchemaProfile;
use crate::sync::lock;

impl Context {
    /// Asks the user to fill in a form whose fields are the properties of `T` (form-mode
    /// elicitation). `T` should be a flat struct of strings, numbers, booleans and string enums.
    ///
    /// Needs the client's `elicitation` capability (2025-06-18+, or 2026-07-28).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::Elicitation;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Contact {
    ///     /// Your name
    ///     name: String,
    ///     /// Your email address
    ///     email: String,
    /// }
    ///
    /// /// Registers the caller.
    /// #[tool]
    /// async fn register(ctx: Context) -> Result<String, ToolError> {
    ///     match ctx.elicit::<Contact>("Who are you?").await? {
    ///         Elicitation::Accept(c) => Ok(format!("registered {} <{}>", c.name, c.email)),
    ///         Elicitation::Decline | Elicitation::Cancel => Ok("not registered".into()),
    ///     }
    /// }
    /// # fn main() {}
    /// ```
    pub fn elicit<T: DeserializeOwned + JsonSchema + Send + 'static>(
        &self,
        message: impl Into<String>,
    ) -> Elicit<'_, T> {
        Elicit {
            ctx: self,
            message: message.into(),
            schema: None,
            key: None,
            _t: PhantomData,
        }
    }

    /// Sends the user to a URL (URL-mode elicitation, 2025-11-25+): for credentials, payments and
    /// anything that must not pass through the client. Resolves to the user's action (consent,
    /// not completion).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::ElicitAction;
    ///
    /// /// Connects the user's calendar.
    /// #[tool]
    /// async fn connect_calendar(ctx: Context) -> Result<String, ToolError> {
    ///     let action = ctx.elicit_url("Sign in to your calendar", "https://example.com/oauth").await?;
    ///     Ok(if action == ElicitAction::Accept { "opened".into() } else { "skipped".into() })
    /// }
    /// # fn main() {}
    /// ```
    pub fn elicit_url(&self, message: impl Into<String>, url: impl Into<String>) -> ElicitUrl<'_> {
        ElicitUrl {
            ctx: self,
            message: message.into(),
            url: url.into(),
            key: None,
        }
    }

    /// Asks the client's model for a completion (`sampling/createMessage`). Needs the client's
    /// `sampling` capability.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::{CreateMessageRequestParams, SamplingMessage};
    ///
    /// /// Asks the model.
    /// #[tool]
    /// async fn ask_model(ctx: Context, question: String) -> Result<String, ToolError> {
    ///     let request = CreateMessageRequestParams::new(vec![SamplingMessage::user(question)], 100);
    ///     let answer = ctx.sample(request).await?;
    ///     Ok(format!("{:?}", answer.content))
    /// }
    /// # fn main() {}
    /// ```
    pub fn sample(&self, request: CreateMessageRequestParams) -> Sample<'_> {
        Sample {
            ctx: self,
            request,
            key: None,
        }
    }

    /// Asks the client for its roots (`roots/list`). Needs the client's `roots` capability.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Counts the client's roots.
    /// #[tool]
    /// async fn count_roots(ctx: Context) -> Result<String, ToolError> {
    ///     Ok(format!("{} root(s)", ctx.roots().await?.len()))
    /// }
    /// # fn main() {}
    /// ```
    pub fn roots(&self) -> Roots<'_> {
        Roots {
            ctx: self,
            key: None,
        }
    }
}

/// The `requestedSchema` of `T`, generated once per type.
fn form_schema<T: JsonSchema + 'static>() -> Arc<Value> {
    static CACHE: OnceLock<Mutex<HashMap<TypeId, Arc<Value>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(s) = lock(cache).get(&TypeId::of::<T>()) {
        return Arc::clone(s);
    }
    let profile = SchemaProfile::Portable;
    let mut generator = profile.generator();
    let mut value = profile.finish(generator.root_schema_for::<T>());
    if let Value::Object(map) = &mut value {
        map.remove("title");
        map.remove("$defs");
    }
    let value = Arc::new(value);
    lock(cache).insert(TypeId::of::<T>(), Arc::clone(&value));
    value
}

/// A form elicitation being prepared; `.await` it. See [`Context::elicit`].
#[must_use = "an elicitation does nothing until awaited"]
pub struct Elicit<'a, T> {
    ctx: &'a Context,
    message: String,
    schema: Option<Value>,
    key: Option<String>,
    _t: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Elicit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicit")
            .field("message", &self.message)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<T> Elicit<'_, T> {
    /// Uses this `requestedSchema` instead of the one generated from `T` (for `default`s,
    /// titled enums and other details a derive cannot say).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let schema = serde_json::json!({"type": "object", "properties": {"ok": {"type": "boolean", "default": true}}});
    /// let _ = ctx.elicit::<serde_json::Map<String, serde_json::Value>>("Continue?").schema(schema).await;
    /// # }
    /// ```
    pub fn schema(mut self, schema: Value) -> Self {
        self.schema = Some(schema);
        self
    }

    /// Names this request in a stateless-era `inputRequests` map (default: `elicit-0`,
    /// `elicit-1`, … in call order).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let _ = ctx.elicit::<String>("Your name?").key("user_name").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a, T: DeserializeOwned + JsonSchema + Send + 'static> IntoFuture for Elicit<'a, T> {
    type Output = Result<Elicitation<T>, InteractionError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::ElicitForm)?;
            let schema = match self.schema {
                Some(s) => s,
                None => Value::clone(&form_schema::<T>()),
            };
            let mut params = ElicitRequestParams::form(self.message, schema);
            params.for_version(ctx.protocol_version());
            let params = serde_json::to_value(params).unwrap_or_default();
            let raw = ctx
                .ask(
                    Kind::Elicit,
                    self.key,
                    mcp_core::client::ELICIT_METHOD,
                    params,
                )
                .await?;
            let result: ElicitResult = ctx.parse_answer(&raw, "elicitation")?;
            match result.action {
                ElicitAction::Accept => {
                    let content = Value::Object(result.content.unwrap_or_default());
                    let value = T::deserialize(content).map_err(|e| {
                        let msg = format!(
                            "the submitted form does not fit: {}",
                            echo(&strip_position(&e))
                        );
                        if ctx.inner.interact.round().is_some() {
                            ctx.record_fault(ErrorObject::invalid_params(msg.clone()));
                        }
                        InteractionError::InvalidResponse(msg)
                    })?;
                    Ok(Elicitation::Accept(value))
                }
                ElicitAction::Decline => Ok(Elicitation::Decline),
                _ => Ok(Elicitation::Cancel),
            }
        })
    }
}

/// A URL elicitation being prepared; `.await` it. See [`Context::elicit_url`].
#[derive(Debug)]
#[must_use = "an elicitation does nothing until awaited"]
pub struct ElicitUrl<'a> {
    ctx: &'a Context,
    message: String,
    url: String,
    key: Option<String>,
}

impl ElicitUrl<'_> {
    /// Names this request in a stateless-era `inputRequests` map (default `elicit-N`).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let _ = ctx.elicit_url("Pay", "https://example.com/pay").key("payment").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for ElicitUrl<'a> {
    type Output = Result<ElicitAction, InteractionError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::ElicitUrl)?;
            let mut params =
                ElicitRequestParams::url(self.message, self.url, crate::random::token());
            params.for_version(ctx.protocol_version());
            let params = serde_json::to_value(params).unwrap_or_default();
            let raw = ctx
                .ask(
                    Kind::Elicit,
                    self.key,
                    mcp_core::client::ELICIT_METHOD,
                    params,
                )
                .await?;
            let result: ElicitResult = ctx.parse_answer(&raw, "elicitation")?;
            Ok(result.action)
        })
    }
}

/// A sampling request being prepared; `.await` it. See [`Context::sample`].
#[derive(Debug)]
#[must_use = "a sampling request does nothing until awaited"]
pub struct Sample<'a> {
    ctx: &'a Context,
    request: CreateMessageRequestParams,
    key: Option<String>,
}

impl Sample<'_> {
    /// Names this request in a stateless-era `inputRequests` map (default `sample-N`).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # use mcp_runtime::protocol::{CreateMessageRequestParams, SamplingMessage};
    /// # async fn demo(ctx: Context) {
    /// let request = CreateMessageRequestParams::new(vec![SamplingMessage::user("Hi")], 10);
    /// let _ = ctx.sample(request).key("greeting").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for Sample<'a> {
    type Output = Result<CreateMessageResult, InteractionError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::Sampling)?;
            let mut request = self.request;
            if request.tools.is_some() {
                check(ctx, Need::SamplingTools)?;
            }
            request.for_version(ctx.protocol_version());
            let params = serde_json::to_value(request).unwrap_or_default();
            let raw = ctx
                .ask(
                    Kind::Sample,
                    self.key,
                    mcp_core::client::CREATE_MESSAGE_METHOD,
                    params,
                )
                .await?;
            ctx.parse_answer(&raw, "sampling")
        })
    }
}

/// A roots request being prepared; `.await` it. See [`Context::roots`].
#[derive(Debug)]
#[must_use = "a roots request does nothing until awaited"]
pub struct Roots<'a> {
    ctx: &'a Context,
    key: Option<String>,
}

impl Roots<'_> {
    /// Names this request in a stateless-era `inputRequests` map (default `roots-N`).
    ///
    /// ```
    /// # use mcp_runtime::Context;
    /// # async fn demo(ctx: Context) {
    /// let _ = ctx.roots().key("client_roots").await;
    /// # }
    /// ```
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for Roots<'a> {
    type Output = Result<Vec<Root>, InteractionError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let ctx = self.ctx;
            check(ctx, Need::Roots)?;
            let raw = ctx
                .ask(
                    Kind::Roots,
                    self.key,
                    mcp_core::client::LIST_ROOTS_METHOD,
                    serde_json::json!({}),
                )
                .await?;
            let result: ListRootsResult = ctx.parse_answer(&raw, "roots")?;
            Ok(result.roots)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Contact {
        /// Your name
        name: String,
        age: Option<u32>,
    }

    #[test]
    fn form_schema_is_flat_and_cached() {
        let s = form_schema::<Contact>();
        assert_eq!(s["type"], "object");
        assert_eq!(s["properties"]["name"]["type"], "string");
        assert_eq!(s["required"], serde_json::json!(["name"]));
        assert!(s.get("title").is_none() && s.get("$schema").is_none());
        assert!(Arc::ptr_eq(&s, &form_schema::<Contact>()));
    }
}
