// agentbrowser: an eval result as JSON text, called with Runtime.callFunctionOn on the result
// (`this`). Values JSON cannot carry come back described as {unserializable: "..."}:
// "circular", "Window", "node <name>", "function <name>", "Symbol(...)", "NaN", "Infinity", "-0",
// "<n>n" for a bigint. Returns ['ok', text], ['big', length] past `max` characters, or
// ['err', message].
function (max) {
  'use strict';
  const ancestors = [];
  function special(v) {
    switch (typeof v) {
      case 'bigint': return { unserializable: v + 'n' };
      case 'symbol': return { unserializable: String(v) };
      case 'function': return { unserializable: 'function' + (v.name ? ' ' + v.name : '') };
      case 'number':
        if (!Number.isFinite(v)) return { unserializable: String(v) };
        if (Object.is(v, -0)) return { unserializable: '-0' };
        return undefined;
      default: return undefined;
    }
  }
  function replacer(key, value) {
    const s = special(value);
    if (s !== undefined) return s;
    if (typeof value !== 'object' || value === null) return value;
    try {
      if (value.window === value) return { unserializable: 'Window' };
      if (typeof value.nodeType === 'number' && typeof value.nodeName === 'string') {
        return { unserializable: 'node ' + value.nodeName.toLowerCase() };
      }
    } catch (e) { /* cross-origin window or a throwing getter */ return { unserializable: 'Window' }; }
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return { unserializable: 'circular' };
    ancestors.push(value);
    return value;
  }
  try {
    const top = special(this);
    const text = top !== undefined ? JSON.stringify(top) : JSON.stringify(this, replacer);
    if (text === undefined) return ['ok', 'null'];
    if (text.length > max) return ['big', text.length];
    return ['ok', text];
  } catch (e) {
    return ['err', String(e && e.message || e)];
  }
}
