//! The fetch itself, as the original does it: robots.txt first (tool calls), then the page,
//! each redirect hop checked; HTML simplified to Markdown; the text paginated by characters.

use url::Url;

use crate::net::{self, Failure, Limits, MAX_REDIRECTS, Page};
use crate::robots::Robots;

/// The user agent of the tool (the model's own fetches).
pub const USER_AGENT_AUTONOMOUS: &str =
    "ModelContextProtocol/1.0 (Autonomous; +https://github.com/modelcontextprotocol/servers)";
/// The user agent of the prompt (the user's fetches).
pub const USER_AGENT_MANUAL: &str =
    "ModelContextProtocol/1.0 (User-Specified; +https://github.com/modelcontextprotocol/servers)";

/// The command line's choices and the limits.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Settings {
    /// `--user-agent`: used for both kinds of fetch instead of the defaults.
    pub user_agent: Option<String>,
    /// `--ignore-robots-txt`.
    pub ignore_robots_txt: bool,
    /// `--proxy-url` (`socks://` is read as `socks5://`).
    pub proxy_url: Option<String>,
    /// `--allow-private-ips`.
    pub allow_private_ips: bool,
    /// Timeouts and the body cap.
    pub limits: Limits,
    /// The HTTP client, made on first use and shared by every call (its connection pool, its
    /// TLS roots loaded once).
    client: std::sync::Arc<std::sync::OnceLock<Result<reqwest::Client, String>>>,
}

impl Settings {
    /// The defaults: robots.txt obeyed, private addresses refused, no proxy.
    ///
    /// ```
    /// let s = mcp_server_fetch::Settings::new().allow_private_ips(true);
    /// assert!(s.allow_private_ips);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `--allow-private-ips`.
    pub fn allow_private_ips(mut self, yes: bool) -> Self {
        self.allow_private_ips = yes;
        self
    }

    /// Sets `--ignore-robots-txt`.
    pub fn ignore_robots_txt(mut self, yes: bool) -> Self {
        self.ignore_robots_txt = yes;
        self
    }

    /// Sets `--user-agent`.
    pub fn user_agent(mut self, ua: Option<String>) -> Self {
        self.user_agent = ua;
        self
    }

    /// Sets `--proxy-url`.
    pub fn proxy_url(mut self, url: Option<String>) -> Self {
        self.proxy_url = url.map(|u| match u.get(..8) {
            Some(p) if p.eq_ignore_ascii_case("socks://") => format!("socks5://{}", &u[8..]),
            _ => u,
        });
        self
    }

    /// Sets the limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    fn client(&self) -> Result<reqwest::Client, String> {
        let made = self.client.get_or_init(|| {
            net::client(self.proxy_url.as_deref()).map_err(|e| {
                format!(
                    "Failed to set up the HTTP client, check the proxy configuration (--proxy-url \
                     or the HTTP_PROXY, HTTPS_PROXY and ALL_PROXY environment variables): {e}"
                )
            })
        });
        made.clone()
    }
}

fn robots_url(url: &Url) -> String {
    let mut r = url.clone();
    r.set_path("/robots.txt");
    r.set_query(None);
    r.set_fragment(None);
    r.to_string()
}

/// GET with redirects followed by hand; `hop` runs before every hop after the first.
async fn get(
    s: &Settings,
    client: &reqwest::Client,
    url: &Url,
    user_agent: &str,
    timeout: std::time::Duration,
    robots_per_hop: bool,
) -> Result<Page, Failure> {
    let mut current = url.clone();
    for hop in 0..=MAX_REDIRECTS {
        if !s.allow_private_ips {
            net::check_public(&current).await?;
        }
        if hop > 0 && robots_per_hop {
            Box::pin(check_robots(s, client, &current, user_agent))
                .await
                .map_err(Failure::Refused)?;
        }
        let (page, next) =
            net::get_once(client, &current, user_agent, timeout, s.limits.max_body).await?;
        match next {
            Some(n) => current = n,
            None => return Ok(page),
        }
    }
    Err(Failure::Transport(
        "TooManyRedirects('Exceeded maximum allowed redirects.')".to_owned(),
    ))
}

/// Refuses the fetch when robots.txt of `url`'s origin disallows it for `user_agent`.
async fn check_robots(
    s: &Settings,
    client: &reqwest::Client,
    url: &Url,
    user_agent: &str,
) -> Result<(), String> {
    let robots = robots_url(url);
    let robots_parsed = Url::parse(&robots).map_err(|e| e.to_string())?;
    let page = match get(
        s,
        client,
        &robots_parsed,
        user_agent,
        s.limits.robots_timeout,
        false,
    )
    .await
    {
        Ok(page) => page,
        Err(Failure::Refused(m)) => return Err(m),
        Err(Failure::Transport(_)) => {
            return Err(format!(
                "Failed to fetch robots.txt {robots} due to a connection issue"
            ));
        }
    };
    if page.status == 401 || page.status == 403 {
        return Err(format!(
            "When fetching robots.txt ({robots}), received status {} so assuming that autonomous fetching is not allowed, the user can try manually fetching by using the fetch prompt",
            page.status
        ));
    }
    if (400..500).contains(&page.status) {
        return Ok(());
    }
    let kept: Vec<&str> = page
        .text
        .lines()
        .filter(|l| !l.trim().starts_with('#'))
        .collect();
    let mut path = url.path().to_owned();
    if let Some(q) = url.query() {
        path.push('?');
        path.push_str(q);
    }
    if !Robots::parse(&kept.join("\n")).can_fetch(&path, user_agent) {
        return Err(format!(
            "The sites robots.txt ({robots}), specifies that autonomous fetching of this page is not allowed, <useragent>{user_agent}</useragent>\n<url>{url}</url><robots>\n{}\n</robots>\nThe assistant must let the user know that it failed to view the page. The assistant may provide further guidance based on the above information.\nThe assistant can tell the user that they can try manually fetching the page by using the fetch prompt within their UI.",
            page.text
        ));
    }
    Ok(())
}

/// The page as text for the model and the prefix saying what it is.
async fn fetch_url(
    s: &Settings,
    client: &reqwest::Client,
    url: &Url,
    user_agent: &str,
    force_raw: bool,
    robots_per_hop: bool,
) -> Result<(String, String), String> {
    let page = match get(
        s,
        client,
        url,
        user_agent,
        s.limits.page_timeout,
        robots_per_hop,
    )
    .await
    {
        Ok(p) => p,
        Err(Failure::Refused(m)) => return Err(m),
        Err(Failure::Transport(t)) => return Err(format!("Failed to fetch {url}: {t}")),
    };
    if page.status >= 400 {
        return Err(format!(
            "Failed to fetch {url} - status code {}",
            page.status
        ));
    }
    let head: String = page.text.chars().take(100).collect();
    let is_html = head.contains("<html")
        || page.content_type.contains("text/html")
        || page.content_type.is_empty();
    if is_html && !force_raw {
        return Ok((to_markdown(&page.text), String::new()));
    }
    Ok((
        page.text,
        format!(
            "Content type {} cannot be simplified to markdown, but here is the raw content:\n",
            page.content_type
        ),
    ))
}

/// HTML simplified to Markdown (ATX headings); scripts, styles and the head left out.
pub fn to_markdown(html: &str) -> String {
    let failed = "<error>Page failed to be simplified from HTML</error>".to_owned();
    let converter = htmd::HtmlToMarkdown::builder()
        .skip_tags(vec!["script", "style", "head", "noscript", "template"])
        .build();
    match converter.convert(html) {
        Ok(md) if !md.trim().is_empty() => md,
        _ => failed,
    }
}

/// The `fetch` tool: the text it returns, or the error message after `Error executing tool
/// fetch: `.
pub async fn tool(
    s: &Settings,
    url: &str,
    max_length: i64,
    start_index: i64,
    raw: bool,
) -> Result<String, String> {
    let url = Url::parse(url).map_err(|e| format!("url: Input should be a valid URL, {e}"))?;
    let client = s.client()?;
    let ua = s.user_agent.as_deref().unwrap_or(USER_AGENT_AUTONOMOUS);
    if !s.ignore_robots_txt {
        check_robots(s, &client, &url, ua).await?;
    }
    let (content, prefix) = fetch_url(s, &client, &url, ua, raw, !s.ignore_robots_txt).await?;
    Ok(format!(
        "{prefix}Contents of {url}:\n{}",
        paginate(&content, max_length, start_index)
    ))
}

/// `content` from character `start` on, at most `max` characters, with the original's note
/// when more remains.
///
/// ```
/// use mcp_server_fetch::fetcher::paginate;
/// assert_eq!(
///     paginate("abcdef", 2, 1),
///     "bc\n\n<error>Content truncated. Call the fetch tool with a start_index of 3 to get more content.</error>"
/// );
/// assert_eq!(paginate("abc", 5, 3), "<error>No more content available.</error>");
/// ```
pub fn paginate(content: &str, max: i64, start: i64) -> String {
    let total = content.chars().count();
    let start = usize::try_from(start).unwrap_or(0);
    let max = usize::try_from(max).unwrap_or(1);
    if start >= total {
        return "<error>No more content available.</error>".to_owned();
    }
    let taken: String = content.chars().skip(start).take(max).collect();
    let got = taken.chars().count();
    let remaining = total - (start + got);
    let mut out = taken;
    if got == max && remaining > 0 {
        out.push_str(&format!(
            "\n\n<error>Content truncated. Call the fetch tool with a start_index of {} to get more content.</error>",
            start + got
        ));
    }
    out
}

/// The `fetch` prompt's text: the page (robots.txt not consulted), or why it failed.
pub async fn prompt(s: &Settings, url: &str) -> String {
    let Ok(parsed) = Url::parse(url) else {
        return format!(
            "Failed to fetch {url}: UnsupportedProtocol('Request URL is missing an 'http://' or 'https://' protocol.')"
        );
    };
    let client = match s.client() {
        Ok(c) => c,
        Err(e) => return e,
    };
    let ua = s.user_agent.as_deref().unwrap_or(USER_AGENT_MANUAL);
    match fetch_url(s, &client, &parsed, ua, false, false).await {
        Ok((content, prefix)) => prefix + &content,
        Err(e) => e,
    }
}
