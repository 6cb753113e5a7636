//! Tools run as tasks, in both eras: creation, polling, results, cancellation (the handler is
//! dropped), TTL expiry, bounds on live tasks, isolation between sessions and subjects, and a
//! result fetched after the connection that created the task closed (HTTP).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_runtime::prelude::*;
use mcp_runtime::tasks::{TaskLimits, TaskOptions};
use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};

/// Counts the drops of a guard held by a handler.
struct Guard(&'static AtomicUsize);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

static HOLD_DROPS: AtomicUsize = AtomicUsize::new(0);
static TTL_DROPS: AtomicUsize = AtomicUsize::new(0);

/// Answers after `ms` milliseconds.
#[tool(task = "optional")]
async fn wait(ctx: Context, ms: u64) -> String {
    ctx.report_status("waiting").await;
    ctx.progress(1.0, Some(2.0), None).await;
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!(
        "waited {ms} ms in {}",
        ctx.task_id().map_or("no task", |_| "a task")
    )
}

/// Holds its guard for a minute.
#[tool(task = "optional")]
async fn hold() -> String {
    let _guard = Guard(&HOLD_DROPS);
    tokio::time::sleep(Duration::from_secs(60)).await;
    "held".into()
}

/// Holds its guard for a minute (the TTL test's own).
#[tool(task = "optional")]
async fn outlive() -> String {
    let _guard = Guard(&TTL_DROPS);
    tokio::time::sleep(Duration::from_secs(60)).await;
    "outlived".into()
}

/// Runs only as a task.
#[tool(task = "required")]
async fn only_task() -> String {
    "ran".into()
}

/// Never a task.
#[tool]
async fn plain() -> String {
    "plain".into()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Answer {
    answer: String,
}

/// Asks a question once running as a task.
#[tool(task = "optional")]
async fn ask(ctx: Context) -> Result<String, ToolError> {
    ctx.continue_as_task().await;
    let a = ctx.elicit::<Answer>("Well?").key("well").await?;
    Ok(format!(
        "answer: {}",
        a.accepted().map_or(String::new(), |a| a.answer)
    ))
}

fn server(options: TaskOptions) -> Server {
    Server::builder(server_info!())
        .tool(wait::TOOL)
        .tool(hold::TOOL)
        .tool(outlive::TOOL)
        .tool(only_task::TOOL)
        .tool(plain::TOOL)
        .tool(ask::TOOL)
        .tasks(options.with_poll_interval(Duration::from_millis(20)))
        .build()
        .unwrap()
}

async fn session(server: &Server) -> TestClient {
    let mut c = server.connect_in_memory();
    let init = c.initialize("2025-11-25").await;
    assert_eq!(
        init["result"]["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{init}"
    );
    c
}

fn result(response: &Value) -> &Value {
    assert!(
        response.get("error").is_none(),
        "unexpected error: {response}"
    );
    &response["result"]
}

fn error(response: &Value) -> (i64, String) {
    let e = &response["error"];
    assert!(e.is_object(), "expected an error: {response}");
    (
        e["code"].as_i64().unwrap(),
        e["message"].as_str().unwrap().to_owned(),
    )
}

async fn create(c: &mut TestClient, tool: &str, args: Value, task: Value) -> String {
    let r = c
        .request(
            "tools/call",
            json!({"name": tool, "arguments": args, "task": task, "_meta": {"progressToken": "p"}}),
        )
        .await;
    let task = &result(&r)["task"];
    assert_eq!(task["status"], "working", "{r}");
    task["taskId"].as_str().unwrap().to_owned()
}

async fn eventually(mut check: impl FnMut() -> bool) {
    for _ in 0..200 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the condition did not hold within 2 s");
}

#[tokio::test]
async fn handshake_task_from_creation_to_result() {
    let server = server(TaskOptions::default());
    let mut c = session(&server).await;
    let tools = c.request("tools/list", json!({})).await;
    let wait = result(&tools)["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "wait")
        .unwrap()
        .clone();
    assert_eq!(wait["execution"], json!({"taskSupport": "optional"}));

    let id = create(&mut c, "wait", json!({"ms": 50}), json!({"ttl": 60_000})).await;
    let got = c.request("tasks/get", json!({"taskId": id})).await;
    let got = result(&got);
    assert_eq!(
        [&got["taskId"], &got["ttl"], &got["pollInterval"]],
        [&json!(id), &json!(60_000), &json!(20)]
    );
    assert!(
        got.get("_meta").is_none(),
        "no related-task _meta on tasks/get: {got}"
    );

    let r = c.request("tasks/result", json!({"taskId": id})).await;
    assert_eq!(
        result(&r),
        &json!({
            "content": [{"type": "text", "text": "waited 50 ms in a task"}],
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": id}}
        })
    );
    // Progress and status notifications went to the session, tagged with the task (the last
    // may follow the result).
    let mut notes = c.notifications();
    while !notes.iter().any(|n| n["params"]["status"] == "completed") {
        let next = c.recv().await.expect("the completed status is notified");
        notes.push(next);
    }
    let progress = notes
        .iter()
        .find(|n| n["method"] == "notifications/progress")
        .expect("progress from the task");
    assert_eq!(progress["params"]["progressToken"], "p");
    assert_eq!(
        progress["params"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        json!(id)
    );
    let statuses: Vec<&Value> = notes
        .iter()
        .filter(|n| n["method"] == "notifications/tasks/status")
        .map(|n| &n["params"]["status"])
        .collect();
    assert_eq!(statuses.last(), Some(&&json!("completed")), "{notes:?}");

    let list = c.request("tasks/list", json!({})).await;
    assert_eq!(result(&list)["tasks"][0]["taskId"], json!(id));
    let (code, message) = error(&c.request("tasks/cancel", json!({"taskId": id})).await);
    assert_eq!(
        (code, message.as_str()),
        (
            -32602,
            "Cannot cancel task: already in terminal status 'completed'"
        )
    );
}

#[tokio::test]
async fn cancellation_drops_the_handler() {
    let server = server(TaskOptions::default());
    let mut c = session(&server).await;
    let id = create(&mut c, "hold", json!({}), json!({})).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(HOLD_DROPS.load(Ordering::SeqCst), 0, "still running");
    let r = c.request("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(result(&r)["status"], "cancelled");
    eventually(|| HOLD_DROPS.load(Ordering::SeqCst) == 1).await;
    let got = c.request("tasks/get", json!({"taskId": id})).await;
    assert_eq!(result(&got)["status"], "cancelled");
    let (code, _) = error(&c.request("tasks/result", json!({"taskId": id})).await);
    assert_eq!(code, -32602);
}

#[tokio::test]
async fn ttl_expiry_forgets_the_task_and_stops_its_handler() {
    let server = server(TaskOptions::default().with_max_ttl(Duration::from_millis(300)));
    let mut c = session(&server).await;
    let r = c
        .request(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 10}, "task": {"ttl": 3_600_000}}),
        )
        .await;
    assert_eq!(result(&r)["task"]["ttl"], 300, "the TTL is capped");
    let done = result(&r)["task"]["taskId"].as_str().unwrap().to_owned();
    let running = create(&mut c, "outlive", json!({}), json!({})).await;
    let r = c.request("tasks/result", json!({"taskId": done})).await;
    assert_eq!(result(&r)["content"][0]["text"], "waited 10 ms in a task");
    tokio::time::sleep(Duration::from_millis(400)).await;
    for id in [&done, &running] {
        let (code, message) = error(&c.request("tasks/get", json!({"taskId": id})).await);
        assert_eq!(code, -32602);
        assert!(message.starts_with("Failed to retrieve task"), "{message}");
    }
    eventually(|| TTL_DROPS.load(Ordering::SeqCst) == 1).await;
}

#[tokio::test]
async fn live_tasks_are_bounded_per_session_and_overall() {
    let limits = TaskLimits::default()
        .with_live_per_owner(2)
        .with_live_total(3);
    let server = server(TaskOptions::default().with_limits(limits));
    let mut a = session(&server).await;
    let mut b = session(&server).await;
    let first = create(&mut a, "wait", json!({"ms": 60_000}), json!({})).await;
    create(&mut a, "wait", json!({"ms": 60_000}), json!({})).await;
    let refused = a
        .request(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 1}, "task": {}}),
        )
        .await;
    assert_eq!(
        error(&refused),
        (
            -32600,
            "too many tasks: at most 2 unfinished tasks per client".into()
        )
    );
    create(&mut b, "wait", json!({"ms": 60_000}), json!({})).await;
    let refused = b
        .request(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 1}, "task": {}}),
        )
        .await;
    assert_eq!(
        error(&refused),
        (
            -32600,
            "too many tasks: at most 3 unfinished tasks on the server".into()
        )
    );
    // A plain call is not a task: never refused by the bounds.
    let r = b.call_tool("wait", json!({"ms": 1})).await;
    assert_eq!(result(&r)["content"][0]["text"], "waited 1 ms in no task");
    // A cancelled task no longer counts.
    a.request("tasks/cancel", json!({"taskId": first})).await;
    create(&mut a, "wait", json!({"ms": 1}), json!({})).await;
}

#[tokio::test]
async fn sessions_never_see_each_others_tasks() {
    let server = server(TaskOptions::default());
    let mut a = session(&server).await;
    let mut b = session(&server).await;
    let id = create(&mut a, "wait", json!({"ms": 60_000}), json!({})).await;
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let (code, message) = error(&b.request(method, json!({"taskId": id})).await);
        assert_eq!(code, -32602, "{method}");
        assert!(message.contains("not yours"), "{message}");
    }
    assert_eq!(
        result(&b.request("tasks/list", json!({})).await)["tasks"],
        json!([])
    );
    let got = a.request("tasks/get", json!({"taskId": id})).await;
    assert_eq!(
        result(&got)["status"],
        "working",
        "b's attempts changed nothing"
    );
}

#[tokio::test]
async fn task_support_is_enforced_in_2025_11_25() {
    let server = server(TaskOptions::default());
    let mut c = session(&server).await;
    let (code, message) = error(&c.call_tool("only_task", json!({})).await);
    assert_eq!(code, -32601);
    assert!(
        message.contains("tool 'only_task' must run as a task"),
        "{message}"
    );
    let r = c
        .request(
            "tools/call",
            json!({"name": "plain", "arguments": {}, "task": {}}),
        )
        .await;
    let (code, message) = error(&r);
    assert_eq!(code, -32601);
    assert!(
        message.contains("does not support task execution"),
        "{message}"
    );
    let (code, _) = error(
        &c.request("tasks/update", json!({"taskId": "x", "inputResponses": {}}))
            .await,
    );
    assert_eq!(code, -32601, "tasks/update is of 2026-07-28");

    // Before 2025-11-25 there are no tasks: the `task` member is ignored.
    let mut old = server.connect_in_memory();
    let init = old.initialize("2025-06-18").await;
    assert!(
        init["result"]["capabilities"].get("tasks").is_none(),
        "{init}"
    );
    let r = old
        .request(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 1}, "task": {}}),
        )
        .await;
    assert_eq!(result(&r)["content"][0]["text"], "waited 1 ms in no task");
    let (code, _) = error(&old.request("tasks/get", json!({"taskId": "x"})).await);
    assert_eq!(code, -32601);
}

/// A stateless request declaring the tasks extension.
async fn modern(c: &mut TestClient, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}
        }
    });
    c.request(method, params).await
}

async fn until_status(c: &mut TestClient, id: &str, status: &str) -> Value {
    for _ in 0..200 {
        let got = modern(c, "tasks/get", json!({"taskId": id})).await;
        if result(&got)["status"] == status {
            return result(&got).clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} never reached {status}");
}

#[tokio::test]
async fn stateless_tasks_with_input_through_tasks_update() {
    let server = server(TaskOptions::default());
    let mut c = server.connect_in_memory();
    let created = modern(
        &mut c,
        "tools/call",
        json!({"name": "ask", "arguments": {}}),
    )
    .await;
    let created = result(&created).clone();
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["ttlMs"], 3_600_000);
    assert!(
        created.get("ttl").is_none() && created.get("task").is_none(),
        "{created}"
    );
    let id = created["taskId"].as_str().unwrap().to_owned();

    let parked = until_status(&mut c, &id, "input_required").await;
    assert_eq!(
        parked["inputRequests"]["well"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        parked["inputRequests"]["well"]["params"]["message"],
        "Well?"
    );
    let ack = modern(
        &mut c,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"well": {"action": "accept", "content": {"answer": "yes"}}}}),
    )
    .await;
    assert_eq!(result(&ack)["resultType"], "complete");
    let done = until_status(&mut c, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "answer: yes");
    assert!(
        done["result"]["_meta"]
            .get("io.modelcontextprotocol/related-task")
            .is_none()
    );

    // A fast tool answers at once; without the extension, no task and a required tool fails.
    let quick = c
        .stateless(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 0}}),
        )
        .await;
    assert_eq!(result(&quick)["resultType"], "complete");
    let (code, _) = error(
        &c.stateless("tools/call", json!({"name": "only_task", "arguments": {}}))
            .await,
    );
    assert_eq!(code, -32021);
    let gated = c.stateless("tasks/get", json!({"taskId": id})).await;
    assert_eq!(
        gated["error"]["data"],
        json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
    );
    let (code, _) = error(&modern(&mut c, "tasks/list", json!({})).await);
    assert_eq!(code, -32601, "no tasks/list in 2026-07-28");
    let cancel = modern(&mut c, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(
        result(&cancel)["resultType"],
        "complete",
        "idempotent on an ended task"
    );
}

mod over_http {
    use super::*;

    async fn serve(server: &Server) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let server = server.clone();
        tokio::spawn(async move { server.serve_http_on(listener).await });
        url
    }

    /// A fresh client: a new TCP connection for every use.
    fn client() -> reqwest::Client {
        reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .pool_max_idle_per_host(0)
            .build()
            .unwrap()
    }

    async fn post(url: &str, session: Option<&str>, auth: Option<&str>, body: Value) -> Value {
        let method = body["method"].as_str().unwrap().to_owned();
        let mut req = client()
            .post(url)
            .header("accept", "application/json")
            .header("content-type", "application/json")
            .header("mcp-method", &method);
        if let Some(sid) = session {
            req = req
                .header("mcp-session-id", sid)
                .header("mcp-protocol-version", "2025-11-25");
        } else {
            req = req.header("mcp-protocol-version", "2026-07-28");
        }
        if let Some(name) = body["params"]
            .get("name")
            .or_else(|| body["params"].get("taskId"))
            .and_then(Value::as_str)
        {
            req = req.header("mcp-name", name);
        }
        if let Some(auth) = auth {
            req = req.header("authorization", auth);
        }
        let resp = req.body(body.to_string()).send().await.unwrap();
        serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap()
    }

    fn stateless(id: i64, method: &str, mut params: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}
        });
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    #[tokio::test]
    async fn a_handshake_task_outlives_its_connection() {
        let server = server(TaskOptions::default());
        let url = serve(&server).await;
        let init = client()
            .post(&url)
            .header("accept", "application/json")
            .header("content-type", "application/json")
            .body(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "0"}}})
                .to_string(),
            )
            .send()
            .await
            .unwrap();
        let sid = init.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let created = post(
            &url,
            Some(&sid),
            None,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "wait", "arguments": {"ms": 200}, "task": {}}}),
        )
        .await;
        let id = created["result"]["task"]["taskId"]
            .as_str()
            .unwrap()
            .to_owned();
        // That client and its connection are gone; a new one, same session, gets the result.
        let r = post(
            &url,
            Some(&sid),
            None,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/result", "params": {"taskId": id}}),
        )
        .await;
        assert_eq!(
            r["result"]["content"][0]["text"], "waited 200 ms in a task",
            "{r}"
        );
    }

    #[tokio::test]
    async fn a_stateless_task_belongs_to_its_subject() {
        let server = server(TaskOptions::default());
        let url = serve(&server).await;
        let ada = Some("Bearer ada");
        let created = post(
            &url,
            None,
            ada,
            stateless(
                1,
                "tools/call",
                json!({"name": "wait", "arguments": {"ms": 200}}),
            ),
        )
        .await;
        assert_eq!(created["result"]["resultType"], "task", "{created}");
        let id = created["result"]["taskId"].as_str().unwrap().to_owned();

        for (who, auth) in [
            ("another subject", Some("Bearer bob")),
            ("no credentials", None),
        ] {
            let r = post(
                &url,
                None,
                auth,
                stateless(2, "tasks/get", json!({"taskId": id})),
            )
            .await;
            assert_eq!(r["error"]["code"], -32602, "{who}: {r}");
            let r = post(
                &url,
                None,
                auth,
                stateless(3, "tasks/cancel", json!({"taskId": id})),
            )
            .await;
            assert_eq!(r["error"]["code"], -32602, "{who}: {r}");
        }
        // Any later request of the same subject, on any connection, polls it to its result.
        let mut last = Value::Null;
        for n in 0..100 {
            last = post(
                &url,
                None,
                ada,
                stateless(10 + n, "tasks/get", json!({"taskId": id})),
            )
            .await;
            if last["result"]["status"] == "completed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            last["result"]["result"]["content"][0]["text"], "waited 200 ms in a task",
            "{last}"
        );
        let r = post(
            &url,
            None,
            ada,
            stateless(200, "tasks/get", json!({"taskId": "nope"})),
        )
        .await;
        assert_eq!(r["error"]["code"], -32602);
    }

    /// With the `auth` feature the verified subject owns a stateless task: the same subject
    /// with a refreshed token reaches it, another subject does not.
    #[cfg(feature = "auth")]
    #[tokio::test]
    async fn a_stateless_task_belongs_to_its_verified_subject() {
        use mcp_runtime::BoxFuture;
        use mcp_runtime::auth::{AuthError, Authorization, Claims, TokenVerifier};

        /// Two tokens of ada (before and after a refresh) and one of bob.
        struct Tokens;
        impl TokenVerifier for Tokens {
            fn verify<'a>(
                &'a self,
                token: &'a str,
                _request: &'a http::request::Parts,
            ) -> BoxFuture<'a, Result<Claims, AuthError>> {
                Box::pin(async move {
                    match token {
                        "ada-1" | "ada-2" => Ok(Claims::new("ada")),
                        "bob-1" => Ok(Claims::new("bob")),
                        _ => Err(AuthError::invalid("unknown token")),
                    }
                })
            }
        }

        let server = Server::builder(server_info!())
            .tool(wait::TOOL)
            .tasks(TaskOptions::default().with_poll_interval(Duration::from_millis(20)))
            .auth(Authorization::new("http://127.0.0.1/mcp", Tokens))
            .build()
            .unwrap();
        let url = serve(&server).await;
        let created = post(
            &url,
            None,
            Some("Bearer ada-1"),
            stateless(
                1,
                "tools/call",
                json!({"name": "wait", "arguments": {"ms": 200}}),
            ),
        )
        .await;
        assert_eq!(created["result"]["resultType"], "task", "{created}");
        let id = created["result"]["taskId"].as_str().unwrap().to_owned();

        let r = post(
            &url,
            None,
            Some("Bearer bob-1"),
            stateless(2, "tasks/get", json!({"taskId": id})),
        )
        .await;
        assert_eq!(r["error"]["code"], -32602, "another subject: {r}");

        let mut last = Value::Null;
        for n in 0..100 {
            last = post(
                &url,
                None,
                Some("Bearer ada-2"),
                stateless(10 + n, "tasks/get", json!({"taskId": id})),
            )
            .await;
            if last["result"]["status"] == "completed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            last["result"]["result"]["content"][0]["text"], "waited 200 ms in a task",
            "the same subject with a refreshed token: {last}"
        );
    }
}
