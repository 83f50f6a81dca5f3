# Benchmarks (see bench/README.md and docs/performance.md).
.PHONY: bench bench-quick bench-peers bench-baseline bench-soak bench-session bench-mcp bench-agent bench-grid

bench:
	bench/run.sh

bench-quick:
	bench/run.sh --quick

# The peers the benchmark compares against: agent-browser and @playwright/mcp (npm, pinned, into bench/peers/node_modules)
# and Playwright for Python (pip; it runs Debian's /usr/bin/chromium: never `playwright install`), and
# pyagentbrowser (PyPI, in its own venv bench/peers/pyab: its import name is `agentbrowser` too).
bench-peers:
	cd bench/peers && npm install --no-audit --no-fund --loglevel=error
	python3 -m pip install -q --disable-pip-version-check "playwright==1.65.2"
	test -x bench/peers/pyab/bin/python || python3 -m venv bench/peers/pyab
	bench/peers/pyab/bin/pip install -q --disable-pip-version-check "pyagentbrowser==0.39.0"

# A full run with the previous commit's binary measured beside this one (BASE=<rev> for another).
bench-baseline:
	bench/run.sh --baseline "$$(bench/baseline.sh $(or $(BASE),HEAD~1))"

# 10,000 mixed actions through one daemon: RSS growth after the first 1,000 and p50/p99 drift.
bench-soak:
	scripts/build-release.sh
	python3 bench/soak.py

# Bytes an agent reads across a 10-step session on the 5k page: full snapshots, evidence diffs, deltas.
bench-session:
	scripts/build-release.sh
	python3 bench/session_bytes.py

# `agentbrowser mcp`: a tool call's cost over the same command on the daemon socket; browser_snapshot's
# answer size on the 5k page next to @playwright/mcp's (installed by `make bench-peers`).
bench-mcp:
	scripts/build-release.sh
	python3 bench/mcp_bench.py

# The code agent's per-step overhead without the model call and the snapshot (target <= 20 ms), the
# observation size per step on the 5k page, and the prompt tokens per step beside the baseline before
# issue 35 (target: steps after the first <= 30% of it) (a scripted model server on 127.0.0.1, no real model).
bench-agent:
	scripts/build-release.sh
	python3 bench/agent_overhead.py

# Sessions per machine with the browsers on a grid (Browserless from npm, started on 127.0.0.1):
# daemon RSS/PSS per session and the attach latency, against a local ws:// attach in the same run.
bench-grid:
	scripts/build-release.sh
	python3 bench/grid_density.py
