#!/usr/bin/env bash
# How long a new user waits: the README's two commands on fresh clones of HEAD, each with an empty
# cargo target, empty cargo/pip/npm caches and a fresh Python environment first on PATH (so pip
# installs every requirement, as on a clean machine), CI=true and no stdin.
#   bench/fresh_clone.sh [WORKDIR]     # ~7 min for setup + demo, then ~20 min for the tests
# Prints SETUP_DEMO_SECONDS (scripts/setup.sh && demo/run.sh), then TEST_SECONDS
# (scripts/test.sh), with the test command's own step times. Debian packages already installed
# stay installed (apt is not undone). Needs nothing running: it is a wall-clock measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
WORK="${1:-$(mktemp -d)}"
fresh() {
    local name=$1
    rm -rf "${WORK:?}/$name"
    mkdir -p "$WORK/$name/cache"/{pip,cargo,npm}
    git clone -q "$REPO" "$WORK/$name/clone"
    python3 -m venv "$WORK/$name/python"
}
run_in() {
    local name=$1
    shift
    (
        cd "$WORK/$name/clone"
        export PATH="$WORK/$name/python/bin:$PATH" PIP_CACHE_DIR="$WORK/$name/cache/pip" \
            CARGO_HOME="$WORK/$name/cache/cargo" npm_config_cache="$WORK/$name/cache/npm" CI=true
        unset CARGO_TARGET_DIR AGENTBROWSER_BIN PYTHONPATH
        "$@" </dev/null
    )
}
echo "== fresh clone of $(git rev-parse --short HEAD) in $WORK/demo: setup + demo"
fresh demo
start=$(date +%s)
run_in demo bash -c './scripts/setup.sh && ./demo/run.sh' >"$WORK/demo.log" 2>&1
echo "SETUP_DEMO_SECONDS $(( $(date +%s) - start )) ($(grep -o 'setup done in [0-9]* s' "$WORK/demo.log"))"
echo "== fresh clone in $WORK/test: scripts/test.sh"
fresh test
start=$(date +%s)
status=0
run_in test ./scripts/test.sh >"$WORK/test.log" 2>&1 || status=$?
echo "TEST_SECONDS $(( $(date +%s) - start )) (exit $status)"
grep -E '^== (setup done|.*\([0-9:]+\))|Summary \[| passed| failed' "$WORK/test.log" || true
exit "$status"
