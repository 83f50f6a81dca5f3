#!/usr/bin/env bash
# Builds the source distribution, installs it with pip into a fresh virtualenv (a full compile in
# pip's own build directory, as a user without a checkout gets: ~7 min on 2 cores), and checks the
# result: both commands, the skills embedded in the binary, axe-core, doctor, and the SDK driving
# Chromium. The suite checks the sdist's contents (python/tests/test_e2e_wheel.py); this goes to
# the end once, by hand or before a release:
#   scripts/check-sdist.sh [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
WORK="${1:-$(mktemp -d)}"
mkdir -p "$WORK"
echo "== maturin sdist -> $WORK"
python3 -m maturin sdist -o "$WORK" >/dev/null
SDIST=$(ls "$WORK"/agentbrowser_engine-*.tar.gz)
echo "== pip install $SDIST into a fresh venv (compiles)"
python3 -m venv "$WORK/v"
start=$(date +%s)
env -u AGENTBROWSER_BIN -u PYTHONPATH -u CARGO_TARGET_DIR "$WORK/v/bin/pip" install -q --disable-pip-version-check "$SDIST"
echo "   built and installed in $(( $(date +%s) - start )) s"
cd "$WORK"
export AGENTBROWSER_SOCKET_DIR="$WORK/sockets"
env -u AGENTBROWSER_BIN -u PYTHONPATH v/bin/agentbrowser doctor
skills=$(v/bin/agentbrowser skills list --all | wc -l)
expected=$(find "$REPO/skills" -name SKILL.md | wc -l)
echo "== skills embedded: $skills listed, $expected in the checkout"
[ "$skills" -ge "$expected" ]
echo "== the SDK from the venv"
env -u AGENTBROWSER_BIN -u PYTHONPATH v/bin/python - <<'PY'
from agentbrowser import Browser, Wait
from agentbrowser._binary import find_binary
html = "<title>t</title><input aria-label=Name><button onclick=\"document.body.append('Hi '+document.querySelector('input').value)\">Greet</button>"
with Browser.launch() as browser:
    browser.page.open("data:text/html," + html)
    snapshot = browser.page.observe()
    snapshot.one(role="textbox", name="Name").fill("Ada")
    snapshot.one(role="button", name="Greet").click(wait=Wait.text("Hi Ada"))
    assert "Hi Ada" in browser.page.evaluate("document.body.innerText")
    print("ok: clicked through", find_binary())
PY
echo "sdist check passed"
