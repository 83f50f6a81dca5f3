"""End-to-end: every task of the component-library gallery (gallery/tasks.py) on agentbrowser's CLI
and its MCP server, on pages made with real component libraries served on 127.0.0.1. A task passes
only when the engine claimed success for every step and the app's own state shows the effect
(which it did not show before): 0 false successes, every task done.

One browser per engine for the module; the two engines run their tasks at the same time, each in
a thread of its own (a task opens its page afresh), and each test reads its task's result."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO))

from gallery import runner  # noqa: E402
from gallery.engines.agentbrowser_cli import AgentbrowserCli  # noqa: E402
from gallery.engines.agentbrowser_mcp import AgentbrowserMcp  # noqa: E402
from gallery.tasks import TASKS, Task, by_id, coverage_markdown  # noqa: E402

ENGINES = {"agentbrowser-cli": AgentbrowserCli, "agentbrowser-mcp": AgentbrowserMcp}
Results = dict[tuple[str, str], "Future[runner.Result]"]


def _run_engine(name: str, binary: Path, tasks: list[Task], origin: str, other: str, results: Results) -> None:
    """Runs ``tasks`` in order on one new engine, settling each task's future."""
    try:
        engine = ENGINES[name](binary=binary)
    except Exception as e:  # every task of an engine that cannot start fails with the reason
        for t in tasks:
            results[(name, t.id)].set_exception(e)
        return
    try:
        for t in tasks:
            try:
                results[(name, t.id)].set_result(runner.run_task(engine, t, origin, other))
            except Exception as e:
                results[(name, t.id)].set_exception(e)
    finally:
        engine.close()


@pytest.fixture(scope="module")
def results(request: pytest.FixtureRequest, agentbrowser_bin: Path) -> Iterator[Results]:
    """The result of every selected (engine, task), run by one thread per engine."""
    chosen = [
        (item.callspec.params["engine"], item.callspec.params["task_id"])
        for item in request.session.items
        if item.module is request.module and hasattr(item, "callspec") and "task_id" in item.callspec.params
    ]
    runner.build()
    tasks = by_id()
    futures: Results = {key: Future() for key in chosen}
    with runner.serve() as origin, runner.serve() as other:
        threads = [
            threading.Thread(
                target=_run_engine,
                args=(name, agentbrowser_bin, [tasks[t] for e, t in chosen if e == name], origin, other, futures),
                daemon=True,
            )
            for name in ENGINES
            if any(e == name for e, _ in chosen)
        ]
        for th in threads:
            th.start()
        yield futures
        for th in threads:
            th.join(timeout=300)


@pytest.mark.parametrize("task_id", [t.id for t in TASKS])
@pytest.mark.parametrize("engine", list(ENGINES))
def test_gallery_task(results: Results, engine: str, task_id: str) -> None:
    r = results[(engine, task_id)].result(timeout=600)
    assert not r.before, f"{task_id}: the check holds before the task ran: the task cannot tell\n{r.failure()}"
    assert r.verdict == "success", r.failure()


def test_gallery_size_and_docs() -> None:
    """At least 45 tasks over at least 11 libraries, unique ids, each page in the bundle's sources,
    and docs/gallery.md's tables as the tasks and package.json's pins make them."""
    assert len(by_id()) == len(TASKS) >= 45
    assert len({t.library for t in TASKS}) >= 11
    sources = {p.stem for p in (REPO / "gallery" / "src").iterdir()}
    for t in TASKS:
        page = re.sub(r"\?.*", "", t.page).lstrip("/").removesuffix(".html")
        assert page in sources, f"{t.id}: no source for {t.page}"
    doc = (REPO / "docs" / "gallery.md").read_text()
    assert coverage_markdown() in doc, "docs/gallery.md's tables are stale: python3 -m gallery.tasks prints them"
