// Adds a script or a style to the document now and answers in the page-script format once it
// ran, loaded or failed: (kind: 'script'|'style', source: string|null, url: string|null).
// An inline script that throws, a script or style sheet that does not load (404, unreachable,
// blocked) and CSS the page refuses are failures, never a success.
(kind, source, url) => new Promise((resolve) => {
  const root = document.head || document.documentElement;
  if (!root) {
    resolve({ ok: false, code: 'no_document', message: 'the page has no document element to add to', detail: null });
    return;
  }
  let thrown = null;
  const onError = (e) => { if (thrown === null) thrown = String((e && (e.message || e.error)) || 'error'); };
  const done = (answer) => { window.removeEventListener('error', onError); resolve(answer); };
  const failed = (what) => done({ ok: false, code: 'load_failed', message: `the ${what} failed to load (HTTP error, unreachable or blocked); nothing was added`, detail: { url: what } });
  window.addEventListener('error', onError);
  if (kind === 'script') {
    const s = document.createElement('script');
    if (url !== null) {
      s.src = url;
      const abs = s.src;
      s.onload = () => done(thrown === null ? { ok: true, value: { url: abs } }
        : { ok: false, code: 'js_error', message: `the script ${abs} threw: ${thrown}`, detail: { url: abs } });
      s.onerror = () => { s.remove(); failed(`script ${abs}`); };
      root.appendChild(s);
    } else {
      s.textContent = source;
      root.appendChild(s);
      done(thrown === null ? { ok: true, value: { url: null } }
        : { ok: false, code: 'js_error', message: `the script threw: ${thrown}`, detail: null });
    }
  } else if (url !== null) {
    const l = document.createElement('link');
    l.rel = 'stylesheet';
    l.href = url;
    const abs = l.href;
    l.onload = () => done({ ok: true, value: { url: abs } });
    l.onerror = () => { l.remove(); failed(`style sheet ${abs}`); };
    root.appendChild(l);
  } else {
    const s = document.createElement('style');
    s.textContent = source;
    root.appendChild(s);
    done(s.sheet ? { ok: true, value: { url: null } }
      : { ok: false, code: 'not_applied', message: 'the page did not apply the style (a Content-Security-Policy?)', detail: null });
  }
})
