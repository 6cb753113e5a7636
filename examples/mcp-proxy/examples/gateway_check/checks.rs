//! The checks of one client (one era) through one gateway.

use super::*;

/// The checks passed and failed, one line each.
#[derive(Default)]
pub(crate) struct Report {
    pub(crate) passed: usize,
    pub(crate) failed: usize,
}

impl Report {
    pub(crate) fn record(&mut self, label: &str, outcome: Result<(), String>) {
        match outcome {
            Ok(()) => {
                self.passed += 1;
                println!("  ok   {label}");
            }
            Err(e) => {
                self.failed += 1;
                println!("  FAIL {label}: {e}");
            }
        }
    }
}

pub(crate) async fn run(g: &Gateway, era: ProtocolVersion, report: &mut Report) {
    let label = |what: &str| format!("{} / client {era}: {what}", g.label);
    let c = match g.client(era).await {
        Ok(c) => c,
        Err(e) => return report.record(&label("connect"), Err(e)),
    };
    report.record(&label("capabilities"), capabilities(g, &c));
    report.record(&label("completion"), completion(g, &c).await);
    report.record(&label("logging at the level set"), logging(g, &c).await);
    report.record(&label("subscription and update"), subscription(g, &c).await);
    report.record(&label("list change"), list_change(g, &c).await);
    let (progress, cancelled) = progress_and_cancellation(g, &c).await;
    report.record(&label("progress"), progress);
    report.record(&label("cancellation"), cancelled);
    c.close().await;
}

fn same(got: Value, want: Value) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("got {got}, want {want}"))
    }
}

fn capabilities(g: &Gateway, c: &Client) -> Result<(), String> {
    let got = serde_json::to_value(c.server_capabilities()).unwrap_or_default();
    same(got, projected(&g.declared)).map_err(|e| format!("{e} (the backend: {})", g.declared))
}

async fn complete(c: &Client, p: Value) -> Result<Value, String> {
    let r = c.complete(&params(p)).await.map_err(|e| e.to_string())?;
    Ok(serde_json::to_value(&r.completion).unwrap_or_default()["values"].clone())
}

async fn completion(g: &Gateway, c: &Client) -> Result<(), String> {
    let cases = match g.backend {
        Backend::Everything => vec![
            (
                json!({"ref": {"type": "ref/prompt", "name": g.name("completable-prompt")},
                    "argument": {"name": "department", "value": "S"}}),
                json!(["Sales", "Support"]),
            ),
            (
                json!({"ref": {"type": "ref/prompt", "name": g.name("completable-prompt")},
                    "argument": {"name": "name", "value": ""},
                    "context": {"arguments": {"department": "Engineering"}}}),
                json!(["Alice", "Bob", "Charlie"]),
            ),
            (
                json!({"ref": {"type": "ref/resource",
                            "uri": g.uri("demo://resource/dynamic/text/{resourceId}")},
                    "argument": {"name": "resourceId", "value": "12"}}),
                json!(["12"]),
            ),
        ],
        Backend::FastMcp => vec![
            (
                json!({"ref": {"type": "ref/prompt", "name": g.name("greet")},
                    "argument": {"name": "name", "value": "A"}}),
                json!(["Ada", "Alan"]),
            ),
            (
                json!({"ref": {"type": "ref/resource", "uri": g.uri("note://{id}")},
                    "argument": {"name": "id", "value": "7"}}),
                json!(["7", "70"]),
            ),
        ],
    };
    if g.declared.get("completions").is_none() {
        let (p, _) = &cases[0];
        let err = c.complete(&params(p.clone())).await.err();
        let code = err.as_ref().and_then(|e| e.rpc()).map(|e| e.code);
        return same(json!(code), json!(-32601));
    }
    for (p, want) in cases {
        same(complete(c, p).await?, want)?;
    }
    Ok(())
}

/// `[level, text]` of a log message (FastMCP's data is `{"msg": …}`).
fn logged(m: &mcp_runtime::protocol::LoggingMessageNotificationParams) -> Value {
    let text = m.data.get("msg").unwrap_or(&m.data).clone();
    json!([level(m.level), text])
}

async fn call(c: &Client, name: &str, args: Value) -> Result<String, String> {
    let r = c.call_tool(name, args).await.map_err(|e| e.to_string())?;
    Ok(text(&r))
}

async fn logging(g: &Gateway, c: &Client) -> Result<(), String> {
    let mut notes = c.notifications();
    let stateless = c.protocol_version().is_stateless();
    match g.backend {
        Backend::FastMcp => {
            c.set_level(LoggingLevel::Warning)
                .await
                .map_err(|e| e.to_string())?;
            same(
                json!(call(c, &g.name("chatter"), json!({})).await?),
                json!("said"),
            )?;
            let mut seen = Vec::new();
            while seen.last().map(|l: &Value| l[0].clone()) != Some(json!("error")) {
                if let ServerNotification::Log(m) = next(&mut notes).await? {
                    seen.push(logged(&m));
                }
            }
            same(
                json!(seen),
                json!([["warning", "warning"], ["error", "error"]]),
            )
        }
        Backend::Everything if stateless => {
            // The first simulated message is sent while the call runs: at level debug, any.
            c.set_level(LoggingLevel::Debug)
                .await
                .map_err(|e| e.to_string())?;
            call(c, &g.name("toggle-simulated-logging"), json!({})).await?;
            let first = loop {
                if let ServerNotification::Log(m) = next(&mut notes).await? {
                    break m;
                }
            };
            call(c, &g.name("toggle-simulated-logging"), json!({})).await?;
            let text = logged(&first)[1].as_str().unwrap_or_default().to_owned();
            if text.contains("message") {
                Ok(())
            } else {
                Err(format!("unexpected message {text:?}"))
            }
        }
        Backend::Everything => {
            // A second session at debug sees the backend's info message about its
            // subscription; this one, at warning, does not: the update that follows comes
            // first.
            let verbose = g.client(OLD).await?;
            let mut loud = verbose.notifications();
            verbose
                .set_level(LoggingLevel::Debug)
                .await
                .map_err(|e| e.to_string())?;
            c.set_level(LoggingLevel::Warning)
                .await
                .map_err(|e| e.to_string())?;
            let uri = g.uri("demo://resource/static/document/architecture.md");
            verbose.subscribe(&uri).await.map_err(|e| e.to_string())?;
            let info = loop {
                if let ServerNotification::Log(m) = next(&mut loud).await? {
                    break logged(&m);
                }
            };
            if info[0] != json!("info") || !info[1].to_string().contains("Subscribe") {
                return Err(format!("the debug session got {info}"));
            }
            c.subscribe(&uri).await.map_err(|e| e.to_string())?;
            call(c, &g.name("toggle-subscriber-updates"), json!({})).await?;
            let outcome = loop {
                match next(&mut notes).await? {
                    ServerNotification::ResourceUpdated(p) => break same(json!(p.uri), json!(uri)),
                    ServerNotification::Log(m) if m.level < LoggingLevel::Warning => {
                        break Err(format!("relayed below the level: {}", logged(&m)));
                    }
                    _ => {}
                }
            };
            call(c, &g.name("toggle-subscriber-updates"), json!({})).await?;
            let _ = c.unsubscribe(&uri).await;
            verbose.close().await;
            outcome
        }
    }
}

async fn subscription(g: &Gateway, c: &Client) -> Result<(), String> {
    let mut notes = c.notifications();
    let stateless = c.protocol_version().is_stateless();
    let (uri, backend_uri) = match g.backend {
        Backend::Everything => {
            let u = "demo://resource/static/document/architecture.md";
            (g.uri(u), u)
        }
        Backend::FastMcp => (g.uri("note://7"), "note://7"),
    };
    let subscribable = g.declared["resources"]["subscribe"] == json!(true);
    let _listener = if stateless {
        let mut filter = SubscriptionFilter::new();
        filter.resource_subscriptions = Some(vec![uri.clone()]);
        let listener = c.listen(filter).map_err(|e| e.to_string())?;
        let ack = loop {
            if let ServerNotification::Other { method, params } = next(&mut notes).await?
                && method == "notifications/subscriptions/acknowledged"
            {
                break params.unwrap_or_default();
            }
        };
        let want = if subscribable {
            json!([uri])
        } else {
            json!([])
        };
        same(ack["notifications"]["resourceSubscriptions"].clone(), want)?;
        Some(listener)
    } else {
        match c.subscribe(&uri).await {
            Ok(_) if subscribable => {}
            Err(e) if !subscribable => {
                let code = e.rpc().map(|e| e.code);
                return same(json!(code), json!(-32602));
            }
            other => return Err(format!("subscribe: {other:?}")),
        }
        None
    };
    if !subscribable {
        return Ok(());
    }
    let _ = backend_uri;
    match g.backend {
        Backend::Everything => {
            call(c, &g.name("toggle-subscriber-updates"), json!({})).await?;
        }
        Backend::FastMcp => {
            call(c, &g.name("touch"), json!({"id": 8})).await?;
            call(c, &g.name("touch"), json!({"id": 7})).await?;
        }
    }
    let outcome = loop {
        if let ServerNotification::ResourceUpdated(p) = next(&mut notes).await? {
            break same(json!(p.uri), json!(uri));
        }
    };
    if g.backend == Backend::Everything {
        call(c, &g.name("toggle-subscriber-updates"), json!({})).await?;
    }
    if !stateless {
        let _ = c.unsubscribe(&uri).await;
    }
    outcome
}

async fn list_change(g: &Gateway, c: &Client) -> Result<(), String> {
    let list = match g.backend {
        Backend::Everything => "resources",
        Backend::FastMcp => "tools",
    };
    if g.declared[list]["listChanged"] != json!(true) {
        return Ok(()); // not declared by the backend, so not by the gateway either
    }
    let mut notes = c.notifications();
    let mut added = String::new();
    let _listener = if c.protocol_version().is_stateless() {
        let mut filter = SubscriptionFilter::new();
        filter.tools_list_changed = Some(true);
        filter.resources_list_changed = Some(true);
        let listener = c.listen(filter).map_err(|e| e.to_string())?;
        acknowledged(&mut notes).await?;
        Some(listener)
    } else {
        None
    };
    let want = match g.backend {
        Backend::Everything => {
            // A name of its own: the list changes only with a new resource.
            let name = format!("hi-{}.gz", c.protocol_version());
            let args = json!({"name": name, "data": "data:text/plain;base64,aGk="});
            call(c, &g.name("gzip-file-as-resource"), args).await?;
            ServerNotification::ResourcesListChanged
        }
        Backend::FastMcp => {
            added = call(c, &g.name("grow"), json!({})).await?;
            ServerNotification::ToolsListChanged
        }
    };
    loop {
        if next(&mut notes).await? == want {
            break;
        }
    }
    if g.backend == Backend::FastMcp {
        // The new tool is listed and served.
        let tools = c.list_tools().await.map_err(|e| e.to_string())?;
        if !tools.iter().any(|t| t.name == g.name(&added)) {
            return Err(format!("{added} is not listed"));
        }
        same(
            json!(call(c, &g.name(&added), json!({})).await?),
            json!("late"),
        )?;
    }
    Ok(())
}

/// Waits (within [`WAIT`]) until `done` says so.
async fn eventually(mut done: impl AsyncFnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + WAIT;
    while tokio::time::Instant::now() < deadline {
        if done().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

async fn progress_and_cancellation(
    g: &Gateway,
    c: &Client,
) -> (Result<(), String>, Result<(), String>) {
    let (name, args, first) = match g.backend {
        Backend::Everything => (
            g.name("trigger-long-running-operation"),
            json!({"duration": 30, "steps": 30}),
            json!([1.0, 30.0, null]),
        ),
        Backend::FastMcp => (g.name("hold"), json!({}), json!([1.0, 2.0, "holding"])),
    };
    let progress = if g.backend == Backend::Everything {
        // Every step, in order.
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = seen.clone();
        let r = c
            .call_tool(&name, json!({"duration": 1, "steps": 2}))
            .progress(move |p| log.lock().unwrap().push(json!([p.progress, p.total])))
            .await;
        let got = json!(*seen.lock().unwrap());
        r.map_err(|e| e.to_string())
            .and_then(|_| same(got, json!([[1.0, 2.0], [2.0, 2.0]])))
    } else {
        Ok(())
    };
    let before_count = match g.backend {
        Backend::FastMcp => call(c, &g.name("cancellations"), json!({})).await,
        Backend::Everything => Ok(String::new()),
    };
    let before = g.cancels_sent();
    let (tx, mut rx) = tokio::sync::mpsc::channel(4);
    let running = tokio::spawn(
        c.call_tool(&name, args)
            .progress(move |p| {
                let _ = tx.try_send(json!([p.progress, p.total, p.message]));
            })
            .into_future(),
    );
    let got = tokio::time::timeout(WAIT, rx.recv()).await.ok().flatten();
    running.abort();
    let progress = progress.and_then(|()| same(json!(got), first));
    let sent = eventually(async || g.cancels_sent() > before).await;
    let cancelled = if !sent {
        Err("the backend was not sent notifications/cancelled".into())
    } else if g.backend == Backend::FastMcp {
        let before: u64 = before_count
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(u64::MAX);
        let counted = eventually(async || {
            let now = call(c, &g.name("cancellations"), json!({})).await;
            now.ok().and_then(|s| s.parse::<u64>().ok()) == Some(before + 1)
        })
        .await;
        if counted {
            Ok(())
        } else {
            Err("the backend's tool was not cancelled".into())
        }
    } else {
        Ok(())
    };
    (progress, cancelled)
}
