#!/usr/bin/env bash
# Installs what agentbrowser needs on a fresh Debian machine (Chromium, Python and Node test tools)
# and builds the release binaries, the one build the demo, the tests and the benchmarks share.
# The installs run while cargo compiles (they wait on the network, it on the CPU); each install's
# output goes to target/setup/<step>.log and is shown when the step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
LOGS=target/setup
mkdir -p "$LOGS"
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi

# Debian packages: Chromium (the browser), NSS's certutil (`--ca-cert` trusts a private CA through
# a per-session NSS database), zsh and fish (the completion tests load the scripts in each shell),
# npm when the machine has none (never `nodejs-doc`: it removes the machine's Node.js), and
# python3-venv where Debian's python3 lacks it.
debian() {
    local missing=()
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    # `record start` (video) pipes the screencast to ffmpeg.
    command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
    command -v certutil >/dev/null 2>&1 || missing+=(libnss3-tools)
    command -v zsh >/dev/null 2>&1 || missing+=(zsh)
    command -v fish >/dev/null 2>&1 || missing+=(fish)
    command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
    # Virtualenvs with pip (the wheel test installs into fresh ones): Debian's python3 needs this.
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
}
python_tools() { python3 -m pip install -q --disable-pip-version-check -r scripts/requirements-dev.txt; }
# axe-core (what `a11y` injects), the MCP Inspector's CLI, Browserless, har-schema, and the
# component libraries of the gallery with esbuild: package.json. Then the gallery's bundle
# (target/gallery; gallery/build.mjs skips it when its sources and package-lock.json are unchanged).
node_tools() { npm ci --no-audit --no-fund --loglevel=error && node gallery/build.mjs; }

start=$(date +%s)
pids=()
names=()
in_background() {
    local name=$1
    shift
    ("$@") >"$LOGS/$name.log" 2>&1 &
    pids+=($!)
    names+=("$name")
}
# Node's tools come after Debian's packages (npm may be one of them).
debian_then_node() { debian && node_tools; }
in_background debian-then-node debian_then_node
in_background python python_tools

echo "== building (release profile; Debian, Python and Node tools install meanwhile)"
build_status=0
scripts/build-release.sh || build_status=$?

failed=0
for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
        echo "== ${names[$i]} failed:" >&2
        cat "$LOGS/${names[$i]}.log" >&2
        failed=1
    fi
done
[ "$build_status" = 0 ] || { echo "== the build failed" >&2; exit "$build_status"; }
[ "$failed" = 0 ] || exit 1
chromium --version 2>/dev/null | tail -1
echo "== setup done in $(( $(date +%s) - start )) s"
