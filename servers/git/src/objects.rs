//! Commit objects read with `git cat-file`, and the text the original prints for them
//! (`git_log` entries, the `git_show` header), with Python's date formats.

use crate::git::{GitError, Repo};

/// A person line of a commit (`author NAME <EMAIL> SECONDS OFFSET`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// The name.
    pub name: String,
    /// The e-mail address.
    pub email: String,
    /// Seconds since the epoch.
    pub seconds: i64,
    /// The offset east of UTC, in minutes.
    pub offset_minutes: i32,
}

/// The parts of a commit the tools print.
#[derive(Debug, Clone)]
pub struct Commit {
    /// The full hash.
    pub sha: String,
    /// The parents' hashes, in order.
    pub parents: Vec<String>,
    /// The author.
    pub author: Person,
    /// The message, as stored (lossily decoded).
    pub message: String,
}

fn person(line: &str) -> Option<Person> {
    let lt = line.find('<')?;
    let gt = line.rfind('>')?;
    let name = line[..lt].trim_end().to_owned();
    let email = line[lt + 1..gt].to_owned();
    let mut rest = line[gt + 1..].split_whitespace();
    let seconds = rest.next()?.parse().ok()?;
    let tz = rest.next().unwrap_or("+0000");
    let sign = if tz.starts_with('-') { -1 } else { 1 };
    let digits = tz.trim_start_matches(['+', '-']);
    let hours: i32 = digits.get(..2)?.parse().ok()?;
    let minutes: i32 = digits.get(2..4)?.parse().ok()?;
    Some(Person {
        name,
        email,
        seconds,
        offset_minutes: sign * (hours * 60 + minutes),
    })
}

/// Parses a raw commit object.
pub fn parse(sha: &str, raw: &[u8]) -> Option<Commit> {
    let text = String::from_utf8_lossy(raw);
    let (head, message) = text.split_once("\n\n").unwrap_or((&text, ""));
    let mut parents = Vec::new();
    let mut author = None;
    for line in head.lines() {
        if let Some(p) = line.strip_prefix("parent ") {
            parents.push(p.to_owned());
        } else if let Some(a) = line.strip_prefix("author ") {
            author = person(a);
        }
    }
    Some(Commit {
        sha: sha.to_owned(),
        parents,
        author: author?,
        message: message.to_owned(),
    })
}

/// Reads the commit `sha` (a full hash).
pub async fn read(repo: &Repo, sha: &str) -> Result<Commit, GitError> {
    let out = repo.raw(&["cat-file", "commit", sha], None).await?;
    if out.code != Some(0) {
        return Err(GitError(format!(
            "Ref '{sha}' did not resolve to an object"
        )));
    }
    parse(sha, out.stdout.as_bytes())
        .ok_or_else(|| GitError(format!("commit {sha} cannot be parsed")))
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

impl Person {
    /// `YYYY-MM-DD HH:MM:SS` in the person's own offset.
    fn local(&self) -> String {
        let t = self.seconds + i64::from(self.offset_minutes) * 60;
        let (y, mo, d) = civil(t.div_euclid(86_400));
        let s = t.rem_euclid(86_400);
        format!(
            "{y:04}-{mo:02}-{d:02} {:02}:{:02}:{:02}",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    }

    fn offset(&self, colon: bool) -> String {
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        let m = self.offset_minutes.unsigned_abs();
        let sep = if colon { ":" } else { "" };
        format!("{sign}{:02}{sep}{:02}", m / 60, m % 60)
    }

    /// Python's `str(datetime)` of the date: `2026-01-01 12:00:00+01:00`.
    pub fn python_str(&self) -> String {
        format!("{}{}", self.local(), self.offset(true))
    }

    /// `strftime('%Y-%m-%d %H:%M:%S %z')`: `2026-01-01 12:00:00 +0100`.
    pub fn iso(&self) -> String {
        format!("{} {}", self.local(), self.offset(false))
    }
}

/// One entry of `git_log`, as the original writes it.
pub fn log_entry(c: &Commit) -> String {
    format!(
        "Commit: {}\nAuthor: {}\nDate: {}\nMessage: {}\n",
        c.sha,
        c.author.name,
        c.author.python_str(),
        c.message
    )
}

/// The header of `git_show`: hash, author, date, and the message indented by four spaces.
pub fn show_header(c: &Commit) -> String {
    let mut out = format!(
        "commit {}\nAuthor: {} <{}>\nDate:   {}\n\n",
        c.sha,
        c.author.name,
        c.author.email,
        c.author.iso()
    );
    for line in c.message.trim_end_matches('\n').split('\n') {
        out.push_str("    ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent aaaa\nauthor Ann Lee <ann@example.com> 1767225600 +0130\ncommitter C <c@x> 1767225600 +0000\n\nfirst line\n\nbody\n";

    #[test]
    fn log_entry_matches_python_formats() {
        let c = parse("abc", RAW.as_bytes()).unwrap();
        assert_eq!(
            log_entry(&c),
            "Commit: abc\nAuthor: Ann Lee\nDate: 2026-01-01 01:30:00+01:30\nMessage: first line\n\nbody\n\n"
        );
        assert_eq!(c.parents, vec!["aaaa".to_owned()]);
    }

    #[test]
    fn show_header_indents_the_message() {
        let c = parse("abc", RAW.as_bytes()).unwrap();
        assert_eq!(
            show_header(&c),
            "commit abc\nAuthor: Ann Lee <ann@example.com>\nDate:   2026-01-01 01:30:00 +0130\n\n    first line\n    \n    body\n"
        );
    }

    #[test]
    fn negative_offsets_and_dates_before_1970() {
        let p = person("A <a> -86400 -0500").unwrap();
        assert_eq!(p.python_str(), "1969-12-30 19:00:00-05:00");
    }
}
