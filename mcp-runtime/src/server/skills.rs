//! `ServerBuilder::skills` and `Server::skills` (the skills themselves are `skills`'s).

use crate::server::{Server, ServerBuilder};
use crate::skills::Skills;

impl ServerBuilder {
    /// Serves `skills` (the `io.modelcontextprotocol/skills` extension): every file becomes a
    /// resource (`skill://<skill-path>/<file-path>`, in `resources/list` and `resources/read`,
    /// both eras), and stateless (2026-07-28) requests get the extension's capability with
    /// `directoryRead`, `skills/list`, `skills/get` and `resources/directory/read`. `build`
    /// refuses a registered resource whose URI is a skill file's.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::skills::Skills;
    ///
    /// let skills = Skills::from_files([(
    ///     "notes/SKILL.md",
    ///     b"---\nname: notes\ndescription: Take notes\n---\n".to_vec(),
    /// )])
    /// .unwrap();
    /// let server = Server::builder(server_info!()).skills(skills).build().unwrap();
    /// assert!(server.capabilities().resources.is_some());
    /// assert_eq!(server.skills().unwrap().entries().len(), 1);
    /// ```
    pub fn skills(mut self, skills: Skills) -> Self {
        self.options_mut().skills = Some(skills);
        self
    }
}

impl Server {
    /// The skills the server serves, if it was given any ([`ServerBuilder::skills`]).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// assert!(Server::builder(server_info!()).build().unwrap().skills().is_none());
    /// ```
    #[must_use]
    pub fn skills(&self) -> Option<&Skills> {
        self.inner.options.skills.as_ref()
    }
}
