#!/usr/bin/env bash
# Builds the agentbrowser binary of another revision (default: the commit before HEAD) for
# `bench/run.sh --baseline BIN`, and prints its path. Dependencies stay cached in target/baseline.
#   bench/run.sh --baseline "$(bench/baseline.sh 6a910a2)"
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-HEAD~1}"
sha="$(git rev-parse --short "$rev")"
out="$PWD/target/baseline/agentbrowser-$sha"
if [ ! -x "$out" ]; then
    tree="$(mktemp -d)"
    git worktree add -q --detach "$tree" "$sha" >&2
    trap 'git worktree remove --force "$tree" >&2' EXIT
    CARGO_TARGET_DIR="$PWD/target/baseline" cargo build -q --release -p agentbrowser \
        --manifest-path "$tree/Cargo.toml" >&2
    cp "$PWD/target/baseline/release/agentbrowser" "$out"
fi
echo "$out"
