#!/usr/bin/env python3
"""Dumps browser-use's code-agent surface and ours, and lists what of theirs is missing here.

Theirs is read from the published wheels by AST (no browser-use install, none of its heavy
imports): ``CodeAgent``, ``NotebookSession``, ``CodeCell`` and their enums and history models from
browser-use 0.12.2 (the last release with ``code_use``), ``Tools`` (with ``Registry.action``, which
``Tools.action(description, **kwargs)`` forwards to), ``ActionResult`` and ``JudgementResult``
from 0.13.0. Ours is read with :mod:`inspect` from ``python/agentbrowser``.

For each class the surface is its constructor parameters (a pydantic model's fields) with their
defaults, its public methods and properties with their parameters, and an enum's values. A gap is
one of theirs that is missing here, or a default that differs; :data:`EXCEPTIONS` lists the
deliberate ones with their reason (python/tests/test_peer_code_api.py fails on any other, and on
an exception that is no longer a gap).

    python3 python/tools/peer_code_api.py            # the diff, with counts
    python3 python/tools/peer_code_api.py --dump     # both surfaces as JSON
    python3 python/tools/peer_code_api.py --fetch    # only download the wheels (pip download)

The wheels are taken from ``target/peer-wheels/`` (or ``$PEER_WHEELS``) and downloaded there with
``pip download --no-deps`` when missing.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import enum
import importlib
import inspect
import json
import os
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
WHEELS = Path(os.environ.get("PEER_WHEELS", REPO / "target" / "peer-wheels"))
PACKAGES = {"0.12.2": "browser_use-0.12.2-py3-none-any.whl", "0.13.0": "browser_use-0.13.0-py3-none-any.whl"}
FETCH_TIMEOUT_S = 180

#: Their class -> (browser-use version, module path in the wheel, our import path).
CLASSES: dict[str, tuple[str, str, str]] = {
    "CodeAgent": ("0.12.2", "browser_use/code_use/service.py", "agentbrowser.code:CodeAgent"),
    "NotebookSession": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:NotebookSession"),
    "CodeCell": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CodeCell"),
    "CellType": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CellType"),
    "ExecutionStatus": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:ExecutionStatus"),
    "CodeAgentHistoryList": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CodeAgentHistoryList"),
    "CodeAgentResult": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CodeAgentResult"),
    "CodeAgentState": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CodeAgentState"),
    "CodeAgentHistory": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CodeAgentStep"),
    "CodeAgentStepMetadata": ("0.12.2", "browser_use/code_use/views.py", "agentbrowser.code:CodeAgentStepMetadata"),
    "Tools": ("0.13.0", "browser_use/tools/service.py", "agentbrowser.tools:Tools"),
    "ActionResult": ("0.13.0", "browser_use/agent/views.py", "agentbrowser.tools:ActionResult"),
    "JudgementResult": ("0.13.0", "browser_use/agent/views.py", "agentbrowser.tools:JudgementResult"),
}
#: A method of theirs whose ``**kwargs`` are another method's parameters.
FORWARDS = {("Tools", "action"): ("0.13.0", "browser_use/tools/registry/service.py", "Registry", "action")}
#: What every pydantic model of theirs has from ``BaseModel`` (a user calls ``result.model_dump()``).
PYDANTIC_METHODS = ("model_copy", "model_dump", "model_dump_json", "model_validate")
#: Dunder methods that are part of a surface (``async with agent``, ``len(history)``).
DUNDERS = {"__aenter__", "__aexit__", "__len__"}
#: Decorators of pydantic validators: run by the model, not called by users.
VALIDATORS = {"model_validator(mode='after')", "model_validator(mode='before')", "field_validator"}

#: The reason given for a gap that issue 37 has yet to close (none is left).
NOT_YET = "not yet built (issue 37)"

#: Deliberate (or not yet closed) gaps, each with its reason (docs/code-mode.md, "From browser-use").
#: Keys are those of :func:`diff`.
EXCEPTIONS: dict[str, str] = {
    "CodeAgent.dom_service": "browser-use's DOM service; the engine takes the snapshots here (no DOM service object)",
    "CodeAgent.screenshot_service": "browser-use's screenshot files; screenshots are bytes in session.history (CodeAgentState.screenshot)",
    "CodeAgent.token_cost_service": "browser-use's pricing service; token counts are in session.history.usage(), no prices",
    "CodeAgent.version": "browser-use's package version for telemetry; agentbrowser.__version__ is ours",
    "CodeAgent.telemetry": "browser-use's product telemetry; agentbrowser sends none",
    "CodeAgent.source": "browser-use's install source (git or pip) for telemetry; none here",
    "CodeAgent.message_manager": "an internal shim of browser-use around its message list; the requests are in model_log",
    "CodeAgentHistory.model_output:default": "a step here always has its code (a str: the cell the model wrote; full_response is the whole reply), there a CodeAgentModelOutput or None",
    "CodeAgentHistory.result:default": "one CodeAgentResult per step here (a cell is one result), a list of them there",
    "CodeAgentHistoryList.complete_history": "built by the agent, not by users: ours takes steps=[CodeAgentStep]",
    "CodeAgentHistoryList.usage_summary": "built by the agent, not by users: ours takes usage_total=",
    "Tools.act(action)": "a different calling convention: act(name, args, kwargs, ctx) runs a tool by name; browser-use's act(ActionModel, browser_session) is its agent's internal call",
    "Tools.act(browser_session)": "see Tools.act(action): the ToolContext carries the browser",
    "Tools.act(page_extraction_llm)": "see Tools.act(action): no extraction model (no extract tool in code mode, as in browser-use's CodeAgentTools)",
    "Tools.act(sensitive_data)": "see Tools.act(action): the ToolContext carries the secrets",
    "Tools.act(available_file_paths)": "see Tools.act(action): the ToolContext carries them (ToolContext(available_file_paths=))",
    "Tools.act(file_system)": "see Tools.act(action): no file-system sandbox here",
    "Tools.act(extraction_schema)": "see Tools.act(action): no extraction model",
    "Tools.act(action_timeout)": "see Tools.act(action): the timeout is the tool's timeout_s (action(..., timeout_s=)) or Tools(default_timeout_s=)",
}


@dataclass
class Member:
    """One name of a surface: a parameter, field, method, property or enum value."""

    kind: str  # "param" | "field" | "method" | "property" | "attribute" | "value"
    default: str | None = None  # normalised default text; None = required / not applicable
    params: dict[str, str | None] | None = None  # a method's parameters (name -> default)


Surface = dict[str, dict[str, Member]]


# -- theirs: AST of the wheels ---------------------------------------------------------------


def fetch(version: str) -> Path:
    """The wheel of browser-use ``version`` in :data:`WHEELS`, downloaded with pip when missing."""
    wheel = WHEELS / PACKAGES[version]
    if wheel.exists():
        return wheel
    WHEELS.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(WHEELS)]
    try:
        subprocess.run([*cmd, f"browser-use=={version}"], check=True, timeout=FETCH_TIMEOUT_S, capture_output=True)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        out = getattr(exc, "stderr", b"") or b""
        raise SystemExit(
            f"could not download browser-use=={version} into {WHEELS} ({exc}); "
            f"PyPI must be reachable, or put {PACKAGES[version]} there (PEER_WHEELS=dir): {out.decode()[-400:]}"
        ) from exc
    if not wheel.exists():
        raise SystemExit(f"pip download gave no {wheel.name} in {WHEELS}")
    return wheel


def _module(version: str, path: str) -> ast.Module:
    with zipfile.ZipFile(fetch(version)) as zf:
        return ast.parse(zf.read(path).decode())


def _class(version: str, path: str, name: str) -> ast.ClassDef:
    for node in _module(version, path).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise SystemExit(f"no class {name} in {path} of browser-use {version}")


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {ast.unparse(b).split("[")[0].split(".")[-1] for b in cls.bases}


def _ast_default(node: ast.expr) -> str:
    """Normalised text of a default expression (``Field(default=x)`` is ``x``)."""
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("Field", "PrivateAttr"):
        for kw in node.keywords:
            if kw.arg == "default":
                return _ast_default(kw.value)
            if kw.arg == "default_factory":
                return f"<factory {ast.unparse(kw.value)}>"
        if node.args and ast.unparse(node.args[0]) != "...":
            return _ast_default(node.args[0])
        return "<required>"
    return ast.unparse(node)


def _ast_params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str | None]:
    args = fn.args
    out: dict[str, str | None] = {}
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, default in zip(positional, defaults):
        out[arg.arg] = None if default is None else _ast_default(default)
    if args.vararg:
        out["*" + args.vararg.arg] = None
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults):
        out[arg.arg] = None if kw_default is None else _ast_default(kw_default)
    if args.kwarg:
        out["**" + args.kwarg.arg] = None
    out.pop("self", None)
    out.pop("cls", None)
    return out


def _self_attributes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The public ``self.name = ...`` attributes an ``__init__`` sets."""
    names: list[str] = []
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                if _public(t.attr) and t.attr not in names:
                    names.append(t.attr)
    return names


def _public(name: str) -> bool:
    return not name.startswith("_") or name in DUNDERS


def theirs() -> Surface:
    """browser-use's surface of :data:`CLASSES`, read from the wheels."""
    surface: Surface = {}
    for cls_name, (version, path, _) in CLASSES.items():
        cls = _class(version, path, cls_name)
        bases = _base_names(cls)
        members: dict[str, Member] = {}
        for node in cls.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and "BaseModel" in bases:
                name = node.target.id
                if _public(name) and name != "model_config":
                    default = "<required>" if node.value is None else _ast_default(node.value)
                    members[name] = Member("field", None if default == "<required>" else default)
            elif isinstance(node, ast.Assign) and bases & {"Enum", "StrEnum"}:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        members[target.id] = Member("value", ast.unparse(node.value))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                decorators = {ast.unparse(d) for d in node.decorator_list}
                if node.name == "__init__":
                    for pname, default in _ast_params(node).items():
                        if not pname.startswith("*"):
                            members[pname] = Member("param", default)
                    for attr in _self_attributes(node):
                        members.setdefault(attr, Member("attribute"))
                elif decorators & VALIDATORS:
                    continue
                elif _public(node.name) and "property" in decorators:
                    members[node.name] = Member("property")
                elif _public(node.name):
                    params = _ast_params(node)
                    forward = FORWARDS.get((cls_name, node.name))
                    if forward is not None:
                        fversion, fpath, fcls, fmethod = forward
                        target_fn = next(
                            n for n in _class(fversion, fpath, fcls).body
                            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fmethod
                        )
                        params = {k: v for k, v in params.items() if not k.startswith("**")} | _ast_params(target_fn)
                    members[node.name] = Member("method", params=params)
        if "BaseModel" in bases:
            for method in PYDANTIC_METHODS:
                members.setdefault(method, Member("method", params={}))
        surface[cls_name] = members
    return surface


# -- ours: inspect ----------------------------------------------------------------------------


def _our_class(spec: str) -> type | None:
    module, _, name = spec.partition(":")
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return obj if isinstance(obj, type) else None


def _py_default(value: Any) -> str | None:
    if value is inspect.Parameter.empty or value is dataclasses.MISSING:
        return None
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


def _signature_params(fn: Any) -> dict[str, str | None]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return {}
    out: dict[str, str | None] = {}
    for p in sig.parameters.values():
        if p.name in ("self", "cls"):
            continue
        if p.kind is p.VAR_POSITIONAL:
            out["*" + p.name] = None
        elif p.kind is p.VAR_KEYWORD:
            out["**" + p.name] = None
        else:
            out[p.name] = _py_default(p.default)
    return out


def ours() -> Surface:
    """Our surface of the classes of :data:`CLASSES` (an absent class has no members)."""
    surface: Surface = {}
    for cls_name, (_, _, spec) in CLASSES.items():
        cls = _our_class(spec)
        members: dict[str, Member] = {}
        surface[cls_name] = members
        if cls is None:
            continue
        if issubclass(cls, enum.Enum):
            for item in cls:
                members[item.name] = Member("value", repr(item.value))
            continue
        if dataclasses.is_dataclass(cls):
            for f in dataclasses.fields(cls):
                if not f.init or f.name.startswith("_"):
                    continue
                if f.default_factory is not dataclasses.MISSING:
                    default: str | None = f"<factory {type(f.default_factory()).__name__}>"
                else:
                    default = _py_default(f.default)
                members[f.name] = Member("field", default)
        else:
            for pname, pdefault in _signature_params(cls.__init__).items():
                if not pname.startswith("*"):
                    members[pname] = Member("param", pdefault)
            try:
                init = ast.parse(textwrap.dedent(inspect.getsource(cls.__init__))).body[0]
            except (OSError, TypeError):
                init = None
            if isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for attr in _self_attributes(init):
                    members.setdefault(attr, Member("attribute"))
        for name, attr in inspect.getmembers(cls):
            if not _public(name) or name in members:
                continue
            raw = inspect.getattr_static(cls, name)
            if isinstance(raw, property) or type(raw).__name__ == "cached_property":
                members[name] = Member("property")
            elif callable(attr):
                members[name] = Member("method", params=_signature_params(attr))
            else:
                members[name] = Member("property")
    return surface


# -- diff -------------------------------------------------------------------------------------


def _same_default(their: str | None, our: str | None) -> bool:
    if their == our or their is None:  # a default here where theirs has none breaks no call
        return True
    if our is None:
        return False
    if their.startswith("<factory") and our.startswith("<factory"):
        # list/dict factories must build the same type; an id factory (uuid7str) is any factory.
        kind = their[len("<factory ") : -1]
        return kind not in ("list", "dict") or our == f"<factory {kind}>"
    try:
        return bool(ast.literal_eval(their) == ast.literal_eval(our))
    except (ValueError, SyntaxError):
        return False


def diff(their: Surface, our: Surface) -> Iterator[tuple[str, str]]:
    """Each gap as ``(key, what)``; keys: ``Class``, ``Class.name``, ``Class.name:default``,
    ``Class.method(param)`` and ``Class.method(param):default``."""
    for cls_name, members in their.items():
        here = our.get(cls_name, {})
        if not here:
            yield cls_name, f"class {cls_name} is missing"
            continue
        for name, member in members.items():
            mine = here.get(name)
            key = f"{cls_name}.{name}"
            if mine is None:
                yield key, f"{member.kind} {name} is missing"
                continue
            if (
                member.kind in ("param", "field")
                and mine.kind in ("param", "field")  # a property here is derived: no default to compare
                and not _same_default(member.default, mine.default)
            ):
                yield f"{key}:default", f"default {member.default!r} there, {mine.default!r} here"
            if member.kind == "value" and member.default != mine.default:
                yield f"{key}:default", f"value {member.default} there, {mine.default} here"
            if member.kind == "method":
                if mine.kind != "method":
                    yield f"{key}:kind", f"a method there, a {mine.kind} here"
                    continue
                for pname, pdefault in (member.params or {}).items():
                    ours_params = mine.params or {}
                    if pname.startswith("*"):
                        continue
                    pkey = f"{key}({pname})"
                    if pname not in ours_params and not any(p.startswith("**") for p in ours_params):
                        yield pkey, f"parameter {pname} of {name}() is missing"
                    elif pname in ours_params and not _same_default(pdefault, ours_params[pname]):
                        yield f"{pkey}:default", f"default {pdefault!r} there, {ours_params[pname]!r} here"


def counts(their: Surface, our: Surface) -> tuple[int, int]:
    """(their names and method parameters present here, their total)."""
    total = present = 0
    for cls_name, members in their.items():
        here = our.get(cls_name, {})
        for name, member in members.items():
            total += 1
            mine = here.get(name)
            present += mine is not None
            for pname in (member.params or {}) if member.kind == "method" else ():
                if pname.startswith("*"):
                    continue
                total += 1
                ours_params = (mine.params or {}) if mine is not None else {}
                present += pname in ours_params or any(p.startswith("**") for p in ours_params)
    return present, total


def _jsonable(surface: Surface) -> dict[str, Any]:
    return {c: {n: dataclasses.asdict(m) for n, m in ms.items()} for c, ms in surface.items()}


def main() -> int:
    """Print the diff (or ``--dump`` both surfaces; ``--fetch`` only downloads the wheels)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", action="store_true", help="print both surfaces as JSON")
    parser.add_argument("--fetch", action="store_true", help="only download the wheels")
    args = parser.parse_args()
    if args.fetch:
        for version in PACKAGES:
            print(fetch(version))
        return 0
    sys.path.insert(0, str(REPO / "python"))
    their, our = theirs(), ours()
    if args.dump:
        print(json.dumps({"browser-use": _jsonable(their), "agentbrowser": _jsonable(our)}, indent=1))
        return 0
    gaps = list(diff(their, our))
    for key, what in gaps:
        reason = EXCEPTIONS.get(key)
        print(f"{'excepted' if reason else 'GAP':8} {key}: {what}" + (f"  [{reason}]" if reason else ""))
    present, total = counts(their, our)
    unlisted = sum(1 for key, _ in gaps if key not in EXCEPTIONS)
    print(f"{present}/{total} of browser-use's names and method parameters present; "
          f"{len(gaps)} gaps, {unlisted} not in the exceptions list")
    return 1 if unlisted else 0


if __name__ == "__main__":
    raise SystemExit(main())
