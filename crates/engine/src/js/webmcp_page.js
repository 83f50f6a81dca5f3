// The page-API WebMCP backend, run in a frame's page world (where the page's
// `document.modelContext` / `navigator.modelContext` lives, e.g. the @mcp-b/global polyfill):
// lists tools with `getTools()` and runs them with `executeTool(tool, inputJson)` (or the testing
// shim's `executeTool(name, inputJson)`). Runs are kept in a page-side map under a symbol, so a
// detached run can be awaited later; each answer is cut to `max` characters in the page.
(() => {
  const key = Symbol.for('agentbrowser.webmcp');
  const st = (globalThis[key] ??= { runs: new Map() });
  const api = () => document.modelContext ?? navigator.modelContext ?? null;
  const testing = () => navigator.modelContextTesting ?? null;
  const tools = async () => {
    const mc = api();
    if (mc && typeof mc.getTools === 'function') return Array.from(await mc.getTools());
    const t = testing();
    if (t && typeof t.listTools === 'function') return Array.from(await t.listTools());
    return null;
  };
  const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null));
  const bytes = (s) => new TextEncoder().encode(s).length;
  return {
    async list() {
      const list = await tools();
      if (list === null) return null;
      return list.map((t) => ({
        name: String(t.name ?? ''),
        description: String(t.description ?? ''),
        title: t.title ?? null,
        inputSchema: t.inputSchema === undefined ? null : text(t.inputSchema),
        annotations: t.annotations ?? null,
      }));
    },
    async start(id, name, inputJson) {
      const list = await tools();
      if (list === null) return { missing: 'api' };
      const tool = list.find((t) => t.name === name);
      if (!tool) return { missing: 'tool', names: list.map((t) => String(t.name)) };
      const mc = api();
      let run;
      if (mc && typeof mc.executeTool === 'function') run = () => mc.executeTool(tool, inputJson);
      else if (testing() && typeof testing().executeTool === 'function')
        run = () => testing().executeTool(name, inputJson);
      else return { missing: 'execute' };
      const entry = { state: 'pending', output: undefined, error: undefined };
      entry.promise = Promise.resolve()
        .then(run)
        .then(
          (out) => {
            let value = out;
            if (typeof out === 'string') {
              try {
                value = JSON.parse(out);
              } catch {
                value = out;
              }
            }
            entry.state = 'done';
            entry.output = value === undefined ? null : value;
          },
          (e) => {
            entry.state = 'error';
            entry.error = String((e && e.message) || e);
          },
        );
      st.runs.set(id, entry);
      return { started: true };
    },
    async wait(id, ms, max) {
      const r = st.runs.get(id);
      if (!r) return { state: 'gone' };
      if (r.state === 'pending' && ms > 0)
        await Promise.race([r.promise, new Promise((res) => setTimeout(res, ms))]);
      if (r.state !== 'done') return { state: r.state, error: r.error ?? null };
      const s = text(r.output);
      const n = bytes(s);
      if (n <= max) return { state: 'done', output: r.output, bytes: n };
      return { state: 'done', cut: s.slice(0, max), bytes: n };
    },
    forget(id) {
      st.runs.delete(id);
      return true;
    },
  };
})()
