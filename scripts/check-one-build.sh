#!/usr/bin/env bash
# Fails when a dependency of the release binaries is built with other features for the tests.
# Cargo unifies features over what it builds: `cargo test --workspace` adds the dev-dependencies,
# and one of them turning on a feature of a crate the binaries use rebuilds that crate and all
# above it (rmcp, the MCP crate and the CLI: ~4 min on 2 cores). One build for setup, demo and
# tests holds only while this check passes; the fix is a direct dependency with those features.
set -euo pipefail
cd "$(dirname "$0")/.."
features() { cargo tree -q "$@" -f '{p} {f}' --prefix none | sed 's/ (\*)$//' | sort -u; }
parted=$(comm -23 <(features -p agentbrowser --edges no-dev) <(features --workspace))
if [ -n "$parted" ]; then
    echo "check-one-build: these crates of the release binaries get other features in the test build:" >&2
    echo "$parted" >&2
    exit 1
fi
