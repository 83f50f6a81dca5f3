// Bundles the gallery's pages (gallery/src) into target/gallery with esbuild, offline, from the
// packages npm installed (package.json pins each version). Skips the build when the sources, this
// script and package-lock.json hash to what the last build recorded; `--force` builds anyway.
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "gallery", "src");
const out = path.join(root, "target", "gallery");
const stamp = path.join(out, ".inputs-sha256");

/** Every file under `dir`, sorted, as absolute paths. */
function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
}

/** The hash of everything the bundle is made from. */
function inputsHash() {
  const h = createHash("sha256");
  for (const f of [...files(src), path.join(root, "gallery", "build.mjs"), path.join(root, "package-lock.json")]) {
    h.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  }
  return h.digest("hex");
}

const hash = inputsHash();
if (!process.argv.includes("--force") && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash) {
  process.exit(0);
}
// Emptied, not removed: a server may be serving the directory.
fs.mkdirSync(out, { recursive: true });
for (const f of fs.readdirSync(out)) fs.rmSync(path.join(out, f), { recursive: true, force: true });
// Entry points: the top-level scripts of src/; modules named `_*` are shared helpers they import.
const entries = fs
  .readdirSync(src)
  .filter((f) => /\.(js|jsx)$/.test(f) && !f.startsWith("_"))
  .map((f) => path.join(src, f));
await esbuild.build({
  entryPoints: entries,
  bundle: true,
  outdir: out,
  format: "esm",
  splitting: true,
  minify: true,
  jsx: "automatic",
  target: "chrome120",
  define: { "process.env.NODE_ENV": '"production"' },
  loader: { ".woff2": "file", ".woff": "file", ".ttf": "file", ".svg": "file" },
  logLevel: "error",
});
for (const f of fs.readdirSync(src).filter((f) => f.endsWith(".html"))) {
  fs.copyFileSync(path.join(src, f), path.join(out, f));
}
// A React page (`x.jsx`) gets a generated shell: its stylesheet when it imports one, and #root.
for (const f of fs.readdirSync(src).filter((f) => f.endsWith(".jsx") && !f.startsWith("_"))) {
  const name = f.slice(0, -4);
  const css = fs.existsSync(path.join(out, `${name}.css`)) ? `<link rel="stylesheet" href="${name}.css">\n` : "";
  const html = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${name}</title>\n${css}</head>\n<body>\n<div id="root"></div>\n<script type="module" src="${name}.js"></script>\n</body>\n</html>\n`;
  fs.writeFileSync(path.join(out, `${name}.html`), html);
}
fs.writeFileSync(stamp, hash);
