// A small MCP Apps host (the host side of io.modelcontextprotocol/ui, stable 2026-01-26): it
// renders one widget in a sandboxed iframe and speaks JSON-RPC over postMessage with it.
// Used by `<bin> apps preview` and by the browser test (tests/apps); it is not a product host:
// no double iframe on a second origin, no user consent prompts.
//
//   const host = McpAppsHost.mount(container, {
//     html,                 // the widget document (resources/read text)
//     csp,                  // the resource's _meta.ui.csp (or undefined: the spec's default)
//     tools,                // tools/list entries, for visibility checks of the widget's calls
//     callTool,             // async (name, args) => CallToolResult, reaching the server
//     readResource,         // async (uri) => ReadResourceResult (optional)
//     openai,               // true: inject a window.openai shim (ChatGPT Apps SDK globals)
//     theme,                // "light" | "dark"
//   });
//   host.sendToolInput(args); host.sendToolResult(result); host.log (every message, both ways)
(function (global) {
  "use strict";

  const PROTOCOL_VERSION = "2026-01-26";

  // The spec's restrictive default when a widget declares no CSP; declared domains widen it.
  function cspFor(csp) {
    const list = (key) => (csp && Array.isArray(csp[key]) ? csp[key].join(" ") : "");
    const resources = list("resourceDomains");
    return [
      "default-src 'none'",
      `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
      `style-src 'self' 'unsafe-inline' ${resources}`.trim(),
      `img-src 'self' data: ${resources}`.trim(),
      `font-src 'self' ${resources}`.trim(),
      `media-src 'self' data: ${resources}`.trim(),
      `connect-src ${list("connectDomains") || "'none'"}`,
      `frame-src ${list("frameDomains") || "'none'"}`,
      `base-uri ${list("baseUriDomains") || "'self'"}`,
      "object-src 'none'",
    ].join("; ");
  }

  // window.openai over the MCP Apps bridge, for widgets written against the ChatGPT Apps SDK.
  // It runs inside the widget's frame before the widget's own scripts.
  const OPENAI_SHIM = `(() => {
    let nextId = 1; const pending = new Map();
    const post = (m) => window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, m), "*");
    const request = (method, params) => new Promise((resolve, reject) => {
      const id = "openai-" + nextId++; pending.set(id, { resolve, reject }); post({ id, method, params });
    });
    const set = (globals) => {
      Object.assign(window.openai, globals);
      window.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals } }));
    };
    window.openai = {
      toolInput: null, toolOutput: null, toolResponseMetadata: null, theme: "light",
      displayMode: "inline", locale: "en-US", maxHeight: 600, widgetState: null,
      callTool: (name, args) => request("tools/call", { name, arguments: args }),
      sendFollowUpMessage: ({ prompt }) => request("ui/message", { role: "user", content: [{ type: "text", text: prompt }] }),
      openExternal: ({ href }) => request("ui/open-link", { url: href }),
      requestDisplayMode: ({ mode }) => request("ui/request-display-mode", { mode }),
      notifyIntrinsicHeight: (height) => post({ method: "ui/notifications/size-changed", params: { height } }),
      setWidgetState: async (state) => { window.openai.widgetState = state; },
    };
    window.addEventListener("message", (event) => {
      if (event.source !== window.parent) return;
      const m = event.data; if (!m || m.jsonrpc !== "2.0") return;
      if (m.id !== undefined && pending.has(m.id) && !m.method) {
        const p = pending.get(m.id); pending.delete(m.id);
        if (m.error) p.reject(new Error(m.error.message)); else p.resolve(m.result);
      } else if (m.method === "ui/notifications/tool-input") {
        set({ toolInput: m.params.arguments });
      } else if (m.method === "ui/notifications/tool-result") {
        set({ toolOutput: m.params.structuredContent || null, toolResponseMetadata: m.params._meta || null });
      } else if (m.method === "ui/notifications/host-context-changed" && m.params.theme) {
        set({ theme: m.params.theme });
      }
    });
    request("ui/initialize", { appInfo: { name: "openai-shim", version: "1" }, appCapabilities: {}, protocolVersion: "${PROTOCOL_VERSION}" })
      .then((r) => { if (r.hostContext && r.hostContext.theme) window.openai.theme = r.hostContext.theme; post({ method: "ui/notifications/initialized", params: {} }); });
  })();`;

  function srcdoc(html, options) {
    const head = [`<meta http-equiv="Content-Security-Policy" content="${cspFor(options.csp)}">`];
    if (options.openai) head.push(`<script>${OPENAI_SHIM}<\/script>`);
    const inject = head.join("");
    const match = /<head[^>]*>/i.exec(html);
    if (match) return html.slice(0, match.index + match[0].length) + inject + html.slice(match.index + match[0].length);
    return inject + html;
  }

  function mount(container, options) {
    const iframe = document.createElement("iframe");
    // Scripts only: no same-origin, no forms, no popups, no top navigation.
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("title", "MCP App");
    iframe.style.cssText = "width:100%;border:1px solid #d1d9e0;border-radius:12px;height:320px;background:#fff";
    const log = [];
    const state = { initialized: false, queue: [] };
    const tools = new Map((options.tools || []).map((t) => [t.name, t]));

    const send = (message) => {
      const full = Object.assign({ jsonrpc: "2.0" }, message);
      log.push({ dir: "host->app", message: full });
      iframe.contentWindow.postMessage(full, "*");
    };
    const notify = (method, params) => {
      if (state.initialized) send({ method, params });
      else state.queue.push({ method, params });
    };
    const reply = (id, result) => send({ id, result });
    const fail = (id, code, message) => send({ id, error: { code, message } });

    async function onRequest(msg) {
      const { id, method, params } = msg;
      switch (method) {
        case "ui/initialize":
          return reply(id, {
            protocolVersion: PROTOCOL_VERSION,
            hostInfo: { name: "mcp-runtime apps host", version: "1" },
            hostCapabilities: { serverTools: {}, serverResources: {}, openLinks: {}, logging: {} },
            hostContext: {
              theme: options.theme || "light",
              displayMode: "inline",
              availableDisplayModes: ["inline"],
              containerDimensions: { maxHeight: 600 },
              locale: "en-US",
              platform: "web",
              toolInfo: options.toolInfo,
            },
          });
        case "tools/call": {
          const name = params && params.name;
          const tool = tools.get(name);
          const visibility = tool && tool._meta && tool._meta.ui && tool._meta.ui.visibility;
          if (!tool) return fail(id, -32602, `unknown tool: ${name}`);
          if (visibility && !visibility.includes("app")) {
            return fail(id, -32600, `tool ${name} is not visible to apps`);
          }
          try {
            return reply(id, await options.callTool(name, (params && params.arguments) || {}));
          } catch (err) {
            return fail(id, -32603, String(err && err.message ? err.message : err));
          }
        }
        case "resources/read":
          if (!options.readResource) return fail(id, -32601, "resources/read is not offered");
          try {
            return reply(id, await options.readResource(params.uri));
          } catch (err) {
            return fail(id, -32603, String(err && err.message ? err.message : err));
          }
        case "ui/open-link":
        case "ui/message":
        case "ui/update-model-context":
          return reply(id, {});
        case "ui/request-display-mode":
          return reply(id, { mode: "inline" });
        default:
          return fail(id, -32601, `method not found: ${method}`);
      }
    }

    function onMessage(event) {
      if (event.source !== iframe.contentWindow) return;
      const msg = event.data;
      if (!msg || msg.jsonrpc !== "2.0") return;
      log.push({ dir: "app->host", message: msg });
      if (msg.method === "ui/notifications/initialized") {
        state.initialized = true;
        for (const n of state.queue.splice(0)) send(n);
      } else if (msg.method === "ui/notifications/size-changed") {
        const h = Number(msg.params && msg.params.height);
        if (h > 0) iframe.style.height = Math.min(Math.ceil(h) + 2, 600) + "px";
      } else if (msg.method && msg.id !== undefined) {
        onRequest(msg);
      }
    }
    window.addEventListener("message", onMessage);
    iframe.srcdoc = srcdoc(options.html, options);
    container.replaceChildren(iframe);

    return {
      iframe,
      log,
      get initialized() { return state.initialized; },
      sendToolInput: (args) => notify("ui/notifications/tool-input", { arguments: args }),
      sendToolResult: (result) => notify("ui/notifications/tool-result", result),
      sendHostContext: (context) => notify("ui/notifications/host-context-changed", context),
      unmount: () => { window.removeEventListener("message", onMessage); iframe.remove(); },
    };
  }

  global.McpAppsHost = { mount, cspFor, PROTOCOL_VERSION };
})(window);
