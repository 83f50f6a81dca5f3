#!/usr/bin/env bash
# The demo: serves its own pages on 127.0.0.1 and walks through agentbrowser's commands.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${AGENTBROWSER_BIN:-$PWD/target/release/agentbrowser}"
[ -x "$BIN" ] || cargo build -q --release -p agentbrowser
export AGENTBROWSER_SESSION="demo-$$"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory demo/site >/dev/null 2>&1 &
SERVER=$!
cleanup() { "$BIN" close >/dev/null 2>&1 || true; kill "$SERVER" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1',$PORT))" 2>/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT"

step() { printf '\n\033[1m$ agentbrowser %s\033[0m\n' "$*"; "$BIN" "$@"; }

step open "$URL/"
step title
step eval "document.querySelectorAll('input').length"
step tab new "$URL/pricing.html"
step tab list
step eval "[...document.querySelectorAll('td')].map(td => td.textContent)"
step tab switch t1
step url
step open "$URL/pricing.html"
step back
step status
printf '\n\033[1m$ agentbrowser batch  (three JSON commands on stdin)\033[0m\n'
printf '%s\n' '{"id":1,"action":"title"}' '{"id":2,"action":"eval","script":"location.pathname"}' '{"id":3,"action":"nope"}' | "$BIN" batch || true
step close
echo
echo "demo finished"
