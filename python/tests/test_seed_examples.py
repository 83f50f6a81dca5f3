"""Every example of seeds 000 and 001 run as written, its printed output compared with what the seed says.

Seed 000 is browser-use's "Output Format" page of the CodeAgent (``NotebookSession``,
``CodeCell``); seed 001 its ``ActionResult`` reference.  The examples below are the seeds'
code, copied as data: the 001 blocks exactly; the 000 copy is a scraped page that dropped the
code's indentation and put a ``|`` line between its lines, so those blocks are the seed's lines
in order, each as written, with Python's indentation put back.  Seed 003 (the SDK's models
contract) has no printing examples; its call forms are checked at the end.

What a seed leaves to the reader is given, and nothing else: ``agent`` is a ``CodeAgent``
whose model is a scripted model server on 127.0.0.1 (real HTTP, the official ``openai``
client) driving a real Chromium on the test pages; ``cell_id`` is the id of the session's
second cell; ``tools`` is a ``Tools()`` registry; ``long_json_data`` is a string; the
``screenshot.png`` seed 001 opens is a real screenshot of a test page; and seed 001's
``browser_use`` imports name this SDK's classes (``agentbrowser.tools``).

Each top-level statement runs in one namespace, as in a notebook (top-level ``await``
allowed); the value of every expression statement is kept with its line, so the seeds'
``session.id  # Unique session identifier`` lines are checked against what they say.
"""

from __future__ import annotations

import ast
import asyncio
import base64
import contextlib
import io
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from agentbrowser import (
    ActionTransitionError,
    AgentBrowserError,
    BrowserError,
    BrowserInstallError,
    ConfirmationRequired,
    NativeParseError,
    RestoreSaveError,
    SnapshotSpec,
    StaleRefError,
    Wait,
)
from agentbrowser.aio import AsyncBrowser
from agentbrowser.code.agent import CodeAgent
from agentbrowser.code.notebook import CodeCell, NotebookSession
from agentbrowser.llm import ChatOpenAI, ScriptedModelServer
from agentbrowser.models.webmcp import WebMCPInvocationStatus
from agentbrowser.tools import ActionResult, JudgementResult, ToolImage, Tools
from agentbrowser.tools.registry import ToolContext

pytestmark = pytest.mark.e2e

# -- seed 000: the CodeAgent's NotebookSession and CodeCell -----------------------------------

SEED_000_NOTEBOOK_SESSION = """\
session = await agent.run()

# Access basic properties
session.id # Unique session identifier
session.cells # List of CodeCell objects
session.current_execution_count # Total number of executed cells
session.namespace # Dictionary with all variables from execution

# Helper methods
session.get_cell(cell_id) # Get a specific cell by ID
session.get_latest_cell() # Get the most recently executed cell
"""

SEED_000_CODE_CELL = """\
for cell in session.cells:
    cell.id # Unique cell identifier
    cell.cell_type # 'code' or 'markdown'
    cell.source # The code that was executed
    cell.output # Output from code execution (if any)
    cell.execution_count # Execution order number
    cell.status # 'pending', 'running', 'success', or 'error'
    cell.error # Error message if execution failed
    cell.browser_state # Browser state after execution
"""

SEED_000_BASIC_USAGE = """\
session = await agent.run()

# Iterate through all executed cells
for cell in session.cells:
    print(f"Cell {cell.execution_count}:")
    print(f" Code: {cell.source}")
    if cell.error:
        print(f" Error: {cell.error}")
    elif cell.output:
        print(f" Output: {cell.output}")
    print(f" Status: {cell.status}")

# Get the last cell
last_cell = session.get_latest_cell()
if last_cell:
    print(f"Last output: {last_cell.output}")

# Access variables from the execution namespace
products = session.namespace.get('products', [])
print(f"Extracted {len(products)} products")
"""

SEED_000_TASK_COMPLETION = """\
session = await agent.run()

# Check if task was completed
task_done = session.namespace.get('_task_done', False)
task_result = session.namespace.get('_task_result')
task_success = session.namespace.get('_task_success')

if task_done:
    print(f"Task completed: {task_success}")
    print(f"Result: {task_result}")
"""

SEED_000_ALL_OUTPUTS = """\
session = await agent.run()

# Get all outputs (excluding errors)
outputs = [cell.output for cell in session.cells if cell.output]

# Get all errors
errors = [cell.error for cell in session.cells if cell.error]

# Get successful cells only
successful_cells = [cell for cell in session.cells if cell.status == 'success']
"""

# The statuses and cell types seed 000 names: "cell.status # 'pending', 'running', 'success', or 'error'".
SEED_000_STATUSES = ("pending", "running", "success", "error")
SEED_000_CELL_TYPES = ("code", "markdown")

# -- seed 001: ActionResult ----------------------------------------------------------------------

SEED_001_CONSTRUCTOR = """\
from browser_use import ActionResult

result = ActionResult(
    extracted_content="Found 10 products",
    long_term_memory="Searched for laptops on Amazon",
)
"""

SEED_001_STRUCTURED_RETURN = """\
@tools.action('Extract product info')
async def extract_product() -> ActionResult:
    return ActionResult(
        extracted_content="Product: Laptop, Price: $999",
        long_term_memory="Found laptop pricing",
        metadata={"product_id": "123"},
    )
"""

SEED_001_SIMPLE_RETURN = """\
@tools.action('Simple action')
async def simple_action() -> str:
    return "Task completed"
"""

SEED_001_SUCCESS_RESULT = """\
result = ActionResult(
    extracted_content="Successfully uploaded 5 files",
    long_term_memory="Uploaded reports to server",
    attachments=[
        "/path/to/report1.pdf",
        "/path/to/report2.pdf",
    ],
)
"""

SEED_001_ERROR_RESULT = """\
result = ActionResult(
    error="Failed to connect to API: Connection timeout",
)
"""

SEED_001_DONE_RESULT = """\
result = ActionResult(
    is_done=True,
    success=True,
    extracted_content="Task completed: Found 25 articles and saved to research.txt",
    attachments=["research.txt"],
)
"""

SEED_001_WITH_IMAGES = """\
import base64

with open("screenshot.png", "rb") as f:
    image_data = base64.b64encode(f.read()).decode()

result = ActionResult(
    extracted_content="Screenshot captured",
    images=[
        {"name": "screenshot.png", "data": image_data}
    ],
)
"""

SEED_001_WITH_METADATA = """\
result = ActionResult(
    extracted_content="Clicked button at (100, 200)",
    metadata={
        "click_x": 100,
        "click_y": 200,
        "element_type": "button",
        "duration_ms": 45,
    },
)
"""

SEED_001_READ_ONCE = """\
# Large extracted content that should only be in context once
result = ActionResult(
    extracted_content=long_json_data,  # Sent to agent once
    long_term_memory="Extracted product catalog (500 items)",  # Compact memory
    include_extracted_content_only_once=True,  # Don't store full content
)
"""

SEED_001_PRACTICE_CONTENT = """\
# ✅ Good
ActionResult(
    extracted_content="Found 5 results",
)

# ❌ Bad
ActionResult()  # No information for the agent
"""

SEED_001_PRACTICE_MEMORY = """\
# ✅ Good - Compact memory
ActionResult(
    extracted_content="<100 lines of detailed data>",
    long_term_memory="Extracted customer data",
)

# ❌ Bad - Full data in memory
ActionResult(
    extracted_content="<100 lines of detailed data>",
    # No long_term_memory - full content stored
)
"""

SEED_001_PRACTICE_ERRORS = """\
# ✅ Good - Actionable error
ActionResult(
    error="File not found: /path/to/data.csv. Available files: [list.txt, report.pdf]",
)

# ❌ Bad - Generic error
ActionResult(
    error="Error occurred",
)
"""

SEED_001_PRACTICE_SUCCESS_FLAG = """\
# ✅ Good
ActionResult(
    is_done=True,
    success=True,
    extracted_content="Task completed",
)

# ❌ Bad - Raises ValidationError
try:
    ActionResult(
        success=True,  # is_done not set
        extracted_content="Step completed",
    )
except ValueError as e:
    print(e)  # success=True requires is_done=True
"""

SEED_001_PRACTICE_ATTACHMENTS = """\
# ✅ Good - Files visible to user
ActionResult(
    extracted_content="Report generated",
    attachments=["/path/to/report.pdf"],
)

# ❌ Bad - User doesn't know where file is
ActionResult(
    extracted_content="Report generated",
)
"""

SEED_001_PROPERTIES = """\
result = ActionResult(
    extracted_content="Data found",
    long_term_memory="Searched database",
)

print(result.extracted_content)  # "Data found"
print(result.long_term_memory)   # "Searched database"
print(result.error)               # None
print(result.is_done)             # False
"""

SEED_001_JUDGEMENT = """\
from browser_use.agent.views import JudgementResult

judgement = JudgementResult(
    reasoning="Task requirements met",
    verdict=True,
    failure_reason=None,
    impossible_task=False,
    reached_captcha=False,
)

result = ActionResult(
    is_done=True,
    success=True,
    extracted_content="Task completed",
    judgement=judgement,
)
"""

#: Seed 001's imports, as this SDK spells them.
SEED_001_IMPORTS = {
    "from browser_use import ActionResult": "from agentbrowser.tools import ActionResult",
    "from browser_use.agent.views import JudgementResult": "from agentbrowser.tools import JudgementResult",
}

# -- running an example ---------------------------------------------------------------------------


@dataclass
class Ran:
    """What an example printed and the values of its expression statements, by line (every time it ran)."""

    printed: str
    values: dict[str, list[Any]] = field(default_factory=dict)

    def value(self, line: str) -> Any:
        """The only value the expression on ``line`` had (the line as the seed writes it, comment left out)."""
        (only,) = self.values[line]
        return only


class _Keep(ast.NodeTransformer):
    """Turns each expression statement ``expr`` into ``__keep__("line", expr)``."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def visit_Expr(self, node: ast.Expr) -> ast.Expr:  # noqa: N802 (ast API)
        line = self.lines[node.lineno - 1].split(" #")[0].strip()
        keep = ast.Call(ast.Name("__keep__", ast.Load()), [ast.Constant(line), node.value], [])
        return ast.copy_location(ast.Expr(ast.copy_location(keep, node)), node)


def _source(example: str) -> str:
    for seed, ours in SEED_001_IMPORTS.items():
        example = example.replace(seed, ours)
    return example


async def run_example(
    example: str, namespace: dict[str, Any], fill: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None
) -> Ran:
    """Run ``example`` statement by statement in ``namespace``; ``fill`` gives a name the seed leaves
    undefined just before the first statement that reads it."""
    source = _source(example)
    lines = source.splitlines()
    ran = Ran(printed="")
    namespace["__keep__"] = lambda line, value: ran.values.setdefault(line, []).append(value)
    out = io.StringIO()
    for statement in ast.parse(source).body:
        for name in {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)}:
            if fill and name in fill and name not in namespace:
                namespace[name] = fill[name](namespace)
        module = ast.fix_missing_locations(ast.Module([_Keep(lines).visit(statement)], type_ignores=[]))
        code = compile(module, "<seed example>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        with contextlib.redirect_stdout(out):
            pending = eval(code, namespace)  # noqa: S307 (the seed's own example)
            if pending is not None:
                await pending
    ran.printed = out.getvalue()
    return ran


# -- seed 000 against a real page -----------------------------------------------------------------

PRODUCTS_JS = "[...document.querySelectorAll('#color option')].map(o => o.textContent)"
CELL_PRODUCTS = f'products = await page.evaluate("{PRODUCTS_JS}")\nprint(len(products), "products")'
CELL_ERROR = "print(products[2])"
CELL_DONE = "await done(f\"Found {len(products)} products: {', '.join(products)}\", success=True)"
DONE_TEXT = "Found 2 products: Red, Blue"
INDEX_ERROR = "IndexError: list index out of range (line 1: print(products[2]))"


def _replies() -> list[str]:
    return [f"Step {n}.\n```python\n{code}\n```" for n, code in enumerate((CELL_PRODUCTS, CELL_ERROR, CELL_DONE), 1)]


async def _run_seed_000(
    base: str, *examples: str, fill: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None
) -> tuple[dict[str, Any], list[Ran]]:
    """Run seed-000 examples in one namespace, ``agent`` a fresh scripted CodeAgent for each; the namespace after."""
    namespace: dict[str, Any] = {}
    ran: list[Ran] = []
    async with await AsyncBrowser.launch() as browser:
        for example in examples:
            with ScriptedModelServer(_replies()) as server:
                llm = ChatOpenAI("scripted-model", base_url=server.start(), api_key="test-key", max_retries=0)
                task = f"List the colours offered at {base}/form as products."
                namespace["agent"] = CodeAgent(task, llm, browser=browser, use_judge=False, use_vision=False)
                ran.append(await run_example(example, namespace, fill))
    return namespace, ran


def _cells_as_run(base: str) -> list[tuple[str, str | None, str, str | None]]:
    """(source, output, status, error) of each cell the scripted run makes: the page opened, then one per reply."""
    done = ActionResult(is_done=True, success=True, attachments=[], extracted_content=DONE_TEXT)
    opened = f"Out: Navigation(url='{base}/form', title='Form', status=200)"
    return [
        (f"await page.open('{base}/form')", opened, "success", None),
        (CELL_PRODUCTS, "2 products\n", "success", None),
        (CELL_ERROR, None, "error", INDEX_ERROR),
        (CELL_DONE, f"Out: {done!r}", "success", None),
    ]


def test_seed_000_notebook_session_and_code_cell_properties(agentbrowser_bin: Path, server: str) -> None:
    fill = {"cell_id": lambda ns: ns["session"].cells[1].id}
    ns, (props, cells) = asyncio.run(_run_seed_000(server, SEED_000_NOTEBOOK_SESSION, SEED_000_CODE_CELL, fill=fill))
    assert props.printed == "" and cells.printed == ""
    session = ns["session"]
    assert isinstance(session, NotebookSession)
    expected = _cells_as_run(server)
    # "session.id # Unique session identifier"
    session_id = props.value("session.id")
    assert isinstance(session_id, str) and session_id and session_id not in {c.id for c in session.cells}
    # "session.cells # List of CodeCell objects"
    listed = props.value("session.cells")
    assert isinstance(listed, list) and all(isinstance(c, CodeCell) for c in listed) and len(listed) == len(expected)
    # "session.current_execution_count # Total number of executed cells"
    assert props.value("session.current_execution_count") == len(expected)
    # "session.namespace # Dictionary with all variables from execution"
    namespace = props.value("session.namespace")
    assert isinstance(namespace, dict) and namespace["products"] == ["Red", "Blue"]
    # "session.get_cell(cell_id) # Get a specific cell by ID"
    assert props.value("session.get_cell(cell_id)") is session.cells[1]
    # "session.get_latest_cell() # Get the most recently executed cell"
    assert props.value("session.get_latest_cell()") is session.cells[-1]
    # The CodeCell properties, for each cell.
    ids = cells.values["cell.id"]
    assert ids == [c.id for c in session.cells] and len(set(ids)) == len(ids)
    cell_types = cells.values["cell.cell_type"]
    assert [str(t) for t in cell_types] == [f"{t}" for t in cell_types] == ["code"] * len(expected)
    assert set(map(str, cell_types)) <= set(SEED_000_CELL_TYPES)
    assert cells.values["cell.source"] == [source for source, _, _, _ in expected]
    assert cells.values["cell.output"] == [output for _, output, _, _ in expected]
    assert cells.values["cell.execution_count"] == [1, 2, 3, 4]
    statuses = cells.values["cell.status"]
    # "cell.status # 'pending', 'running', 'success', or 'error'": the value, however it is shown.
    assert [str(s) for s in statuses] == [status for _, _, status, _ in expected]
    assert [f"{s}" for s in statuses] == [status for _, _, status, _ in expected]
    assert statuses == [status for _, _, status, _ in expected] and set(map(str, statuses)) <= set(SEED_000_STATUSES)
    assert cells.values["cell.error"] == [error for _, _, _, error in expected]
    for state in cells.values["cell.browser_state"]:
        assert isinstance(state, str) and f"URL: {server}/form" in state


def test_seed_000_basic_usage_prints_as_the_seed_says(agentbrowser_bin: Path, server: str) -> None:
    _, (ran,) = asyncio.run(_run_seed_000(server, SEED_000_BASIC_USAGE))
    lines: list[str] = []
    for count, (source, output, status, error) in enumerate(_cells_as_run(server), 1):
        lines += [f"Cell {count}:", f" Code: {source}"]
        lines += [f" Error: {error}"] if error else [f" Output: {output}"] if output else []
        lines.append(f" Status: {status}")
    last_output = _cells_as_run(server)[-1][1]
    lines += [f"Last output: {last_output}", "Extracted 2 products"]
    assert ran.printed == "\n".join(lines) + "\n"
    assert "ExecutionStatus" not in ran.printed


def test_seed_000_task_completion(agentbrowser_bin: Path, server: str) -> None:
    _, (ran,) = asyncio.run(_run_seed_000(server, SEED_000_TASK_COMPLETION))
    assert ran.printed == f"Task completed: True\nResult: {DONE_TEXT}\n"


def test_seed_000_all_outputs_errors_and_successful_cells(agentbrowser_bin: Path, server: str) -> None:
    ns, (ran,) = asyncio.run(_run_seed_000(server, SEED_000_ALL_OUTPUTS))
    expected = _cells_as_run(server)
    assert ran.printed == ""
    assert ns["outputs"] == [output for _, output, _, _ in expected if output]
    assert ns["errors"] == [INDEX_ERROR]
    # "cell.status == 'success'" holds for the cells that succeeded, and only for them.
    cells = ns["session"].cells
    assert ns["successful_cells"] == [cells[0], cells[1], cells[3]]


# -- seed 001 ----------------------------------------------------------------------------------------


def _run_001(example: str, **names: Any) -> tuple[dict[str, Any], Ran]:
    namespace: dict[str, Any] = dict(names)
    ran = asyncio.run(run_example(example, namespace))
    return namespace, ran


def test_seed_001_parameters_and_their_defaults() -> None:
    ns, ran = _run_001(SEED_001_CONSTRUCTOR)
    assert ran.printed == "" and ns["ActionResult"] is ActionResult
    result = ns["result"]
    assert (result.extracted_content, result.long_term_memory) == (
        "Found 10 products",
        "Searched for laptops on Amazon",
    )
    # The parameters the seed lists, with its defaults: is_done False, the flags False, the rest None.
    empty = ActionResult()
    assert (empty.is_done, empty.include_extracted_content_only_once, empty.include_in_memory) == (False, False, False)
    for name in ("extracted_content", "long_term_memory", "error", "success", "attachments", "images", "metadata"):
        assert getattr(empty, name) is None, name
    assert empty.judgement is None


def test_seed_001_tools_return_action_results_or_strings() -> None:
    tools = Tools()
    _run_001(SEED_001_STRUCTURED_RETURN, tools=tools, ActionResult=ActionResult)
    _run_001(SEED_001_SIMPLE_RETURN, tools=tools, ActionResult=ActionResult)
    ctx = ToolContext(browser=None)
    structured = asyncio.run(tools.act("extract_product", (), {}, ctx))
    assert structured == ActionResult(
        extracted_content="Product: Laptop, Price: $999",
        long_term_memory="Found laptop pricing",
        metadata={"product_id": "123"},
    )
    # "Tools can return ActionResult or simple strings": the string is the extracted content.
    simple = asyncio.run(tools.act("simple_action", (), {}, ctx))
    assert simple == ActionResult(extracted_content="Task completed")
    assert tools.get("extract_product").description == "Extract product info"
    assert tools.get("simple_action").description == "Simple action"


def test_seed_001_usage_examples() -> None:
    ns, ran = _run_001(SEED_001_SUCCESS_RESULT, ActionResult=ActionResult)
    assert ns["result"].attachments == ["/path/to/report1.pdf", "/path/to/report2.pdf"] and ran.printed == ""
    ns, _ = _run_001(SEED_001_ERROR_RESULT, ActionResult=ActionResult)
    # "error: When set, this indicates the action failed."
    assert ns["result"].error == "Failed to connect to API: Connection timeout" and ns["result"].success is None
    ns, _ = _run_001(SEED_001_DONE_RESULT, ActionResult=ActionResult)
    assert (ns["result"].is_done, ns["result"].success, ns["result"].attachments) == (True, True, ["research.txt"])
    ns, _ = _run_001(SEED_001_WITH_METADATA, ActionResult=ActionResult)
    assert ns["result"].metadata == {"click_x": 100, "click_y": 200, "element_type": "button", "duration_ms": 45}
    catalog = '[{"name": "Laptop"}]'
    ns, _ = _run_001(SEED_001_READ_ONCE, ActionResult=ActionResult, long_json_data=catalog)
    assert ns["result"].extracted_content == catalog and ns["result"].include_extracted_content_only_once is True


def test_seed_001_with_a_real_screenshot(
    agentbrowser_bin: Path, server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def shoot() -> None:
        async with await AsyncBrowser.launch() as browser:
            await browser.page.open(f"{server}/form")
            await browser.page.capture.screenshot("screenshot.png")

    asyncio.run(shoot())
    shot = (tmp_path / "screenshot.png").read_bytes()
    assert shot.startswith(b"\x89PNG")
    ns, ran = _run_001(SEED_001_WITH_IMAGES, ActionResult=ActionResult)
    assert ran.printed == ""
    (entry,) = ns["result"].images
    assert entry["name"] == "screenshot.png" and base64.b64decode(entry["data"]) == shot
    image = ToolImage.from_entry(entry)  # what the agent is shown
    assert (image.data, image.media_type, image.name) == (shot, "image/png", "screenshot.png")


def test_seed_001_best_practices() -> None:
    for example in (
        SEED_001_PRACTICE_CONTENT,
        SEED_001_PRACTICE_MEMORY,
        SEED_001_PRACTICE_ERRORS,
        SEED_001_PRACTICE_ATTACHMENTS,
    ):
        _, ran = _run_001(example, ActionResult=ActionResult)
        assert ran.printed == "" and all(isinstance(v, ActionResult) for vs in ran.values.values() for v in vs)
    # "❌ Bad - Raises ValidationError ... print(e)  # success=True requires is_done=True"
    _, ran = _run_001(SEED_001_PRACTICE_SUCCESS_FLAG, ActionResult=ActionResult)
    assert ran.printed.startswith("success=True requires is_done=True") and ran.printed.count("\n") == 1


def test_seed_001_properties_print_as_the_seed_says() -> None:
    _, ran = _run_001(SEED_001_PROPERTIES, ActionResult=ActionResult)
    assert ran.printed == "Data found\nSearched database\nNone\nFalse\n"


def test_seed_001_judgement() -> None:
    ns, ran = _run_001(SEED_001_JUDGEMENT, ActionResult=ActionResult)
    assert ran.printed == "" and ns["JudgementResult"] is JudgementResult
    judgement = ns["judgement"]
    assert (judgement.verdict, judgement.reasoning, judgement.failure_reason) == (True, "Task requirements met", None)
    assert (judgement.impossible_task, judgement.reached_captcha) == (False, False)
    assert ns["result"].judgement is judgement and ns["result"].success is True


# -- seed 003: the models' call forms ---------------------------------------------------------------


def test_seed_003_call_forms_and_values() -> None:
    # "SnapshotSpec(selector=None, interactive=True, compact=False, max_depth=None, urls=False) accepts a
    # non-negative maximum depth. A negative value raises ValueError."
    spec = SnapshotSpec(selector=None, interactive=True, compact=False, max_depth=None, urls=False)
    assert spec == SnapshotSpec() and SnapshotSpec(max_depth=0).max_depth == 0
    with pytest.raises(ValueError):
        SnapshotSpec(max_depth=-1)
    # "Timeouts must be non-negative and use milliseconds. Wait.all() requires at least one condition."
    waits = [Wait.text("Saved", timeout_ms=None), Wait.url("**/done", timeout_ms=0), Wait.loaded("load")]
    assert Wait.all(*waits) is not None
    with pytest.raises(ValueError):
        Wait.text("Saved", timeout_ms=-1)
    with pytest.raises(ValueError):
        Wait.all()
    # "Invocation status is pending, completed, canceled, failed, or timed_out."
    assert set(typing.get_args(WebMCPInvocationStatus)) == {"pending", "completed", "canceled", "failed", "timed_out"}
    # The error hierarchy.
    for error in (BrowserError, NativeParseError, ActionTransitionError, BrowserInstallError, RestoreSaveError):
        assert issubclass(error, AgentBrowserError), error
    assert issubclass(ConfirmationRequired, BrowserError) and issubclass(StaleRefError, BrowserError)


def test_seed_003_snapshot_lookups_on_a_real_page(agentbrowser_bin: Path, server: str) -> None:
    async def look() -> None:
        async with await AsyncBrowser.launch() as browser:
            await browser.page.open(f"{server}/form")
            snap = await browser.page.observe()
            submit = snap.one(role="button", name="Submit")
            # "ref(ref_id) Resolve an exact ID such as e1 or @e1."
            assert snap.ref(submit.id).id == snap.ref("@" + submit.id).id == submit.id
            # "Snapshot.ref() raises KeyError for an unknown ID."
            with pytest.raises(KeyError):
                snap.ref("e9999")
            # "Snapshot.one() raises LookupError with the failed criteria and bounded candidate refs when criteria
            # match zero or several refs."
            with pytest.raises(LookupError) as none:
                snap.one(role="button", name="No such button")
            assert "No such button" in str(none.value) and "@e" in str(none.value)
            with pytest.raises(LookupError) as several:
                snap.one(role="button")
            assert "role='button'" in str(several.value) and submit.id in str(several.value)

    asyncio.run(look())
