//! Transforms: what a server shows of its items, and of the items it mounts, reshaped.
//!
//! A [`ToolTransform`] renames a tool and its arguments, hides it, fixes or defaults its
//! arguments, overrides its description, title and annotations, and tags it; a
//! [`PromptTransform`] does the same for a prompt, a [`ResourceTransform`] hides, describes or
//! tags a resource or a template; a [`ResourceTool`] and a [`PromptTool`] expose a resource or
//! a prompt as a tool. They are given to [`ServerBuilder::transform`](crate::ServerBuilder::transform)
//! (the server's own items) or, in [`MountOptions`], to `ServerBuilder::mount_with` (a mounted
//! server's items, by their names on that server; the mount's prefix comes after the rename).
//!
//! Every transform is applied once: to the server's own items when the catalog is built, to a
//! mounted server's items each time its lists are read. The transformed input schema is the one
//! `tools/list` shows; a call's arguments are checked against it (a fixed argument is not in it,
//! so a client may not give it; a defaulted one is optional), then given the original names, the
//! fixed values and the defaults of what is absent, and only then reach the tool.
//!
//! [`Visibility`] decides per caller which tagged items it sees (see `view`): a hidden item is
//! left out of lists and is unknown to calls, exactly like an item that does not exist.
//!
//! ```
//! use mcp_runtime::serde_json::json;
//! use mcp_runtime::transform::{ArgTransform, ToolTransform, Transforms};
//!
//! let transforms = Transforms::new()
//!     .with(
//!         ToolTransform::new("search")
//!             .rename("find")
//!             .description("Finds documents")
//!             .arg("q", ArgTransform::rename("query"))
//!             .arg("limit", ArgTransform::new().default(json!(10)))
//!             .arg("index", ArgTransform::fixed(json!("public"))),
//!     )
//!     .with(ToolTransform::new("drop_all").hide());
//! assert_eq!(transforms.len(), 2);
//! ```

pub(crate) mod apply;
pub(crate) mod args;
pub mod config;
mod items;
pub(crate) mod templated;
pub(crate) mod view;

use mcp_core::ToolAnnotations;
use serde_json::Value;

pub use items::{MountOptions, PromptTool, ResourceTool, ResourceTransform};
pub use view::{View, Viewer, Visibility};

/// What becomes of one argument of a tool (or a prompt): a new name, a new description, and a
/// value that is fixed (the argument leaves the schema the client sees and is given on every
/// call) or a default (the argument becomes optional and is given when the call leaves it out).
///
/// ```
/// use mcp_runtime::serde_json::json;
/// use mcp_runtime::transform::ArgTransform;
///
/// let a = ArgTransform::rename("query").description("What to look for").default(json!("*"));
/// assert_eq!(a, ArgTransform::rename("query").description("What to look for").default(json!("*")));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ArgTransform {
    pub(crate) rename: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) value: ArgValue,
}

/// A fixed or default value of an argument.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ArgValue {
    None,
    Default(Value),
    Fixed(Value),
}

// `default` is a setter here (the argument's default value), not `Default::default`.
#[allow(clippy::new_without_default)]
impl ArgTransform {
    /// An argument left as it is (until a setter changes it).
    ///
    /// ```
    /// let a = mcp_runtime::transform::ArgTransform::new();
    /// assert_eq!(a, mcp_runtime::transform::ArgTransform::new());
    /// ```
    pub fn new() -> Self {
        Self {
            rename: None,
            description: None,
            value: ArgValue::None,
        }
    }

    /// The argument under a new name: the client gives `name`, the tool receives the original.
    ///
    /// ```
    /// let a = mcp_runtime::transform::ArgTransform::rename("query");
    /// assert_ne!(a, mcp_runtime::transform::ArgTransform::new());
    /// ```
    pub fn rename(name: impl Into<String>) -> Self {
        Self {
            rename: Some(name.into()),
            ..Self::new()
        }
    }

    /// The argument fixed to `value`: gone from the schema the client sees (a call giving it is
    /// refused as giving an unknown property), given to the tool on every call.
    ///
    /// ```
    /// let a = mcp_runtime::transform::ArgTransform::fixed(mcp_runtime::serde_json::json!("eu"));
    /// assert_ne!(a, mcp_runtime::transform::ArgTransform::new());
    /// ```
    pub fn fixed(value: Value) -> Self {
        Self {
            value: ArgValue::Fixed(value),
            ..Self::new()
        }
    }

    /// The argument defaulted to `value`: optional in the schema the client sees (with
    /// `"default"`), given to the tool with `value` when a call leaves it out.
    ///
    /// ```
    /// use mcp_runtime::serde_json::json;
    /// let a = mcp_runtime::transform::ArgTransform::new().default(json!(10));
    /// assert_ne!(a, mcp_runtime::transform::ArgTransform::new());
    /// ```
    #[must_use]
    pub fn default(mut self, value: Value) -> Self {
        self.value = ArgValue::Default(value);
        self
    }

    /// The argument's description in the schema the client sees.
    ///
    /// ```
    /// let a = mcp_runtime::transform::ArgTransform::new().description("How many");
    /// assert_ne!(a, mcp_runtime::transform::ArgTransform::new());
    /// ```
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }
}

/// What becomes of one tool: named by its original name (for a mounted server, its name
/// there, before the mount's prefix).
///
/// ```
/// use mcp_runtime::protocol::ToolAnnotations;
/// use mcp_runtime::transform::{ArgTransform, ToolTransform};
///
/// let t = ToolTransform::new("search")
///     .rename("find")
///     .title("Find")
///     .description("Finds documents")
///     .annotations(ToolAnnotations::new().read_only(true))
///     .tags(["docs"])
///     .arg("q", ArgTransform::rename("query"));
/// assert_eq!(t.name(), "search");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolTransform {
    pub(crate) name: String,
    pub(crate) rename: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) annotations: Option<ToolAnnotations>,
    pub(crate) hidden: bool,
    pub(crate) tags: Vec<String>,
    pub(crate) args: Vec<(String, ArgTransform)>,
}

impl ToolTransform {
    /// A transform of the tool `name`, changing nothing until a setter says what.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::ToolTransform::new("echo").name(), "echo");
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            rename: None,
            title: None,
            description: None,
            annotations: None,
            hidden: false,
            tags: Vec::new(),
            args: Vec::new(),
        }
    }

    /// The original name of the tool this transforms.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::ToolTransform::new("echo").name(), "echo");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool under a new name (checked by the tool-name rules when applied).
    ///
    /// ```
    /// let t = mcp_runtime::transform::ToolTransform::new("echo").rename("say");
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn rename(mut self, name: impl Into<String>) -> Self {
        self.rename = Some(name.into());
        self
    }

    /// The tool's title.
    ///
    /// ```
    /// let t = mcp_runtime::transform::ToolTransform::new("echo").title("Echo");
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The tool's description.
    ///
    /// ```
    /// let t = mcp_runtime::transform::ToolTransform::new("echo").description("Says it back");
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Annotations over the tool's own: each hint given here replaces the tool's, the others stay.
    ///
    /// ```
    /// use mcp_runtime::protocol::ToolAnnotations;
    /// let t = mcp_runtime::transform::ToolTransform::new("rm")
    ///     .annotations(ToolAnnotations::new().destructive(true));
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// The tool hidden: not listed, and unknown to `tools/call` (the error of a tool that does
    /// not exist).
    ///
    /// ```
    /// let t = mcp_runtime::transform::ToolTransform::new("drop_all").hide();
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn hide(mut self) -> Self {
        self.hidden = true;
        self
    }

    /// Tags of the tool, which a [`Visibility`] rule decides by.
    ///
    /// ```
    /// let t = mcp_runtime::transform::ToolTransform::new("rm").tags(["admin"]);
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// What becomes of the argument `name` (its original name).
    ///
    /// ```
    /// use mcp_runtime::transform::{ArgTransform, ToolTransform};
    /// let t = ToolTransform::new("search").arg("q", ArgTransform::rename("query"));
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn arg(mut self, name: impl Into<String>, arg: ArgTransform) -> Self {
        self.args.push((name.into(), arg));
        self
    }
}

/// What becomes of one prompt: as a [`ToolTransform`] does for a tool. A prompt's arguments are
/// strings: a fixed or default value must be a JSON string.
///
/// ```
/// use mcp_runtime::serde_json::json;
/// use mcp_runtime::transform::{ArgTransform, PromptTransform};
///
/// let p = PromptTransform::new("greet")
///     .rename("hello")
///     .arg("tone", ArgTransform::new().default(json!("warm")));
/// assert_eq!(p.name(), "greet");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptTransform {
    pub(crate) name: String,
    pub(crate) rename: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) hidden: bool,
    pub(crate) tags: Vec<String>,
    pub(crate) args: Vec<(String, ArgTransform)>,
}

impl PromptTransform {
    /// A transform of the prompt `name`, changing nothing until a setter says what.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::PromptTransform::new("greet").name(), "greet");
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            rename: None,
            title: None,
            description: None,
            hidden: false,
            tags: Vec::new(),
            args: Vec::new(),
        }
    }

    /// The original name of the prompt this transforms.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::PromptTransform::new("greet").name(), "greet");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The prompt under a new name.
    ///
    /// ```
    /// let p = mcp_runtime::transform::PromptTransform::new("greet").rename("hello");
    /// # let _ = p;
    /// ```
    #[must_use]
    pub fn rename(mut self, name: impl Into<String>) -> Self {
        self.rename = Some(name.into());
        self
    }

    /// The prompt's title.
    ///
    /// ```
    /// let p = mcp_runtime::transform::PromptTransform::new("greet").title("Hello");
    /// # let _ = p;
    /// ```
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The prompt's description.
    ///
    /// ```
    /// let p = mcp_runtime::transform::PromptTransform::new("greet").description("Says hello");
    /// # let _ = p;
    /// ```
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// The prompt hidden: not listed, and unknown to `prompts/get`.
    ///
    /// ```
    /// let p = mcp_runtime::transform::PromptTransform::new("internal").hide();
    /// # let _ = p;
    /// ```
    #[must_use]
    pub fn hide(mut self) -> Self {
        self.hidden = true;
        self
    }

    /// Tags of the prompt, which a [`Visibility`] rule decides by.
    ///
    /// ```
    /// let p = mcp_runtime::transform::PromptTransform::new("greet").tags(["public"]);
    /// # let _ = p;
    /// ```
    #[must_use]
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// What becomes of the argument `name` (its original name).
    ///
    /// ```
    /// use mcp_runtime::transform::{ArgTransform, PromptTransform};
    /// let p = PromptTransform::new("greet").arg("who", ArgTransform::rename("name"));
    /// # let _ = p;
    /// ```
    #[must_use]
    pub fn arg(mut self, name: impl Into<String>, arg: ArgTransform) -> Self {
        self.args.push((name.into(), arg));
        self
    }
}

/// One transform, of any kind: what [`ServerBuilder::transform`](crate::ServerBuilder::transform)
/// and [`Transforms::with`] take.
///
/// ```
/// use mcp_runtime::transform::{ToolTransform, Transform};
/// let t: Transform = ToolTransform::new("echo").hide().into();
/// assert!(matches!(t, Transform::Tool(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Transform {
    /// A tool's.
    Tool(ToolTransform),
    /// A prompt's.
    Prompt(PromptTransform),
    /// A resource's or a template's.
    Resource(ResourceTransform),
    /// A resource exposed as a tool.
    ResourceTool(ResourceTool),
    /// A prompt exposed as a tool.
    PromptTool(PromptTool),
}

macro_rules! into_transform {
    ($($t:ident),*) => {$(
        impl From<$t> for Transform {
            fn from(t: $t) -> Self {
                Self::$t(t)
            }
        }
    )*};
}
into_transform!(ResourceTool, PromptTool);

impl From<ToolTransform> for Transform {
    fn from(t: ToolTransform) -> Self {
        Self::Tool(t)
    }
}

impl From<PromptTransform> for Transform {
    fn from(t: PromptTransform) -> Self {
        Self::Prompt(t)
    }
}

impl From<ResourceTransform> for Transform {
    fn from(t: ResourceTransform) -> Self {
        Self::Resource(t)
    }
}

/// A set of transforms, applied together (to a server's own items, or to one mount's).
///
/// ```
/// use mcp_runtime::transform::{PromptTransform, ToolTransform, Transforms};
/// let t = Transforms::new()
///     .with(ToolTransform::new("a").hide())
///     .with(PromptTransform::new("p").rename("q"));
/// assert_eq!(t.len(), 2);
/// assert!(!t.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Transforms {
    pub(crate) tools: Vec<ToolTransform>,
    pub(crate) prompts: Vec<PromptTransform>,
    pub(crate) resources: Vec<ResourceTransform>,
    pub(crate) resource_tools: Vec<ResourceTool>,
    pub(crate) prompt_tools: Vec<PromptTool>,
}

impl Transforms {
    /// No transforms.
    ///
    /// ```
    /// assert!(mcp_runtime::transform::Transforms::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// These transforms and `t`.
    ///
    /// ```
    /// use mcp_runtime::transform::{ToolTransform, Transforms};
    /// assert_eq!(Transforms::new().with(ToolTransform::new("a")).len(), 1);
    /// ```
    #[must_use]
    pub fn with(mut self, t: impl Into<Transform>) -> Self {
        self.push(t.into());
        self
    }

    /// Adds `t`.
    pub(crate) fn push(&mut self, t: Transform) {
        match t {
            Transform::Tool(t) => self.tools.push(t),
            Transform::Prompt(t) => self.prompts.push(t),
            Transform::Resource(t) => self.resources.push(t),
            Transform::ResourceTool(t) => self.resource_tools.push(t),
            Transform::PromptTool(t) => self.prompt_tools.push(t),
        }
    }

    /// How many transforms there are.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::Transforms::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.tools.len()
            + self.prompts.len()
            + self.resources.len()
            + self.resource_tools.len()
            + self.prompt_tools.len()
    }

    /// Whether there are none.
    ///
    /// ```
    /// assert!(mcp_runtime::transform::Transforms::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
