#!/usr/bin/env bash
# Runs every test: formatting, lints, Rust unit and end-to-end tests, the Python SDK suite (the
# wheel installed into fresh virtualenvs among it), and a one-repetition benchmark so the suite
# cannot rot. Fails when any of them fails.
#
# One build: everything runs on the release profile that scripts/setup.sh built (clippy reuses its
# build scripts and proc-macros, the tests its dependencies). Independent tests run in parallel:
# the Rust tests under cargo-nextest (each test its own process; `cargo test` where nextest is
# missing), the pytest files under pytest-xdist. TEST_JOBS sets how many at once (default: 2 per
# core; the tests mostly wait on Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
JOBS="${TEST_JOBS:-$(( $(nproc) * 2 ))}"
step() { echo "== $* ($(date +%T))"; }

step "cargo fmt --check"
cargo fmt --check
step "engine import circles"
python3 scripts/import_circles.py crates/engine/src --max 12
step "one build for binaries and tests"
scripts/check-one-build.sh
step "cargo clippy"
cargo clippy -q --release --all-targets -- -D warnings
step "Rust tests"
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --release --workspace --no-fail-fast -j "$JOBS" --failure-output final
else
    cargo test --release --workspace --no-fail-fast
fi

if [ -d python/tests ]; then
    step "mypy --strict"
    python3 -m mypy --strict python/agentbrowser
    # The SDK tests run a copy of the binaries: the wheel test's pip build may relink the ones in
    # target/release while other tests start them.
    BIN_DIR=target/pytest-bin
    mkdir -p "$BIN_DIR"
    # -f: a daemon an earlier run left behind may still run the old copy (replaced, not written over).
    cp -f target/release/agentbrowser target/release/agentbrowser-engine "$BIN_DIR/"
    step "pytest"
    AGENTBROWSER_BIN="${AGENTBROWSER_BIN:-$PWD/$BIN_DIR/agentbrowser}" PYTHONPATH=python \
        python3 -m pytest -q -n "$JOBS" --dist loadfile python/tests
fi

if [ -x bench/run.sh ]; then
    step "benchmark smoke run (one repetition)"
    ./bench/run.sh --quick
fi
step "all tests passed"
