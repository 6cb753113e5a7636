//! Content blocks (text, image, audio, resource links, embedded resources) and annotations.

use serde::{Deserialize, Serialize};

use crate::icons::Icon;
use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

/// The sender or recipient of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The assistant (the model).
    Assistant,
}

/// Hints on how a client should use an object.
///
/// ```
/// use mcp_runtime_core::{Annotations, Role};
///
/// let a = Annotations::new().with_audience(vec![Role::User]).with_priority(0.5);
/// assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"audience":["user"],"priority":0.5}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// Who the object is meant for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (optional) to 1 (effectively required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 time of the last modification (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// Empty annotations.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    with_options! {
        with_audience => audience: Vec<Role>,
        with_priority => priority: f64,
        with_last_modified => last_modified: String,
    }
}

impl ForVersion for Annotations {
    fn for_version(&mut self, v: ProtocolVersion) {
        if !v.has_meta_on_entities() {
            self.last_modified = None;
        }
    }
}

/// Clears `_meta` on entities of revisions before 2025-06-18, which do not define it there.
pub(crate) fn entity_meta_for(v: ProtocolVersion, meta: &mut Option<Meta>) {
    if !v.has_meta_on_entities() {
        *meta = None;
    }
}

/// Clears `icons` before 2025-11-25.
pub(crate) fn icons_for(v: ProtocolVersion, icons: &mut Option<Vec<Icon>>) {
    if !v.has_icons() {
        *icons = None;
    }
}

/// Clears `title` before 2025-06-18.
pub(crate) fn title_for(v: ProtocolVersion, title: &mut Option<String>) {
    if !v.has_titles() {
        *title = None;
    }
}

/// Text content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl TextContent {
    /// A text block.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            annotations: None,
            meta: None,
        }
    }

    with_options! {
        with_annotations => annotations: Annotations,
        with_meta => meta: Meta,
    }
}

/// A base64-encoded image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImageContent {
    /// Base64 image data.
    pub data: String,
    /// The image MIME type, e.g. `image/png`.
    pub mime_type: String,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ImageContent {
    /// An image from base64 data and a MIME type.
    pub fn new(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            data: data_base64.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }

    with_options! {
        with_annotations => annotations: Annotations,
        with_meta => meta: Meta,
    }
}

/// Base64-encoded audio (2025-03-26+).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AudioContent {
    /// Base64 audio data.
    pub data: String,
    /// The audio MIME type, e.g. `audio/wav`.
    pub mime_type: String,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl AudioContent {
    /// Audio from base64 data and a MIME type.
    pub fn new(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            data: data_base64.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }

    with_options! {
        with_annotations => annotations: Annotations,
        with_meta => meta: Meta,
    }
}

/// A link to a resource the client may read (2025-06-18+).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource URI.
    pub uri: String,
    /// The resource name.
    pub name: String,
    /// A human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ResourceLink {
    /// A link with a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
            annotations: None,
            meta: None,
        }
    }

    /// Sets `size` (bytes).
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_mime_type => mime_type: String,
        with_icons => icons: Vec<Icon>,
        with_annotations => annotations: Annotations,
        with_meta => meta: Meta,
    }
}

/// The text form of a resource's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextResourceContents {
    /// The resource URI.
    pub uri: String,
    /// The MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The text.
    pub text: String,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The binary form of a resource's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct BlobResourceContents {
    /// The resource URI.
    pub uri: String,
    /// The MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Base64 data.
    pub blob: String,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The contents of a resource: text or base64 blob.
///
/// ```
/// use mcp_runtime_core::ResourceContents;
///
/// let c = ResourceContents::text("file:///a.txt", "hello").with_mime_type("text/plain");
/// assert_eq!(
///     serde_json::to_string(&c).unwrap(),
///     r#"{"uri":"file:///a.txt","mimeType":"text/plain","text":"hello"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text contents.
    Text(TextResourceContents),
    /// Binary contents.
    Blob(BlobResourceContents),
}

impl ResourceContents {
    /// Text contents.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        Self::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: None,
            text: text.into(),
            meta: None,
        })
    }

    /// Binary contents from base64 data.
    pub fn blob(uri: impl Into<String>, blob_base64: impl Into<String>) -> Self {
        Self::Blob(BlobResourceContents {
            uri: uri.into(),
            mime_type: None,
            blob: blob_base64.into(),
            meta: None,
        })
    }

    /// Sets the MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        let mime_type = Some(mime_type.into());
        match &mut self {
            Self::Text(t) => t.mime_type = mime_type,
            Self::Blob(b) => b.mime_type = mime_type,
        }
        self
    }

    /// Sets `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Meta) -> Self {
        *self.meta_mut() = Some(meta);
        self
    }

    /// The resource URI.
    #[must_use]
    pub fn uri(&self) -> &str {
        match self {
            Self::Text(t) => &t.uri,
            Self::Blob(b) => &b.uri,
        }
    }

    fn meta_mut(&mut self) -> &mut Option<Meta> {
        match self {
            Self::Text(t) => &mut t.meta,
            Self::Blob(b) => &mut b.meta,
        }
    }
}

impl ForVersion for ResourceContents {
    fn for_version(&mut self, v: ProtocolVersion) {
        entity_meta_for(v, self.meta_mut());
    }
}

/// A resource embedded in a message or tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: ResourceContents,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl EmbeddedResource {
    /// Embeds contents.
    #[must_use]
    pub fn new(resource: ResourceContents) -> Self {
        Self {
            resource,
            annotations: None,
            meta: None,
        }
    }

    with_options! {
        with_annotations => annotations: Annotations,
        with_meta => meta: Meta,
    }
}

/// A block of content in a tool result or prompt message, tagged by `type`.
///
/// ```
/// use mcp_runtime_core::ContentBlock;
///
/// let block = ContentBlock::text("hi");
/// assert_eq!(serde_json::to_string(&block).unwrap(), r#"{"type":"text","text":"hi"}"#);
/// let link: ContentBlock = serde_json::from_str(
///     r#"{"type":"resource_link","uri":"file:///a","name":"a"}"#).unwrap();
/// assert_eq!(link, ContentBlock::resource_link("file:///a", "a"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentBlock {
    /// `"text"`.
    Text(TextContent),
    /// `"image"`.
    Image(ImageContent),
    /// `"audio"` (2025-03-26+).
    Audio(AudioContent),
    /// `"resource_link"` (2025-06-18+).
    ResourceLink(ResourceLink),
    /// `"resource"`: an embedded resource.
    Resource(EmbeddedResource),
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// An image block from base64 data.
    pub fn image(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Image(ImageContent::new(data_base64, mime_type))
    }

    /// An audio block from base64 data.
    pub fn audio(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Audio(AudioContent::new(data_base64, mime_type))
    }

    /// A resource link.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self::ResourceLink(ResourceLink::new(uri, name))
    }

    /// An embedded resource.
    #[must_use]
    pub fn embedded(contents: ResourceContents) -> Self {
        Self::Resource(EmbeddedResource::new(contents))
    }

    /// The text of a text block.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

impl From<TextContent> for ContentBlock {
    fn from(c: TextContent) -> Self {
        Self::Text(c)
    }
}

impl From<ImageContent> for ContentBlock {
    fn from(c: ImageContent) -> Self {
        Self::Image(c)
    }
}

impl From<AudioContent> for ContentBlock {
    fn from(c: AudioContent) -> Self {
        Self::Audio(c)
    }
}

impl From<ResourceLink> for ContentBlock {
    fn from(c: ResourceLink) -> Self {
        Self::ResourceLink(c)
    }
}

impl From<EmbeddedResource> for ContentBlock {
    fn from(c: EmbeddedResource) -> Self {
        Self::Resource(c)
    }
}

impl ForVersion for ContentBlock {
    /// Besides clearing fields, replaces blocks `v` cannot carry by a text block:
    /// a resource link before 2025-06-18 becomes `"<uri> (<name>)"`, audio before
    /// 2025-03-26 becomes a note that an audio block was omitted.
    fn for_version(&mut self, v: ProtocolVersion) {
        match self {
            Self::ResourceLink(link) if !v.has_resource_links() => {
                let mut text = TextContent::new(format!("{} ({})", link.uri, link.name));
                text.annotations = link.annotations.take();
                *self = Self::Text(text);
            }
            Self::Audio(audio) if !v.has_audio() => {
                let mut text = TextContent::new(format!(
                    "[audio content ({}) omitted: not supported by protocol version {v}]",
                    audio.mime_type
                ));
                text.annotations = audio.annotations.take();
                *self = Self::Text(text);
            }
            _ => {}
        }
        let (annotations, meta) = match self {
            Self::Text(c) => (&mut c.annotations, &mut c.meta),
            Self::Image(c) => (&mut c.annotations, &mut c.meta),
            Self::Audio(c) => (&mut c.annotations, &mut c.meta),
            Self::ResourceLink(c) => {
                title_for(v, &mut c.title);
                icons_for(v, &mut c.icons);
                (&mut c.annotations, &mut c.meta)
            }
            Self::Resource(c) => {
                c.resource.for_version(v);
                (&mut c.annotations, &mut c.meta)
            }
        };
        annotations.for_version(v);
        entity_meta_for(v, meta);
    }
}
