// agentbrowser Web Vitals reader (embedded by crates/engine: audit/vitals.rs). One expression
// evaluated in the engine's isolated world: it waits for the first paint, then for the page to
// settle (quiet for __AB_QUIET_MS__ ms after its load event: no layout shift, long task or new
// largest-contentful-paint candidate; at most __AB_CAP_MS__ ms from the start), then reads the
// document's own performance entries (PerformanceObserver with buffered: true, records taken
// at once) and answers {ok: true, value: {url, nav, ttfb, fcp, lcp, lcpElement, cls, shifts,
// shiftCount, inp, settle, ...}}.


(async () => {
  'use strict';
  const start = performance.now();
  const until = start + __AB_WAIT_MS__;
  const painted = () => performance.getEntriesByType('paint').some((p) => p.name === 'first-contentful-paint');
  while (!painted() && document.visibilityState === 'visible' && performance.now() < until) {
    await new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 0)); setTimeout(r, 50); });
  }
  // Settle: the last activity the page reported, watched live (buffered: what came before too).
  const quiet = __AB_QUIET_MS__;
  const capUntil = start + __AB_CAP_MS__;
  let last = null;
  let lastKind = null;
  const seen = (kind, entries) => {
    for (const e of entries) {
      const t = e.startTime + (kind === 'longtask' ? e.duration : 0);
      if (last === null || t >= last) {
        last = t;
        lastKind = kind;
      }
    }
  };
  const watching = [];
  for (const kind of ['layout-shift', 'longtask', 'largest-contentful-paint']) {
    try {
      const o = new PerformanceObserver((list) => seen(kind, list.getEntries()));
      o.observe({ type: kind, buffered: true });
      watching.push([kind, o]);
    } catch (e) {
      // this browser does not report that type
    }
  }
  // The load event's end (0: a document without navigation timing, once complete; null: not yet).
  const loaded = () => {
    const n = performance.getEntriesByType('navigation')[0];
    if (n && n.loadEventEnd > 0) return n.loadEventEnd;
    if (document.readyState !== 'complete') return null;
    return n ? performance.now() : 0;
  };
  let settledFrom = null;
  let load = null;
  for (;;) {
    for (const [kind, o] of watching) seen(kind, o.takeRecords());
    load = loaded();
    const now = performance.now();
    if (load !== null) {
      const from = Math.max(load, last === null ? 0 : last);
      if (now - from >= quiet) {
        settledFrom = from;
        break;
      }
    }
    if (now >= capUntil) break;
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(50, capUntil - now))));
  }
  for (const [, o] of watching) o.disconnect();
  const afterLoad = (t) => (load === null ? null : Math.round(Math.max(0, t - load) * 10) / 10);
  const settle = {
    settled: settledFrom !== null,
    waitedMs: Math.round(performance.now() - start),
    settledAfterLoadMs: settledFrom === null ? null : afterLoad(settledFrom),
    lastActivity: last !== null && load !== null && last >= load ? lastKind : null,
    lastActivityAfterLoadMs: last !== null && load !== null && last >= load ? afterLoad(last) : null,
  };
  const take = (type) => {
    try {
      const o = new PerformanceObserver(() => {});
      o.observe({ type, buffered: true });
      const list = o.takeRecords();
      o.disconnect();
      return list;
    } catch (e) {
      return null; // the type is not supported here
    }
  };
  const round = (v) => Math.round(v * 1000) / 1000;
  const describe = (el) => {
    if (!el || !el.tagName) return null;
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    return s;
  };
  const nav = performance.getEntriesByType('navigation')[0] || null;
  const activation = nav && nav.activationStart ? nav.activationStart : 0;
  const paints = take('paint') || performance.getEntriesByType('paint');
  const fcpEntry = paints.find((p) => p.name === 'first-contentful-paint');
  const lcps = take('largest-contentful-paint');
  const lcpEntry = lcps && lcps.length ? lcps[lcps.length - 1] : null;
  const shiftsAll = take('layout-shift');
  let cls = null;
  const shifts = [];
  if (shiftsAll) {
    // Session windows: shifts less than 1 s apart, a window at most 5 s long; CLS is the largest.
    let best = 0, sum = 0, first = 0, last = 0;
    for (const s of shiftsAll) {
      if (s.hadRecentInput) continue;
      if (sum && s.startTime - last < 1000 && s.startTime - first < 5000) {
        sum += s.value;
      } else {
        sum = s.value;
        first = s.startTime;
      }
      last = s.startTime;
      if (sum > best) best = sum;
      if (shifts.length < 20) {
        shifts.push({
          value: round(s.value),
          startTime: round(s.startTime),
          sources: (s.sources || []).slice(0, 5).map((x) => describe(x.node)),
        });
      }
    }
    cls = round(best);
  }
  const events = take('event');
  const firstInput = take('first-input');
  let inp = null;
  const byInteraction = new Map();
  for (const e of (events || []).concat(firstInput || [])) {
    if (!e.interactionId) continue;
    byInteraction.set(e.interactionId, Math.max(byInteraction.get(e.interactionId) || 0, e.duration));
  }
  for (const d of byInteraction.values()) inp = inp === null ? d : Math.max(inp, d);
  return {
    ok: true,
    value: {
      url: location.href,
      nav: nav ? {
        type: nav.type,
        startTime: round(nav.startTime),
        activationStart: round(activation),
        requestStart: round(nav.requestStart),
        responseStart: round(nav.responseStart),
        domContentLoadedEventEnd: round(nav.domContentLoadedEventEnd),
        loadEventEnd: round(nav.loadEventEnd),
      } : null,
      ttfb: nav && nav.responseStart > 0 ? round(Math.max(nav.responseStart - activation, 0)) : null,
      fcp: fcpEntry ? round(Math.max(fcpEntry.startTime - activation, 0)) : null,
      lcpSupported: lcps !== null,
      lcp: lcpEntry ? round(Math.max(lcpEntry.startTime - activation, 0)) : null,
      lcpElement: lcpEntry ? describe(lcpEntry.element) : null,
      lcpSize: lcpEntry ? lcpEntry.size : null,
      clsSupported: shiftsAll !== null,
      cls,
      shifts,
      shiftCount: shiftsAll ? shiftsAll.length : 0,
      eventSupported: events !== null,
      interactionCount: byInteraction.size,
      inp: inp === null ? null : round(inp),
      hidden: document.visibilityState !== 'visible',
      settle,
    },
  };
})()
