#!/usr/bin/env bash
# Builds the release binaries into target/release: the engine (`agentbrowser-engine`) as cargo
# builds it, and the client (`agentbrowser`) linked statically wherever glibc's static library is
# installed (Debian: libc6-dev, which the Rust toolchain's linker needs anyway). Every CLI call
# starts a client process; a static one has no dynamic loader to run (no libc.so or libgcc_s.so
# to map, relocate and bind): 0.3 ms and 30 page faults of each call on the bench machine
# (bench/cli_start.py). Where the static link is not possible or fails, the client is linked
# dynamically (it works the same, only starts slower), with a note on stderr.
#   scripts/build-release.sh            # both binaries; a no-op when they are fresh
# Build the client only this way: a plain `cargo build --release` relinks it dynamically, and this
# script links it statically again.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p agentbrowser --bin agentbrowser-engine
if [ "$(uname -s)" = Linux ] && [ -f "$(cc -print-file-name=libc.a 2>/dev/null || true)" ]; then
    # Position-dependent and static (crates/cli/build.rs links the client -no-pie already).
    if cargo rustc -q --release -p agentbrowser --bin agentbrowser -- \
        -C target-feature=+crt-static -C relocation-model=static; then
        exit 0
    fi
    echo "build-release: the static link of the client failed; linking it dynamically" >&2
fi
cargo rustc -q --release -p agentbrowser --bin agentbrowser
