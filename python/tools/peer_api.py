"""Compare pyagentbrowser's public Python API with ours: what of theirs is missing here.

pyagentbrowser (PyPI, import name ``agentbrowser`` too) is installed into its own virtualenv,
``target/peer-venv`` (created or reused); this script then runs itself there and here with
``dump`` to list, with ``inspect``, every name of ``agentbrowser.__all__`` and of
``agentbrowser.cdp``, each class's public members (methods, properties, dataclass and
NamedTuple fields, enum members, instance attributes its ``__init__`` sets), the parameters
(name, kind, default) of every callable, the values of a ``Literal`` alias, and the classes
reached through the return annotations of those members (``Browser.tabs`` -> its class),
keyed by the path a script takes to them.  The diff lists every name, member, value or
parameter of theirs missing here; a parameter theirs takes positionally and ours only by
keyword is listed apart (``kind``), as it breaks a positional call.

    python3 python/tools/peer_api.py [--json OUT] [--venv DIR] [--version V]

Prints a readable report; ``--json`` writes the dumps and the diff.  Exit status 0 (the
test in ``python/tests/test_peer_api.py`` decides what a gap means).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import fcntl
import importlib
import inspect
import json
import os
import pkgutil
import re
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Any

PEER = "pyagentbrowser"
PEER_VERSION = "0.39.0"
ROOT = Path(__file__).resolve().parents[2]
#: Dunder methods that make a protocol a script relies on (``with``, iteration, indexing).
PROTOCOL_DUNDERS = frozenset(
    {
        "__enter__",
        "__exit__",
        "__aenter__",
        "__aexit__",
        "__iter__",
        "__aiter__",
        "__len__",
        "__getitem__",
        "__contains__",
        "__call__",
        "__await__",
    }
)
#: How deep the classes reached through return annotations are followed.
REACH_DEPTH = 3


# ---------------------------------------------------------------- dump (runs in either env)


def _params(obj: Any) -> list[dict[str, Any]] | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        if p.name in ("self", "cls") or p.name.startswith("_"):
            continue
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append({"name": p.name, "kind": p.kind.name, "default": default})
    return out


def _own(cls: type, name: str) -> Any:
    """The attribute as defined (no descriptor protocol), and the class defining it."""
    for base in cls.__mro__:
        if name in vars(base):
            return vars(base)[name], base
    return None, None


def _builtin(base: type | None) -> bool:
    return base is None or base.__module__ in ("builtins", "typing", "abc", "enum", "dataclasses")


def _package_class(name: str, near: str) -> type | None:
    """The class called ``name`` defined in a loaded module of the package; of several, the one
    whose module shares the longest dotted prefix with ``near`` (the referring module)."""
    found = {
        value
        for module_name, module in list(sys.modules.items())
        if module_name.split(".")[0] == "agentbrowser" and module is not None
        for value in [getattr(module, name, None)]
        if inspect.isclass(value) and value.__name__ == name and value.__module__.startswith("agentbrowser")
    }

    def shared(cls: type) -> int:
        a, b = cls.__module__.split("."), near.split(".")
        return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))

    return max(found, key=lambda c: (shared(c), c.__module__)) if found else None


def _annotation_classes(annotation: Any, module: str) -> list[type]:
    """The agentbrowser classes an annotation names (through Optional, unions, generics)."""
    if isinstance(annotation, str):
        mod = sys.modules.get(module)
        names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", annotation)
        found = []
        for n in names:
            value = getattr(mod, n, None) if mod else None
            if value is None:  # imported only for type checking: the class of that name in the package
                value = _package_class(n, module)
            if inspect.isclass(value):
                found.append(value)
        annotation_list = found
    else:
        annotation_list = [annotation]
    out: list[type] = []
    stack = list(annotation_list)
    while stack:
        a = stack.pop()
        if inspect.isclass(a) and not isinstance(a, types.GenericAlias):
            if a.__module__.split(".")[0] == "agentbrowser":
                out.append(a)
            continue
        stack.extend(typing.get_args(a))
    return out


def _returns(obj: Any) -> list[type]:
    func = obj.fget if isinstance(obj, property) else obj
    func = getattr(func, "__func__", func)
    if not callable(func):
        return []
    try:
        hints = typing.get_type_hints(func)
        ret = hints.get("return")
    except Exception:  # noqa: BLE001 (unresolvable forward references: fall back to text)
        ret = getattr(func, "__annotations__", {}).get("return")
    if ret is None:
        return []
    return _annotation_classes(ret, getattr(func, "__module__", ""))


def _init_attributes(cls: type) -> dict[str, list[type]]:
    """Public instance attributes: annotated on the class or set by an ``__init__``, with the
    agentbrowser classes they hold where the annotation or the assignment names one."""
    found: dict[str, list[type]] = {}
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001
        hints = {}
    for base in cls.__mro__:
        if _builtin(base):
            continue
        for name, ann in getattr(base, "__annotations__", {}).items():
            if not name.startswith("_") and name not in found:
                found[name] = _annotation_classes(hints.get(name, ann), base.__module__)
        init = vars(base).get("__init__")
        if init is None:
            continue
        try:
            source = inspect.getsource(init)
        except (OSError, TypeError):
            continue
        module = sys.modules.get(base.__module__)
        for name, made in re.findall(r"self\.([A-Za-z]\w*)\s*(?::[^=\n]*)?=(?!=)\s*(\w*)", source):
            value = getattr(module, made, None) if made else None
            classes = [value] if inspect.isclass(value) and value.__module__.startswith("agentbrowser") else []
            if name not in found or (classes and not found[name]):
                found[name] = classes
    return found


def _members(cls: type) -> dict[str, dict[str, Any]]:
    members: dict[str, dict[str, Any]] = {}
    if issubclass(cls, enum.Enum):
        for name in cls.__members__:
            members[name] = {"kind": "enum_member"}
    if dataclasses.is_dataclass(cls):
        for f in dataclasses.fields(cls):
            if not f.name.startswith("_"):
                members[f.name] = {"kind": "field"}
    for name in getattr(cls, "_fields", ()) if issubclass(cls, tuple) else ():
        if not name.startswith("_"):
            members[name] = {"kind": "field"}
    for name in dir(cls):
        if name in members or (name.startswith("_") and name not in PROTOCOL_DUNDERS):
            continue
        raw, base = _own(cls, name)
        if _builtin(base):
            continue
        if isinstance(raw, property) or type(raw).__name__ == "cached_property":
            entry: dict[str, Any] = {"kind": "property"}
        elif isinstance(raw, classmethod):
            entry = {"kind": "classmethod", "params": _params(getattr(cls, name))}
        elif isinstance(raw, staticmethod):
            entry = {"kind": "staticmethod", "params": _params(getattr(cls, name))}
        elif inspect.isfunction(raw):
            kind = "async_method" if inspect.iscoroutinefunction(raw) else "method"
            entry = {"kind": kind, "params": _params(raw)}
        else:
            entry = {"kind": "attribute"}
        members[name] = entry
    for name in _init_attributes(cls):
        members.setdefault(name, {"kind": "attribute"})
    return members


def _describe(obj: Any) -> dict[str, Any]:
    if inspect.ismodule(obj):
        return {"kind": "module"}
    if inspect.isclass(obj):
        entry: dict[str, Any] = {"kind": "class", "members": _members(obj)}
        if not issubclass(obj, BaseException):
            entry["params"] = _params(obj)
        entry["bases"] = [b.__name__ for b in obj.__mro__[1:] if b is not object]
        return entry
    if typing.get_origin(obj) is typing.Literal:
        return {"kind": "literal", "values": [repr(v) for v in typing.get_args(obj)]}
    if callable(obj):
        kind = "async_function" if inspect.iscoroutinefunction(obj) else "function"
        return {"kind": kind, "params": _params(obj)}
    return {"kind": "value", "type": type(obj).__name__}


def _targets(cls: type) -> list[tuple[str, type]]:
    """(member, class) for each agentbrowser class a public member of ``cls`` returns or holds."""
    attributes = _init_attributes(cls)
    out = []
    for name in sorted(set(dir(cls)) | set(attributes)):
        if name.startswith("_"):
            continue
        raw, base = _own(cls, name)
        if raw is None:
            targets = attributes.get(name, [])
        elif _builtin(base):
            continue
        else:
            targets = _returns(raw) or attributes.get(name, [])
        out.extend((name, t) for t in targets if not issubclass(t, BaseException))
    return out


def _reach(roots: list[tuple[str, type]], skip: set[type], out: dict[str, Any], every: bool) -> None:
    """The classes a script reaches from ``roots`` through members' return annotations, keyed
    by the shortest path (breadth first), each class once and none of ``skip``; ``every``: by
    every path up to the depth (a class is not revisited only on its own path), so that each
    path the other package has can be looked up here."""
    queue = [(path, cls, 0, frozenset({cls})) for path, cls in roots]
    seen = set(skip)
    while queue:
        path, cls, depth, on_path = queue.pop(0)
        if depth == REACH_DEPTH:
            continue
        for name, target in _targets(cls):
            sub = f"{path}.{name}"
            if target in (on_path if every else seen) or sub in out:
                continue
            seen.add(target)
            entry = _describe(target)
            entry.pop("params", None)  # made by the package, not by scripts
            out[sub] = {**entry, "class": target.__name__, "reached": True}
            queue.append((sub, target, depth + 1, on_path | {target}))


def _public(module: Any, wide: bool) -> list[str]:
    """``__all__`` (else every public name); ``wide``: also the public classes, functions and
    aliases of the package the module holds outside ``__all__``."""
    names = list(getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")])
    if wide:
        for name in dir(module):
            if name.startswith("_") or name in names:
                continue
            value = getattr(module, name, None)
            home = getattr(value, "__module__", "") or ""
            defined_here = (inspect.isclass(value) or inspect.isfunction(value)) and home.startswith("agentbrowser")
            if defined_here or typing.get_origin(value) is not None:  # or a type alias (Callable[...], Literal[...])
                names.append(name)
    return [n for n in names if not n.startswith("__")]


def dump(wide: bool = False) -> dict[str, Any]:
    """Every public name of ``agentbrowser`` and ``agentbrowser.cdp``, described."""
    pkg = importlib.import_module("agentbrowser")
    cdp = importlib.import_module("agentbrowser.cdp")
    # Load every module, so that an annotation naming a class imported only for type checking resolves.
    for info in pkgutil.walk_packages(pkg.__path__, "agentbrowser."):
        with contextlib.suppress(Exception):
            importlib.import_module(info.name)
    names: dict[str, Any] = {}
    roots: list[tuple[str, Any]] = []
    for name in _public(pkg, wide):
        roots.append((name, getattr(pkg, name)))
    for name in _public(cdp, wide):
        value = getattr(cdp, name)
        if inspect.ismodule(value):
            continue
        roots.append((f"cdp.{name}", value))
    for name, value in roots:
        names[name] = _describe(value)
    exported = {v for _, v in roots if inspect.isclass(v)}
    reached: dict[str, Any] = {}
    classes = [(n, v) for n, v in roots if inspect.isclass(v) and not issubclass(v, BaseException)]
    _reach(classes, set() if wide else exported, reached, every=wide)
    names.update(reached)
    version = getattr(pkg, "__version__", "?")
    return {"package": pkg.__file__, "version": version, "names": names}


# ------------------------------------------------------------------------------- the diff


def _param_gaps(
    path: str, theirs: list[dict[str, Any]] | None, ours: list[dict[str, Any]] | None, gaps: list[dict[str, str]]
) -> None:
    if not theirs:
        return
    ours = ours or []
    by_name = {p["name"]: p for p in ours}
    positional_ours = [p["name"] for p in ours if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    variadic = any(p["kind"] == "VAR_POSITIONAL" for p in ours)
    positional_theirs = [p["name"] for p in theirs if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    for p in theirs:
        if p["kind"] in ("VAR_POSITIONAL", "VAR_KEYWORD"):
            continue
        if p["name"] not in by_name:
            gaps.append(
                {
                    "kind": "parameter",
                    "key": f"{path}({p['name']})",
                    "detail": f"{p['kind'].lower()}, default {p['default']}",
                }
            )
            continue
        mine = by_name[p["name"]]
        if p["default"] is not None and mine["default"] is None and not mine["kind"].startswith("VAR"):
            gaps.append(
                {
                    "kind": "required",
                    "key": f"{path}({p['name']}!)",
                    "detail": f"optional there (default {p['default']}), required here",
                }
            )
    for i, name in enumerate(positional_theirs):
        if variadic:
            break
        if i >= len(positional_ours):
            gaps.append(
                {
                    "kind": "positional",
                    "key": f"{path}(#{i + 1} {name})",
                    "detail": f"theirs takes {name!r} at position {i + 1}; ours only by keyword",
                }
            )


def _callable(kind: str) -> bool:
    return kind in ("method", "async_method", "classmethod", "staticmethod")


def diff(theirs: dict[str, Any], ours: dict[str, Any]) -> list[dict[str, str]]:
    """Every name, member, value or parameter of theirs that ours lacks; a member called there
    and a value here (or the other way round) is a ``shape`` gap."""
    gaps: list[dict[str, str]] = []
    for path, t in theirs["names"].items():
        o = ours["names"].get(path)
        if o is None:
            kind = "path" if t.get("reached") else "name"
            gaps.append({"kind": kind, "key": path, "detail": t["kind"] + (f" {t['class']}" if t.get("class") else "")})
            continue
        if t["kind"] == "literal":
            for v in t["values"]:
                if v not in o.get("values", []):
                    gaps.append({"kind": "value", "key": f"{path}[{v}]", "detail": "literal value"})
        if t.get("params") is not None and t["kind"] != "class":
            _param_gaps(path, t["params"], o.get("params"), gaps)
        if t["kind"] == "class" and t.get("params") is not None:
            _param_gaps(path, t["params"], o.get("params"), gaps)
        for name, m in t.get("members", {}).items():
            om = o.get("members", {}).get(name)
            key = f"{path}.{name}"
            if om is None:
                gaps.append({"kind": "member", "key": key, "detail": m["kind"]})
                continue
            if _callable(m["kind"]) != _callable(om["kind"]):
                call, value = ("called", "a value") if _callable(m["kind"]) else ("a value", "called")
                gaps.append(
                    {"kind": "shape", "key": key, "detail": f"{m['kind']} there ({call}), {om['kind']} here ({value})"}
                )
            if m.get("params") is not None:
                _param_gaps(key, m["params"], om.get("params"), gaps)
    return gaps


def counts(theirs: dict[str, Any], gaps: list[dict[str, str]]) -> dict[str, dict[str, int]]:
    """How many names (exported; ``path``: reached through a member), members (values of a
    ``Literal`` included) and parameters theirs has, and how many of each exist here."""
    total = {"name": 0, "path": 0, "member": 0, "parameter": 0}
    for t in theirs["names"].values():
        total["path" if t.get("reached") else "name"] += 1
        total["parameter"] += len([p for p in t.get("params") or [] if not p["kind"].startswith("VAR")])
        for m in t.get("members", {}).values():
            total["member"] += 1
            total["parameter"] += len([p for p in m.get("params") or [] if not p["kind"].startswith("VAR")])
        total["member"] += len(t.get("values", []))
    missing = dict.fromkeys(total, 0)
    for g in gaps:
        if g["kind"] in ("name", "path"):
            missing[g["kind"]] += 1
        elif g["kind"] in ("member", "value"):
            missing["member"] += 1
        elif g["kind"] == "parameter":
            missing["parameter"] += 1
    return {k: {"theirs": total[k], "present": total[k] - missing[k]} for k in total}


# ----------------------------------------------------------------------------- the driver


def ensure_venv(venv: Path, version: str, timeout: float = 300.0) -> Path:
    """The venv's python, with pyagentbrowser==version installed (created or reused); one process
    at a time makes it (the test files that need it run in parallel workers)."""
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f"{venv.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _ensure_venv(venv, version, timeout)


def _ensure_venv(venv: Path, version: str, timeout: float) -> Path:
    python = venv / "bin" / "python"
    if python.exists():
        check = subprocess.run(
            [str(python), "-c", f"import importlib.metadata as m; assert m.version({PEER!r}) == {version!r}"],
            capture_output=True,
            text=True,
            timeout=60,
            env=_clean_env(),
        )
        if check.returncode == 0:
            return python
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--timeout", "60", f"{PEER}=={version}"],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_clean_env(),
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"pip install {PEER}=={version} into {venv} failed "
            f"(exit {result.returncode}):\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        )
    return python


def _clean_env(pythonpath: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def run_dump(python: str, pythonpath: str | None, wide: bool) -> dict[str, Any]:
    """Run ``dump`` of this script under ``python`` with ``pythonpath``."""
    result = subprocess.run(
        [python, str(Path(__file__).resolve()), "dump"] + (["--wide"] if wide else []),
        capture_output=True,
        text=True,
        timeout=300,
        env=_clean_env(pythonpath),
        cwd=str(ROOT / "target"),
    )
    if result.returncode != 0:
        raise RuntimeError(f"dump under {python} failed:\n{result.stderr[-4000:]}")
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def compare(venv: Path | None = None, version: str = PEER_VERSION) -> dict[str, Any]:
    """Install the peer, dump both APIs and diff them."""
    venv = venv or ROOT / "target" / "peer-venv"
    (ROOT / "target").mkdir(exist_ok=True)
    peer_python = ensure_venv(venv, version)
    theirs = run_dump(str(peer_python), None, wide=False)
    ours = run_dump(sys.executable, str(ROOT / "python"), wide=True)
    gaps = diff(theirs, ours)
    return {"theirs": theirs, "ours": ours, "gaps": gaps, "counts": counts(theirs, gaps)}


def report(result: dict[str, Any]) -> str:
    """The diff as text: counts, then every gap grouped by the top-level name."""
    lines = [f"{PEER} {result['theirs']['version']} against agentbrowser {result['ours']['version']}"]
    for kind, c in result["counts"].items():
        pct = 100.0 * c["present"] / c["theirs"] if c["theirs"] else 100.0
        lines.append(f"  {kind}s: {c['present']}/{c['theirs']} present ({pct:.1f}%)")
    lines.append(f"  gaps: {len(result['gaps'])}")
    current = None
    for g in sorted(result["gaps"], key=lambda g: g["key"]):
        top = g["key"].split("(")[0].split(".")[0]
        if top == "cdp":
            top = ".".join(g["key"].split("(")[0].split(".")[:2])
        if top != current:
            lines.append(f"\n{top}")
            current = top
        lines.append(f"  {g['kind']:<10} {g['key']}  [{g['detail']}]")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", default="compare", choices=["compare", "dump"])
    parser.add_argument("--json", type=Path, help="write the dumps and the diff here")
    parser.add_argument("--venv", type=Path, help="the peer's virtualenv (default target/peer-venv)")
    parser.add_argument("--version", default=PEER_VERSION)
    parser.add_argument("--wide", action="store_true", help="dump: also public names outside __all__")
    args = parser.parse_args(argv)
    if args.mode == "dump":
        json.dump(dump(args.wide), sys.stdout, indent=1, sort_keys=True)
        return 0
    result = compare(args.venv, args.version)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, sort_keys=True))
    print(report(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
