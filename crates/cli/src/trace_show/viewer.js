// agentbrowser trace viewer: reads trace/trace.json, trace/steps.jsonl, trace/events.jsonl and
// trace/frames/NNNNNN.jpeg (relative URLs, served by `agentbrowser trace show`) and shows them.
// Every text from the trace goes into the page as text (textContent), never as HTML.
"use strict";

const FORMAT = "agentbrowser-trace";
const VERSION = 1;

const state = {
  manifest: null,
  steps: [], // sorted by step number
  events: [],
  frames: new Map(), // seq -> frame event
  windows: new Map(), // step number -> [from, to)
  visible: [], // step numbers shown by the filter
  selected: null,
  shot: "after",
  pane: "diff",
  allSteps: false,
};

const $ = (sel) => document.querySelector(sel);

/** Makes an element with a class and text. */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/** Milliseconds as "1.52 s" or "312 ms". */
function ms(v) {
  if (typeof v !== "number" || !isFinite(v)) return "–";
  if (Math.abs(v) >= 1000) return (v / 1000).toFixed(2) + " s";
  return Math.round(v) + " ms";
}

/** A trace time `t` as an offset from the start: "+1.52 s". */
function at(t) {
  return typeof t === "number" ? "+" + (t / 1000).toFixed(2) + " s" : "";
}

function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function frameUrl(seq) {
  return "trace/frames/" + String(seq).padStart(6, "0") + ".jpeg";
}

/** JSON lines: the parsed records and how many lines could not be read. */
function jsonl(text) {
  const out = [];
  let bad = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch (_) {
      bad++;
    }
  }
  return { records: out, bad };
}

async function fetchText(path, optional) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) {
    if (optional && r.status === 404) return "";
    throw new Error(path + ": HTTP " + r.status);
  }
  return r.text();
}

async function load() {
  let manifest;
  try {
    manifest = JSON.parse(await fetchText("trace/trace.json"));
  } catch (e) {
    return fail("Cannot read trace.json: " + e.message);
  }
  if (manifest.format !== FORMAT) return fail("Not an agentbrowser trace (format " + JSON.stringify(manifest.format) + ").");
  if (typeof manifest.version !== "number" || manifest.version > VERSION)
    return fail("This trace is version " + manifest.version + "; this viewer reads version " + VERSION + " and older.");
  const [stepsText, eventsText] = await Promise.all([
    fetchText("trace/steps.jsonl", true),
    fetchText("trace/events.jsonl", true),
  ]).catch((e) => [null, fail("Cannot read the trace: " + e.message)]);
  if (stepsText === null) return;
  const steps = jsonl(stepsText);
  const events = jsonl(eventsText);
  state.manifest = manifest;
  state.steps = steps.records.filter((s) => typeof s.step === "number").sort((a, b) => a.step - b.step);
  state.events = events.records.filter((e) => typeof e.t === "number").sort((a, b) => a.t - b.t);
  state.unreadable = steps.bad + events.bad;
  for (const e of state.events) if (e.kind === "frame") state.frames.set(e.seq, e);
  computeWindows();
  renderHeader();
  renderTimeline();
  renderSteps();
  wire();
  const fromHash = hashStep();
  select(fromHash !== null && state.steps.some((s) => s.step === fromHash) ? fromHash : state.steps.length ? state.steps[0].step : null, false);
  document.body.dataset.loaded = "true";
}

function fail(message) {
  const box = $("#load-error");
  box.textContent = message;
  box.hidden = false;
  $("#app").hidden = true;
  document.body.dataset.loaded = "error";
}

/** Each step's window: [its t, the next step's t) in order of t; the first starts at 0. */
function computeWindows() {
  const byT = [...state.steps].sort((a, b) => a.t - b.t || a.step - b.step);
  byT.forEach((s, i) => {
    const from = i === 0 ? Math.min(0, s.t) : s.t;
    const to = i + 1 < byT.length ? byT[i + 1].t : Infinity;
    state.windows.set(s.step, [from, to]);
  });
}

function eventsOf(step) {
  if (state.allSteps || step === null) return state.events;
  const w = state.windows.get(step);
  if (!w) return [];
  return state.events.filter((e) => e.t >= w[0] && e.t < w[1]);
}

// ---- header ----

function renderHeader() {
  const m = state.manifest;
  const box = $("#manifest");
  box.textContent = "";
  const item = (label, value, id) => {
    const span = el("span", "fact");
    if (id) span.id = id;
    span.append(el("span", "label", label), el("span", "value", value));
    box.append(span);
  };
  item("session", m.session ?? "–", "m-session");
  if (typeof m.startedAt === "number") item("started", new Date(m.startedAt).toLocaleString(), "m-started");
  if (typeof m.startedAt === "number" && typeof m.endedAt === "number") item("duration", ms(m.endedAt - m.startedAt), "m-duration");
  const c = m.counts || {};
  item("steps", c.steps ?? state.steps.length, "m-steps");
  item("events", c.events ?? state.events.length, "m-events");
  item("frames", c.frames ?? state.frames.size, "m-frames");
  if (m.browser) item("browser", m.browser);
  if (m.agentbrowser) $(".brand").title = "recorded by agentbrowser " + m.agentbrowser;
  const opts = m.options || {};
  const on = Object.keys(opts).filter((k) => opts[k]);
  item("recorded", on.length ? on.join(", ") : "steps and events");

  const d = m.dropped || {};
  const notes = [];
  if (d.frames) notes.push(plural(d.frames, "frame") + " dropped by the size bound");
  if (d.events) notes.push(plural(d.events, "event") + " dropped by the size bound");
  if (d.steps) notes.push(plural(d.steps, "step") + " not kept (more than " + ((m.bounds || {}).maxSteps ?? "the most") + " steps)");
  if (d.snapshots) notes.push(plural(d.snapshots, "recorded snapshot") + " dropped by the size bound");
  if (d.snapshotsCut) notes.push(plural(d.snapshotsCut, "recorded snapshot") + " cut (over " + ((m.bounds || {}).maxSnapshotBytes ?? "the bound") + " bytes)");
  if (d.answerBytes) notes.push(d.answerBytes.toLocaleString() + " bytes of answers cut (answers over " + ((m.bounds || {}).maxAnswerBytes ?? "the bound") + " bytes)");
  if (state.unreadable) notes.push(plural(state.unreadable, "unreadable line") + " skipped");
  const banner = $("#dropped");
  banner.textContent = "";
  if (notes.length) {
    banner.append(el("strong", null, "Incomplete trace: "));
    notes.forEach((n, i) => {
      const s = el("span", "drop-note", n);
      banner.append(s);
      if (i + 1 < notes.length) banner.append(document.createTextNode(" · "));
    });
    banner.hidden = false;
  }
}

// ---- step list ----

function clip(s, n) {
  s = String(s);
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

/** A short summary of a step's parameters: the target (ref, role, name), a URL, a text. */
function summary(s) {
  const p = s.params || {};
  const parts = [];
  if (s.target) {
    const t = s.target;
    parts.push([t.ref, t.role, t.name ? JSON.stringify(t.name) : null].filter(Boolean).join(" "));
  } else if (typeof p.target === "string") parts.push(p.target);
  else if (typeof p.ref === "string") parts.push(p.ref);
  if (typeof p.url === "string") parts.push(p.url);
  for (const k of ["text", "value", "key", "keys"]) if (typeof p[k] === "string") parts.push(JSON.stringify(clip(p[k], 40)));
  for (const k of ["script", "expression", "fn"]) if (typeof p[k] === "string") parts.push(clip(p[k].replace(/\s+/g, " "), 50));
  if (!parts.length) {
    const rest = Object.entries(p)
      .filter(([, v]) => v !== null && v !== false && typeof v !== "object")
      .map(([k, v]) => k + "=" + clip(v, 24));
    parts.push(...rest.slice(0, 3));
  }
  return parts.join(" ");
}

function renderSteps() {
  const list = $("#steps");
  list.textContent = "";
  $("#no-steps").hidden = state.steps.length > 0;
  const shots = hasShots();
  for (const s of state.steps) {
    const li = el("li", "step " + (s.ok ? "ok" : "failed"));
    li.dataset.step = s.step;
    li.dataset.ok = s.ok ? "true" : "false";
    li.tabIndex = -1;
    if (shots) {
      const thumb = el("div", "thumb");
      if (typeof s.frameAfter === "number") {
        const img = el("img");
        img.loading = "lazy";
        img.alt = "";
        img.src = frameUrl(s.frameAfter);
        img.dataset.frame = s.frameAfter;
        img.onerror = () => {
          img.remove();
          thumb.append(el("span", "thumb-missing", "frame dropped"));
        };
        thumb.append(img);
      } else thumb.append(el("span", "thumb-missing", "no frame"));
      li.append(thumb);
    }
    const body = el("div", "step-body");
    const top = el("div", "step-top");
    top.append(el("span", "num", s.step), el("span", "cmd", s.command));
    const badge = el("span", "badge " + (s.ok ? "ok" : "err"), s.ok ? "ok" : (s.error && s.error.code) || "error");
    top.append(el("span", "dur", ms(s.end - s.t)), badge);
    body.append(top, el("div", "params", summary(s)));
    if (s.warnings && s.warnings.length) body.append(el("div", "warn-mark", "⚠ " + plural(s.warnings.length, "warning")));
    li.append(body);
    li.addEventListener("click", () => select(s.step, true));
    list.append(li);
  }
  applyFilter();
}

function hasShots() {
  const o = (state.manifest && state.manifest.options) || {};
  return !!o.screenshots || state.frames.size > 0 || state.steps.some((s) => typeof s.frameAfter === "number");
}

// ---- timeline ----

function renderTimeline() {
  const box = $("#timeline");
  box.textContent = "";
  if (!state.steps.length) {
    box.hidden = true;
    return;
  }
  const m = state.manifest;
  const ends = state.steps.map((s) => s.end || s.t).concat(state.events.map((e) => e.t));
  let total = Math.max(...ends, 1);
  if (typeof m.endedAt === "number" && typeof m.startedAt === "number") total = Math.max(total, m.endedAt - m.startedAt);
  for (const s of state.steps) {
    const tick = el("button", "tick " + (s.ok ? "ok" : "failed"));
    tick.dataset.step = s.step;
    tick.title = s.step + " " + s.command + " " + at(s.t) + " (" + ms(s.end - s.t) + ")";
    tick.style.left = (100 * s.t) / total + "%";
    tick.style.width = "max(3px, " + (100 * Math.max(0, (s.end || s.t) - s.t)) / total + "%)";
    tick.addEventListener("click", () => select(s.step, true));
    box.append(tick);
  }
  for (const e of state.events) {
    if (e.kind === "pageError" || (e.kind === "console" && e.level === "error")) {
      const mark = el("span", "mark error");
      mark.style.left = (100 * e.t) / total + "%";
      box.append(mark);
    }
  }
}

// ---- filter ----

function haystack(s) {
  const w = state.windows.get(s.step) || [0, 0];
  const consoleText = state.events
    .filter((e) => e.kind === "console" && e.t >= w[0] && e.t < w[1])
    .map((e) => e.text)
    .join("\n");
  return [s.step, s.command, JSON.stringify(s.params || {}), s.url || "", JSON.stringify(s.answer ?? ""),
    s.error ? s.error.code + " " + s.error.message : "", s.target ? s.target.name || "" : "", consoleText]
    .join("\n")
    .toLowerCase();
}

function applyFilter() {
  const q = $("#search").value.trim().toLowerCase();
  state.visible = [];
  for (const li of document.querySelectorAll("#steps li.step")) {
    const s = stepByNum(Number(li.dataset.step));
    if (!s._hay) s._hay = haystack(s);
    const show = !q || q.split(/\s+/).every((w) => s._hay.includes(w));
    li.hidden = !show;
    if (show) state.visible.push(s.step);
  }
  $("#search-count").textContent = q ? state.visible.length + " of " + state.steps.length : "";
  $("#no-steps").hidden = state.steps.length === 0 ? false : state.visible.length > 0;
  if (state.steps.length && !state.visible.length) $("#no-steps").textContent = "No step matches.";
  else $("#no-steps").textContent = "This trace has no steps.";
}

function stepByNum(n) {
  return state.steps.find((s) => s.step === n) || null;
}

// ---- selection ----

function hashStep() {
  const m = /(?:^#|&)step=(\d+)/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

function select(n, scroll) {
  state.selected = n;
  for (const li of document.querySelectorAll("#steps li.step")) {
    const on = Number(li.dataset.step) === n;
    li.classList.toggle("selected", on);
    li.setAttribute("aria-selected", on ? "true" : "false");
    if (on && scroll) li.scrollIntoView({ block: "nearest" });
  }
  for (const t of document.querySelectorAll("#timeline .tick")) t.classList.toggle("selected", Number(t.dataset.step) === n);
  if (n !== null && hashStep() !== n) history.replaceState(null, "", "#step=" + n);
  document.body.dataset.selected = n === null ? "" : String(n);
  renderDetail();
}

function move(delta) {
  const vis = state.visible;
  if (!vis.length) return;
  let i = vis.indexOf(state.selected);
  if (i < 0) i = delta > 0 ? -1 : vis.length;
  const next = Math.max(0, Math.min(vis.length - 1, i + delta));
  select(vis[next], true);
}

// ---- detail ----

function renderDetail() {
  const s = stepByNum(state.selected);
  $("#detail").dataset.step = s ? s.step : "";
  renderTitle(s);
  renderShot(s);
  renderCall(s);
  renderDiff(s);
  renderEvents(s);
}

function renderTitle(s) {
  const box = $("#step-title");
  box.textContent = "";
  if (!s) {
    box.append(el("span", "muted", state.steps.length ? "No step selected." : "This trace has no steps."));
    return;
  }
  box.append(el("span", "num", s.step), el("span", "cmd", s.command), el("span", "params", summary(s)));
  box.append(el("span", "badge " + (s.ok ? "ok" : "err"), s.ok ? "ok" : (s.error && s.error.code) || "error"));
  box.append(el("span", "muted", at(s.t) + " · " + ms(s.end - s.t)));
}

function renderShot(s) {
  const body = $("#shot-body");
  body.textContent = "";
  const note = $("#shot-note");
  note.textContent = "";
  for (const b of document.querySelectorAll("#screenshot .tab")) b.classList.toggle("active", b.dataset.shot === state.shot);
  $("#screenshot").dataset.shot = state.shot;
  if (!s) return;
  if (!hasShots()) {
    body.append(el("div", "empty", "No screenshots: the trace was recorded without --screenshots."));
    return;
  }
  const seq = state.shot === "before" ? s.frameBefore : s.frameAfter;
  if (typeof seq !== "number") {
    body.append(el("div", "empty", "No " + state.shot + " frame for this step."));
    return;
  }
  const frame = state.frames.get(seq);
  const wrap = el("div", "shot-wrap");
  const img = el("img");
  img.alt = "Frame " + seq + " (" + state.shot + " step " + s.step + ")";
  img.dataset.frame = seq;
  img.dataset.entry = "frames/" + String(seq).padStart(6, "0") + ".jpeg";
  img.src = frameUrl(seq);
  img.onerror = () => {
    wrap.remove();
    const d = el("div", "empty dropped", "Frame " + seq + " dropped (the size bound left it out).");
    d.id = "frame-dropped";
    body.append(d);
  };
  img.addEventListener("load", fitShot);
  wrap.append(img);
  note.textContent = "frame " + seq + (frame ? " · " + at(frame.t) : "");
  if (state.shot === "before" && s.target && s.target.box) {
    const vp = (frame && frame.viewport) || null;
    const place = () => {
      const vw = vp ? vp.width : img.naturalWidth;
      const vh = vp ? vp.height : img.naturalHeight;
      if (!vw || !vh) return;
      const b = s.target.box;
      const box = el("div", "target-box");
      box.id = "target-box";
      box.style.left = (100 * b.x) / vw + "%";
      box.style.top = (100 * b.y) / vh + "%";
      box.style.width = (100 * b.width) / vw + "%";
      box.style.height = (100 * b.height) / vh + "%";
      const iw = (frame && frame.width) || img.naturalWidth;
      const ih = (frame && frame.height) || img.naturalHeight;
      // Where the box lands on the image, in the image's own pixels.
      box.dataset.x = ((b.x * iw) / vw).toFixed(1);
      box.dataset.y = ((b.y * ih) / vh).toFixed(1);
      box.dataset.w = ((b.width * iw) / vw).toFixed(1);
      box.dataset.h = ((b.height * ih) / vh).toFixed(1);
      box.append(el("span", "target-label", [s.target.ref, s.target.role, s.target.name].filter(Boolean).join(" ")));
      wrap.append(box);
      const p = s.target.point;
      if (p) {
        const dot = el("div", "click-point");
        dot.id = "click-point";
        dot.style.left = (100 * p.x) / vw + "%";
        dot.style.top = (100 * p.y) / vh + "%";
        dot.dataset.x = ((p.x * iw) / vw).toFixed(1);
        dot.dataset.y = ((p.y * ih) / vh).toFixed(1);
        wrap.append(dot);
      }
    };
    if (vp) place();
    else img.addEventListener("load", place, { once: true });
  }
  body.append(wrap);
}

/** Sizes the screenshot to the largest that fits its panel (the overlays follow in percent). */
function fitShot() {
  const body = $("#shot-body");
  const img = body.querySelector("img");
  if (!img || !img.naturalWidth) return;
  const ratio = img.naturalWidth / img.naturalHeight;
  const w = Math.max(40, Math.min(body.clientWidth - 24, (body.clientHeight - 24) * ratio, img.naturalWidth * 2));
  img.style.width = w + "px";
  img.style.height = w / ratio + "px";
}

function renderCall(s) {
  const err = $("#error");
  const warns = $("#warnings");
  const facts = $("#call-facts");
  const answer = $("#answer");
  err.textContent = "";
  warns.textContent = "";
  facts.textContent = "";
  answer.textContent = "";
  err.hidden = true;
  warns.hidden = true;
  if (!s) return;
  if (!s.ok) {
    const e = s.error || {};
    err.append(el("div", "error-code", e.code || "error"), el("div", "error-message", e.message || "(no message)"));
    err.hidden = false;
  }
  if (s.warnings && s.warnings.length) {
    for (const w of s.warnings) warns.append(el("div", "warning", typeof w === "string" ? w : JSON.stringify(w)));
    warns.hidden = false;
  }
  const fact = (k, v) => {
    if (v === undefined || v === null || v === "") return;
    facts.append(el("dt", null, k), el("dd", null, v));
  };
  fact("command", s.command);
  fact("params", JSON.stringify(s.params || {}));
  if (s.target) {
    const t = s.target;
    fact("target", [t.ref, t.role, t.name ? JSON.stringify(t.name) : null].filter(Boolean).join(" "));
    if (t.box) fact("box", ["x", "y", "width", "height"].map((k) => k + " " + round(t.box[k])).join(", "));
    if (t.point) fact("point", round(t.point.x) + ", " + round(t.point.y));
  }
  fact("tab", s.tab);
  fact("url", s.url);
  fact("time", at(s.t) + " → " + at(s.end) + " (" + ms(s.end - s.t) + ")");
  if (!s.ok) {
    answer.append(el("div", "muted", "No answer: the step failed."));
    return;
  }
  if (s.answerTruncated) {
    const cut = el("div", "cut-note", "Answer cut by the recorder: " + (s.answerBytes ?? "?").toLocaleString() + " bytes of JSON, " +
      "showing the first " + (((state.manifest.bounds || {}).maxAnswerBytes) ?? "").toLocaleString() + " bytes.");
    cut.id = "answer-cut";
    answer.append(cut);
    const text = s.answer && typeof s.answer.truncated === "string" ? s.answer.truncated : JSON.stringify(s.answer);
    answer.append(el("pre", "raw", text));
    return;
  }
  answer.append(jsonTree(s.answer, 0));
}

function round(v) {
  return typeof v === "number" ? Math.round(v * 10) / 10 : "?";
}

/** A collapsible JSON tree: objects and arrays fold (click their size), open for the first levels. */
function jsonTree(v, depth) {
  if (v === null || typeof v !== "object") {
    const cls = v === null ? "null" : typeof v;
    const text = typeof v === "string" ? JSON.stringify(v) : String(v);
    const span = el("span", "j-" + cls, text);
    if (typeof v === "string" && v.includes("\n")) {
      span.classList.add("multiline");
    }
    return span;
  }
  const isArr = Array.isArray(v);
  const entries = isArr ? v.map((x, i) => [i, x]) : Object.entries(v);
  if (!entries.length) return el("span", "j-empty", isArr ? "[]" : "{}");
  const node = el("span", "j-node");
  const open = depth < 2 && entries.length <= 50;
  node.classList.toggle("collapsed", !open);
  const toggle = el("span", "j-sum", isArr ? "[" + entries.length + "]" : "{" + entries.length + "}");
  toggle.addEventListener("click", () => node.classList.toggle("collapsed"));
  node.append(toggle);
  const body = el("div", "j-body");
  for (const [k, x] of entries) {
    const row = el("div", "j-row");
    row.append(el("span", "j-key", isArr ? k : JSON.stringify(k)), el("span", "j-colon", ": "), jsonTree(x, depth + 1));
    body.append(row);
  }
  node.append(body);
  return node;
}

function renderDiff(s) {
  const pre = $("#diff");
  pre.textContent = "";
  const before = $("#snap-before");
  const after = $("#snap-after");
  before.hidden = !(s && typeof s.before === "string");
  after.hidden = !(s && typeof s.after === "string");
  before.querySelector("pre").textContent = s && s.before ? s.before : "";
  after.querySelector("pre").textContent = s && s.after ? s.after : "";
  renderRecorded(s);
  if (!s) return;
  if (typeof s.diff !== "string") {
    pre.dataset.empty = "true";
    const recorded = typeof s.snapshot === "string" ? " Its recorded snapshot is below." : "";
    pre.append(el("span", "muted", "No snapshot diff for this step (actions with evidence have one)." + recorded));
    return;
  }
  pre.dataset.empty = "false";
  if (!s.diff.trim()) {
    pre.append(el("span", "muted", "The snapshot did not change."));
    return;
  }
  for (const line of s.diff.replace(/\n$/, "").split("\n")) {
    let cls = "ctx";
    if (line.startsWith("@@")) cls = "hunk";
    else if (line.startsWith("+")) cls = "add";
    else if (line.startsWith("-")) cls = "del";
    pre.append(el("span", "line " + cls, line + "\n"));
  }
}

// The snapshots the recorder kept (`--snapshots`): after the step, and before the first step;
// shown on demand, with a note when one was cut, dropped or not taken.
function renderRecorded(s) {
  const notes = [];
  for (const [id, key, what] of [["#step-snapshot-before", "snapshotBefore", "before the first step"], ["#step-snapshot", "snapshot", "after this step"]]) {
    const box = $(id);
    const text = s && typeof s[key] === "string" ? s[key] : null;
    box.hidden = text === null;
    box.querySelector("pre").textContent = text || "";
    if (!s) continue;
    if (s[key + "Truncated"]) notes.push("The recorded snapshot " + what + " was cut at " + (state.manifest.bounds || {}).maxSnapshotBytes + " bytes.");
    if (typeof s[key + "Error"] === "string") notes.push("No recorded snapshot " + what + ": " + s[key + "Error"]);
  }
  if (s && s.snapshotDropped) notes.push("The size bound left this step's recorded snapshots out.");
  const note = $("#step-snapshot-note");
  note.hidden = notes.length === 0;
  note.textContent = notes.join(" ");
}

// ---- console, network, page events ----

function renderEvents(s) {
  const evs = eventsOf(s ? s.step : null);
  const w = s && state.windows.get(s.step);
  $("#window-note").textContent = state.allSteps
    ? "All events of the trace."
    : w
      ? "Events from " + at(w[0]) + " to " + (isFinite(w[1]) ? at(w[1]) : "the end") + ": this step's start to the next step's start."
      : "";
  const cons = evs.filter((e) => e.kind === "console");
  const net = evs.filter((e) => e.kind === "request");
  const page = evs.filter((e) => ["pageError", "dialog", "download", "tab"].includes(e.kind));

  const ctb = $("#console tbody");
  ctb.textContent = "";
  for (const e of cons) {
    const tr = el("tr", "level-" + (e.level || "log"));
    tr.dataset.t = e.t;
    tr.append(el("td", "level", e.level || "log"), el("td", "text", e.text ?? ""),
      el("td", "src muted", e.url ? shortUrl(e.url) + (e.line ? ":" + e.line : "") : ""), el("td", "num muted", at(e.t)));
    ctb.append(tr);
  }
  if (!cons.length) ctb.append(emptyRow(4, "No console messages."));

  const ntb = $("#network tbody");
  ntb.textContent = "";
  for (const e of net) {
    const en = e.entry || {};
    const rq = en.request || {};
    const rs = en.response || {};
    const status = rs.status ?? 0;
    const tr = el("tr", status >= 400 || status === 0 ? "failed" : "");
    tr.dataset.t = e.t;
    tr.dataset.url = rq.url || "";
    const url = el("td", "url", rq.url || "");
    url.title = rq.url || "";
    const type = en._resourceType || (rs.content && rs.content.mimeType) || "";
    tr.append(el("td", "method", rq.method || ""), url, el("td", "status", status || (en._error ? "failed" : "–")),
      el("td", "type muted", type), el("td", "num", ms(en.time)), el("td", "num muted", at(e.t)));
    ntb.append(tr);
  }
  if (!net.length) ntb.append(emptyRow(6, "No requests."));

  const ptb = $("#page-events tbody");
  ptb.textContent = "";
  for (const e of page) {
    const tr = el("tr", "kind-" + e.kind);
    tr.dataset.t = e.t;
    tr.dataset.kind = e.kind;
    const what = el("td", "text");
    if (e.kind === "pageError") {
      what.append(el("div", "err-text", e.message || ""));
      if (e.stack) {
        const d = el("details");
        d.append(el("summary", null, "stack"), el("pre", null, e.stack));
        what.append(d);
      }
    } else if (e.kind === "dialog") {
      what.textContent = (e.type || "dialog") + ": " + JSON.stringify(e.message ?? "") + (e.answer ? " → " + e.answer : "") +
        (e.promptText ? " " + JSON.stringify(e.promptText) : "");
    } else if (e.kind === "download") {
      what.textContent = (e.suggestedFilename || e.url || "") + " · " + (e.state || "") + (e.path ? " → " + e.path : "");
    } else if (e.kind === "tab") {
      what.textContent = (e.action || "") + " " + (e.url || "") + (e.title ? " — " + e.title : "");
    }
    const label = { pageError: "page error", dialog: "dialog", download: "download", tab: "tab" }[e.kind];
    tr.append(el("td", "level", label), what, el("td", "src muted", e.tab || ""), el("td", "num muted", at(e.t)));
    ptb.append(tr);
  }
  if (!page.length) ptb.append(emptyRow(4, "No page errors, dialogs, downloads or tab changes."));

  count("#count-console", cons.length, cons.some((e) => e.level === "error"));
  count("#count-network", net.length, net.some((e) => ((e.entry || {}).response || {}).status >= 400));
  count("#count-page", page.length, page.some((e) => e.kind === "pageError"));
  for (const t of document.querySelectorAll(".lower .tab")) t.classList.toggle("active", t.dataset.pane === state.pane);
  for (const p of document.querySelectorAll(".lower .pane")) p.hidden = p.id !== "pane-" + state.pane;
}

function count(sel, n, bad) {
  const c = $(sel);
  c.textContent = n ? String(n) : "";
  c.classList.toggle("bad", bad);
}

function emptyRow(cols, text) {
  const tr = el("tr", "empty-row");
  const td = el("td", "muted", text);
  td.colSpan = cols;
  tr.append(td);
  return tr;
}

function shortUrl(u) {
  try {
    const x = new URL(u);
    return x.pathname.split("/").pop() || x.host;
  } catch (_) {
    return u;
  }
}

// ---- input ----

function wire() {
  const search = $("#search");
  search.addEventListener("input", () => {
    applyFilter();
    if (state.visible.length && !state.visible.includes(state.selected)) select(state.visible[0], true);
  });
  for (const b of document.querySelectorAll("#screenshot .tab"))
    b.addEventListener("click", () => {
      state.shot = b.dataset.shot;
      renderShot(stepByNum(state.selected));
    });
  for (const b of document.querySelectorAll(".lower .tab"))
    b.addEventListener("click", () => {
      state.pane = b.dataset.pane;
      renderEvents(stepByNum(state.selected));
    });
  $("#all-steps").addEventListener("change", (e) => {
    state.allSteps = e.target.checked;
    renderEvents(stepByNum(state.selected));
  });
  new ResizeObserver(fitShot).observe($("#shot-body"));
  window.addEventListener("hashchange", () => {
    const n = hashStep();
    if (n !== null && n !== state.selected && stepByNum(n)) select(n, true);
  });
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const typing = e.target instanceof HTMLInputElement && e.target.type !== "checkbox";
    if (e.key === "Escape") {
      if (search.value) {
        search.value = "";
        applyFilter();
      }
      search.blur();
      e.preventDefault();
      return;
    }
    if (e.key === "/" && !typing) {
      search.focus();
      search.select();
      e.preventDefault();
      return;
    }
    let handled = true;
    if (e.key === "ArrowDown" || (!typing && e.key === "j")) move(1);
    else if (e.key === "ArrowUp" || (!typing && e.key === "k")) move(-1);
    else if (!typing && e.key === "Home") select(state.visible[0] ?? null, true);
    else if (!typing && e.key === "End") select(state.visible[state.visible.length - 1] ?? null, true);
    else if (!typing && (e.key === "b" || e.key === "a")) {
      state.shot = e.key === "b" ? "before" : "after";
      renderShot(stepByNum(state.selected));
    } else handled = false;
    if (handled) e.preventDefault();
  });
}

load();
