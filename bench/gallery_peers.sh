#!/usr/bin/env bash
# Installs the gallery's two reference engines from the package registries alone (no GitHub, no
# browser download), for bench/gallery_compare.py:
#   agent-browser 0.41.2 (npm) into target/peers/agent-browser/: its native binaries ship in the npm
#     package (bin/agent-browser-linux-x64 and others) without their executable bit; its postinstall
#     script sets the bit, and downloads a binary from GitHub only when the package lacks it. The
#     script is skipped (--ignore-scripts) and the bit set here.
#   Playwright for Python (PyPI, pinned below) into the virtualenv target/peers/playwright-venv/:
#     it drives Debian's /usr/bin/chromium; `playwright install` is never run.
# Run from anywhere after scripts/setup.sh; re-running is a no-op when both are in place.
set -euo pipefail
cd "$(dirname "$0")/.."
AGENT_BROWSER_VERSION=0.41.2
PLAYWRIGHT_VERSION=1.65.3
PEERS=target/peers

mkdir -p "$PEERS/agent-browser"
cat >"$PEERS/agent-browser/package.json" <<EOF
{
  "name": "agentbrowser-gallery-peer-agent-browser",
  "private": true,
  "description": "agent-browser for bench/gallery_compare.py (written by bench/gallery_peers.sh)",
  "dependencies": { "agent-browser": "$AGENT_BROWSER_VERSION" }
}
EOF
(cd "$PEERS/agent-browser" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error --engine-strict=false)
arch=$(uname -m)
case "$arch" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; esac
bin="$PEERS/agent-browser/node_modules/agent-browser/bin/agent-browser-linux-$arch"
chmod +x "$bin"
got=$("$bin" --version)
[ "$got" = "agent-browser $AGENT_BROWSER_VERSION" ] || { echo "expected agent-browser $AGENT_BROWSER_VERSION, $bin says: $got" >&2; exit 1; }
echo "$got: $bin"

test -x "$PEERS/playwright-venv/bin/python" || python3 -m venv "$PEERS/playwright-venv"
"$PEERS/playwright-venv/bin/pip" install -q --disable-pip-version-check "playwright==$PLAYWRIGHT_VERSION"
echo "playwright $("$PEERS/playwright-venv/bin/python" -c 'import importlib.metadata as m; print(m.version("playwright"))'): $PEERS/playwright-venv"
test -x /usr/bin/chromium || { echo "no /usr/bin/chromium: run scripts/setup.sh first" >&2; exit 1; }
