//! Protocol revisions and the features each one defines.
//!
//! Every behaviour that differs between revisions is gated on a [`ProtocolVersion`]
//! predicate such as [`ProtocolVersion::has_titles`], never on string comparisons
//! scattered through the code.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A released revision of the Model Context Protocol.
///
/// The variants are ordered chronologically, so `v >= ProtocolVersion::V2025_06_18`
/// reads as "2025-06-18 or later". On the wire a version is its date string.
///
/// ```
/// use mcp_runtime_core::ProtocolVersion;
///
/// let v: ProtocolVersion = "2025-06-18".parse().unwrap();
/// assert!(v.has_titles());
/// assert!(v < ProtocolVersion::LATEST);
/// assert_eq!(v.to_string(), "2025-06-18");
/// assert_eq!(ProtocolVersion::parse("1999-01-01"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// `2024-11-05`, the first public revision.
    V2024_11_05,
    /// `2025-03-26`: Streamable HTTP, audio content, tool annotations, batches.
    V2025_03_26,
    /// `2025-06-18`: titles, structured tool output, resource links, elicitation.
    V2025_06_18,
    /// `2025-11-25`: icons, URL elicitation, tasks; the last handshake revision.
    V2025_11_25,
    /// `2026-07-28`: the stateless revision (`server/discover`, per-request `_meta`).
    V2026_07_28,
}

/// The two eras of the protocol.
///
/// ```
/// use mcp_runtime_core::{Era, ProtocolVersion};
///
/// assert_eq!(ProtocolVersion::V2025_11_25.era(), Era::Handshake);
/// assert_eq!(ProtocolVersion::V2026_07_28.era(), Era::Stateless);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// Revisions up to 2025-11-25: an `initialize` handshake opens a session.
    Handshake,
    /// Revisions from 2026-07-28 on: every request carries its version and capabilities.
    Stateless,
}

impl ProtocolVersion {
    /// The newest revision this crate knows.
    pub const LATEST: Self = Self::V2026_07_28;

    /// The newest revision that uses the `initialize` handshake.
    pub const LATEST_HANDSHAKE: Self = Self::V2025_11_25;

    /// Every known revision, oldest first.
    pub const ALL: [Self; 5] = [
        Self::V2024_11_05,
        Self::V2025_03_26,
        Self::V2025_06_18,
        Self::V2025_11_25,
        Self::V2026_07_28,
    ];

    /// The date string used on the wire, e.g. `"2025-06-18"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a wire date string; `None` for an unknown revision.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The era this revision belongs to.
    #[must_use]
    pub const fn era(self) -> Era {
        match self {
            Self::V2026_07_28 => Era::Stateless,
            _ => Era::Handshake,
        }
    }

    /// The revisions an `initialize` handshake can negotiate, newest first.
    ///
    /// ```
    /// use mcp_runtime_core::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::handshake_versions()[0], ProtocolVersion::LATEST_HANDSHAKE);
    /// ```
    #[must_use]
    pub fn handshake_versions() -> &'static [Self] {
        &[
            Self::V2025_11_25,
            Self::V2025_06_18,
            Self::V2025_03_26,
            Self::V2024_11_05,
        ]
    }

    const fn ord(self) -> u8 {
        self as u8
    }

    const fn at_least(self, other: Self) -> bool {
        self.ord() >= other.ord()
    }

    /// `title` on tools, prompts, resources and implementations (2025-06-18+).
    #[must_use]
    pub const fn has_titles(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `outputSchema` on tools and `structuredContent` on tool results (2025-06-18+).
    #[must_use]
    pub const fn has_structured_content(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `resource_link` content blocks (2025-06-18+).
    #[must_use]
    pub const fn has_resource_links(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `audio` content blocks (2025-03-26+).
    #[must_use]
    pub const fn has_audio(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// `annotations` on tools (2025-03-26+).
    #[must_use]
    pub const fn has_annotations_on_tools(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// `icons` on tools, prompts, resources and implementations (2025-11-25+).
    #[must_use]
    pub const fn has_icons(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }

    /// The `completions` server capability (2025-03-26+).
    #[must_use]
    pub const fn has_completions_capability(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// JSON-RPC batches, which only 2025-03-26 defines.
    #[must_use]
    pub const fn allows_batches(self) -> bool {
        matches!(self, Self::V2025_03_26)
    }

    /// `elicitation/create` (2025-06-18+; an `input_required` result in the stateless era).
    #[must_use]
    pub const fn has_elicitation(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// Whether this revision is served without a handshake or session.
    #[must_use]
    pub const fn is_stateless(self) -> bool {
        matches!(self.era(), Era::Stateless)
    }

    /// `resultType` on every result (2026-07-28).
    #[must_use]
    pub const fn has_result_type(self) -> bool {
        self.is_stateless()
    }

    /// `ttlMs` and `cacheScope` on cacheable results (2026-07-28).
    #[must_use]
    pub const fn has_cache_hints(self) -> bool {
        self.is_stateless()
    }

    /// `_meta` on content blocks, tools, prompts, resources and their contents (2025-06-18+).
    #[must_use]
    pub const fn has_meta_on_entities(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `description` and `websiteUrl` on [`Implementation`](crate::Implementation) (2025-11-25+).
    #[must_use]
    pub const fn has_implementation_details(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an unknown protocol version string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol version `{0}`")]
pub struct UnknownVersion(pub String);

impl FromStr for ProtocolVersion {
    type Err = UnknownVersion;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s).ok_or_else(|| UnknownVersion(s.to_owned()))
    }
}

impl Serialize for ProtocolVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Self::parse(&s).ok_or_else(|| serde::de::Error::custom(UnknownVersion(s.into_owned())))
    }
}

/// Removes from a value what a protocol revision does not define, before it is sent.
///
/// Implemented by every type the server sends. Fields newer than `v` are cleared, content
/// blocks `v` cannot carry are replaced by a text block describing them, and on
/// 2026-07-28 results get the `resultType` (and cache hints) that revision requires.
///
/// ```
/// use mcp_runtime_core::{ForVersion, Implementation, ProtocolVersion};
///
/// let mut info = Implementation::new("demo", "1.0.0").with_title("Demo server");
/// info.for_version(ProtocolVersion::V2024_11_05);
/// assert_eq!(info.title, None);
/// ```
pub trait ForVersion {
    /// Strips or rewrites everything revision `v` does not define.
    fn for_version(&mut self, v: ProtocolVersion);

    /// By-value form of [`ForVersion::for_version`], handy in builder chains.
    #[must_use]
    fn into_version(mut self, v: ProtocolVersion) -> Self
    where
        Self: Sized,
    {
        self.for_version(v);
        self
    }
}

impl<T: ForVersion> ForVersion for Vec<T> {
    fn for_version(&mut self, v: ProtocolVersion) {
        for item in self {
            item.for_version(v);
        }
    }
}

impl<T: ForVersion> ForVersion for Option<T> {
    fn for_version(&mut self, v: ProtocolVersion) {
        if let Some(item) = self {
            item.for_version(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_orders() {
        for w in ProtocolVersion::ALL.windows(2) {
            assert!(w[0] < w[1]);
        }
        for v in ProtocolVersion::ALL {
            assert_eq!(ProtocolVersion::parse(v.as_str()), Some(v));
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<ProtocolVersion>(&json).unwrap(), v);
        }
        assert!(serde_json::from_str::<ProtocolVersion>("\"2020-01-01\"").is_err());
        assert!(ProtocolVersion::V2025_03_26.allows_batches());
        assert!(!ProtocolVersion::V2025_06_18.allows_batches());
        assert_eq!(ProtocolVersion::handshake_versions().len(), 4);
    }
}
