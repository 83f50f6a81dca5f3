#!/usr/bin/env bash
# The demo: serves its own pages on 127.0.0.1, walks through agentbrowser's commands, then runs the
# code agent on the same site and replays its notebook.
#
#   demo/run.sh [AGENT OPTIONS]     e.g. demo/run.sh --base-url http://127.0.0.1:11434/v1 --model qwen3
#
# The agent uses a real model when OPENAI_API_KEY or ANTHROPIC_API_KEY is set or --base-url is given;
# otherwise its model is a scripted server on 127.0.0.1 replaying demo/agent-replies.json.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${AGENTBROWSER_BIN:-}" ]; then scripts/build-release.sh; fi
BIN="${AGENTBROWSER_BIN:-$PWD/target/release/agentbrowser}"
export AGENTBROWSER_SESSION="demo-$$"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory demo/site >/dev/null 2>&1 &
SERVER=$!
cleanup() { "$BIN" close >/dev/null 2>&1 || true; kill "$SERVER" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1',$PORT))" 2>/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT"

step() { printf '\n\033[1m$ agentbrowser %s\033[0m\n' "$*"; "$BIN" "$@"; }
# The ref of the element with this role and name in the latest snapshot.
ref() { "$BIN" --json snapshot | python3 -c "import json,sys; d=json.load(sys.stdin)['data']['refs']; print(next(k for k,v in d.items() if v['role']=='$1' and v['name']=='$2'))"; }

step open "$URL/"
step title
step snapshot
EMAIL=$(ref textbox Email); PASSWORD=$(ref textbox Password); REMEMBER=$(ref checkbox "Remember me")
PLAN=$(ref combobox Plan); SUBMIT=$(ref button "Sign in")
step fill "$EMAIL" ann@example.com
step fill "$PASSWORD" hunter2 --no-evidence
step check "$REMEMBER"
step select "$PLAN" Pro
step click "$SUBMIT" --wait-text Welcome
step get text "$(ref status '')"
step snapshot --full -s main
step diff
step find role textbox            # live locators: every textbox the page has now, with refs
printf '\n\033[1m$ agentbrowser fill %s x   (a stale ref after navigation fails loudly)\033[0m\n' "$EMAIL"
"$BIN" open "$URL/" >/dev/null; "$BIN" fill "$EMAIL" x || true
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

# Code mode: a model writes Python cells against the browser; the run is a notebook that re-runs.
OUT="${TMPDIR:-/tmp}/agentbrowser-demo-$$"
mkdir -p "$OUT"
MODEL=()
if [ -z "${OPENAI_API_KEY:-}${ANTHROPIC_API_KEY:-}" ] && [[ " $* " != *" --base-url"* ]]; then
  printf '\n(no OPENAI_API_KEY, ANTHROPIC_API_KEY or --base-url: the agent talks to a scripted model server on 127.0.0.1 replaying demo/agent-replies.json)\n'
  MODEL=(--scripted demo/agent-replies.json)
fi
TASK="Sign in at $URL/ as ann@example.com with the password <secret>password</secret>, tick Remember me, choose the Pro plan, and report the welcome message."
printf '\n\033[1m$ agentbrowser agent "%s" --secrets demo/agent-secrets.json --notebook %s --script %s %s\033[0m\n' "$TASK" "$OUT/agent.ipynb" "$OUT/agent.py" "${MODEL[*]} $*"
"$BIN" agent "$TASK" --secrets demo/agent-secrets.json --notebook "$OUT/agent.ipynb" --script "$OUT/agent.py" "${MODEL[@]}" "$@"
step notebook replay "$OUT/agent.ipynb" --secrets demo/agent-secrets.json
echo
echo "demo finished (notebook: $OUT/agent.ipynb, script: $OUT/agent.py)"
