#!/usr/bin/env bash
# Installs what agentbrowser needs on a fresh Debian machine: Chromium, Python test tools, a build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    echo "== installing Chromium (Debian package)"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
chromium --version 2>/dev/null | tail -1

# NSS's certutil: `--ca-cert` trusts a private CA through a per-session NSS database.
if ! command -v certutil >/dev/null 2>&1; then
    echo "== installing NSS tools (certutil, for --ca-cert)"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libnss3-tools >/dev/null
fi

# zsh and fish: the completion scripts are loaded and run in each shell by the tests.
if ! command -v zsh >/dev/null 2>&1 || ! command -v fish >/dev/null 2>&1; then
    echo "== installing zsh and fish (completion tests)"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq zsh fish >/dev/null
fi

echo "== installing Python tools"
python3 -m pip install -q --disable-pip-version-check -r scripts/requirements-dev.txt

echo "== installing Node test tools (MCP Inspector)"
if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
fi
npm ci --no-audit --no-fund --loglevel=error

echo "== building"
scripts/build-release.sh
cargo build -q -p agentbrowser
