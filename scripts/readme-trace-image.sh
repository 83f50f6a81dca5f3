#!/usr/bin/env bash
# Retakes docs/images/trace-viewer.png from a real run: records a trace with stills of the demo
# site (served on 127.0.0.1) signing in, opens it in `agentbrowser trace show`, selects the click
# (its Before still, the target boxed) and screenshots the viewer with agentbrowser itself.
#   scripts/readme-trace-image.sh      (after a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${AGENTBROWSER_BIN:-$PWD/target/release/agentbrowser}"
RUN="readme-trace-$$"
VIEW="readme-view-$$"
TMP="$(mktemp -d)"
# The demo site's server prints its port once it listens (bound in its constructor): no polling.
exec 3< <(exec python3 -c 'import functools, http.server
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory="demo/site")
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
print(s.server_address[1], flush=True)
s.serve_forever()' 2>/dev/null)
SERVER=$!
read -r -t 10 PORT <&3 || { echo "the demo site's server did not start within 10 s" >&2; exit 1; }
SHOW=""
cleanup() {
    "$BIN" --session "$RUN" close >/dev/null 2>&1 || true
    "$BIN" --session "$VIEW" close >/dev/null 2>&1 || true
    [ -n "$SHOW" ] && kill "$SHOW" 2>/dev/null || true
    kill "$SERVER" 2>/dev/null || true
    exec 3<&- 4<&- 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
ab() { "$BIN" --session "$RUN" "$@"; }
# The ref of the element with this role and name in a fresh snapshot.
ref() { ab --json snapshot | python3 -c "import json,sys; d=json.load(sys.stdin)['data']['refs']; print(next(k for k,v in d.items() if v['role']=='$1' and v['name']=='$2'))"; }

ab set viewport 1100 700 >/dev/null
ab trace start --screenshots --snapshots >/dev/null
ab open "http://127.0.0.1:$PORT/" >/dev/null
ab fill "$(ref textbox Email)" ann@example.com >/dev/null
ab fill "$(ref textbox Password)" hunter2 >/dev/null
ab click "$(ref button 'Sign in')" --wait-text Welcome >/dev/null
ab trace stop "$TMP/run.zip"

# The viewer prints `{"url": ...}` once it serves: read as it comes, bounded.
exec 4< <(exec "$BIN" trace show "$TMP/run.zip" --no-open)
SHOW=$!
read -r -t 10 LINE <&4 || { echo "trace show printed no URL within 10 s" >&2; exit 1; }
URL=$(printf '%s' "$LINE" | python3 -c "import json,sys; print(json.load(sys.stdin)['url'])")
# The click is the step whose command is `click` (steps count from 1 in the viewer's hash).
STEP=$(unzip -p "$TMP/run.zip" steps.jsonl | python3 -c "import json,sys; print(next(i for i,l in enumerate(sys.stdin,1) if json.loads(l)['command']=='click'))")
"$BIN" --session "$VIEW" set viewport 1400 900 >/dev/null
"$BIN" --session "$VIEW" open "$URL#step=$STEP" >/dev/null
"$BIN" --session "$VIEW" wait --fn "document.body.dataset.loaded === 'true' && !!document.querySelector('#screenshot img')?.complete" >/dev/null
# The Before still, with the click's target boxed and its point marked.
"$BIN" --session "$VIEW" eval "document.querySelector('#shot-before').click()" >/dev/null
"$BIN" --session "$VIEW" wait --fn "!!document.querySelector('#target-box') && document.querySelector('#screenshot img').complete" >/dev/null
"$BIN" --session "$VIEW" screenshot "$PWD/docs/images/trace-viewer.png"
