//! The transforms of resources, resources and prompts exposed as tools, and a mount's options.

use super::{Transform, Transforms};

/// What becomes of one resource or resource template, named by its URI (or URI template; for a
/// mounted server, its URI there, before the mount's prefix): hidden, described, tagged.
///
/// ```
/// use mcp_runtime::transform::ResourceTransform;
/// let r = ResourceTransform::new("file:///secret.txt").hide();
/// assert_eq!(r.uri(), "file:///secret.txt");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ResourceTransform {
    pub(crate) uri: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) hidden: bool,
    pub(crate) tags: Vec<String>,
}

impl ResourceTransform {
    /// A transform of the resource (or template) `uri`, changing nothing until a setter says what.
    ///
    /// ```
    /// let r = mcp_runtime::transform::ResourceTransform::new("note://{id}");
    /// assert_eq!(r.uri(), "note://{id}");
    /// ```
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            title: None,
            description: None,
            hidden: false,
            tags: Vec::new(),
        }
    }

    /// The URI (or URI template) this transforms.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::ResourceTransform::new("a:b").uri(), "a:b");
    /// ```
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The resource's title.
    ///
    /// ```
    /// let r = mcp_runtime::transform::ResourceTransform::new("a:b").title("B");
    /// # let _ = r;
    /// ```
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The resource's description.
    ///
    /// ```
    /// let r = mcp_runtime::transform::ResourceTransform::new("a:b").description("The b");
    /// # let _ = r;
    /// ```
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// The resource hidden: not listed, and not found by `resources/read`.
    ///
    /// ```
    /// let r = mcp_runtime::transform::ResourceTransform::new("a:b").hide();
    /// # let _ = r;
    /// ```
    #[must_use]
    pub fn hide(mut self) -> Self {
        self.hidden = true;
        self
    }

    /// Tags of the resource, which a [`Visibility`](super::Visibility) rule decides by.
    ///
    /// ```
    /// let r = mcp_runtime::transform::ResourceTransform::new("a:b").tags(["internal"]);
    /// # let _ = r;
    /// ```
    #[must_use]
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }
}

/// A resource exposed as a tool: calling it reads the resource and answers its contents, a text
/// block for each text content and an embedded resource for each blob. For a resource of a
/// fixed URI the tool takes no arguments; for a template (`logs://{day}`) each of its variables
/// is a required string argument, and a call reads the URI the template expands to with them
/// (what a `resources/read` of that URI would do). The resource stays a resource too, unless a
/// [`ResourceTransform`] hides it.
///
/// ```
/// use mcp_runtime::transform::ResourceTool;
/// let t = ResourceTool::new("read_readme", "file:///README.md").description("The README");
/// assert_eq!(t.tool(), "read_readme");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ResourceTool {
    pub(crate) tool: String,
    pub(crate) uri: String,
    pub(crate) description: Option<String>,
    pub(crate) tags: Vec<String>,
}

impl ResourceTool {
    /// The tool `tool` reading the resource `uri` (for a mounted server, its URI there; the
    /// tool's name gets the mount's prefix).
    ///
    /// ```
    /// let t = mcp_runtime::transform::ResourceTool::new("catalog", "data://catalog");
    /// assert_eq!(t.tool(), "catalog");
    /// ```
    pub fn new(tool: impl Into<String>, uri: impl Into<String>) -> Self {
        Self {
            tool: tool.into(),
            uri: uri.into(),
            description: None,
            tags: Vec::new(),
        }
    }

    /// The tool's name.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::ResourceTool::new("t", "a:b").tool(), "t");
    /// ```
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The tool's description (else the resource's).
    ///
    /// ```
    /// let t = mcp_runtime::transform::ResourceTool::new("t", "a:b").description("Reads b");
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Tags of the tool, which a [`Visibility`](super::Visibility) rule decides by.
    ///
    /// ```
    /// let t = mcp_runtime::transform::ResourceTool::new("t", "a:b").tags(["docs"]);
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }
}

/// A prompt exposed as a tool: its arguments are the tool's (string properties, required as
/// the prompt says), and calling it gets the prompt and answers the content of each of its
/// messages, in order. The prompt stays a prompt too, unless a
/// [`PromptTransform`](super::PromptTransform) hides it.
///
/// ```
/// use mcp_runtime::transform::PromptTool;
/// let t = PromptTool::new("greeting", "greet").description("A greeting, written for you");
/// assert_eq!(t.tool(), "greeting");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptTool {
    pub(crate) tool: String,
    pub(crate) prompt: String,
    pub(crate) description: Option<String>,
    pub(crate) tags: Vec<String>,
}

impl PromptTool {
    /// The tool `tool` getting the prompt `prompt` (for a mounted server, its name there; the
    /// tool's name gets the mount's prefix).
    ///
    /// ```
    /// let t = mcp_runtime::transform::PromptTool::new("greeting", "greet");
    /// assert_eq!(t.tool(), "greeting");
    /// ```
    pub fn new(tool: impl Into<String>, prompt: impl Into<String>) -> Self {
        Self {
            tool: tool.into(),
            prompt: prompt.into(),
            description: None,
            tags: Vec::new(),
        }
    }

    /// The tool's name.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::transform::PromptTool::new("t", "p").tool(), "t");
    /// ```
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The tool's description (else the prompt's).
    ///
    /// ```
    /// let t = mcp_runtime::transform::PromptTool::new("t", "p").description("Writes it");
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Tags of the tool, which a [`Visibility`](super::Visibility) rule decides by.
    ///
    /// ```
    /// let t = mcp_runtime::transform::PromptTool::new("t", "p").tags(["writing"]);
    /// # let _ = t;
    /// ```
    #[must_use]
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }
}

/// The options of one mount (`ServerBuilder::mount_with`): the transforms of its items, and
/// the bounds on its calls held open between a stateless client's `input_required` rounds
/// ([`held_calls`](Self::held_calls), [`hold_for`](Self::hold_for)).
///
/// ```
/// use mcp_runtime::transform::{MountOptions, ToolTransform};
/// let options = MountOptions::new().transform(ToolTransform::new("echo").rename("say"));
/// assert_eq!(options.transforms().len(), 1);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct MountOptions {
    pub(crate) transforms: Transforms,
    /// How many calls are held open at most, in all and per client (`None`: the defaults).
    pub(crate) held_calls: Option<(usize, usize)>,
    /// How long a held call waits for its retry at most (`None`: the `requestState` lifetime).
    pub(crate) hold_for: Option<std::time::Duration>,
    /// Whether the mounted tools' structured results go unchecked (`validate_output(false)`).
    pub(crate) unchecked_output: bool,
}

impl MountOptions {
    /// A mount as `ServerBuilder::mount` makes it.
    ///
    /// ```
    /// assert!(mcp_runtime::transform::MountOptions::new().transforms().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The mount's items transformed by `t` too (named as on the mounted server).
    ///
    /// ```
    /// use mcp_runtime::transform::{MountOptions, ToolTransform};
    /// let o = MountOptions::new().transform(ToolTransform::new("rm").hide());
    /// assert_eq!(o.transforms().len(), 1);
    /// ```
    #[must_use]
    pub fn transform(mut self, t: impl Into<Transform>) -> Self {
        self.transforms.push(t.into());
        self
    }

    /// The mount's items transformed by every one of `transforms` too.
    ///
    /// ```
    /// use mcp_runtime::transform::{MountOptions, ToolTransform, Transforms};
    /// let t = Transforms::new().with(ToolTransform::new("rm").hide());
    /// assert_eq!(MountOptions::new().transforms_from(t).transforms().len(), 1);
    /// ```
    #[must_use]
    pub fn transforms_from(mut self, transforms: Transforms) -> Self {
        let t = transforms;
        self.transforms.tools.extend(t.tools);
        self.transforms.prompts.extend(t.prompts);
        self.transforms.resources.extend(t.resources);
        self.transforms.resource_tools.extend(t.resource_tools);
        self.transforms.prompt_tools.extend(t.prompt_tools);
        self
    }

    /// The transforms of the mount's items.
    ///
    /// ```
    /// assert!(mcp_runtime::transform::MountOptions::new().transforms().is_empty());
    /// ```
    pub fn transforms(&self) -> &Transforms {
        &self.transforms
    }

    /// How many forwarded calls the mount holds open at most while a 2026-07-28 client answers
    /// their `input_required` round: `total` in all, `per_client` for one client (its verified
    /// token, else its peer address); at least 1 each. Defaults: 256 and 16. A call whose
    /// backend asks a question when the bound is reached is refused (an error result naming
    /// the bound) and cancelled on the backend, not run again. See `docs/client.md`,
    /// "Questions across eras".
    ///
    /// ```
    /// let o = mcp_runtime::transform::MountOptions::new().held_calls(64, 4);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn held_calls(mut self, total: usize, per_client: usize) -> Self {
        self.held_calls = Some((total.max(1), per_client.max(1)));
        self
    }

    /// How long a held call waits for the client's retry at most (default, and at most: the
    /// server's `requestState` lifetime, `ServerBuilder::request_state_ttl`). When it ends the
    /// backend's question gets an error and its call is cancelled; a later retry is refused.
    ///
    /// ```
    /// let o = mcp_runtime::transform::MountOptions::new().hold_for(std::time::Duration::from_secs(60));
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn hold_for(mut self, limit: std::time::Duration) -> Self {
        self.hold_for = Some(limit);
        self
    }
    /// Whether the mounted tools' successful results are checked against their `outputSchema`
    /// (on unless turned off here or server-wide by
    /// [`ServerBuilder::validate_output`](crate::ServerBuilder::validate_output)): a result whose
    /// `structuredContent` does not conform is answered with a -32603 error naming the JSON path
    /// and the keyword that failed. Each schema is compiled once per list the mounted server
    /// sends.
    ///
    /// ```
    /// let o = mcp_runtime::transform::MountOptions::new().validate_output(false);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn validate_output(mut self, on: bool) -> Self {
        self.unchecked_output = !on;
        self
    }
}
