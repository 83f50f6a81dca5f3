// The app state every gallery page exposes for checking: `window.__state`, written only by the
// app's own event handlers (onChange, the library's events), and `window.__events`, their order.
export const state = (window.__state = window.__state || {});
window.__events = window.__events || [];

/** Records what the app saw: `state[key] = value`, and the event in `window.__events`. */
export function record(key, value) {
  state[key] = value;
  window.__events.push([key, value]);
}
