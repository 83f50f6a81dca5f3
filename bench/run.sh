#!/usr/bin/env bash
# The benchmark: builds what it needs, then runs bench/bench.py (see bench/README.md).
#   bench/run.sh            full run (15 repetitions), about 10-15 minutes
#   bench/run.sh --quick    one repetition, for CI (peers are used when installed, skipped otherwise)
set -euo pipefail
cd "$(dirname "$0")/.."
# Always build: a stale binary would measure old code (cargo is a no-op when nothing changed).
scripts/build-release.sh
cargo build -q --release -p agentbrowser-bench-floor
exec python3 bench/bench.py "$@"
