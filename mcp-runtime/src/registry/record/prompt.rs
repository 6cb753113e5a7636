//! [`PromptRecord`] and its [`PromptArgRecord`]s: one prompt, as `#[prompt]` generates it or as
//! a program makes it by hand.

use super::{CompletionRecord, IconRecord, Location, PromptGetFn, StateNeedsFn, no_state};

/// A declared prompt argument.
///
/// ```
/// use mcp_runtime::registry::PromptArgRecord;
/// const TONE: PromptArgRecord = PromptArgRecord::new("tone")
///     .with_description("How the reply should sound")
///     .with_required(true);
/// assert!(TONE.required && TONE.title.is_none());
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PromptArgRecord {
    /// Argument name.
    pub name: &'static str,
    /// Title.
    pub title: Option<&'static str>,
    /// Description (the parameter's doc comment).
    pub description: Option<&'static str>,
    /// Whether the argument must be given.
    pub required: bool,
}

impl PromptArgRecord {
    /// The optional argument `name`, with no title or description.
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            title: None,
            description: None,
            required: false,
        }
    }

    /// Its title.
    pub const fn with_title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }

    /// Its description.
    pub const fn with_description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// Whether a `prompts/get` must give it.
    pub const fn with_required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }
}

/// One registered prompt.
///
/// `#[prompt]` makes one (`my_prompt::PROMPT`); by hand, [`new`](Self::new) and the `with_*`
/// setters, all `const`:
///
/// ```
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::registry::{PromptArgRecord, PromptArguments, PromptRecord};
/// use mcp_runtime::{BoxFuture, HandlerError};
/// use mcp_runtime::protocol::{GetPromptResult, PromptMessage};
///
/// fn greet(_: Context, args: PromptArguments) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>> {
///     let name = args.get("name").unwrap_or("you").to_owned();
///     Box::pin(async move { Ok(GetPromptResult::new(vec![PromptMessage::user(format!("Greet {name}."))])) })
/// }
///
/// const GREET: PromptRecord = PromptRecord::new("greet", greet)
///     .with_arguments(&[PromptArgRecord::new("name").with_required(true)]);
///
/// let server = Server::builder(server_info!()).prompt(GREET).build().unwrap();
/// # let _ = server;
/// assert_eq!(GREET.arguments[0].name, "name");
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PromptRecord {
    /// Prompt name.
    pub name: &'static str,
    /// Title.
    pub title: Option<&'static str>,
    /// Description.
    pub description: Option<&'static str>,
    /// Icons.
    pub icons: &'static [IconRecord],
    /// `_meta` as JSON object text.
    pub meta: Option<&'static str>,
    /// Declared arguments, in parameter order.
    pub arguments: &'static [PromptArgRecord],
    /// The get.
    pub get: PromptGetFn,
    /// The state types its injected parameters need.
    pub state_needs: StateNeedsFn,
    /// Completion hooks of arguments.
    pub completions: &'static [CompletionRecord],
    /// Which server this belongs to.
    pub server: &'static str,
    /// Per-get timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Most gets of this prompt in flight at once (per server).
    pub max_concurrency: Option<u32>,
    /// Its cache hint ([`CacheHint`](super::CacheHint)); see [`with_cache`](Self::with_cache).
    pub cache: Option<super::CacheHint>,
    /// Declaration site.
    pub location: Location,
    /// The OAuth scopes a caller needs to get this prompt (`scopes = [..]`; enforced by the HTTP
    /// transports with the `auth` feature, where a broader scope may imply them).
    pub scopes: &'static [&'static str],
    /// Its tags, which a [`Visibility`](crate::transform::Visibility) rule decides by (transforms
    /// may add more).
    pub tags: &'static [&'static str],
}

impl PromptRecord {
    /// The prompt `name` and its get; declared where this is called (see
    /// [`with_location`](Self::with_location)), of the default server, with nothing else: no
    /// title, description, icons, `_meta`, arguments, state, completions, limits or scopes.
    #[track_caller]
    pub const fn new(name: &'static str, get: PromptGetFn) -> Self {
        Self {
            name,
            title: None,
            description: None,
            icons: &[],
            meta: None,
            arguments: &[],
            get,
            state_needs: no_state,
            completions: &[],
            server: "",
            timeout_ms: None,
            max_concurrency: None,
            cache: None,
            location: Location::caller(),
            scopes: &[],
            tags: &[],
        }
    }

    /// Its human-readable title.
    pub const fn with_title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }

    /// Its description.
    pub const fn with_description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// Its icons.
    pub const fn with_icons(mut self, icons: &'static [IconRecord]) -> Self {
        self.icons = icons;
        self
    }

    /// Its `_meta`, as the text of a JSON object (checked when the server is built).
    pub const fn with_meta(mut self, meta: &'static str) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Its declared arguments, in order.
    pub const fn with_arguments(mut self, arguments: &'static [PromptArgRecord]) -> Self {
        self.arguments = arguments;
        self
    }

    /// The state types its injected parameters need (checked when the server is built).
    pub const fn with_state_needs(mut self, state_needs: StateNeedsFn) -> Self {
        self.state_needs = state_needs;
        self
    }

    /// The completion hooks of its arguments.
    pub const fn with_completions(mut self, completions: &'static [CompletionRecord]) -> Self {
        self.completions = completions;
        self
    }

    /// The named server it belongs to.
    pub const fn with_server(mut self, server: &'static str) -> Self {
        self.server = server;
        self
    }

    /// How long one get may run, in milliseconds.
    pub const fn with_timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.timeout_ms = Some(timeout_ms);
        self
    }

    /// How many gets of it may run at once, server-wide.
    pub const fn with_max_concurrency(mut self, max_concurrency: u32) -> Self {
        self.max_concurrency = Some(max_concurrency);
        self
    }

    /// How long the [`Cache`](crate::cache::Cache) layer may keep its `prompts/get` results,
    /// and for whom (`#[prompt(cache_ttl_ms = ..)]`). The specification puts no cache hint on
    /// a `prompts/get` result, so nothing of it reaches the wire.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::CacheScope;
    ///
    /// /// Greets.
    /// #[prompt]
    /// async fn hello() -> String { "Say hello.".into() }
    ///
    /// let record = hello::PROMPT.with_cache(60_000, CacheScope::Private);
    /// assert_eq!(record.cache.map(|c| c.scope), Some(CacheScope::Private));
    /// ```
    pub const fn with_cache(mut self, ttl_ms: u64, scope: mcp_core::CacheScope) -> Self {
        self.cache = Some(super::CacheHint::new(ttl_ms, scope));
        self
    }

    /// Where it was declared, for the messages about duplicate names.
    pub const fn with_location(mut self, location: Location) -> Self {
        self.location = location;
        self
    }

    /// The OAuth scopes a caller needs to get it (feature `auth`).
    pub const fn with_scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = scopes;
        self
    }

    /// Its tags: a [`Visibility`](crate::transform::Visibility) rule shows it or not by them.
    ///
    /// ```
    /// # fn demo(record: mcp_runtime::registry::PromptRecord) {
    /// let tagged = record.with_tags(&["admin"]);
    /// assert_eq!(tagged.tags, ["admin"]);
    /// # }
    /// ```
    pub const fn with_tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }
}
