// The official TypeScript SDK client (npm @modelcontextprotocol/sdk, pinned in package.json)
// running 2025-11-25 tasks against everything-server (its task fixtures:
// examples/everything-server/src/tasks.rs), spawned over stdio and, given a URL, over Streamable
// HTTP: `execution.taskSupport` in tools/list, a task created with `client.experimental.tasks`
// (`callToolStream` with `task`), progress while it runs, `tasks/get`, `tasks/result`,
// `tasks/list`, `tasks/cancel`, an elicitation asked from inside a task, and the errors of a
// required-task tool called without a task and of a cancel after the end.
//
// Usage: node ts_tasks.mjs PATH/TO/everything-server [http://127.0.0.1:PORT/mcp]
// Prints one line per check and `N passed, M failed`; exits 1 if any check failed.

import { isDeepStrictEqual } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

const [binary, url] = process.argv.slice(2);
if (!binary) {
  console.error("usage: node ts_tasks.mjs PATH/TO/everything-server [http://127.0.0.1:PORT/mcp]");
  process.exit(2);
}

let passed = 0;
let failed = 0;
let label = "";

function check(what, actual, expected) {
  const name = `${label} ${what}`;
  if (isDeepStrictEqual(actual, expected)) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}\n     expected: ${JSON.stringify(expected)}\n     actual:   ${JSON.stringify(actual)}`);
  }
}

async function rpcError(name, promise, code) {
  try {
    await promise;
    check(name, "no error", code);
  } catch (e) {
    if (!(e instanceof McpError)) throw e;
    check(name, e.code, code);
  }
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function suite(name, transport) {
  label = `[${name}]`;
  const client = new Client(
    { name: "ts-tasks-interop", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, defaultTaskPollInterval: 100 },
  );
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: "accept", content: { confirm: true } };
  });

  try {
    await client.connect(transport);
    const caps = client.getServerCapabilities() ?? {};
    check("tasks capability", caps.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });

    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.filter((t) => t.execution).map((t) => [t.name, t.execution.taskSupport]));
    check("execution.taskSupport", support, {
      confirm_delete: "optional",
      failing_job: "required",
      multi_input: "optional",
      protocol_error_job: "optional",
      slow_compute: "optional",
      test_tool_with_task: "required",
    });

    // Create, progress, get, result: the SDK's task stream.
    const progress = [];
    const messages = [];
    const stream = client.experimental.tasks.callToolStream(
      { name: "slow_compute", arguments: { seconds: 2, label: "interop" } },
      CallToolResultSchema,
      { task: { ttl: 60000 }, onprogress: (p) => progress.push([p.progress, p.total]) },
    );
    for await (const message of stream) messages.push(message);
    const created = messages[0];
    check("stream starts with taskCreated", created?.type, "taskCreated");
    const taskId = created?.task?.taskId;
    check("task: working, ttl granted, poll interval", [created?.task?.status, created?.task?.ttl, created?.task?.pollInterval], [
      "working",
      60000,
      1000,
    ]);
    check("task: ISO 8601 timestamps", [ISO.test(created?.task?.createdAt), ISO.test(created?.task?.lastUpdatedAt)], [true, true]);
    check("task id: 64 hex digits", /^[0-9a-f]{64}$/.test(taskId ?? ""), true);
    const statuses = messages.filter((m) => m.type === "taskStatus").map((m) => m.task.status);
    check("polled through tasks/get until completed", [statuses.includes("working"), statuses.at(-1)], [true, "completed"]);
    const last = messages.at(-1);
    check("stream ends with the result (tasks/result)", [last?.type, last?.result?.content], [
      "result",
      [{ type: "text", text: "computed interop in 2 s" }],
    ]);
    check("result tagged with its task", last?.result?._meta?.["io.modelcontextprotocol/related-task"], { taskId });
    check("progress while the task ran", progress, [
      [0, 2],
      [1, 2],
    ]);

    const got = await client.experimental.tasks.getTask(taskId);
    check("tasks/get after the end", [got.taskId, got.status, got.ttl], [taskId, "completed", 60000]);
    const again = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    check("tasks/result again", again.content, [{ type: "text", text: "computed interop in 2 s" }]);
    const listed = await client.experimental.tasks.listTasks();
    check("tasks/list has it", listed.tasks.some((t) => t.taskId === taskId && t.status === "completed"), true);
    await rpcError("tasks/cancel of a completed task", client.experimental.tasks.cancelTask(taskId), -32602);

    // Cancel: a long task, cancelled while it runs.
    const long = await client.request(
      { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 60 }, task: {} } },
      (await import("@modelcontextprotocol/sdk/types.js")).CreateTaskResultSchema,
    );
    check("created with the default TTL", long.task.ttl, 3600000);
    await sleep(200);
    const cancelled = await client.experimental.tasks.cancelTask(long.task.taskId);
    check("tasks/cancel answers the cancelled task", [cancelled.taskId, cancelled.status], [long.task.taskId, "cancelled"]);
    const after = await client.experimental.tasks.getTask(long.task.taskId);
    check("tasks/get: still cancelled", after.status, "cancelled");
    await rpcError("tasks/result of a cancelled task", client.experimental.tasks.getTaskResult(long.task.taskId, CallToolResultSchema), -32602);

    // A tool error is a failed task in 2025-11-25.
    const failing = [];
    for await (const m of client.experimental.tasks.callToolStream({ name: "failing_job", arguments: {} }, CallToolResultSchema, { task: {} })) {
      failing.push(m);
    }
    check("failing_job: the task failed", [failing.at(-2)?.task?.status, failing.at(-1)?.type], ["failed", "error"]);
    await rpcError("required-task tool without a task", client.request({ method: "tools/call", params: { name: "failing_job", arguments: {} } }, CallToolResultSchema), -32601);
    await rpcError("unknown task", client.experimental.tasks.getTask("no-such-task"), -32602);

    // An elicitation from inside a task (input_required, answered, then completed).
    const confirm = [];
    for await (const m of client.experimental.tasks.callToolStream(
      { name: "confirm_delete", arguments: { filename: "old.txt" } },
      CallToolResultSchema,
      { task: { ttl: 30000 } },
    )) {
      confirm.push(m);
    }
    check("elicitation asked from the task", asked.map((p) => p.message), ["Delete old.txt?"]);
    check("elicitation tagged with its task", asked[0]?._meta?.["io.modelcontextprotocol/related-task"]?.taskId, confirm[0]?.task?.taskId);
    check("task result after the answer", confirm.at(-1)?.result?.content, [{ type: "text", text: "deleted old.txt" }]);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${label} crashed: ${e?.stack ?? e}`);
  } finally {
    await client.close().catch(() => {});
  }
}

const env = {};
for (const key of ["MCP_LOG_MESSAGES", "RUST_LOG"]) {
  if (process.env[key]) env[key] = process.env[key];
}
await suite("stdio", new StdioClientTransport({ command: binary, args: ["stdio"], env }));
if (url) {
  await suite("http", new StreamableHTTPClientTransport(new URL(url)));
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
