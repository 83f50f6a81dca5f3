#!/usr/bin/env bash
# Runs every test: formatting, lints, Rust unit and end-to-end tests, the Python SDK suite,
# and a one-repetition benchmark so the suite cannot rot. Fails when any of them fails.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

echo "== cargo fmt --check"
cargo fmt --check
echo "== cargo clippy"
cargo clippy -q --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace --no-fail-fast

if [ -d python/tests ]; then
    echo "== mypy --strict"
    python3 -m mypy --strict python/agentbrowser
    echo "== pytest"
    AGENTBROWSER_BIN="${AGENTBROWSER_BIN:-$PWD/target/debug/agentbrowser}" PYTHONPATH=python \
        python3 -m pytest -q python/tests
fi

if [ -x bench/run.sh ]; then
    echo "== benchmark smoke run (one repetition)"
    ./bench/run.sh --quick
fi
echo "all tests passed"
