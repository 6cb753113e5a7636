//! `install CLIENT` and `uninstall CLIENT`: this binary's entry in an MCP client's
//! configuration file, written, printed or removed.
//!
//! The entry runs this binary (the absolute path of the running executable) with `stdio`, and
//! the `--env KEY=VALUE` variables. It goes under the client's key (`mcpServers`, or `servers`
//! for VS Code) by the server's name (`--name`, by default the binary's). The file is read
//! first and written back with every other member where it was: other servers, other
//! settings, the unknown keys of this server's own entry (when it was a stdio entry too).
//! What the entry says (`type`, `command`, `args`, `env`) is this invocation's. A file that is
//! not a JSON object is an error and is left as it is; an empty one counts as `{}`. The file is
//! replaced atomically (written next to it, then renamed), with the permissions it had.

mod clients;
mod ordered;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use super::args::Args;
use super::exit::CliError;
use clients::{Client, NAMES, Os};
use ordered::Json;

/// One server's entry: what the client runs, by which name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) command: String,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
}

impl Entry {
    /// The entry as `client` reads it; `existing` (the entry of that name in the file) keeps
    /// its other keys, in their places, unless it was an entry of another transport.
    fn json(&self, client: Client, existing: Option<Json>) -> Json {
        let mut entry = match existing {
            Some(old @ Json::Object(_)) if !old.has("url") && !old.has("httpUrl") => old,
            _ => Json::Object(Vec::new()),
        };
        if client.typed() {
            entry.insert("type", Json::string("stdio"));
        }
        entry.insert("command", Json::string(&self.command));
        let args = self.args.iter().map(|a| Json::string(a)).collect();
        entry.insert("args", Json::Array(args));
        if self.env.is_empty() {
            entry.remove("env");
        } else {
            let env = self
                .env
                .iter()
                .map(|(k, v)| (k.clone(), Json::string(v)))
                .collect();
            entry.insert("env", Json::Object(env));
        }
        entry
    }
}

/// The file's text as JSON: an object (`{}` when the text is empty).
fn document(text: Option<&str>) -> Result<Json, String> {
    let text = text.unwrap_or_default();
    if text.trim().is_empty() {
        return Ok(Json::Object(Vec::new()));
    }
    match serde_json::from_str::<Json>(text) {
        Ok(doc @ Json::Object(_)) => Ok(doc),
        Ok(_) => Err("is not a JSON object".to_owned()),
        Err(e) => Err(format!("is not valid JSON ({e})")),
    }
}

/// The client's servers in `doc`, made when absent.
fn servers(doc: &mut Json, client: Client) -> Result<&mut Json, String> {
    let key = client.key();
    if !doc.has(key) {
        doc.insert(key, Json::Object(Vec::new()));
    }
    match doc.get_mut(key) {
        Some(servers @ Json::Object(_)) => Ok(servers),
        _ => Err(format!("has a `{key}` that is not an object")),
    }
}

/// What `--print` prints: the configuration of a file holding this entry alone.
pub(crate) fn snippet(client: Client, entry: &Entry) -> String {
    let servers = Json::Object(vec![(entry.name.clone(), entry.json(client, None))]);
    Json::Object(vec![(client.key().to_owned(), servers)]).to_pretty()
}

/// The file `existing` (`None`: there is none) with `entry` in it, and whether it replaced
/// an entry of that name.
pub(crate) fn merged(
    existing: Option<&str>,
    client: Client,
    entry: &Entry,
) -> Result<(String, bool), String> {
    let mut doc = document(existing)?;
    let servers = servers(&mut doc, client)?;
    let old = servers
        .get_mut(&entry.name)
        .map(|e| std::mem::replace(e, Json::Null));
    let replaced = old.is_some();
    servers.insert(&entry.name, entry.json(client, old));
    Ok((doc.to_pretty(), replaced))
}

/// The file `existing` without the entry `name`.
pub(crate) fn removed(existing: &str, client: Client, name: &str) -> Result<String, String> {
    let mut doc = document(Some(existing))?;
    let key = client.key();
    let gone = match doc.get_mut(key) {
        Some(servers @ Json::Object(_)) => servers.remove(name),
        Some(_) => return Err(format!("has a `{key}` that is not an object")),
        None => None,
    };
    match gone {
        Some(_) => Ok(doc.to_pretty()),
        None => Err(format!("has no server named `{name}` under `{key}`")),
    }
}

/// The client named first on the command line.
fn client(a: &Args, usage: &str) -> Result<Client, CliError> {
    let name = a.required(0, &format!("the CLIENT ({NAMES})"), usage)?;
    a.at_most(1, usage)?;
    Client::parse(name)
        .ok_or_else(|| CliError::usage(format!("unknown client `{name}`: one of {NAMES}")))
}

/// `--config PATH`, else where the client reads its servers on this system.
fn config_path(a: &Args, client: Client) -> Result<PathBuf, CliError> {
    if let Some(path) = &a.config {
        return Ok(PathBuf::from(path));
    }
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::failed(format!("cannot read the current directory: {e}")))?;
    let var = |name: &str| std::env::var(name).ok();
    client
        .path(Os::current(), &var, &cwd)
        .map_err(CliError::failed)
}

/// The absolute path of the running executable, as the client will run it.
fn this_executable() -> Result<String, CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find the path of this binary: {e}")))?;
    // Windows' canonical form (`\\?\C:\...`) is not what clients expect: there, as it is.
    let exe = if cfg!(windows) {
        exe
    } else {
        exe.canonicalize().unwrap_or(exe)
    };
    exe.into_os_string()
        .into_string()
        .map_err(|_| CliError::failed("the path of this binary is not valid Unicode"))
}

/// The file's text, `None` when there is no file.
fn read(path: &Path) -> Result<Option<String>, CliError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::failed(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

/// Replaces the file at `path` with `text`: written next to it, given its permissions, then
/// renamed over it (parent directories made first).
fn write(path: &Path, text: &str) -> Result<(), CliError> {
    let fail =
        |e: std::io::Error| CliError::failed(format!("cannot write {}: {e}", path.display()));
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    let file = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{file}.{}.tmp", std::process::id()));
    let written = std::fs::write(&temporary, text).and_then(|()| {
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&temporary, meta.permissions())?;
        }
        std::fs::rename(&temporary, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.map_err(fail)
}

/// `install CLIENT [--name NAME] [--env KEY=VALUE]... [--config PATH] [--print]`.
pub(crate) fn install(bin: &str, a: &Args, usage: &str) -> Result<String, CliError> {
    let client = client(a, usage)?;
    let mut env = Vec::new();
    for pair in &a.env {
        match pair.split_once('=') {
            Some((key, value)) if !key.is_empty() => env.push((key.to_owned(), value.to_owned())),
            _ => {
                return Err(CliError::usage(format!(
                    "`--env` takes KEY=VALUE, got `{pair}`"
                )));
            }
        }
    }
    let name = a.name.clone().unwrap_or_else(|| bin.to_owned());
    if name.is_empty() {
        return Err(CliError::usage("`--name` takes a name that is not empty"));
    }
    let entry = Entry {
        name,
        command: this_executable()?,
        args: vec!["stdio".to_owned()],
        env,
    };
    if a.print {
        return Ok(snippet(client, &entry));
    }
    let path = config_path(a, client)?;
    let existing = read(&path)?;
    let (text, replaced) = merged(existing.as_deref(), client, &entry).map_err(|why| {
        CliError::failed(format!("{} {why}; it is left as it is", path.display()))
    })?;
    write(&path, &text)?;
    let (done, to) = if replaced {
        ("updated", "in")
    } else {
        ("added", "to")
    };
    Ok(format!(
        "{done} {} {to} {} ({})\n",
        entry.name,
        path.display(),
        client.title()
    ))
}

/// `uninstall CLIENT [--name NAME] [--config PATH]`.
pub(crate) fn uninstall(bin: &str, a: &Args, usage: &str) -> Result<String, CliError> {
    let client = client(a, usage)?;
    let name = a.name.clone().unwrap_or_else(|| bin.to_owned());
    let path = config_path(a, client)?;
    let Some(existing) = read(&path)? else {
        return Err(CliError::failed(format!(
            "{} does not exist: no server to remove",
            path.display()
        )));
    };
    let text = removed(&existing, client, &name).map_err(|why| {
        CliError::failed(format!("{} {why}; it is left as it is", path.display()))
    })?;
    write(&path, &text)?;
    Ok(format!(
        "removed {name} from {} ({})\n",
        path.display(),
        client.title()
    ))
}
