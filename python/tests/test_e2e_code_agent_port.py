"""End-to-end: a browser-use CodeAgent script, as browser-use's docs show one (a custom tool with
``@tools.action`` returning an ``ActionResult``, ``CodeAgent(task=..., llm=..., tools=...,
max_steps=...)``, ``session = await agent.run()``, then the cells, ``get_latest_cell()`` and
``session.namespace``), run with only its imports changed, in its own Python process, against a
page this test serves and a scripted model server on 127.0.0.1 behind the official ``openai``
client (``OPENAI_BASE_URL``/``OPENAI_API_KEY``, as a browser-use user sets them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from agentbrowser.llm import ScriptedModelServer
from conftest import REPO
from local_http import serve

SHOP = (
    "<!doctype html><html><head><meta charset=utf-8><title>Shop</title></head><body><h1>Laptops</h1>"
    "<ul><li class=product><span class=name>Air 13</span> <span class=price>$999</span></li>"
    "<li class=product><span class=name>Pro 14</span> <span class=price>$1499</span></li>"
    "<li class=product><span class=name>Book 15</span> <span class=price>$1199</span></li></ul></body></html>"
)

# The user's script. Only the three import lines differ from the browser-use script (kept as comments).
SCRIPT = '''
import asyncio
import json
from pathlib import Path

# from browser_use.code_use import CodeAgent
# from browser_use import ActionResult, ChatOpenAI, Tools
from agentbrowser.code import CodeAgent
from agentbrowser.llm import ChatOpenAI
from agentbrowser.tools import ActionResult, Tools

tools = Tools()


@tools.action('Save products to a JSON file')
async def save_products(products: list[dict], filename: str) -> ActionResult:
    Path(filename).write_text(json.dumps(products, indent=2))
    return ActionResult(
        extracted_content=f"Saved {len(products)} products to {filename}",
        long_term_memory=f"Saved products to {filename}",
        attachments=[filename],
        metadata={"count": len(products)},
    )


async def main():
    task = "Extract all products (name and price) from SHOP_URL and save them to products.json"
    agent = CodeAgent(task=task, llm=ChatOpenAI(model="gpt-4.1-mini"), tools=tools, max_steps=10)
    session = await agent.run()

    for cell in session.cells:
        print(f"Cell {cell.execution_count}:")
        print(f"  Code: {cell.source}")
        if cell.error:
            print(f"  Error: {cell.error}")
        elif cell.output:
            print(f"  Output: {cell.output}")
        print(f"  Status: {cell.status}")

    last_cell = session.get_latest_cell()
    if last_cell:
        print(f"Last output: {last_cell.output}")

    products = session.namespace.get('products', [])
    print(f"Extracted {len(products)} products")

    task_done = session.namespace.get('_task_done', False)
    task_result = session.namespace.get('_task_result')
    task_success = session.namespace.get('_task_success')
    if task_done:
        print(f"Task completed: {task_success}")
        print(f"Result: {task_result}")

    errors = [cell.error for cell in session.cells if cell.error]
    successful_cells = [cell for cell in session.cells if cell.status == 'success']
    print(f"errors={len(errors)} successful={len(successful_cells)} steps={session.history.number_of_steps()}")


asyncio.run(main())
'''

EXTRACT = (
    "I read the products with JavaScript.\n```python\n"
    "products = await page.evaluate(\"Array.from(document.querySelectorAll('.product')).map(p => "
    "({name: p.querySelector('.name').textContent, price: p.querySelector('.price').textContent}))\")\n"
    "print(len(products), products[0])\n```"
)
SAVE = "Now save them.\n```python\nprint(await save_products(products, 'products.json'))\n```"
DONE = (
    "Done.\n```python\nawait done(f'Saved {len(products)} products to products.json', success=True, "
    "files_to_display=['products.json'])\n```"
)
VERDICT = json.dumps(
    {"reasoning": "saved the three products", "verdict": True, "failure_reason": "", "impossible_task": False,
     "reached_captcha": False}
)


class _Shop(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        data = SHOP.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture()
def shop() -> Iterator[str]:
    for base in serve(_Shop):
        yield f"{base}/laptops"


def test_a_browser_use_code_agent_script_runs_with_only_its_imports_changed(shop: str, tmp_path: Path) -> None:
    script = tmp_path / "extract_products.py"
    script.write_text(SCRIPT.replace("SHOP_URL", shop))
    with ScriptedModelServer([EXTRACT, SAVE, DONE, VERDICT]) as server:
        env = dict(os.environ)
        env.update(
            OPENAI_BASE_URL=server.base_url,
            OPENAI_API_KEY="test",
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO / "python"), env.get("PYTHONPATH")])),
        )
        done = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stderr[-3000:]
        requests = list(server.requests)
    out = done.stdout
    # The run opened the task's URL in a cell of its own, then ran the model's three cells.
    assert f"Cell 1:\n  Code: await page.open('{shop}')" in out
    assert "Extracted 3 products" in out
    assert "Task completed: True" in out
    assert "Result: Saved 3 products to products.json" in out
    assert "Saved 3 products to products.json" in out.split("Cell 3:")[1]
    assert "errors=0 successful=4 steps=3" in out
    assert json.loads((tmp_path / "products.json").read_text())[1] == {"name": "Pro 14", "price": "$1499"}
    # The custom tool was offered to the model with its description.
    assert "Save products to a JSON file" in json.dumps(requests[0])
