//! The clients `install` knows: where each keeps its MCP servers, under which key, and the
//! shape of one server's entry.

use std::path::{Path, PathBuf};

/// An MCP client whose configuration file `install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Client {
    /// Claude Desktop: `claude_desktop_config.json` in the application's folder, `mcpServers`.
    ClaudeDesktop,
    /// Claude Code: the project's `.mcp.json` (project scope), `mcpServers`, `"type": "stdio"`.
    ClaudeCode,
    /// Cursor: `~/.cursor/mcp.json` (every project), `mcpServers`.
    Cursor,
    /// VS Code: the workspace's `.vscode/mcp.json`, `servers`, `"type": "stdio"`.
    VsCode,
    /// Gemini CLI: `~/.gemini/settings.json` (the user's settings), `mcpServers`.
    Gemini,
}

/// The names clients are given by on the command line.
pub(crate) const NAMES: &str = "claude-desktop, claude-code, cursor, vscode, gemini";

/// The operating systems whose paths differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Os {
    /// macOS.
    Mac,
    Windows,
    /// Linux and the other Unix systems (XDG paths).
    Unix,
}

impl Os {
    /// The system this binary runs on.
    pub(crate) fn current() -> Self {
        if cfg!(target_os = "macos") {
            Self::Mac
        } else if cfg!(windows) {
            Self::Windows
        } else {
            Self::Unix
        }
    }
}

impl Client {
    /// The client named `name` on the command line.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "claude-desktop" => Self::ClaudeDesktop,
            "claude-code" => Self::ClaudeCode,
            "cursor" => Self::Cursor,
            "vscode" => Self::VsCode,
            "gemini" => Self::Gemini,
            _ => return None,
        })
    }

    /// The client's name for people.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Self::ClaudeDesktop => "Claude Desktop",
            Self::ClaudeCode => "Claude Code",
            Self::Cursor => "Cursor",
            Self::VsCode => "VS Code",
            Self::Gemini => "Gemini CLI",
        }
    }

    /// The member of the file's top-level object that holds the servers by name.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Self::VsCode => "servers",
            _ => "mcpServers",
        }
    }

    /// Whether an entry says `"type": "stdio"` (VS Code requires it; Claude Code writes it).
    pub(crate) fn typed(self) -> bool {
        matches!(self, Self::VsCode | Self::ClaudeCode)
    }

    /// Where the client reads its servers on `os`, with the environment variables `var` and
    /// the current directory `cwd` (the project, for the clients configured per project); an
    /// error names the variable that is missing.
    pub(crate) fn path(
        self,
        os: Os,
        var: &dyn Fn(&str) -> Option<String>,
        cwd: &Path,
    ) -> Result<PathBuf, String> {
        let dir = |name: &str| {
            var(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .ok_or_else(|| {
                    format!("{name} is not set: give the configuration file with --config PATH")
                })
        };
        let home = || {
            dir(if os == Os::Windows {
                "USERPROFILE"
            } else {
                "HOME"
            })
        };
        Ok(match self {
            Self::ClaudeDesktop => {
                let folder = match os {
                    Os::Mac => home()?.join("Library").join("Application Support"),
                    Os::Windows => dir("APPDATA")?,
                    Os::Unix => match var("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
                        Some(config) => PathBuf::from(config),
                        None => home()?.join(".config"),
                    },
                };
                folder.join("Claude").join("claude_desktop_config.json")
            }
            Self::ClaudeCode => cwd.join(".mcp.json"),
            Self::Cursor => home()?.join(".cursor").join("mcp.json"),
            Self::VsCode => cwd.join(".vscode").join("mcp.json"),
            Self::Gemini => home()?.join(".gemini").join("settings.json"),
        })
    }
}
