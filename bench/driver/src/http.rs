//! The Streamable HTTP client: `connections` keep-alive connections sharing one session, each
//! sending its next call when the previous reply is in; replies as plain JSON or as an SSE
//! stream, as the server chooses, every one checked. One thread drives every connection.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};

use crate::Sample;
use crate::servers::{self, Server};
use crate::workload::{self, Era};

/// One keep-alive connection to the server.
pub struct Conn {
    send: SendRequest<Full<Bytes>>,
    host: String,
}

/// What a reply came as.
pub struct Answer {
    pub status: StatusCode,
    pub session: Option<String>,
    pub body: String,
    pub sse: bool,
}

impl Conn {
    pub async fn open(addr: &str) -> Result<Self, String> {
        let tcp = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}"))?;
        Self::over(tcp, addr).await
    }

    /// A connection over a TCP stream already connected to `addr`.
    pub async fn over(tcp: tokio::net::TcpStream, addr: &str) -> Result<Self, String> {
        let _ = tcp.set_nodelay(true);
        let io = hyper_util::rt::TokioIo::new(tcp);
        let (send, conn) = hyper::client::conn::http1::handshake(io)
            .await
            .map_err(|e| format!("handshake: {e}"))?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(Self {
            send,
            host: addr.to_owned(),
        })
    }

    /// POSTs one message to `/mcp`.
    pub async fn post(
        &mut self,
        body: Vec<u8>,
        session: Option<&str>,
        version: Option<&str>,
    ) -> Result<Answer, String> {
        self.post_with(body, session, version, &[]).await
    }

    /// [`post`](Self::post) with more headers (the stateless era's `Mcp-Method`, `Mcp-Name`).
    pub async fn post_with(
        &mut self,
        body: Vec<u8>,
        session: Option<&str>,
        version: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<Answer, String> {
        let mut req = Request::post("/mcp")
            .header("host", &self.host)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(s) = session {
            req = req.header("mcp-session-id", s);
        }
        if let Some(v) = version {
            req = req.header("mcp-protocol-version", v);
        }
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let req = req
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| e.to_string())?;
        self.send.ready().await.map_err(|e| e.to_string())?;
        let resp = self
            .send
            .send_request(req)
            .await
            .map_err(|e| format!("request: {e}"))?;
        let status = resp.status();
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let session = header("mcp-session-id");
        let sse = header("content-type").is_some_and(|t| t.starts_with("text/event-stream"));
        let bytes = resp
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("body: {e}"))?
            .to_bytes();
        let body = String::from_utf8(bytes.to_vec()).map_err(|_| "body is not UTF-8")?;
        Ok(Answer {
            status,
            session,
            body,
            sse,
        })
    }
}

/// The one reply to request `id` in an answer; `check` judges it.
pub fn reply_to(
    answer: &Answer,
    id: u64,
    check: impl FnOnce(&str) -> Result<(), String>,
) -> Result<(), String> {
    if answer.status != StatusCode::OK {
        return Err(format!(
            "HTTP {} to request {id}: {}",
            answer.status, answer.body
        ));
    }
    let messages = workload::messages(&answer.body, answer.sse);
    let mine: Vec<&str> = messages
        .into_iter()
        .filter(|m| workload::reply_id(m).ok() == Some(id))
        .collect();
    match mine.as_slice() {
        [one] => check(one),
        _ => Err(format!("no single reply to {id} in: {}", answer.body)),
    }
}

/// The session every connection shares: `initialize`, `notifications/initialized`, `tools/list`
/// (the stateless era: no session, only the version).
pub struct Session {
    pub id: Option<String>,
    pub version: String,
    pub era: Era,
}

/// The stateless era's start: one `tools/list`, no session.
async fn discover(conn: &mut Conn) -> Result<Session, String> {
    let headers = [("mcp-method", "tools/list")];
    let v = Some(workload::STATELESS_VERSION);
    let body = workload::list_stateless_first().into_bytes();
    let answer = conn.post_with(body, None, v, &headers).await?;
    reply_to(&answer, 1, workload::check_list_stateless)?;
    Ok(Session {
        id: None,
        version: workload::STATELESS_VERSION.to_owned(),
        era: Era::Stateless,
    })
}

/// Opens a session on `conn`, as a client does.
pub async fn handshake(conn: &mut Conn) -> Result<Session, String> {
    let answer = conn
        .post(workload::initialize().into_bytes(), None, None)
        .await?;
    let mut version = String::new();
    reply_to(&answer, 0, |m| {
        workload::check_initialize(m).map(|v| version = v)
    })?;
    let session = Session {
        id: answer.session,
        version,
        era: Era::Handshake,
    };
    let sid = session.id.as_deref();
    let v = Some(session.version.as_str());
    let answer = conn.post(workload::INITIALIZED.into(), sid, v).await?;
    if !answer.status.is_success() {
        return Err(format!("initialized: HTTP {}", answer.status));
    }
    let answer = conn.post(workload::LIST.into(), sid, v).await?;
    reply_to(&answer, 1, workload::check_list)?;
    Ok(session)
}

/// When the calls stop: at a deadline, or once the ids reach a limit.
#[derive(Clone, Copy)]
struct Stop {
    deadline: Instant,
    last_id: u64,
}

impl Stop {
    fn at(deadline: Instant) -> Self {
        Self {
            deadline,
            last_id: u64::MAX,
        }
    }
}

/// Calls until `stop` on one connection; returns the latencies in nanoseconds.
async fn calls(
    conn: &mut Conn,
    session: &Session,
    ids: &AtomicU64,
    stop: Stop,
) -> Result<Vec<u64>, String> {
    let mut latencies = Vec::new();
    while Instant::now() < stop.deadline {
        let id = ids.fetch_add(1, Ordering::Relaxed);
        if id > stop.last_id {
            break;
        }
        let sent = Instant::now();
        call(conn, session, id).await?;
        latencies.push(sent.elapsed().as_nanos() as u64);
    }
    Ok(latencies)
}

/// One checked call of `echo`.
async fn call(conn: &mut Conn, session: &Session, id: u64) -> Result<(), String> {
    let mut body = Vec::with_capacity(320);
    workload::call_in(session.era, &mut body, id);
    let v = Some(session.version.as_str());
    let headers: &[(&str, &str)] = match session.era {
        Era::Handshake => &[],
        Era::Stateless => &[("mcp-method", "tools/call"), ("mcp-name", "echo")],
    };
    let answer = conn
        .post_with(body, session.id.as_deref(), v, headers)
        .await?;
    reply_to(&answer, id, |m| workload::check_call_in(session.era, m, id))
}

/// Every connection calling until `deadline`; the connections back, and all latencies.
async fn all_calls(
    conns: Vec<Conn>,
    session: &Arc<Session>,
    ids: &Arc<AtomicU64>,
    stop: Stop,
) -> Result<(Vec<Conn>, Vec<u64>), String> {
    let mut tasks = tokio::task::JoinSet::new();
    for mut conn in conns {
        let (session, ids) = (Arc::clone(session), Arc::clone(ids));
        tasks.spawn_local(async move {
            let r = calls(&mut conn, &session, &ids, stop).await;
            (conn, r)
        });
    }
    let (mut back, mut latencies) = (Vec::new(), Vec::new());
    let mut failure = None;
    while let Some(done) = tasks.join_next().await {
        let (conn, r) = done.map_err(|e| e.to_string())?;
        back.push(conn);
        match r {
            Ok(l) => latencies.extend(l),
            Err(e) => failure = Some(e),
        }
    }
    failure.map_or(Ok((back, latencies)), Err)
}

/// Waits until the server accepts connections (it may take a while to start).
pub async fn wait_listening(addr: &str, timeout: Duration) -> Result<(), String> {
    let until = Instant::now() + timeout;
    loop {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return Ok(());
        }
        if Instant::now() > until {
            return Err(format!("nothing listens on {addr} after {timeout:?}"));
        }
        tokio::time::sleep(Duration::from_micros(500)).await;
    }
}

/// One measured run: spawn, wait for the port, handshake, warm up, then `secs` of calls on
/// `connections` connections.
pub fn run(
    server: &Server,
    connections: usize,
    secs: f64,
    log: &Path,
    era: Era,
) -> Result<Sample, String> {
    measure(server, connections, Budget::Seconds(secs), log, era)
}

/// Exactly `calls` calls on `connections` connections, no warm-up (for profilers).
pub fn run_calls(
    server: &Server,
    connections: usize,
    calls: u64,
    log: &Path,
    era: Era,
) -> Result<Sample, String> {
    measure(server, connections, Budget::Calls(calls), log, era)
}

enum Budget {
    Seconds(f64),
    Calls(u64),
}

fn measure(
    server: &Server,
    connections: usize,
    budget: Budget,
    log: &Path,
    era: Era,
) -> Result<Sample, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let local = tokio::task::LocalSet::new();
    let ticks = servers::clock_ticks();
    let addr = servers::free_addr()?;
    let spawned = Instant::now();
    let child = server.spawn_http(&addr, log)?;
    let pid = child.id();
    let outcome = local.block_on(&rt, async {
        wait_listening(&addr, Duration::from_secs(120)).await?;
        let mut first = Conn::open(&addr).await?;
        let session = Arc::new(match era {
            Era::Handshake => handshake(&mut first).await?,
            Era::Stateless => discover(&mut first).await?,
        });
        let startup = spawned.elapsed();
        let mut conns = vec![first];
        for _ in 1..connections {
            conns.push(Conn::open(&addr).await?);
        }
        let ids = Arc::new(AtomicU64::new(workload::FIRST_CALL));
        let stop = match budget {
            Budget::Seconds(secs) => {
                let warm = Stop::at(Instant::now() + Duration::from_millis(300));
                conns = all_calls(conns, &session, &ids, warm).await?.0;
                Stop::at(Instant::now() + Duration::from_secs_f64(secs))
            }
            Budget::Calls(n) => Stop {
                deadline: Instant::now() + Duration::from_secs(24 * 3600),
                last_id: workload::FIRST_CALL + n - 1,
            },
        };
        let cpu = servers::cpu_seconds(pid, ticks);
        let client_cpu = servers::cpu_seconds(std::process::id(), ticks);
        let started = Instant::now();
        let (_, latencies) = all_calls(conns, &session, &ids, stop).await?;
        let wall = started.elapsed().as_secs_f64();
        let cpu = servers::cpu_seconds(pid, ticks) - cpu;
        let client_cpu = servers::cpu_seconds(std::process::id(), ticks) - client_cpu;
        Ok::<_, String>(Sample {
            calls: latencies.len() as u64,
            wall,
            cpu,
            client_cpu,
            latencies,
            peak_rss_kib: servers::status_kib(pid, "VmHWM"),
            startup: startup.as_secs_f64(),
        })
    });
    servers::stop(child);
    outcome.map_err(|e| format!("{} over HTTP: {e}", server.key))
}

/// Memory per idle session: `count` sessions opened (`initialize` + `initialized`) on 8
/// connections and left idle; the growth of the resident set divided by `count`. Returns
/// (KiB per session, sessions opened).
pub fn idle_sessions(server: &Server, count: usize, log: &Path) -> Result<(f64, usize), String> {
    if count < 2 {
        return Err("idle sessions: open at least 2".to_owned());
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let local = tokio::task::LocalSet::new();
    let addr = servers::free_addr()?;
    let child = server.spawn_http(&addr, log)?;
    let pid = child.id();
    let outcome = local.block_on(&rt, async {
        wait_listening(&addr, Duration::from_secs(60)).await?;
        let mut conn = Conn::open(&addr).await?;
        let first = handshake(&mut conn).await?;
        call(&mut conn, &first, workload::FIRST_CALL).await?;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let before = servers::status_kib(pid, "VmRSS");
        let lanes = 8;
        let opened = Arc::new(AtomicU64::new(1));
        let mut tasks = tokio::task::JoinSet::new();
        for lane in 0..lanes {
            let addr = addr.clone();
            let opened = Arc::clone(&opened);
            let n = (count - 1) / lanes + usize::from(lane < (count - 1) % lanes);
            tasks.spawn_local(async move {
                let mut conn = Conn::open(&addr).await?;
                for _ in 0..n {
                    let s = handshake_only(&mut conn).await?;
                    if s.is_none() {
                        return Err("initialize answered without a session id".to_owned());
                    }
                    opened.fetch_add(1, Ordering::Relaxed);
                }
                Ok::<_, String>(())
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.map_err(|e| e.to_string())??;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let after = servers::status_kib(pid, "VmRSS");
        let n = opened.load(Ordering::Relaxed) as usize;
        // The sessions are still live: the first one still answers.
        call(&mut conn, &first, workload::FIRST_CALL + 1).await?;
        Ok::<_, String>((after.saturating_sub(before) as f64 / (n - 1) as f64, n))
    });
    servers::stop(child);
    outcome.map_err(|e| format!("{} idle sessions: {e}", server.key))
}

/// `initialize` + `notifications/initialized`, as a client opening a session; the session id.
async fn handshake_only(conn: &mut Conn) -> Result<Option<String>, String> {
    let answer = conn
        .post(workload::initialize().into_bytes(), None, None)
        .await?;
    let mut version = String::new();
    reply_to(&answer, 0, |m| {
        workload::check_initialize(m).map(|v| version = v)
    })?;
    let sid = answer.session;
    let a = conn
        .post(workload::INITIALIZED.into(), sid.as_deref(), Some(&version))
        .await?;
    if !a.status.is_success() {
        return Err(format!("initialized: HTTP {}", a.status));
    }
    Ok(sid)
}
