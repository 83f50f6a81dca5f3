"""The logic of ``browser.cdp``, once, as sans-IO generators shared by the sync and async
controllers: resolving targets, frames and execution contexts by strict criteria, checking
cached objects against the page now, and evaluating.

An operation yields :class:`Send` (one protocol call on the browser WebSocket) or
:class:`Engine` (one operation of the session's engine, such as its tab list) and receives
each answer; a failed call is thrown into the generator.  :class:`Registry` holds what the
protocol's events say about execution contexts, fed by the client's reader.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeAlias, TypeVar

from .._ops import Op
from .. import _ops
from .._url_pattern import url_matches
from ..models import TabInfo
from . import errors as err

T = TypeVar("T")
D = TypeVar("D")

#: Most candidates an error lists.
MAX_CANDIDATES = 10
#: Most execution contexts remembered per session (a page that makes worlds without end).
MAX_CONTEXTS = 500
#: What Chromium answers for a session, and for an execution context, that is gone (a context
#: can go between its destruction and our hearing of it: Runtime.evaluate then answers
#: "uniqueContextId not found").
_GONE_SESSION = "Session with given id not found"
_GONE_CONTEXT = ("Cannot find context with specified id", "Execution context was destroyed", "uniqueContextId not found")


@dataclass(frozen=True, slots=True)
class Send:
    """One protocol call: ``method`` with ``params`` on ``session_id`` (None: the browser)."""

    method: str
    params: Mapping[str, Any]
    session_id: str | None = None


@dataclass(frozen=True, slots=True)
class Engine:
    """One operation of the session's engine (run through the Browser that owns the CDP)."""

    op: Op[Any]


Flow: TypeAlias = Generator[Send | Engine, Any, T]


@dataclass(frozen=True, slots=True)
class TargetData:
    """A page target: its id, URL, title, the engine's tab label, our session on it."""

    target_id: str
    type: str
    url: str
    title: str
    label: str | None
    session_id: str


@dataclass(frozen=True, slots=True)
class FrameData:
    """A frame as listed: id, parent, name, URL, the document (loader) it showed, the session."""

    id: str
    parent_id: str | None
    name: str
    url: str
    loader_id: str
    session_id: str

    @property
    def is_main(self) -> bool:
        """Whether this is its page's main frame."""
        return self.parent_id is None


@dataclass(frozen=True, slots=True)
class ContextData:
    """An execution context as the protocol announced it."""

    id: int
    unique_id: str
    frame_id: str | None
    origin: str
    name: str
    type: str
    is_default: bool
    session_id: str
    raw: Mapping[str, Any] = field(repr=False, compare=False)


def bind(cls: Callable[..., D], owner: object, data: object) -> D:
    """``data``'s fields as an object of ``cls`` (a subclass of its class) bound to ``owner``."""
    values = {f.name: getattr(data, f.name) for f in fields(data)}  # type: ignore[arg-type]
    return cls(**values, _cdp=owner)


@dataclass
class Registry:
    """Execution contexts per session and the sessions attached, kept from protocol events
    (thread-safe: the sync client's reader thread feeds it)."""

    contexts: dict[str, dict[str, ContextData]] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def feed(self, message: Mapping[str, Any]) -> None:
        """Take one event message into account."""
        method = message.get("method")
        params = message.get("params") or {}
        session = message.get("sessionId")
        with self.lock:
            if method == "Runtime.executionContextCreated" and isinstance(session, str):
                ctx = _context(params.get("context") or {}, session)
                table = self.contexts.setdefault(session, {})
                if len(table) >= MAX_CONTEXTS:
                    table.pop(next(iter(table)))
                table[ctx.unique_id] = ctx
            elif method == "Runtime.executionContextDestroyed" and isinstance(session, str):
                table = self.contexts.get(session, {})
                unique = params.get("executionContextUniqueId")
                gone = [
                    k for k, c in table.items() if k == unique or (unique is None and c.id == params.get("executionContextId"))
                ]
                for k in gone:
                    del table[k]
            elif method == "Runtime.executionContextsCleared" and isinstance(session, str):
                self.contexts.pop(session, None)
            elif method == "Target.detachedFromTarget":
                sid = str(params.get("sessionId"))
                self.contexts.pop(sid, None)
                for target, s in list(self.sessions.items()):
                    if s == sid:
                        del self.sessions[target]

    def clear(self) -> None:
        """Forget everything (a new connection has no sessions yet)."""
        with self.lock:
            self.contexts.clear()
            self.sessions.clear()

    def of_session(self, session: str) -> list[ContextData]:
        """The live contexts of ``session``, oldest first."""
        with self.lock:
            return list(self.contexts.get(session, {}).values())

    def alive(self, ctx: ContextData) -> bool:
        """Whether ``ctx`` still exists."""
        with self.lock:
            return ctx.unique_id in self.contexts.get(ctx.session_id, {})

    def session_of(self, target_id: str) -> str | None:
        """Our session on ``target_id``, if attached."""
        with self.lock:
            return self.sessions.get(target_id)

    def session_alive(self, session: str) -> bool:
        """Whether our session ``session`` is still attached."""
        with self.lock:
            return session in self.sessions.values()

    def attached(self, target_id: str, session: str) -> None:
        """Remember our session on ``target_id``."""
        with self.lock:
            self.sessions[target_id] = session


def _context(raw: Mapping[str, Any], session: str) -> ContextData:
    aux = raw.get("auxData") or {}
    return ContextData(
        id=int(raw.get("id", 0)),
        unique_id=str(raw.get("uniqueId") or f"{session}:{raw.get('id')}"),
        frame_id=aux.get("frameId"),
        origin=str(raw.get("origin", "")),
        name=str(raw.get("name", "")),
        type=str(aux.get("type", "default")),
        is_default=bool(aux.get("isDefault", False)),
        session_id=session,
        raw=raw,
    )


def criterion(kind: str, given: Mapping[str, object]) -> tuple[str, str]:
    """The one criterion set in ``given`` (TypeError for none or several, or a non-string)."""
    set_ = {k: v for k, v in given.items() if v is not None}
    if len(set_) != 1:
        names = ", ".join(f"{k}=" for k in given)
        raise TypeError(f"{kind} takes exactly one of {names}; got {len(set_)}")
    (key, value), = set_.items()
    if not isinstance(value, str) or not value:
        raise TypeError(f"{kind}: {key} must be a non-empty string, got {value!r}")
    return key, value


def matches_url(pattern: str, url: str) -> bool:
    """Whether ``url`` matches the URL pattern ``pattern``: the engine's one rule (a glob when it has
    ``*`` or ``{``, the whole URL when it begins with a scheme, otherwise a URL part; see
    ``agentbrowser._url_pattern``); a bad pattern is a ``ValueError``."""
    return url_matches(pattern, url)


def _bounded(items: list[str]) -> tuple[str, ...]:
    shown = items[:MAX_CANDIDATES]
    if len(items) > MAX_CANDIDATES:
        shown.append(f"... {len(items) - MAX_CANDIDATES} more")
    return tuple(shown)


# -- targets -------------------------------------------------------------------------------


def attach(target_id: str, registry: Registry) -> Flow[str]:
    """Our flat session on ``target_id`` (attached once; Runtime enabled so contexts are known)."""
    existing = registry.session_of(target_id)
    if existing is not None:
        return existing
    answer = yield Send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
    session = str(answer["sessionId"])
    registry.attached(target_id, session)
    # Runtime.enable announces every existing context before it answers.
    yield Send("Runtime.enable", {}, session)
    return session


def _tabs() -> Flow[tuple[TabInfo, ...]]:
    tabs: tuple[TabInfo, ...] = yield Engine(_ops.tab_list())
    return tabs


def target(criteria: Mapping[str, str | None], registry: Registry) -> Flow[TargetData]:
    """The one page target ``criteria`` (label, url or target_id) names; with none: the
    engine's active tab."""
    tabs = yield from _tabs()
    labels = {t.target_id: t.label for t in tabs if t.target_id}
    answer = yield Send("Target.getTargets", {})
    infos = [i for i in answer.get("targetInfos", []) if i.get("type") == "page"]
    if all(v is None for v in criteria.values()):
        active = [t.target_id for t in tabs if t.active and t.target_id]
        key, value = "target_id", (active[0] if active else "")
        if not active:
            raise err.CDPTargetNotFoundError("the session has no active tab", criteria={}, candidates=())
    else:
        key, value = criterion("target()", criteria)

    def hit(info: Mapping[str, Any]) -> bool:
        if key == "target_id":
            return bool(info.get("targetId") == value)
        if key == "url":
            return matches_url(value, str(info.get("url", "")))
        return labels.get(str(info.get("targetId"))) == value

    found = [i for i in infos if hit(i)]
    describe = [f"{i.get('targetId')} {i.get('url')!r} label={labels.get(str(i.get('targetId')))!r}" for i in infos]
    if not found:
        raise err.CDPTargetNotFoundError(f"no page target with {key}={value!r}", criteria={key: value}, candidates=_bounded(describe))
    if len(found) > 1:
        both = [f"{i.get('targetId')} {i.get('url')!r}" for i in found]
        raise err.CDPTargetAmbiguityError(
            f"{len(found)} page targets match {key}={value!r}", criteria={key: value}, candidates=_bounded(both)
        )
    info = found[0]
    tid = str(info["targetId"])
    session = yield from attach(tid, registry)
    return TargetData(tid, str(info.get("type")), str(info.get("url", "")), str(info.get("title", "")), labels.get(tid), session)


def target_alive(t: TargetData, registry: Registry) -> None:
    """err.CDPStaleObjectError unless our session on ``t`` is still attached."""
    if registry.session_of(t.target_id) != t.session_id:
        raise err.CDPStaleObjectError(f"target {t.target_id} ({t.url!r}) was closed or detached; look it up again")


# -- frames --------------------------------------------------------------------------------


def _frame_tree(session: str) -> Flow[list[FrameData]]:
    """The frames of one session's frame tree, its root first."""
    answer = yield Send("Page.getFrameTree", {}, session)
    out: list[FrameData] = []

    def walk(node: Mapping[str, Any]) -> None:
        f = node.get("frame") or {}
        out.append(
            FrameData(
                id=str(f.get("id")),
                parent_id=f.get("parentId"),
                name=str(f.get("name", "")),
                url=str(f.get("url", "")) + str(f.get("urlFragment", "")),
                loader_id=str(f.get("loaderId", "")),
                session_id=session,
            )
        )
        for child in node.get("childFrames", []) or []:
            walk(child)

    walk(answer.get("frameTree") or {})
    return out


def frames(t: TargetData, registry: Registry) -> Flow[tuple[FrameData, ...]]:
    """Every frame of ``t``, the main frame first; frames of other processes (out-of-process
    iframes, targets of their own) follow, each with our session on its target."""
    target_alive(t, registry)
    out = yield from _frame_tree(t.session_id)
    answer = yield Send("Target.getTargets", {})
    iframes = [i for i in answer.get("targetInfos", []) if i.get("type") == "iframe"]
    owners = {t.target_id}
    grew = True
    while grew and len(out) < MAX_CONTEXTS:
        grew = False
        for info in iframes:
            tid = str(info.get("targetId"))
            if tid in owners or str(info.get("parentId")) not in owners:
                continue
            owners.add(tid)
            grew = True
            session = yield from attach(tid, registry)
            out.extend((yield from _frame_tree(session)))
    return tuple(out)


def _describe_frame(f: FrameData) -> str:
    return f"{f.id} name={f.name!r} url={f.url!r}"


def frame(t: TargetData, criteria: Mapping[str, str | None], registry: Registry) -> Flow[FrameData]:
    """The one frame of ``t`` that ``criteria`` (selector, name or url) names."""
    key, value = criterion("frames.get()", criteria)
    listed = yield from frames(t, registry)
    if key == "selector":
        ids = yield from _frames_by_selector(t, value)
        found = [f for f in listed if f.id in ids]
    elif key == "name":
        found = [f for f in listed if f.name == value]
    else:
        found = [f for f in listed if matches_url(value, f.url)]
    if not found:
        raise err.CDPFrameNotFoundError(
            f"no frame with {key}={value!r}", criteria={key: value}, candidates=_bounded([_describe_frame(f) for f in listed])
        )
    if len(found) > 1:
        raise err.CDPFrameAmbiguityError(
            f"{len(found)} frames match {key}={value!r}",
            criteria={key: value},
            candidates=_bounded([_describe_frame(f) for f in found]),
        )
    return found[0]


def _frames_by_selector(t: TargetData, selector: str) -> Flow[set[str]]:
    """The ids of the frames owned by the elements ``selector`` matches in the main document."""
    doc = yield Send("DOM.getDocument", {"depth": 0}, t.session_id)
    try:
        hits = yield Send("DOM.querySelectorAll", {"nodeId": doc["root"]["nodeId"], "selector": selector}, t.session_id)
    except err.CDPProtocolError as exc:
        raise ValueError(f"frames.get(selector={selector!r}): not a valid CSS selector ({exc})") from None
    out: set[str] = set()
    for node_id in hits.get("nodeIds", [])[: MAX_CONTEXTS]:
        node = yield Send("DOM.describeNode", {"nodeId": node_id}, t.session_id)
        owned = (node.get("node") or {}).get("frameId")
        if owned:
            out.add(str(owned))
    return out


def frame_fresh(f: FrameData, registry: Registry) -> Flow[None]:
    """err.CDPStaleObjectError unless ``f`` still shows the document it showed when listed."""
    if not registry.session_alive(f.session_id):
        raise err.CDPStaleObjectError(f"frame {f.id} ({f.url!r}): its target was closed or detached; list the frames again")
    try:
        tree = yield from _frame_tree(f.session_id)
    except err.CDPProtocolError:
        raise err.CDPStaleObjectError(f"frame {f.id} ({f.url!r}): its target is gone; list the frames again") from None
    now = {fr.id: fr.loader_id for fr in tree}
    if f.id not in now:
        raise err.CDPStaleObjectError(f"frame {f.id} ({f.url!r}) was detached since it was listed; list the frames again")
    if now[f.id] != f.loader_id:
        raise err.CDPStaleObjectError(
            f"frame {f.id} ({f.url!r}) navigated to another document since it was listed; list the frames again"
        )


# -- contexts ------------------------------------------------------------------------------


def extension_origin(extension_id: str) -> str:
    """The origin of the worlds extension ``extension_id`` runs in a page (its content scripts)."""
    if not isinstance(extension_id, str) or not extension_id:
        raise TypeError(f"extension_id must be a non-empty string, got {extension_id!r}")
    return f"chrome-extension://{extension_id}"


def contexts(
    f: FrameData,
    registry: Registry,
    name: str | None = None,
    predicate: Callable[[ContextData], bool] | None = None,
    extension_id: str | None = None,
) -> Flow[tuple[ContextData, ...]]:
    """The live execution contexts of frame ``f`` (optionally by name, extension or predicate)."""
    yield from frame_fresh(f, registry)
    found = [c for c in registry.of_session(f.session_id) if c.frame_id == f.id]
    if name is not None:
        found = [c for c in found if c.name == name]
    if extension_id is not None:
        origin = extension_origin(extension_id)
        found = [c for c in found if c.origin == origin]
    if predicate is not None:
        found = [c for c in found if predicate(c)]
    return tuple(found)


def _describe_context(c: ContextData) -> str:
    return f"{c.unique_id} type={c.type} name={c.name!r} origin={c.origin!r}"


def context(
    f: FrameData,
    registry: Registry,
    name: str | None = None,
    predicate: Callable[[ContextData], bool] | None = None,
    extension_id: str | None = None,
) -> Flow[ContextData]:
    """The one context of ``f`` matching ``name``/``extension_id``/``predicate``; with none, its
    default one."""
    every = yield from contexts(f, registry)
    crit: dict[str, Any] = {"frame": f.id}
    if name is None and predicate is None and extension_id is None:
        found = [c for c in every if c.is_default]
        crit["default"] = True
    else:
        found = list(every)
        if name is not None:
            found = [c for c in found if c.name == name]
            crit["name"] = name
        if extension_id is not None:
            origin = extension_origin(extension_id)
            found = [c for c in found if c.origin == origin]
            crit["extension_id"] = extension_id
        if predicate is not None:
            found = [c for c in found if predicate(c)]
            crit["predicate"] = getattr(predicate, "__name__", "predicate")
    if not found:
        raise err.CDPContextNotFoundError(
            f"no execution context in frame {f.id} matches", criteria=crit, candidates=_bounded([_describe_context(c) for c in every])
        )
    if len(found) > 1:
        raise err.CDPContextAmbiguityError(
            f"{len(found)} execution contexts in frame {f.id} match",
            criteria=crit,
            candidates=_bounded([_describe_context(c) for c in found]),
        )
    return found[0]


# -- evaluation ----------------------------------------------------------------------------


def evaluate(
    script: str,
    session_id: str,
    registry: Registry,
    ctx: ContextData | None,
    await_promise: bool,
    return_by_value: bool,
) -> Flow[Any]:
    """Runs ``script`` in ``ctx`` (None: the main frame's default context of the session)."""
    if not isinstance(script, str):
        raise TypeError(f"evaluate() takes a script string, got {type(script).__name__}")
    params: dict[str, Any] = {"expression": script, "awaitPromise": await_promise, "returnByValue": return_by_value}
    if ctx is not None:
        if not registry.alive(ctx):
            raise err.CDPStaleObjectError(
                f"execution context {ctx.unique_id} ({ctx.origin!r}) was destroyed (its document navigated or closed); look it up again"
            )
        params["uniqueContextId"] = ctx.unique_id
        session_id = ctx.session_id
    try:
        answer = yield Send("Runtime.evaluate", params, session_id)
    except err.CDPProtocolError as exc:
        if _GONE_SESSION in str(exc.error.get("message", "")):
            raise err.CDPStaleObjectError(f"the target of session {session_id} was closed; look it up again") from exc
        if ctx is not None and any(g in str(exc.error.get("message", "")) for g in _GONE_CONTEXT):
            raise err.CDPStaleObjectError(f"execution context {ctx.unique_id} was destroyed during the call; look it up again") from exc
        raise
    details = answer.get("exceptionDetails")
    if details:
        raise err.CDPEvaluationError(details)
    result = answer.get("result") or {}
    if return_by_value:
        return result.get("value")
    return result


#: What became of a flow's last call: its answer, or the error it raised.
Outcome: TypeAlias = "tuple[Any, Exception | None]"


def resume(flow: Flow[T], outcome: Outcome | None) -> Send | Engine:
    """The flow's next call after ``outcome`` of its last one (None: its first call); a
    finished flow raises StopIteration with its result."""
    if outcome is None:
        return next(flow)
    answer, error = outcome
    return flow.throw(error) if error is not None else flow.send(answer)


def run_sync(flow: Flow[T], send: Callable[[Send], Any], engine: Callable[[Op[Any]], Any]) -> T:
    """Drives ``flow`` with blocking calls; a failed call is thrown into it."""
    outcome: Outcome | None = None
    try:
        while True:
            step = resume(flow, outcome)
            try:
                outcome = (send(step) if isinstance(step, Send) else engine(step.op), None)
            except Exception as exc:
                outcome = (None, exc)
    except StopIteration as stop:
        value: T = stop.value
        return value
    finally:
        flow.close()


async def run_async(flow: Flow[T], send: Callable[[Send | Engine], Awaitable[Any]]) -> T:
    """Drives ``flow`` with awaited calls (``send`` answers every step); a failed call is thrown into it."""
    outcome: Outcome | None = None
    try:
        while True:
            step = resume(flow, outcome)
            try:
                outcome = (await send(step), None)
            except Exception as exc:
                outcome = (None, exc)
    except StopIteration as stop:
        value: T = stop.value
        return value
    finally:
        flow.close()
