#!/usr/bin/env bash
# Builds the agentbrowser binaries of another revision (default: the commit before HEAD) for
# `bench/run.sh --baseline BIN`, and prints its path. Dependencies stay cached in target/baseline.
#   bench/run.sh --baseline "$(bench/baseline.sh 6a910a2)"
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-HEAD~1}"
sha="$(git rev-parse --short "$rev")"
# Its own directory: from dcb149f on, the `agentbrowser` client runs `agentbrowser-engine` from
# the directory it is in.
dir="$PWD/target/baseline/$sha"
out="$dir/agentbrowser"
if [ ! -x "$out" ]; then
    tree="$(mktemp -d)"
    git worktree add -q --detach "$tree" "$sha" >&2
    trap 'git worktree remove --force "$tree" >&2' EXIT
    CARGO_TARGET_DIR="$PWD/target/baseline" cargo build -q --release -p agentbrowser \
        --manifest-path "$tree/Cargo.toml" >&2
    mkdir -p "$dir"
    cp "$PWD/target/baseline/release/agentbrowser" "$out"
    if [ -x "$PWD/target/baseline/release/agentbrowser-engine" ]; then
        cp "$PWD/target/baseline/release/agentbrowser-engine" "$dir/"
    fi
fi
echo "$out"
