#!/usr/bin/env bash
# Builds the release binaries into target/release: the engine (`agentbrowser-engine`) as cargo
# builds it, and the client (`agentbrowser`) linked statically wherever glibc's static library is
# installed (Debian: libc6-dev, which the Rust toolchain's linker needs anyway). Every CLI call
# starts a client process; a static one has no dynamic loader to run (no libc.so or libgcc_s.so
# to map, relocate and bind), which was about 0.5 ms of each call on the bench machine.
#   scripts/build-release.sh            # both binaries; a no-op when they are fresh
# Build the client only this way: a plain `cargo build --release` relinks it dynamically (it
# still works, it is only slower to start), and this script links it statically again.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p agentbrowser --bin agentbrowser-engine
static=()
if [ "$(uname -s)" = Linux ] && [ -f "$(cc -print-file-name=libc.a 2>/dev/null || true)" ]; then
    # Position-dependent and static (crates/cli/build.rs links the client -no-pie already).
    static=(-C target-feature=+crt-static -C relocation-model=static)
fi
cargo rustc -q --release -p agentbrowser --bin agentbrowser -- "${static[@]}"
