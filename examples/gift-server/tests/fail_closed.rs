//! Configuration the real `gift-server` binary cannot honour makes it refuse to start: its own
//! exit code (6), one clear line on stderr, nothing on stdout, nothing served. And the `Host`
//! allow-list from the environment on a server bound to every interface.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_gift-server");
const WAIT: Duration = Duration::from_secs(20);

/// The variables these tests set, removed from what the child inherits.
const CLEARED: [&str; 7] = [
    "RUST_LOG",
    "MCP_AUTH_ISSUER",
    "MCP_AUTH_AUDIENCE",
    "MCP_AUTH_ALLOW_JWT_TYP",
    "MCP_REDIS_URL",
    "MCP_ALLOWED_HOSTS",
    "MCP_ALLOW_UNPROTECTED",
];

fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    for name in CLEARED {
        cmd.env_remove(name);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// Runs `gift-server ARGS` with stdin closed and `env` set: exit code, stdout, stderr. A
/// command that served would wait for clients: the timeout is the proof it did not.
fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut child = command(args, env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gift-server runs");
    let (tx, rx) = channel();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    std::thread::spawn(move || {
        let (mut o, mut e) = (String::new(), String::new());
        let _ = out.read_to_string(&mut o);
        let _ = err.read_to_string(&mut e);
        let _ = tx.send((o, e));
    });
    let Ok((stdout, stderr)) = rx.recv_timeout(WAIT) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("gift-server {args:?} did not exit: it is serving");
    };
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, stdout, stderr)
}

/// Whether this binary was built with mcp-runtime's `auth` feature (tests/auth/run.sh builds
/// one so): its help says so.
fn built_with_auth() -> bool {
    run(&["help"], &[]).1.contains("MCP_AUTH_ISSUER")
}

#[test]
fn auth_variables_on_a_binary_without_auth_refuse_to_serve_http() {
    let issuer = ("MCP_AUTH_ISSUER", "https://auth.example.com");
    let audience = ("MCP_AUTH_AUDIENCE", "http://127.0.0.1:8000/mcp");
    if built_with_auth() {
        // The variables are honoured; half of them is a configuration error (5).
        let (code, stdout, stderr) = run(&["http", "127.0.0.1:0"], &[issuer]);
        assert_eq!((code, stdout.as_str()), (5, ""));
        assert!(
            stderr.starts_with("gift-server: MCP_AUTH_ISSUER is set but MCP_AUTH_AUDIENCE is not"),
            "{stderr}"
        );
        return;
    }
    let (code, stdout, stderr) = run(&["http", "127.0.0.1:0"], &[issuer, audience]);
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            6,
            "",
            "gift-server: MCP_AUTH_AUDIENCE, MCP_AUTH_ISSUER are set, but this binary was built without the `auth` feature of mcp-runtime: it cannot check bearer tokens and would serve everyone. Unset them, or build with the `auth` feature\n"
        )
    );
    let (code, stdout, stderr) = run(&["http", "127.0.0.1:0"], &[issuer]);
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            6,
            "",
            "gift-server: MCP_AUTH_ISSUER is set, but this binary was built without the `auth` feature of mcp-runtime: it cannot check bearer tokens and would serve everyone. Unset it, or build with the `auth` feature\n"
        )
    );
    // Blank is unset.
    let (code, _, stderr) = run(&["list"], &[("MCP_AUTH_ISSUER", " ")]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[cfg(not(feature = "redis"))]
#[test]
fn a_redis_url_on_a_binary_without_redis_refuses_every_command_but_help() {
    let url = [("MCP_REDIS_URL", "redis://127.0.0.1:1")];
    let refusal = "gift-server: MCP_REDIS_URL is set, but this binary was built without the `redis` feature of mcp-runtime: it cannot share its sessions with other replicas. Unset MCP_REDIS_URL, or build with the `redis` feature\n";
    for args in [&["http", "127.0.0.1:0"][..], &["stdio"], &[], &["list"]] {
        let (code, stdout, stderr) = run(args, &url);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (6, "", refusal),
            "{args:?}"
        );
    }
    let (code, stdout, stderr) = run(&["help"], &url);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(stdout.starts_with("usage: gift-server [COMMAND]\n"));
}

#[test]
fn help_lists_only_the_variables_this_binary_was_built_with() {
    let (code, help, _) = run(&["help"], &[]);
    assert_eq!(code, 0);
    for line in [
        "  6  the configuration asks for what this binary cannot do safely, so nothing is served:",
        "  MCP_LOG_MESSAGES=1       log every JSON message in and out on stderr\n",
        "  MCP_ALLOWED_HOSTS=H,...  `http` serves only these Host names (* for any); without it, a\n",
        "  MCP_ALLOW_UNPROTECTED=1  `http` serves items that declare scopes without authorization\n",
    ] {
        assert!(help.contains(line), "{line:?} in\n{help}");
    }
    assert_eq!(help.contains("MCP_AUTH_"), built_with_auth(), "{help}");
    assert_eq!(
        help.contains("MCP_REDIS_URL"),
        cfg!(feature = "redis"),
        "{help}"
    );
}

#[test]
fn a_malformed_allowed_hosts_list_refuses_to_serve() {
    let (code, stdout, stderr) = run(
        &["http", "127.0.0.1:0"],
        &[(
            "MCP_ALLOWED_HOSTS",
            "mcp.example.com,https://mcp.example.com",
        )],
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            5,
            "",
            "gift-server: MCP_ALLOWED_HOSTS: \"https://mcp.example.com\" is not a host: give the names clients reach this server by, with or without port, comma-separated (mcp.example.com,mcp.example.com:8443), or * for any host\n"
        )
    );
}

/// `gift-server http 0.0.0.0:0` with `env`, killed on drop.
struct Serving {
    child: Child,
    port: u16,
    notices: Vec<String>,
}

impl Serving {
    fn start(env: &[(&str, &str)]) -> Self {
        let mut child = command(&["http", "0.0.0.0:0"], env)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gift-server runs");
        let (tx, rx) = channel();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // Owned at once: killed on drop, whatever happens next.
        let mut serving = Self {
            child,
            port: 0,
            notices: Vec::new(),
        };
        loop {
            let line = rx
                .recv_timeout(WAIT)
                .expect("gift-server says where it serves");
            if let Some(rest) =
                line.strip_prefix("serving MCP over Streamable HTTP at http://0.0.0.0:")
            {
                serving.port = rest.trim_end_matches("/mcp").parse().unwrap();
                return serving;
            }
            serving.notices.push(line);
        }
    }

    /// An `initialize` POST to `127.0.0.1:PORT` naming `host`: the status.
    fn status_for(&self, host: &str) -> u16 {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let mut tcp = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        tcp.set_read_timeout(Some(WAIT)).unwrap();
        write!(
            tcp,
            "POST /mcp HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).unwrap();
        answer[9..12].parse().unwrap()
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn on_every_interface_the_hosts_of_mcp_allowed_hosts_are_served_and_no_other_name() {
    let s = Serving::start(&[(
        "MCP_ALLOWED_HOSTS",
        "gifts.example.com, mcp.example.com:8443",
    )]);
    assert_eq!(s.notices, Vec::<String>::new());
    assert_eq!(s.status_for(&format!("gifts.example.com:{}", s.port)), 200);
    assert_eq!(s.status_for("mcp.example.com:8443"), 200);
    assert_eq!(s.status_for("mcp.example.com:9000"), 403);
    assert_eq!(s.status_for(&format!("evil.example:{}", s.port)), 403);
    assert_eq!(s.status_for(&format!("127.0.0.1:{}", s.port)), 403);
    drop(s);
    // Without the list: IP addresses only, and the server says so when it starts.
    let s = Serving::start(&[]);
    assert_eq!(
        s.notices,
        [format!(
            "bound to 0.0.0.0:{}: requests naming this server by IP address are served; name its host names in MCP_ALLOWED_HOSTS (comma-separated) to serve those",
            s.port
        )]
    );
    assert_eq!(s.status_for(&format!("127.0.0.1:{}", s.port)), 200);
    assert_eq!(s.status_for(&format!("gifts.example.com:{}", s.port)), 403);
    // `*`: any host (a proxy in front checks it).
    let s = Serving::start(&[("MCP_ALLOWED_HOSTS", "*")]);
    assert_eq!(s.status_for(&format!("evil.example:{}", s.port)), 200);
}

/// `gift-server` with `env` set (no other `OTEL_*` variable): exit code, stdout, stderr.
fn with_otel(env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(BIN);
    command.args(args).env_remove("RUST_LOG");
    for name in [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
        "OTEL_TRACES_SAMPLER",
        "OTEL_TRACES_SAMPLER_ARG",
        "OTEL_SERVICE_NAME",
    ] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    let out = command.stdin(Stdio::null()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn malformed_otel_variables_refuse_to_start() {
    let endpoint = ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9");
    assert_eq!(
        with_otel(
            &[endpoint, ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")],
            &["stdio"]
        ),
        (
            6,
            String::new(),
            "gift-server: OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this binary exports over OTLP/HTTP \
             only (http/protobuf or http/json)\n"
                .to_owned()
        )
    );
    assert_eq!(
        with_otel(
            &[endpoint, ("OTEL_TRACES_SAMPLER", "sometimes")],
            &["stdio"]
        )
        .0,
        5
    );
    assert_eq!(
        with_otel(
            &[("OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318")],
            &["stdio"]
        ),
        (
            5,
            String::new(),
            "gift-server: OTEL_EXPORTER_OTLP_ENDPOINT=\"localhost:4318/v1/traces\": expected an \
             http:// or https:// URL\n"
                .to_owned()
        )
    );
    // Without an endpoint the other variables are not read: the server serves (stdin closed).
    assert_eq!(
        with_otel(&[("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")], &["stdio"]).0,
        0
    );
}
