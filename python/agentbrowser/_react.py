"""``diagnostics.react_tree()``: a bounded walk of React's fiber tree, done in the page by ``eval``.

The page script finds the React roots through the keys React puts on DOM nodes (a root
container's ``__reactContainer$…`` or ``_reactRootContainer``; failing those, any rendered
element's ``__reactFiber$…`` / ``__reactInternalInstance$…``, climbed to its root), then walks
each root's current fiber tree (``child``/``sibling``) in order.  It names nodes as React
DevTools does (``type.displayName`` or ``name``; ``Memo(...)``, ``ForwardRef(...)``,
``X.Provider``) and walks through what DevTools hides (text, unkeyed fragments, StrictMode,
portals, hidden Suspense content).  Fiber tags are React 16.6 to 19's.  No DevTools hook, launch
flag or page change is needed: it reads what React already keeps on the DOM.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from . import _wire_ops as g
from ._call import Op, send
from .errors import BrowserError, InvalidArgumentError
from .models.react import ReactTree

#: Nodes listed by default before the walk stops (``max_nodes``).
DEFAULT_MAX_NODES = 2000
#: Deepest node listed by default (``max_depth``; a root is at depth 0).
DEFAULT_MAX_DEPTH = 200
#: The largest ``max_nodes`` (the answer stays a few megabytes at most).
MAX_NODES_LIMIT = 20000
#: The largest ``max_depth``.
MAX_DEPTH_LIMIT = 10000
#: The error code of a page with no React root.
NO_REACT = "react_not_found"

#: The page script: ``%s`` is the JSON of its options.  It answers a JSON text (a string comes
#: back by value, with no remote object for the engine to serialize and release): ``{react: false}`` when the
#: page has no React root, ``{react: true, badSelector}`` / ``{react: true, notFound: true}`` for
#: a selector that is not CSS or matches nothing, else the nodes as ``[parent, depth, name,
#: kind, key]`` rows with ``roots``, ``maxNodesReached`` and ``maxDepthReached``.
_SCRIPT = r"""JSON.stringify((({ selector, maxNodes, maxDepth, hostElements }) => {
  const own = (obj, prefix) => {
    for (const k of Object.keys(obj)) if (k.startsWith(prefix)) return obj[k];
    return undefined;
  };
  const clip = (s) => (s.length > 200 ? s.slice(0, 199) + '\u2026' : s);
  const nameOf = (t) => {
    if (t == null) return 'Anonymous';
    if (typeof t === 'string') return t;
    if (typeof t.displayName === 'string' && t.displayName) return t.displayName;
    if (typeof t.name === 'string' && t.name) return t.name;
    return 'Anonymous';
  };
  const wrapped = (outer, inner, wrapper) =>
    (outer && typeof outer.displayName === 'string' && outer.displayName) || wrapper + '(' + nameOf(inner) + ')';
  const contextName = (t) => {
    const c = t && t._context ? t._context : t;
    return (c && typeof c.displayName === 'string' && c.displayName) || 'Context';
  };
  // [kind, name] of a fiber the tree lists, or null for one it walks through (React's work tags).
  const describe = (f) => {
    const t = f.type, e = f.elementType;
    switch (f.tag) {
      case 0: case 2: case 28: return ['function', nameOf(t)];
      case 1: case 17: return ['class', nameOf(t)];
      case 3: return ['root', 'Root'];
      case 5: case 26: case 27: return hostElements ? ['host', String(t)] : null;
      case 7: return f.key == null ? null : ['other', 'Fragment'];
      case 9: return ['context', contextName(t) + '.Consumer'];
      case 10: return ['context', contextName(t) + '.Provider'];
      case 11: return ['forward_ref', wrapped(e, t && t.render, 'ForwardRef')];
      case 12: return ['profiler', 'Profiler'];
      case 13: return ['suspense', 'Suspense'];
      case 14: case 15: return ['memo', wrapped(e, e && e.type !== undefined ? e.type : t, 'Memo')];
      case 16: return ['other', 'Lazy'];
      case 19: return ['suspense_list', 'SuspenseList'];
      case 25: return ['tracing_marker', 'TracingMarker'];
      case 30: return ['view_transition', 'ViewTransition'];
      case 31: return ['activity', 'Activity'];
      default: return null;
    }
  };
  const top = (fiber) => {
    let f = fiber;
    for (let i = 0; f && f.return && i < 100000; i++) f = f.return;
    return f;
  };
  const fiberRoot = (fiber) => {
    const f = top(fiber);
    return f && f.tag === 3 && f.stateNode && f.stateNode.current ? f.stateNode : null;
  };
  const currentOf = (f) => {
    for (const c of [f, f.alternate]) {
      const t = c && top(c);
      if (t && t.tag === 3 && t.stateNode && t.stateNode.current === t) return c;
    }
    return f;
  };
  const elements = [];
  const scopes = [document];
  while (scopes.length) {
    for (const el of scopes.pop().querySelectorAll('*')) {
      elements.push(el);
      if (el.shadowRoot) scopes.push(el.shadowRoot);
    }
  }
  const roots = new Map();
  const add = (fiber, container) => {
    const r = fiberRoot(fiber);
    if (r && !roots.has(r)) roots.set(r, container);
  };
  for (const el of [document, ...elements]) {
    for (const k of Object.keys(el)) {
      if (k.startsWith('__reactContainer$')) add(el[k], el);
      else if (k === '_reactRootContainer' && el[k]) add((el[k]._internalRoot || el[k]).current, el);
    }
  }
  if (!roots.size) {
    for (const el of elements) {
      const f = own(el, '__reactFiber$') || own(el, '__reactInternalInstance$');
      if (f) add(f, null);
      if (roots.size) break;
    }
  }
  if (!roots.size) return { react: false };
  let starts;
  if (selector == null) {
    starts = [...roots.keys()].map((r) => r.current);
  } else {
    let el;
    try { el = document.querySelector(selector); } catch (e) { return { react: true, badSelector: String((e && e.message) || e) }; }
    if (!el) return { react: true, notFound: true };
    starts = [];
    const f = own(el, '__reactFiber$') || own(el, '__reactInternalInstance$');
    if (f) starts.push(currentOf(f));
    for (const [r, c] of roots) if (c && (c === el || el.contains(c))) starts.push(r.current);
  }
  const nodes = [];
  let maxNodesReached = false, maxDepthReached = false;
  const seen = new Set();
  const stack = starts.map((f) => [f, 0, 0]).reverse();
  while (stack.length) {
    const [f, parent, depth] = stack.pop();
    if (!f || typeof f !== 'object' || seen.has(f)) continue;
    seen.add(f);
    if ((f.tag === 22 || f.tag === 23) && f.memoizedState != null) continue;
    let d;
    try { d = describe(f); } catch (e) { d = ['other', 'Anonymous']; }
    let childParent = parent, childDepth = depth;
    if (d) {
      if (depth > maxDepth) { maxDepthReached = true; continue; }
      if (nodes.length >= maxNodes) { maxNodesReached = true; break; }
      nodes.push([parent, depth, clip(String(d[1])), d[0], f.key == null ? null : clip(String(f.key))]);
      childParent = nodes.length;
      childDepth = depth + 1;
    }
    const kids = [];
    const chain = new Set();
    for (let c = f.child; c && typeof c === 'object' && !chain.has(c); c = c.sibling) { chain.add(c); kids.push(c); }
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], childParent, childDepth]);
  }
  return { react: true, roots: roots.size, nodes, maxNodesReached, maxDepthReached };
})(%s))"""


def _limit(name: str, value: object, low: int, high: int) -> int:
    """``value`` checked as an int from ``low`` to ``high`` (TypeError, ValueError naming ``name``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"react_tree() {name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"react_tree() {name} must be from {low} to {high}, got {value}")
    return value


def react_tree(selector: str | None, max_nodes: int, max_depth: int, host_elements: bool) -> Op[ReactTree]:
    """Walk the React trees of the active tab's page (or the part ``selector`` names) and answer
    them; a page with no React root raises :class:`BrowserError` ``react_not_found``."""
    if selector is not None and not isinstance(selector, str):
        raise TypeError(f"react_tree() selector must be a CSS selector str or None, got {type(selector).__name__}")
    if selector is not None and not selector.strip():
        raise ValueError("react_tree() selector must not be empty (None walks the whole page)")
    nodes = _limit("max_nodes", max_nodes, 1, MAX_NODES_LIMIT)
    depth = _limit("max_depth", max_depth, 0, MAX_DEPTH_LIMIT)
    options = {"selector": selector, "maxNodes": nodes, "maxDepth": depth, "hostElements": bool(host_elements)}
    # Each row is at most two 200-character strings and a few numbers.
    budget = 65536 + nodes * 2048
    text = (yield from send(g.eval(_SCRIPT % json.dumps(options), max_bytes=budget))).wire.result
    try:
        out = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        out = None
    if not isinstance(out, Mapping) or "react" not in out:
        raise BrowserError(f"react_tree(): the page script answered {text!r:.200}", action="react_tree", code="internal")
    if not out["react"]:
        raise BrowserError(
            "react_tree(): no React root on this page: no element carries React's root or fiber keys "
            "(React 16.6 to 19 put them on the DOM when they render); if the app has not rendered "
            "yet, wait for it first (page.wait_for_selector / wait_for_text)",
            action="react_tree",
            code=NO_REACT,
        )
    if "badSelector" in out:
        raise InvalidArgumentError(
            f"react_tree(): selector {selector!r} is not a valid CSS selector: {out['badSelector']}",
            action="react_tree",
            code="invalid_argument",
        )
    if out.get("notFound"):
        raise BrowserError(f"react_tree(): no element matches selector {selector!r}", action="react_tree", code="not_found")
    return ReactTree.from_page(out, nodes, depth, selector is not None)
