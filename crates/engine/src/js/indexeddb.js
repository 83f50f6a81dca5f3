// IndexedDB of the page's origin, in Playwright's storageState shape (`origins[].indexedDB`):
// databases {name, version, stores: [{name, records, indexes, autoIncrement, keyPath?,
// keyPathArray?}]}, records {key? | keyEncoded?, value? | valueEncoded?}. A plain JSON value is
// kept as is (`key`, `value`); any other (Date, binary, Map, ...) is encoded as Playwright's
// serializeAsCallArgument encodes it (`keyEncoded`, `valueEncoded`), so files move both ways.
// Evaluated as an expression: `collect(budget)` answers JSON text, `restore(databases)` the
// number of records written.
(() => {
  const req = (r) => new Promise((ok, no) => {
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const kind = (v) => Object.prototype.toString.call(v).slice(8, -1);
  const TYPED = {
    i8: 'Int8Array', ui8: 'Uint8Array', ui8c: 'Uint8ClampedArray', i16: 'Int16Array',
    ui16: 'Uint16Array', i32: 'Int32Array', ui32: 'Uint32Array', f32: 'Float32Array',
    f64: 'Float64Array', bi64: 'BigInt64Array', bui64: 'BigUint64Array',
  };
  const toB64 = (bytes) => {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const fromB64 = (b) => {
    const s = atob(b);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  };

  // `{trivial: true, value}` for a plain JSON value, else `{trivial: false, encoded}`; throws
  // `{unsupported: kind}` for a value a file cannot carry (Blob, File, CryptoKey, ...).
  const encode = (value) => {
    const seen = new Map();
    let last = 0;
    let trivial = true;
    const enc = (v) => {
      const t = typeof v;
      const plain = v !== null && t === 'object' && v.constructor === Object;
      if (!(plain || Array.isArray(v) || t === 'string' || t === 'boolean' || v === null ||
            (t === 'number' && Number.isFinite(v))))
        trivial = false;
      if (v === undefined || t === 'symbol') return { v: 'undefined' };
      if (v === null) return { v: 'null' };
      if (t === 'number') {
        if (Number.isNaN(v)) return { v: 'NaN' };
        if (v === Infinity) return { v: 'Infinity' };
        if (v === -Infinity) return { v: '-Infinity' };
        if (Object.is(v, -0)) return { v: '-0' };
        return v;
      }
      if (t === 'boolean' || t === 'string') return v;
      if (t === 'bigint') return { bi: v.toString() };
      if (t !== 'object') throw { unsupported: t };
      const k = kind(v);
      if (k === 'Error' || v instanceof Error) {
        const head = `${v.name}: ${v.message}`;
        const s = typeof v.stack === 'string' && v.stack.startsWith(head) ? v.stack : `${head}\n${v.stack}`;
        return { e: { n: v.name, m: v.message, s } };
      }
      if (k === 'Date') return { d: v.toJSON() };
      if (k === 'RegExp') return { r: { p: v.source, f: v.flags } };
      for (const [short, name] of Object.entries(TYPED))
        if (k === name) return { ta: { b: toB64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)), k: short } };
      if (k === 'ArrayBuffer') return { ab: { b: toB64(new Uint8Array(v)) } };
      if (seen.has(v)) return { ref: seen.get(v) };
      if (k === 'Map' || k === 'Set' || k === 'Array' || k === 'Object') {
        const id = ++last;
        seen.set(v, id);
        if (k === 'Map') return { m: [...v].map(([a, b]) => ({ k: enc(a), v: enc(b) })), id };
        if (k === 'Set') return { s: [...v].map(enc), id };
        if (k === 'Array') {
          const a = [];
          for (let i = 0; i < v.length; i++) a.push(enc(v[i]));
          return { a, id };
        }
        return { o: Object.keys(v).map((name) => ({ k: name, v: enc(v[name]) })), id };
      }
      throw { unsupported: k };
    };
    const encoded = enc(value);
    return trivial ? { trivial: true, value } : { trivial: false, encoded };
  };

  // Playwright's parseEvaluationResultValue for what `encode` writes.
  const decode = (value, refs = new Map()) => {
    if (value === undefined || value === null || typeof value !== 'object') return value;
    if ('ref' in value) return refs.get(value.ref);
    if ('v' in value) {
      const special = { null: null, NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
      return value.v in special ? special[value.v] : undefined;
    }
    if ('d' in value) return new Date(value.d);
    if ('u' in value) return new URL(value.u);
    if ('bi' in value) return BigInt(value.bi);
    if ('e' in value) {
      const e = new Error(value.e.m);
      e.name = value.e.n;
      e.stack = value.e.s;
      return e;
    }
    if ('r' in value) return new RegExp(value.r.p, value.r.f);
    if ('a' in value) {
      const out = [];
      refs.set(value.id, out);
      for (const x of value.a) out.push(decode(x, refs));
      return out;
    }
    if ('o' in value) {
      const out = {};
      refs.set(value.id, out);
      for (const { k, v } of value.o) if (k !== '__proto__') out[k] = decode(v, refs);
      return out;
    }
    if ('m' in value) {
      const out = new Map();
      refs.set(value.id, out);
      for (const { k, v } of value.m) out.set(decode(k, refs), decode(v, refs));
      return out;
    }
    if ('s' in value) {
      const out = new Set();
      refs.set(value.id, out);
      for (const x of value.s) out.add(decode(x, refs));
      return out;
    }
    if ('ta' in value) return new globalThis[TYPED[value.ta.k]](fromB64(value.ta.b).buffer);
    if ('ab' in value) return fromB64(value.ab.b).buffer;
    return value;
  };

  const keyPaths = (kp) => ({
    keyPath: typeof kp === 'string' ? kp : undefined,
    keyPathArray: Array.isArray(kp) ? [...kp] : undefined,
  });

  // Every database of the origin, at most `budget` bytes of records (as JSON text); what was
  // left out, and why, is in `notes`.
  const collect = async (budget) => {
    const out = { databases: [], notes: [] };
    if (typeof indexedDB === 'undefined' || !indexedDB.databases) return JSON.stringify(out);
    let used = 0;
    let full = false;
    for (const info of await indexedDB.databases()) {
      if (!info.name || !info.version) continue;
      const db = await req(indexedDB.open(info.name));
      try {
        const names = [...db.objectStoreNames];
        const tx = names.length ? db.transaction(names, 'readonly') : null;
        const read = await Promise.all(names.map(async (name) => {
          const s = tx.objectStore(name);
          const [keys, values] = await Promise.all([req(s.getAllKeys()), req(s.getAll())]);
          const indexes = [...s.indexNames].map((n) => {
            const i = s.index(n);
            return { name: i.name, ...keyPaths(i.keyPath), multiEntry: i.multiEntry, unique: i.unique };
          });
          return { name, keyPath: s.keyPath, autoIncrement: s.autoIncrement, keys, values, indexes };
        }));
        const stores = [];
        for (const s of read) {
          const records = [];
          const unsupported = new Set();
          let left = 0;
          for (let i = 0; i < s.keys.length; i++) {
            const record = {};
            try {
              if (s.keyPath === null) {
                const k = encode(s.keys[i]);
                if (k.trivial) record.key = k.value;
                else record.keyEncoded = k.encoded;
              }
              const v = encode(s.values[i]);
              if (v.trivial) record.value = v.value;
              else record.valueEncoded = v.encoded;
            } catch (e) {
              if (e && e.unsupported) {
                unsupported.add(e.unsupported);
                left++;
                continue;
              }
              throw e;
            }
            const size = JSON.stringify(record).length;
            if (full || used + size > budget) {
              full = true;
              break;
            }
            used += size;
            records.push(record);
          }
          const where = `IndexedDB ${JSON.stringify(info.name)} store ${JSON.stringify(s.name)}`;
          if (unsupported.size)
            out.notes.push(`${where}: ${left} records hold values a state file cannot carry (${[...unsupported].join(', ')}); left out`);
          if (records.length + left < s.keys.length)
            out.notes.push(`${where}: cut at ${records.length} of ${s.keys.length} records (the state file's IndexedDB limit of ${budget} bytes is reached)`);
          stores.push({
            name: s.name, records, indexes: s.indexes, autoIncrement: s.autoIncrement,
            ...keyPaths(s.keyPath),
          });
        }
        out.databases.push({ name: info.name, version: info.version, stores });
      } finally {
        db.close();
      }
    }
    out.used = used;
    return JSON.stringify(out);
  };

  // Replaces each database of `databases` (deleted, then created with its stores, indexes
  // and records); answers the number of records written.
  const restore = async (databases) => {
    let written = 0;
    for (const info of databases) {
      await new Promise((ok, no) => {
        const r = indexedDB.deleteDatabase(info.name);
        r.onsuccess = () => ok();
        r.onerror = () => no(r.error);
        r.onblocked = () => no(new Error(`the database ${JSON.stringify(info.name)} is open in another tab, which does not let it be replaced`));
      });
      const open = indexedDB.open(info.name, info.version);
      open.onupgradeneeded = () => {
        const db = open.result;
        for (const s of info.stores) {
          const store = db.createObjectStore(s.name, { autoIncrement: s.autoIncrement, keyPath: s.keyPathArray ?? s.keyPath });
          for (const i of s.indexes)
            store.createIndex(i.name, i.keyPathArray ?? i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
        }
      };
      const db = await req(open);
      try {
        if (!db.objectStoreNames.length) continue;
        const tx = db.transaction([...db.objectStoreNames], 'readwrite');
        const done = new Promise((ok, no) => {
          tx.oncomplete = () => ok();
          tx.onabort = () => no(tx.error || new Error('the transaction was aborted'));
        });
        for (const s of info.stores) {
          const store = tx.objectStore(s.name);
          for (const r of s.records) {
            const value = 'value' in r ? r.value : decode(r.valueEncoded);
            if ('key' in r) store.add(value, r.key);
            else if ('keyEncoded' in r) store.add(value, decode(r.keyEncoded));
            else store.add(value);
            written++;
          }
        }
        await done;
      } finally {
        db.close();
      }
    }
    return written;
  };

  return { collect, restore };
})()
