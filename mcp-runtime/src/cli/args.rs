//! The words of a command line: positional arguments and the shared flags.

use std::time::Duration;

use super::exit::CliError;

/// A command's arguments once the flags are taken out.
#[derive(Debug, Default)]
pub(crate) struct Args {
    /// The positional arguments, in order.
    pub(crate) positional: Vec<String>,
    /// `--json`: print the whole result as JSON.
    pub(crate) json: bool,
    /// `--timeout SECONDS`; `None` waits as long as it takes.
    pub(crate) timeout: Option<Duration>,
    /// `--context JSON` of `complete`.
    pub(crate) context: Option<String>,
    /// `--print` of `install`: print the configuration instead of writing it.
    pub(crate) print: bool,
    /// `--env KEY=VALUE` of `install`, each as given, in order.
    pub(crate) env: Vec<String>,
    /// `--name NAME` of `install` and `uninstall`.
    pub(crate) name: Option<String>,
    /// `--config PATH` of `install` and `uninstall`.
    pub(crate) config: Option<String>,
    /// `--metrics` of `http`: serve `/metrics` on the MCP listener.
    pub(crate) metrics: bool,
    /// `--metrics-address ADDR` of `http`: serve `/metrics` on a listener of its own.
    pub(crate) metrics_address: Option<String>,
    /// `--catalog` of `server-card`: the AI Catalog instead of the card.
    pub(crate) catalog: bool,
}

impl Args {
    /// Splits `words` (after the command name) into flags and positional arguments. `flags`
    /// names the flags this command accepts (`json`, `timeout`, `context`, `print`, `env`,
    /// `name`, `config`); `env` may be given more than once.
    pub(crate) fn parse(command: &str, words: &[String], flags: &[&str]) -> Result<Self, CliError> {
        let mut args = Self::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let Some(flag) = word.strip_prefix("--") else {
                args.positional.push(word.clone());
                continue;
            };
            let (name, inline) = match flag.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (flag, None),
            };
            if !flags.contains(&name) {
                let known: Vec<String> = flags.iter().map(|f| format!("--{f}")).collect();
                let known = if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                };
                return Err(CliError::usage(format!(
                    "`{command}` has no flag `--{name}` (its flags: {known})"
                )));
            }
            if matches!(name, "json" | "print" | "metrics" | "catalog") {
                if inline.is_some() {
                    return Err(CliError::usage(format!("`--{name}` takes no value")));
                }
                match name {
                    "json" => args.json = true,
                    "metrics" => args.metrics = true,
                    "catalog" => args.catalog = true,
                    _ => args.print = true,
                }
                continue;
            }
            let Some(value) = inline.or_else(|| words.next().cloned()) else {
                return Err(CliError::usage(format!("`--{name}` needs a value")));
            };
            match name {
                "timeout" => args.timeout = Some(seconds(&value)?),
                "env" => args.env.push(value),
                "name" => args.name = Some(value),
                "config" => args.config = Some(value),
                "metrics-address" => args.metrics_address = Some(value),
                _ => args.context = Some(value),
            }
        }
        Ok(args)
    }

    /// The `i`th positional argument, or a usage error naming what is missing.
    pub(crate) fn required(&self, i: usize, what: &str, usage: &str) -> Result<&str, CliError> {
        self.positional
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| CliError::usage(format!("missing {what}; usage: {usage}")))
    }

    /// A usage error when more than `max` positional arguments were given.
    pub(crate) fn at_most(&self, max: usize, usage: &str) -> Result<(), CliError> {
        match self.positional.get(max) {
            Some(extra) => Err(CliError::usage(format!(
                "unexpected argument `{extra}`; usage: {usage}"
            ))),
            None => Ok(()),
        }
    }
}

/// A positive number of seconds, fractions allowed (`0.5`).
fn seconds(text: &str) -> Result<Duration, CliError> {
    let bad = || {
        CliError::usage(format!(
            "`--timeout` takes a positive number of seconds, got `{text}`"
        ))
    };
    let value: f64 = text.trim().parse().map_err(|_| bad())?;
    if value.is_nan() || value <= 0.0 {
        return Err(bad());
    }
    Duration::try_from_secs_f64(value).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn flags_anywhere_and_in_both_forms() {
        let args = Args::parse(
            "call",
            &words(&["--json", "add", "--timeout=1.5", "{}"]),
            &["json", "timeout"],
        )
        .unwrap();
        assert_eq!(args.positional, ["add", "{}"]);
        assert!(args.json);
        assert_eq!(args.timeout, Some(Duration::from_millis(1500)));
        let args = Args::parse("call", &words(&["--timeout", "30", "add"]), &["timeout"]).unwrap();
        assert_eq!(args.timeout, Some(Duration::from_secs(30)));
        assert!(!args.json);
    }

    #[test]
    fn bad_flags_are_usage_errors() {
        let cases: [(&[&str], &str); 6] = [
            (
                &["--verbose"],
                "`call` has no flag `--verbose` (its flags: --json, --timeout)",
            ),
            (&["--timeout"], "`--timeout` needs a value"),
            (
                &["--timeout", "soon"],
                "`--timeout` takes a positive number of seconds, got `soon`",
            ),
            (
                &["--timeout=0"],
                "`--timeout` takes a positive number of seconds, got `0`",
            ),
            (
                &["--timeout=-3"],
                "`--timeout` takes a positive number of seconds, got `-3`",
            ),
            (
                &["--timeout=NaN"],
                "`--timeout` takes a positive number of seconds, got `NaN`",
            ),
        ];
        for (line, message) in cases {
            let err = Args::parse("call", &words(line), &["json", "timeout"]).unwrap_err();
            assert_eq!(err, CliError::usage(message), "{line:?}");
        }
        let err = Args::parse("list", &words(&["--json=yes"]), &["json"]).unwrap_err();
        assert_eq!(err.to_string(), "`--json` takes no value");
        let err = Args::parse("list", &words(&["--json"]), &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`list` has no flag `--json` (its flags: none)"
        );
        let err = Args::parse("call", &words(&["--timeout=1e300"]), &["timeout"]).unwrap_err();
        assert_eq!(err.code(), 2);
        let err = Args::parse("install", &words(&["--print=yes"]), &["print"]).unwrap_err();
        assert_eq!(err.to_string(), "`--print` takes no value");
    }

    #[test]
    fn install_flags_repeat_env_and_take_values() {
        let flags = ["print", "env", "name", "config"];
        let line = words(&[
            "cursor",
            "--env",
            "A=1",
            "--env=B=two words",
            "--name",
            "gifts",
            "--config=/tmp/mcp.json",
            "--print",
        ]);
        let args = Args::parse("install", &line, &flags).unwrap();
        assert_eq!(args.positional, ["cursor"]);
        assert_eq!(args.env, ["A=1", "B=two words"]);
        assert_eq!(args.name.as_deref(), Some("gifts"));
        assert_eq!(args.config.as_deref(), Some("/tmp/mcp.json"));
        assert!(args.print);
    }

    #[test]
    fn positional_checks_name_the_usage() {
        let args = Args::parse("read", &words(&["a", "b"]), &[]).unwrap();
        assert_eq!(args.required(0, "URI", "read URI").unwrap(), "a");
        assert_eq!(
            args.required(2, "VALUE", "x").unwrap_err().to_string(),
            "missing VALUE; usage: x"
        );
        assert_eq!(
            args.at_most(1, "read URI").unwrap_err().to_string(),
            "unexpected argument `b`; usage: read URI"
        );
        assert!(args.at_most(2, "read URI").is_ok());
    }
}
