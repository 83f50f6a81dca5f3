"""Every SDK operation, once, as a sans-IO generator shared by the sync and async clients.

An operation yields :class:`Call` objects (one native request each) and receives each
call's response data; its return value is the typed result.  ``Browser._drive`` runs an
operation with blocking I/O, ``AsyncBrowser._drive`` with awaits.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from . import _wire_types as w
from .errors import FrameLookupError, error_for
from .models.state import SAME_SITE_VALUES, Cookie, StateListing
from .models.auth import AuthEntry, AuthListing, AuthLogin
from .models import (
    CONSOLE_LEVELS,
    IMAGE_FORMATS,
    LOAD_STATES,
    MAX_READ_TIMEOUT_MS,
    SCROLL_DIRECTIONS,
    ActionResult,
    B,
    BoundingBox,
    BrowserResponse,
    CloseResult,
    Download,
    AccessibilityAudit,
    ConsoleLevel,
    ConsoleLog,
    Dialog,
    DialogResult,
    DialogStatus,
    ElementGeometry,
    ErrorLog,
    Vitals,
    FrameInfo,
    LaunchResult,
    LoadState,
    Locator,
    Navigation,
    ReadMode,
    ReadResult,
    Ref,
    Screenshot,
    ScreenshotObservation,
    ScrollResult,
    SessionStatus,
    Snapshot,
    SnapshotDelta,
    SnapshotDiff,
    SnapshotSpec,
    TabCloseResult,
    TabInfo,
    TabSwitchResult,
    Wait,
    WaitResult,
    logged_errors,
)
from .models.devtools import DevToolsEndpoint
from .models.emulation import (
    COLOR_SCHEMES,
    MEDIA_TYPES,
    REDUCED_MOTIONS,
    Device,
    EmulationSettings,
    Injection,
)
from .models.network import HAR_CONTENT_MODES, RESOURCE_TYPES, HarContentMode, RequestDetail, RequestLog
from .models._actionable import Actionable
from .models.routes import ABORT_REASONS, RESOURCE_TYPES, Route, RouteResponse
from .models.snapshot import rebuild

T = TypeVar("T")

#: How much longer than a command's own timeout the client waits for its answer.
GRACE_MS = 5000


@dataclass(frozen=True, slots=True)
class Call:
    """One native request: its action and camelCase parameters."""

    action: str
    params: Mapping[str, Any]
    ref: Ref[Any] | None = None
    envelope: bool = False
    budget_ms: int = 0
    deadline_s: float | None = None


Op: TypeAlias = Generator[Call, Any, T]


def request(
    call: Call, request_id: int, timeout_ms: int, scope: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The request object for ``call`` (its ``timeout`` covers any wait budget); ``scope`` is
    the envelope's ``tab`` and ``frame`` of a handle bound to a tab or a frame."""
    payload: dict[str, Any] = {"id": request_id, "action": call.action}
    payload.update(call.params)
    for key, value in (scope or {}).items():
        payload.setdefault(key, value)
    if "timeout" not in payload:
        payload["timeout"] = timeout_ms + call.budget_ms
    return payload


def client_deadline_s(call: Call, payload: Mapping[str, Any]) -> float:
    """Seconds the client waits for the answer to ``payload`` before giving up."""
    if call.deadline_s is not None:
        return call.deadline_s
    timeout = payload.get("timeout")
    base = timeout if isinstance(timeout, int) and not isinstance(timeout, bool) else 30000
    return (base + GRACE_MS) / 1000.0


def result(
    call: Call,
    raw: Mapping[str, Any],
    asynchronous: bool,
    snapshot: Callable[[Mapping[str, Any]], Snapshot[Any]],
) -> Any:
    """The call's data, its envelope (for ``native.execute``), or the mapped exception."""
    if not call.envelope and raw.get("success") is True:
        return raw.get("data")
    response = BrowserResponse.from_raw(raw)
    if call.envelope:
        return response
    raise error_for(
        response,
        asynchronous=asynchronous,
        ref=call.ref,
        snapshot=snapshot,
        logged=logged_errors,
        dialog=Dialog.from_raw_open,
    )


def check_load_state(name: str, value: str | None) -> None:
    """ValueError naming ``name`` unless ``value`` is None or a load state."""
    if value is not None and value not in LOAD_STATES:
        raise ValueError(f"{name} must be one of {', '.join(LOAD_STATES)}; got {value!r}")


def _wait_params(params: dict[str, Any], wait: Wait | None) -> int:
    if wait is None:
        return 0
    if not isinstance(wait, Wait):
        raise TypeError(f"wait must be a Wait condition or None, got {type(wait).__name__}")
    params["wait"] = wait.to_wire()
    return wait.budget_ms()


# -- browser and page --------------------------------------------------------------


def launch(params: Mapping[str, Any]) -> Op[LaunchResult]:
    """Start (or attach to) the session's browser."""
    data = yield Call("launch", params)
    return LaunchResult.from_raw(data)


def cdp_url(launch: bool = False) -> Op[DevToolsEndpoint]:
    """The session browser's DevTools WebSocket URL (``launch``: start the browser when none
    runs; otherwise none running is a BrowserError with code ``no_browser``)."""
    data = yield Call("cdp_url", {"launch": True} if launch else {})
    return DevToolsEndpoint.from_raw(data)


def open_page(url: str, wait_until: LoadState | None) -> Op[Navigation]:
    """Navigate the active tab to ``url``."""
    if not isinstance(url, str):
        raise TypeError(f"open() takes a URL string, got {type(url).__name__}")
    if not url.strip():
        raise ValueError("open() needs a non-empty URL")
    return (yield from history("open", wait_until, {"url": url}))


def history(
    action: w.OpenOutputActions | w.LocationActions,
    wait_until: LoadState | None,
    params: Mapping[str, Any] | None = None,
) -> Op[Navigation]:
    """A navigation without a URL (``back``, ``forward``, ``reload``) or with one (``open``)."""
    check_load_state("wait_until", wait_until)
    full = dict(params or {})
    if wait_until is not None:
        full["waitUntil"] = wait_until
    data = yield Call(action, full)
    return Navigation.from_wire(w.decode_result(action, data), data)


def title() -> Op[str]:
    """The page title."""
    data = yield Call("title", {})
    return w.decode_result("title", data).title


def url() -> Op[str]:
    """The page URL."""
    data = yield Call("url", {})
    return w.decode_result("url", data).url


def _target_param(what: str, target: object) -> str | Mapping[str, Any]:
    """The wire form of a target: a ref id, selector or XPath string, or a Ref/Locator."""
    if isinstance(target, Actionable):
        return target._wire_target()
    if not isinstance(target, str):
        raise TypeError(f"{what} takes a ref, a CSS selector, an XPath, a Ref or a Locator, got {type(target).__name__}")
    if not target.strip():
        raise ValueError(f"{what}: the target is empty; give a ref, a CSS selector or an XPath")
    return target


def html(target: str | Actionable[Any], outer: bool, max_bytes: int | None) -> Op[str]:
    """The inner or outer HTML of the one element a target names."""
    params: dict[str, Any] = {"target": _target_param("html()", target), "outer": bool(outer)}
    if max_bytes is not None:
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 0:
            raise ValueError(f"max_bytes must be an int >= 0 (0 = no limit), got {max_bytes!r}")
        params["maxBytes"] = max_bytes
    data = yield Call("html", params)
    return w.decode_result("html", data).html


def count(selector: str | Locator[Any]) -> Op[int]:
    """How many elements a CSS selector, an XPath or a locator matches."""
    if isinstance(selector, Ref):
        raise TypeError("count() takes a CSS selector, an XPath or a Locator, not a Ref")
    data = yield Call("count", {"selector": _target_param("count()", selector)})
    return w.decode_result("count", data).count


def bounding_box(target: str | Actionable[Any]) -> Op[BoundingBox]:
    """A target's border box."""
    data = yield Call("box", {"ref": _target_param("box()", target)})
    return BoundingBox.from_wire(w.decode_result("box", data))


def styles(target: str | Actionable[Any], props: Sequence[str] | None) -> Op[dict[str, str]]:
    """A target's computed styles (``props``, or the engine's default set)."""
    params: dict[str, Any] = {"ref": _target_param("styles()", target)}
    if props is not None:
        if isinstance(props, str) or not all(isinstance(p, str) for p in props):
            raise TypeError("styles() props must be a sequence of CSS property names such as ['color']")
        if not props:
            raise ValueError("styles() props is empty; give property names, or None for the default set")
        params["props"] = list(props)
    data = yield Call("styles", params)
    return dict(w.decode_result("styles", data).styles)


def geometry(selector: str | Actionable[Any] | None) -> Op[ElementGeometry]:
    """The geometry of the document (``None``) or of one element."""
    params: dict[str, Any] = {}
    if selector is not None:
        params["selector"] = _target_param("geometry()", selector)
    data = yield Call("geometry", params)
    return ElementGeometry.from_wire(w.decode_result("geometry", data))


def scroll(
    direction: str | None, px: int | None, x: float, y: float, selector: str | Actionable[Any] | None
) -> Op[ScrollResult]:
    """Scroll the page or a container; the positions before and after."""
    params: dict[str, Any] = {}
    if direction is not None:
        if direction not in SCROLL_DIRECTIONS:
            raise ValueError(f"direction must be one of {', '.join(SCROLL_DIRECTIONS)}; got {direction!r}")
        if isinstance(px, bool) or not isinstance(px, int) or not 1 <= px <= 1_000_000:
            raise ValueError(f"px must be an int from 1 to 1000000, got {px!r}")
        params["direction"] = direction
        params["px"] = px
    else:
        params["x"] = _number("scroll.by() x", x)
        params["y"] = _number("scroll.by() y", y)
        if not all(math.isfinite(v) for v in (params["x"], params["y"])):
            raise ValueError(f"scroll.by() offsets must be finite numbers, got x={x!r} y={y!r}")
    if selector is not None:
        params["selector"] = _target_param("scroll", selector)
    data = yield Call("scroll", params)
    return ScrollResult.from_wire(w.decode_result("scroll", data))


def drag(browser: B, source: str | Actionable[Any], target: str | Actionable[Any], wait: Wait | None) -> Op[ActionResult[B]]:
    """Drag ``source`` onto ``target``, with the evidence of an action on the source."""
    params: dict[str, Any] = {"source": _target_param("drag()", source), "target": _target_param("drag()", target)}
    budget = _wait_params(params, wait)
    ref = source._as_ref() if isinstance(source, Actionable) else None
    data = yield Call("drag", params, ref=ref, budget_ms=budget)
    _hold_evidence(browser, data)
    return ActionResult.from_wire(w.ActionOutput.decode(data), data, browser, ref)


def clipboard_read(max_chars: int | None) -> Op[str]:
    """The clipboard's text."""
    params: dict[str, Any] = {}
    if max_chars is not None:
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 0:
            raise ValueError(f"max_chars must be an int >= 0 (0 = no limit), got {max_chars!r}")
        params["maxChars"] = max_chars
    data = yield Call("clipboard_read", params)
    return w.decode_result("clipboard_read", data).text


def clipboard_write(text: str) -> Op[None]:
    """Put text on the clipboard."""
    if not isinstance(text, str):
        raise TypeError(f"clipboard.write() takes a string, got {type(text).__name__}")
    yield Call("clipboard_write", {"text": text})
    return None


def clipboard_key(browser: B, action: str, wait: Wait | None) -> Op[ActionResult[B]]:
    """``clipboard_copy`` or ``clipboard_paste`` on the focused element."""
    return (yield from device(browser, action, {}, wait))


# --- cookies, storage, state files (issue 16) ---


def _state_path(what: str, path: str | os.PathLike[str]) -> str:
    """A state file argument: a ``Path`` or a string with ``/`` is a file (made absolute);
    a plain string is a name in the state directory."""
    if isinstance(path, os.PathLike):
        return str(Path(os.fspath(path)).expanduser().absolute())
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"{what} needs a file path or a state name, got {path!r}")
    if "/" in path or path.startswith((".", "~")):
        return str(Path(path).expanduser().absolute())
    return path


def _key_file(params: dict[str, Any], key_file: str | os.PathLike[str] | None) -> None:
    if key_file is not None:
        params["keyFile"] = str(Path(os.fspath(key_file)).expanduser().absolute())


def _same_site(value: str | None) -> str | None:
    if value is None:
        return None
    if value not in SAME_SITE_VALUES:
        raise ValueError(f"same_site must be one of {', '.join(SAME_SITE_VALUES)}, got {value!r}")
    return value


def _cookie_input(c: Mapping[str, Any], index: int) -> dict[str, Any]:
    """One cookie of ``cookies.set(cookies=...)`` in the wire's shape (snake_case or camelCase keys)."""
    if not isinstance(c, Mapping):
        raise TypeError(f"cookies[{index}] must be a mapping, got {type(c).__name__}")
    names = {"name": "name", "value": "value", "url": "url", "domain": "domain", "path": "path",
             "expires": "expires", "http_only": "httpOnly", "httpOnly": "httpOnly", "secure": "secure",
             "same_site": "sameSite", "sameSite": "sameSite"}
    out: dict[str, Any] = {}
    for k, v in c.items():
        if k not in names:
            raise ValueError(f"cookies[{index}] has an unknown field {k!r}; allowed: {', '.join(sorted(set(names)))}")
        if v is not None:
            out[names[k]] = v
    if not isinstance(out.get("name"), str) or not isinstance(out.get("value"), str):
        raise ValueError(f"cookies[{index}] needs a string name and value")
    if "url" not in out and "domain" not in out:
        raise ValueError(f"cookies[{index}] ({out['name']!r}) needs url or domain")
    if "sameSite" in out:
        _same_site(out["sameSite"])
    return out


def cookies_get(urls: Sequence[str] | str | None) -> Op[tuple[Cookie, ...]]:
    """The session's cookies, or those sent to ``urls``."""
    params: dict[str, Any] = {}
    if urls is not None:
        params["urls"] = [urls] if isinstance(urls, str) else list(urls)
    data = yield Call("cookies_get", params)
    wire = w.decode_result("cookies_get", data)
    return tuple(Cookie.from_wire(c, raw) for c, raw in zip(wire.cookies, data["cookies"]))


def cookies_set(
    name: str | None,
    value: str | None,
    cookies: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    url: str | None,
    domain: str | None,
    path: str | None,
    expires: int | None,
    http_only: bool | None,
    secure: bool | None,
    same_site: str | None,
) -> Op[int]:
    """Set one cookie (``name`` and ``value``) or several (``cookies``); answers how many were set."""
    params: dict[str, Any] = {}
    if cookies is not None:
        if name is not None or value is not None:
            raise ValueError("cookies.set() takes either cookies= or name and value, not both")
        items = [cookies] if isinstance(cookies, Mapping) else list(cookies)
        if not items:
            raise ValueError("cookies.set(cookies=...) needs at least one cookie")
        params["cookies"] = [_cookie_input(c, i) for i, c in enumerate(items)]
    else:
        if name is None or value is None:
            raise ValueError("cookies.set() needs both name and value (or cookies=)")
        if url is None and domain is None:
            raise ValueError(f"cookie {name!r} needs url= or domain= (which site it belongs to)")
        params.update({"name": name, "value": value})
        for key, v in (("url", url), ("domain", domain), ("path", path), ("httpOnly", http_only), ("secure", secure)):
            if v is not None:
                params[key] = v
        if expires is not None:
            if isinstance(expires, bool) or not isinstance(expires, int) or expires < 0:
                raise ValueError(f"expires must be an int >= 0 (seconds since the epoch), got {expires!r}")
            params["expires"] = expires
        ss = _same_site(same_site)
        if ss is not None:
            params["sameSite"] = ss
    data = yield Call("cookies_set", params)
    return len(w.decode_result("cookies_set", data).set)


def cookies_clear(url: str | None, domain: str | None, name: str | None = None) -> Op[int]:
    """Remove every cookie (or those of ``url`` or ``domain``, and of ``name``); answers how many."""
    params: dict[str, Any] = {}
    if url is not None:
        params["url"] = url
    if domain is not None:
        params["domain"] = domain
    if name is not None:
        params["name"] = name
    data = yield Call("cookies_clear", params)
    return w.decode_result("cookies_clear", data).removed


def _area(area: str) -> str:
    if area not in ("local", "session"):
        raise ValueError(f"area must be 'local' or 'session', got {area!r}")
    return area


def storage_get(key: str | None, area: str, max_items: int | None) -> Op[str | None | dict[str, str]]:
    """One key's value (None when absent), or every entry as a dict."""
    params: dict[str, Any] = {"area": _area(area)}
    if key is not None:
        params["key"] = key
    if max_items is not None:
        if isinstance(max_items, bool) or not isinstance(max_items, int) or max_items < 0:
            raise ValueError(f"max_items must be an int >= 0 (0 = no limit), got {max_items!r}")
        params["maxItems"] = max_items
    data = yield Call("storage_get", params)
    wire = w.decode_result("storage_get", data)
    if key is not None:
        return wire.value
    return {e.name: e.value for e in wire.entries}


def storage_change(action: str, area: str, key: str | None = None, value: str | None = None) -> Op[int]:
    """``storage_set``, ``storage_remove`` or ``storage_clear``; answers the entries left."""
    params: dict[str, Any] = {"area": _area(area)}
    if key is not None:
        params["key"] = key
    if value is not None:
        params["value"] = value
    data = yield Call(action, params)
    return w.StorageChanged.decode(data).length


def state_save(
    path: str | os.PathLike[str] | None, key_file: str | os.PathLike[str] | None, indexed_db: bool = True
) -> Op[Path]:
    """Save the session's state; answers the file written."""
    params: dict[str, Any] = {}
    if path is not None:
        params["path"] = _state_path("state.save()", path)
    _key_file(params, key_file)
    if not isinstance(indexed_db, bool):
        raise TypeError(f"state.save() indexed_db must be a bool, got {type(indexed_db).__name__}")
    if not indexed_db:
        params["indexedDb"] = False
    data = yield Call("state_save", params)
    return Path(w.decode_result("state_save", data).path)


def state_file(action: str, path: str | os.PathLike[str], key_file: str | os.PathLike[str] | None) -> Op[Mapping[str, Any]]:
    """``state_load`` or ``state_show``: the answer's data."""
    params: dict[str, Any] = {"path": _state_path(f"{action}()", path)}
    _key_file(params, key_file)
    data: Mapping[str, Any] = yield Call(action, params)
    if action == "state_load":
        w.StateLoaded.decode(data)
    else:
        w.StateShowOutput.decode(data)
    return data


def state_list() -> Op[StateListing]:
    """The state directory's files."""
    data = yield Call("state_list", {})
    return StateListing.from_wire(w.decode_result("state_list", data), data)


def state_rename(path: str | os.PathLike[str], name: str) -> Op[Path]:
    """Rename a state file; answers its new path."""
    data = yield Call("state_rename", {"from": _state_path("state.rename()", path), "to": name})
    return Path(w.decode_result("state_rename", data).to)


def state_clear(path: str | os.PathLike[str] | None) -> Op[tuple[Path, ...]]:
    """Remove one state file, or (``path=None``) every file of the state directory."""
    params: dict[str, Any] = {"all": True} if path is None else {"path": _state_path("state.clear()", path)}
    data = yield Call("state_clear", params)
    return tuple(Path(p) for p in w.decode_result("state_clear", data).removed)


def state_clean(days: int) -> Op[tuple[Path, ...]]:
    """Remove the state directory's files older than ``days``."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise ValueError(f"days must be an int >= 0, got {days!r}")
    data = yield Call("state_clean", {"olderThanDays": days})
    return tuple(Path(p) for p in w.decode_result("state_clean", data).removed)

# --- auth vault (issue 16) ---


def _vault_name(what: str, name: str) -> str:
    if not isinstance(name, str) or not name:
        raise ValueError(f"{what} needs a vault entry name, got {name!r}")
    return name


def auth_save(
    name: str,
    url: str,
    username: str,
    password: str,
    username_selector: str | None,
    password_selector: str | None,
    submit_selector: str | None,
    key_file: str | os.PathLike[str] | None,
) -> Op[AuthEntry]:
    """Save a login to the vault (encrypted); answers the entry without its password."""
    if not isinstance(password, str) or not password:
        raise ValueError("auth.save() needs a non-empty password string")
    params: dict[str, Any] = {
        "name": _vault_name("auth.save()", name),
        "url": url,
        "username": username,
        "password": password,
    }
    for k, v in (("usernameSelector", username_selector), ("passwordSelector", password_selector), ("submitSelector", submit_selector)):
        if v is not None:
            params[k] = v
    _key_file(params, key_file)
    data = yield Call("auth_save", params)
    return AuthEntry.from_wire(w.decode_result("auth_save", data).entry)


def auth_login(name: str, navigate: bool, key_file: str | os.PathLike[str] | None) -> Op[AuthLogin]:
    """Log in with a vault entry; answers only when the form was submitted."""
    params: dict[str, Any] = {"name": _vault_name("auth.login()", name)}
    if not navigate:
        params["navigate"] = False
    _key_file(params, key_file)
    data = yield Call("auth_login", params)
    return AuthLogin.from_wire(w.decode_result("auth_login", data), data)


def auth_list(key_file: str | os.PathLike[str] | None) -> Op[AuthListing]:
    """The vault's entries."""
    params: dict[str, Any] = {}
    _key_file(params, key_file)
    data = yield Call("auth_list", params)
    return AuthListing.from_wire(w.decode_result("auth_list", data), data)


def auth_show(name: str, key_file: str | os.PathLike[str] | None) -> Op[AuthEntry]:
    """One vault entry without its password."""
    params: dict[str, Any] = {"name": _vault_name("auth.show()", name)}
    _key_file(params, key_file)
    data = yield Call("auth_show", params)
    return AuthEntry.from_wire(w.decode_result("auth_show", data).entry)


def auth_delete(name: str) -> Op[Path]:
    """Remove a vault entry; answers the file removed."""
    data = yield Call("auth_delete", {"name": _vault_name("auth.delete()", name)})
    return Path(w.decode_result("auth_delete", data).path)


def evaluate(script: str, max_bytes: int | None = None) -> Op[Any]:
    """The JSON value of a JavaScript expression."""
    if not isinstance(script, str):
        raise TypeError(f"evaluate() takes a JavaScript string, got {type(script).__name__}")
    params: dict[str, Any] = {"script": script}
    if max_bytes is not None:
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 0:
            raise ValueError(f"max_bytes must be an int >= 0, got {max_bytes!r}")
        params["maxBytes"] = max_bytes
    data = yield Call("eval", params)
    return w.decode_result("eval", data).result


def read(
    url: str | None,
    mode: ReadMode | None,
    filter: str | None,
    timeout_ms: int | None,
    headers: Mapping[str, str] | None,
    cookies: bool,
    max_chars: int | None,
    render: bool = False,
) -> Op[ReadResult]:
    """Read a page as text: ``url`` over HTTP (no browser), rendered by the browser (``render``),
    or the active tab's rendered DOM."""
    mode = mode if mode is not None else ReadMode()
    if not isinstance(mode, ReadMode):
        raise TypeError(f"read() mode must be a ReadMode or None, got {type(mode).__name__}")
    params: dict[str, Any] = mode.to_wire()
    if url is not None:
        if not isinstance(url, str):
            raise TypeError(f"read() url must be a string or None, got {type(url).__name__}")
        if not url.strip():
            raise ValueError("read() url must not be empty (None reads the active tab)")
        params["url"] = url
    fetches = url is not None or mode.llms is not None
    if filter is not None:
        if not isinstance(filter, str):
            raise TypeError(f"read() filter must be a string or None, got {type(filter).__name__}")
        if not filter.strip():
            raise ValueError("read() filter must not be empty; give text that a heading contains")
        if mode.raw or mode.outline:
            raise ValueError("read() filter cannot go with ReadMode.html() or ReadMode.outline_only()")
        params["filter"] = filter
    if mode.require_markdown and not fetches:
        raise ValueError("ReadMode.markdown(require=True) needs a url (or llms): the active tab's DOM is HTML")
    if timeout_ms is not None:
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int):
            raise TypeError(f"read() timeout_ms must be an int of milliseconds, got {timeout_ms!r}")
        if not 1 <= timeout_ms <= MAX_READ_TIMEOUT_MS:
            raise ValueError(f"read() timeout_ms must be 1 to {MAX_READ_TIMEOUT_MS}, got {timeout_ms}")
        params["timeoutMs"] = timeout_ms
    if max_chars is not None:
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 0:
            raise ValueError(f"read() max_chars must be an int >= 0 (0 = no limit), got {max_chars!r}")
        params["maxChars"] = max_chars
    if headers is not None:
        if not isinstance(headers, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            raise TypeError("read() headers must be a mapping of header names to string values")
        if headers:
            params["headers"] = dict(headers)
    if not isinstance(cookies, bool):
        raise TypeError(f"read() cookies must be a bool, got {cookies!r}")
    if cookies:
        params["cookies"] = True
    if (headers or cookies) and not fetches:
        raise ValueError("read() headers and cookies go with a url (or llms): the active tab is read from its DOM")
    if not isinstance(render, bool):
        raise TypeError(f"read() render must be a bool, got {render!r}")
    if render:
        if url is None:
            raise ValueError("read() render needs a url: the active tab is read as the browser rendered it already")
        if mode.llms is not None or mode.require_markdown or headers:
            raise ValueError("read() render cannot go with llms, require_markdown or headers: the browser loads the page")
        params["render"] = True
    budget = timeout_ms if timeout_ms is not None else 10_000
    data = yield Call("read", params, budget_ms=budget)
    return ReadResult.from_wire(w.decode_result("read", data), data)


def observe(browser: B, spec: SnapshotSpec | None, delta: bool = False) -> Op[Snapshot[B]]:
    """Capture an accessibility snapshot bound to ``browser``.

    With ``delta`` the engine answers only what changed since its newest snapshot of the same
    spec in the tab; the whole text and refs are rebuilt here from that base, which this client
    holds when it received it (else the whole snapshot is fetched: ``delta.kind`` is ``full``).
    """
    spec = spec if spec is not None else SnapshotSpec()
    if not isinstance(spec, SnapshotSpec):
        raise TypeError(f"observe() takes a SnapshotSpec or None, got {type(spec).__name__}")
    if not isinstance(delta, bool):
        raise TypeError(f"observe() delta must be a bool, got {type(delta).__name__}")
    params = spec.to_wire()
    if delta:
        params["delta"] = True
    data = yield Call("snapshot", params)
    wire = w.decode_result("snapshot", data)
    held = browser._held
    if wire.delta is None or wire.delta.kind == "full":
        held.keep(data)
        return Snapshot.from_wire(wire, data, browser)
    base = held.get(wire.tab, wire.delta.base_generation)
    rebuilt = rebuild(data, base) if base is not None else None
    if rebuilt is None:
        # Another client took the base, or this one forgot it: the whole text is one call away.
        data = yield Call("snapshot", spec.to_wire())
        whole = w.decode_result("snapshot", data)
        held.keep(data)
        line_count = whole.text.count("\n") + 1
        note = SnapshotDelta("full", None, None, line_count, (), rebuilt=False, raw={})
        return Snapshot.from_wire(whole, data, browser, note)
    held.keep(rebuilt, rebuilt=True)
    return Snapshot.from_wire(w.decode_result("snapshot", rebuilt), rebuilt, browser)


def press(browser: B, key: str, wait: Wait | None) -> Op[ActionResult[B]]:
    """Press a key in the focused element."""
    if not isinstance(key, str) or not key:
        raise TypeError(f"press() takes a non-empty key name such as 'Enter', got {key!r}")
    params: dict[str, Any] = {"key": key}
    budget = _wait_params(params, wait)
    data = yield Call("press", params, budget_ms=budget)
    _hold_evidence(browser, data)
    return ActionResult.from_wire(w.decode_result("press", data), data, browser, None)


#: The mouse buttons of ``mouse.down()`` and ``mouse.up()``.
MOUSE_BUTTONS = ("left", "right", "middle")


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of CSS pixels, got {type(value).__name__}")
    return float(value)


def device(browser: B, action: str, params: dict[str, Any], wait: Wait | None) -> Op[ActionResult[B]]:
    """One low-level keyboard or mouse action (``keyboard_*``, ``mouse_*``) with its evidence."""
    budget = _wait_params(params, wait)
    data = yield Call(action, params, budget_ms=budget)
    _hold_evidence(browser, data)
    return ActionResult.from_wire(w.ActionOutput.decode(data), data, browser, None)


def keyboard_text(browser: B, action: str, text: str, wait: Wait | None) -> Op[ActionResult[B]]:
    """``keyboard_type`` or ``keyboard_insert_text``."""
    if not isinstance(text, str) or not text:
        raise TypeError(f"keyboard text must be a non-empty string, got {text!r}")
    return (yield from device(browser, action, {"text": text}, wait))


def keyboard_key(browser: B, action: str, key: str, wait: Wait | None) -> Op[ActionResult[B]]:
    """``keyboard_down`` or ``keyboard_up`` of one key."""
    if not isinstance(key, str) or not key:
        raise TypeError(f"keyboard key must be a non-empty key name such as 'Shift', got {key!r}")
    return (yield from device(browser, action, {"key": key}, wait))


def mouse_move(browser: B, x: float, y: float, wait: Wait | None) -> Op[ActionResult[B]]:
    """The pointer to a viewport point."""
    params = {"x": _number("mouse.move() x", x), "y": _number("mouse.move() y", y)}
    return (yield from device(browser, "mouse_move", params, wait))


def mouse_button(browser: B, action: str, button: str, wait: Wait | None) -> Op[ActionResult[B]]:
    """``mouse_down`` or ``mouse_up`` of a button."""
    if button not in MOUSE_BUTTONS:
        raise ValueError(f"button must be one of {', '.join(MOUSE_BUTTONS)}; got {button!r}")
    return (yield from device(browser, action, {"button": button}, wait))


def mouse_wheel(browser: B, dx: float, dy: float, wait: Wait | None) -> Op[ActionResult[B]]:
    """A wheel scroll at the pointer."""
    params = {"dx": _number("mouse.wheel() dx", dx), "dy": _number("mouse.wheel() dy", dy)}
    return (yield from device(browser, "mouse_wheel", params, wait))


def wait(condition: Wait | None, ms: int | None) -> Op[WaitResult]:
    """Wait for a condition or for ``ms`` milliseconds."""
    params: dict[str, Any] = {}
    budget = 0
    if condition is not None:
        if not isinstance(condition, Wait):
            raise TypeError(f"wait() takes a Wait condition, got {type(condition).__name__}")
        params["condition"] = condition.to_wire()
        budget += condition.budget_ms()
    if ms is not None:
        if isinstance(ms, bool) or not isinstance(ms, int):
            raise TypeError(f"wait() ms must be an int of milliseconds, got {type(ms).__name__}")
        if ms < 0:
            raise ValueError(f"wait() ms must be >= 0, got {ms}")
        params["ms"] = ms
        budget += ms
    if len(params) != 1:
        raise ValueError("wait() needs exactly one of a condition (Wait.text/url/loaded/all) and ms=")
    data = yield Call("wait", params, budget_ms=budget)
    return WaitResult.from_raw(data)


def diff(snapshot: Snapshot[Any]) -> Op[SnapshotDiff]:
    """Compare ``snapshot`` with the active page."""
    data = yield Call("diff", {"generation": snapshot.generation})
    snapshot.browser._held.keep(data.get("after"))
    return SnapshotDiff.from_wire(w.decode_result("diff", data), data)


# -- captures ------------------------------------------------------------------------

#: File extension of each screenshot format.
_EXTENSIONS = {"png": "png", "jpeg": "jpg", "webp": "webp"}


def _file_path(name: str, path: str | os.PathLike[str]) -> str:
    """``path`` as an absolute path string (relative to this process's working directory)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or PathLike), got {type(path).__name__}")
    text = os.fspath(path)
    if not text.strip():
        raise ValueError(f"{name} must not be empty")
    return os.path.abspath(os.path.expanduser(text))


def screenshot_params(
    path: str | os.PathLike[str] | None,
    selector: str | Ref[Any] | None,
    full_page: bool,
    annotate: bool,
    output_dir: str | os.PathLike[str] | None,
    format: str | None,
    quality: int | None,
) -> tuple[dict[str, Any], Ref[Any] | None]:
    """The ``screenshot`` parameters of a capture, and the ref it captures (if any)."""
    params: dict[str, Any] = {}
    ref: Ref[Any] | None = None
    if isinstance(selector, Ref):
        ref = selector
        params["target"] = selector.id
    elif isinstance(selector, str):
        if not selector.strip():
            raise ValueError("selector must be a non-empty CSS selector or ref id")
        params["target"] = selector
    elif selector is not None:
        raise TypeError(f"selector must be a CSS selector, a ref id or a Ref, got {type(selector).__name__}")
    if format is not None:
        if format not in IMAGE_FORMATS:
            raise ValueError(f"format must be one of {', '.join(IMAGE_FORMATS)}; got {format!r}")
        params["format"] = format
    if quality is not None:
        if isinstance(quality, bool) or not isinstance(quality, int) or not 0 <= quality <= 100:
            raise ValueError(f"quality must be an int from 0 to 100, got {quality!r}")
        params["quality"] = quality
    if full_page:
        params["fullPage"] = True
    if annotate:
        params["annotate"] = True
    if path is not None:
        if output_dir is not None:
            raise ValueError("give path or output_dir, not both")
        params["path"] = _file_path("path", path)
    elif output_dir is not None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        ext = _EXTENSIONS[format or "png"]
        name = f"screenshot-{stamp}-{time.monotonic_ns() % 1_000_000:06d}.{ext}"
        params["path"] = os.path.join(_file_path("output_dir", output_dir), name)
    return params, ref


def screenshot(params: Mapping[str, Any], ref: Ref[Any] | None) -> Op[Screenshot]:
    """Capture a screenshot to a file."""
    data = yield Call("screenshot", params, ref=ref)
    return Screenshot.from_wire(w.decode_result("screenshot", data), data)


def screenshot_if_changed(
    params: Mapping[str, Any], ref: Ref[Any] | None, threshold: float
) -> Op[ScreenshotObservation]:
    """Capture a screenshot unless at most ``threshold`` of its pixels changed since the scope's last one."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a share of pixels from 0 to 1, got {threshold!r}")
    full = {**params, "ifChanged": True, "threshold": float(threshold)}
    data = yield Call("screenshot", full, ref=ref)
    return ScreenshotObservation.from_wire(w.decode_result("screenshot", data), data)


def pdf(
    path: str | os.PathLike[str] | None, print_background: bool, landscape: bool, prefer_css_page_size: bool
) -> Op[Path]:
    """Print the page to a PDF file (a new temporary file without ``path``)."""
    if path is None:
        fd, target = tempfile.mkstemp(prefix="agentbrowser-", suffix=".pdf")
        os.close(fd)
    else:
        target = _file_path("path", path)
    params = {
        "path": target,
        "printBackground": bool(print_background),
        "landscape": bool(landscape),
        "preferCssPageSize": bool(prefer_css_page_size),
    }
    data = yield Call("pdf", params)
    return Path(w.decode_result("pdf", data).path)


# -- files ------------------------------------------------------------------------


def _file_paths(files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """``files`` (one path or several) as absolute paths; TypeError for anything else."""
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    if not isinstance(files, Sequence) or not files:
        raise TypeError("upload() takes a path or a non-empty list of paths")
    out = []
    for f in files:
        if not isinstance(f, (str, os.PathLike)):
            raise TypeError(f"upload() paths must be str or os.PathLike, got {type(f).__name__}")
        out.append(os.path.abspath(os.fspath(f)))
    return out


def upload(
    browser: B,
    target: str | Actionable[Any] | None,
    files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    wait: Wait | None,
) -> Op[ActionResult[B]]:
    """Set files on the file input ``target`` stands for, or (``None``) answer the open file chooser."""
    params: dict[str, Any] = {"files": _file_paths(files)}
    ref: Ref[Any] | None = None
    if isinstance(target, Actionable):
        ref = target._as_ref()
        params["ref"] = target._wire_target()
    elif isinstance(target, str):
        if not target.strip():
            raise ValueError("upload() target must be a ref id such as 'e3', a Ref, or None for the open file chooser")
        params["ref"] = target
    elif target is not None:
        raise TypeError(f"upload() target must be a ref id, a Ref or None, got {type(target).__name__}")
    budget = _wait_params(params, wait)
    data = yield Call("upload", params, ref=ref, budget_ms=budget)
    _hold_evidence(browser, data)
    return ActionResult.from_wire(w.decode_result("upload", data), data, browser, ref)


def _download_params(path: str | os.PathLike[str] | None, timeout_ms: int | None) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"download path must be str or os.PathLike, got {type(path).__name__}")
        params["path"] = os.path.abspath(os.fspath(path))
    if timeout_ms is not None:
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int):
            raise TypeError(f"timeout_ms must be an int of milliseconds, got {type(timeout_ms).__name__}")
        if not 1 <= timeout_ms <= 600_000:
            raise ValueError(f"timeout_ms must be within 1..600000 milliseconds, got {timeout_ms}")
        params["timeoutMs"] = timeout_ms
    return params


def download(
    target: str | Actionable[Any], path: str | os.PathLike[str], timeout_ms: int | None
) -> Op[Download]:
    """Click ``target``, wait for the download it starts, and move the complete file to ``path``."""
    if path is None:
        raise TypeError("download() takes the path (a file or a directory) the download goes to")
    params = _download_params(path, timeout_ms)
    ref: Ref[Any] | None = None
    if isinstance(target, Actionable):
        ref = target._as_ref()
        params["ref"] = target._wire_target()
    elif isinstance(target, str) and target.strip():
        params["ref"] = target
    else:
        raise TypeError(f"download() target must be a ref id such as 'e3' or a Ref, got {target!r}")
    budget = params.get("timeoutMs", 30_000)
    data = yield Call("download", params, ref=ref, budget_ms=budget)
    return Download.from_wire(w.decode_result("download", data), data)


def wait_for_download(path: str | os.PathLike[str] | None, timeout_ms: int | None) -> Op[Download]:
    """Wait for the next download (or a complete one not yet claimed); move it to ``path`` if given."""
    params = _download_params(path, timeout_ms)
    budget = params.get("timeoutMs", 30_000)
    data = yield Call("wait_download", params, budget_ms=budget)
    return Download.from_wire(w.decode_result("wait_download", data), data)


# -- refs -------------------------------------------------------------------------


def mutate(
    target: Actionable[B], action: w.ActionOutputActions, params: Mapping[str, Any], wait: Wait | None
) -> Op[ActionResult[B]]:
    """Run one mutation on ``target`` (a ref, or a locator the engine resolves now) and decode its evidence."""
    ref = target._as_ref()
    full: dict[str, Any] = {"ref": target._wire_target(), **params}
    budget = _wait_params(full, wait)
    data = yield Call(action, full, ref=ref, budget_ms=budget)
    _hold_evidence(target.browser, data)
    return ActionResult.from_wire(w.decode_result(action, data), data, target.browser, ref)


def _hold_evidence(browser: B, data: Mapping[str, Any]) -> None:
    """Keeps an action's before and after snapshots as bases of later delta snapshots."""
    browser._held.keep(data.get("before"))
    browser._held.keep(data.get("after"))


def read_str(target: Actionable[Any], action: w.ValueOutputStringActions, params: Mapping[str, Any]) -> Op[str]:
    """Read one string of ``target``."""
    data = yield Call(action, {"ref": target._wire_target(), **params}, ref=target._as_ref())
    return w.decode_result(action, data).value


def read_opt_str(
    target: Actionable[Any], action: w.ValueOutputNullableStringActions, params: Mapping[str, Any]
) -> Op[str | None]:
    """Read one string of ``target`` that may be null."""
    data = yield Call(action, {"ref": target._wire_target(), **params}, ref=target._as_ref())
    return w.decode_result(action, data).value


def read_bool(target: Actionable[Any], action: w.ValueOutputBooleanActions | w.CheckedOutputActions) -> Op[bool]:
    """Read one boolean state of ``target``."""
    data = yield Call(action, {"ref": target._wire_target()}, ref=target._as_ref())
    return w.decode_result(action, data).value


# -- locators and selectors (resolved by the engine on every call) -------------------


def _find(loc: Locator[Any], limit: int) -> Op[w.FindOutput]:
    if isinstance(loc.target, str) and not loc.target.startswith(("css=", "xpath=")):
        raise ValueError(f"{loc.describe()} is a ref: it matches itself; count() and all() list selectors and locators")
    data = yield Call("find", {"target": loc.target, "limit": limit})
    return w.decode_result("find", data)


def locator_count(loc: Locator[Any]) -> Op[int]:
    """How many elements ``loc`` matches now."""
    out = yield from _find(loc, 1)
    return out.count


def locator_all(loc: Locator[B]) -> Op[tuple[Locator[B], ...]]:
    """Every element ``loc`` matches now (at most 1000), each as a locator on its ref."""
    out = yield from _find(loc, 1000)
    return tuple(Locator(target=m.ref, browser=loc.browser) for m in out.matches)


def refresh_ref(ref: Ref[B], role: str | None, name: str | None, contains: str | None, exact: bool) -> Op[Ref[B]]:
    """Resolve ``ref``'s role and name (or the given criteria) in a fresh snapshot."""
    snap = yield from observe(ref.browser, ref.snapshot.spec)
    if role is None:
        role = ref.role
    if name is None and contains is None:
        name = ref.name
    return snap.one(role=role, name=name, contains=contains, exact=exact)


# -- diagnostics --------------------------------------------------------------------


def _clear_flag(clear: bool) -> dict[str, Any]:
    if not isinstance(clear, bool):
        raise TypeError(f"clear must be a bool, got {type(clear).__name__}")
    return {"clear": True} if clear else {}


def console(clear: bool, level: ConsoleLevel | None, since_navigation: bool = False) -> Op[ConsoleLog]:
    """The active tab's console messages (``level``: that severity and above; with
    ``since_navigation`` only those since the tab's last navigation to a new document)."""
    params = _clear_flag(clear)
    if not isinstance(since_navigation, bool):
        raise TypeError(f"since_navigation must be a bool, got {type(since_navigation).__name__}")
    if since_navigation:
        params["sinceNavigation"] = True
    if level is not None:
        if level not in CONSOLE_LEVELS:
            raise ValueError(f"level must be one of {', '.join(CONSOLE_LEVELS)}; got {level!r}")
        params["level"] = level
    data = yield Call("console", params)
    return ConsoleLog.from_wire(w.decode_result("console", data), data)


def errors(clear: bool) -> Op[ErrorLog]:
    """The active tab's uncaught exceptions and unhandled rejections."""
    data = yield Call("errors", _clear_flag(clear))
    return ErrorLog.from_wire(w.decode_result("errors", data), data)


def _non_empty_str(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{name} must not be empty")
    return value


def accessibility(
    url: str | None, tags: Sequence[str] | str, selector: str | None, max_nodes: int | None
) -> Op[AccessibilityAudit]:
    """An axe-core audit of the active tab (after opening ``url``), in every frame."""
    params: dict[str, Any] = {}
    if url is not None:
        params["url"] = _non_empty_str("url", url)
    if isinstance(tags, str):
        tags = (tags,)
    tag_list = list(tags)
    for t in tag_list:
        if not isinstance(t, str):
            raise TypeError(f"tags must be strings such as 'wcag2a', got {type(t).__name__}")
        if not t.strip() or "," in t:
            raise ValueError(f"each tag must be non-empty and contain no comma; got {t!r}")
    if tag_list:
        params["tags"] = tag_list
    if selector is not None:
        params["selector"] = _non_empty_str("selector", selector)
    if max_nodes is not None:
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
            raise TypeError(f"max_nodes must be an int, got {type(max_nodes).__name__}")
        if not 1 <= max_nodes <= 1000:
            raise ValueError(f"max_nodes must be 1 to 1000; got {max_nodes}")
        params["maxNodes"] = max_nodes
    data = yield Call("a11y", params)
    return AccessibilityAudit.from_wire(w.decode_result("a11y", data), data)


def vitals(url: str | None, quiet_ms: int | None = None, cap_ms: int | None = None) -> Op[Vitals]:
    """The active tab's Web Vitals (after opening ``url``), read once the page was quiet for
    ``quiet_ms`` after load (at most ``cap_ms``)."""
    params: dict[str, Any] = {}
    if url is not None:
        params["url"] = _non_empty_str("url", url)
    for name, key, value in (("quiet_ms", "quietMs", quiet_ms), ("cap_ms", "capMs", cap_ms)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int of milliseconds, got {type(value).__name__}")
        if not 0 <= value <= 60000:
            raise ValueError(f"{name} must be 0 to 60000 ms; got {value}")
        params[key] = value
    data = yield Call("vitals", params)
    return Vitals.from_wire(w.decode_result("vitals", data), data)
# -- network ------------------------------------------------------------------------


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    return value


def network_requests(
    clear: bool,
    url_pattern: str | None,
    resource_type: str | Sequence[str] | None,
    method: str | None,
    status: str | int | None,
    limit: int | None,
) -> Op[RequestLog]:
    """The active tab's request log (and its popups'), filtered."""
    params = _clear_flag(clear)
    if url_pattern is not None:
        if not isinstance(url_pattern, str) or not url_pattern:
            raise ValueError(f"url_pattern must be a non-empty string (a URL glob), got {url_pattern!r}")
        params["filter"] = url_pattern
    if resource_type is not None:
        types = [resource_type] if isinstance(resource_type, str) else list(resource_type)
        for t in types:
            if not isinstance(t, str) or t.lower() not in RESOURCE_TYPES:
                raise ValueError(f"resource_type must be among {', '.join(RESOURCE_TYPES)}; got {t!r}")
        params["type"] = [t.lower() for t in types]
    if method is not None:
        if not isinstance(method, str) or not method.isalpha():
            raise ValueError(f"method must be an HTTP method such as 'GET' or 'POST', got {method!r}")
        params["method"] = method
    if status is not None:
        if isinstance(status, bool) or not isinstance(status, (str, int)):
            raise TypeError(f"status must be '200', '2xx', '400-499' or an int, got {type(status).__name__}")
        params["status"] = str(status)
    if limit is not None:
        params["limit"] = _count("limit", limit)
    data = yield Call("network_requests", params)
    return RequestLog.from_wire(w.decode_result("network_requests", data), data)


def network_request(request_id: str, max_bytes: int | None) -> Op[RequestDetail]:
    """One request of the log in full, its body fetched now."""
    if not isinstance(request_id, str) or not request_id:
        raise ValueError(f"request_id must be an id from requests(), got {request_id!r}")
    params: dict[str, Any] = {"requestId": request_id}
    if max_bytes is not None:
        params["maxBytes"] = _count("max_bytes", max_bytes)
    data = yield Call("network_request", params)
    return RequestDetail.from_wire(w.decode_result("network_request", data), data)


def har_start(content: HarContentMode) -> Op[None]:
    """Start recording the session's traffic as HAR."""
    if content not in HAR_CONTENT_MODES:
        raise ValueError(f"content must be one of {', '.join(HAR_CONTENT_MODES)}; got {content!r}")
    data = yield Call("har_start", {"content": content})
    w.decode_result("har_start", data)
    return None


def har_stop(path: str | os.PathLike[str] | None) -> Op[Path]:
    """Stop recording and write the HAR; returns the file written."""
    params: dict[str, Any] = {}
    if path is not None:
        params["path"] = str(Path(path).absolute())
    data = yield Call("har_stop", params)
    return Path(w.decode_result("har_stop", data).path)


# -- tabs, session, native -------------------------------------------------------------


def _tab_id(tab: str | TabInfo | None) -> str | None:
    if tab is None or isinstance(tab, str):
        return tab
    if isinstance(tab, TabInfo):
        return tab.id
    raise TypeError(f"tab must be a tab id such as 't2', a TabInfo or None, got {type(tab).__name__}")


def tab_list() -> Op[tuple[TabInfo, ...]]:
    """Every open tab."""
    data = yield Call("tab_list", {})
    wire = w.decode_result("tab_list", data)
    return tuple(TabInfo.from_wire(tab, raw) for tab, raw in zip(wire.tabs, data["tabs"], strict=True))


def tab_selector(
    method: str,
    tab: str | TabInfo | None,
    id: str | None = None,
    label: str | None = None,
    index: int | None = None,
) -> str | None:
    """The one tab selector of ``tab`` or the keywords ``id=``, ``label=``, ``index=`` (N means
    ``tN``); TypeError when several are given, ValueError for an index below 1."""
    given = [(k, v) for k, v in (("tab", tab), ("id", id), ("label", label), ("index", index)) if v is not None]
    if len(given) > 1:
        raise TypeError(f"{method} takes one of tab, id=, label=, index=; got {', '.join(k for k, _ in given)}")
    if not given:
        return None
    key, value = given[0]
    if key == "index":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{method} index must be an int, got {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{method} index must be 1 or more (index N means tab tN), got {value}")
        return f"t{value}"
    if key == "tab":
        return _tab_id(value)  # type: ignore[arg-type]
    if not isinstance(value, str) or not value:
        raise TypeError(f"{method} {key}= must be a non-empty string, got {value!r}")
    return value


def _label(method: str, label: str | None) -> None:
    if label is not None and (not isinstance(label, str) or not label.strip()):
        raise TypeError(f"{method} label must be a non-empty string or None, got {label!r}")


def tab_new(url: str | None, label: str | None = None) -> Op[TabInfo]:
    """Open a tab, optionally at ``url``, optionally with a unique ``label``."""
    params: dict[str, Any] = {}
    if url is not None:
        if not isinstance(url, str):
            raise TypeError(f"tabs.new() url must be a string or None, got {type(url).__name__}")
        params["url"] = url
    _label("tabs.new()", label)
    if label is not None:
        params["label"] = label
    data = yield Call("tab_new", params)
    return TabInfo.from_wire(w.decode_result("tab_new", data), data)


def tab_open(url: str, label: str | None, reuse: bool, wait_until: LoadState) -> Op[TabInfo]:
    """Switch to the tab labelled ``label`` and navigate it to ``url`` (with ``reuse``), else
    open a new tab at ``url`` with that label."""
    if not isinstance(url, str) or not url:
        raise TypeError(f"tabs.open() url must be a non-empty string, got {url!r}")
    _label("tabs.open()", label)
    check_load_state("tabs.open() wait_until", wait_until)
    if label is not None and reuse:
        tabs = yield from tab_list()
        if any(t.label == label for t in tabs):
            yield Call("tab_switch", {"tab": label})
            yield from open_page(url, wait_until)
            now = yield from tab_list()
            for t in now:
                if t.label == label:
                    return t
            raise LookupError(f"tab labelled {label!r} was closed while it was opened")
    return (yield from tab_new(url, label))


def tab_find(id: str | None, label: str | None, index: int | None) -> Op[TabInfo]:
    """The one open tab that ``id=`` (tab id or CDP target id), ``label=`` or ``index=`` names."""
    sel = tab_selector("tabs.get()", None, id, label, index)
    if sel is None:
        raise TypeError("tabs.get() needs one of id=, label=, index=")
    tabs = yield from tab_list()
    found = [t for t in tabs if sel in (t.id, t.label, t.target_id)]
    if len(found) != 1:
        listed = ", ".join(t.id + (f" [{t.label}]" if t.label else "") for t in tabs) or "none"
        raise LookupError(f"tabs.get(): {len(found)} tabs match {sel!r}; open tabs: {listed}")
    return found[0]


def tab_switch(tab: str | TabInfo | None) -> Op[TabSwitchResult]:
    """Make a tab active (by id, label or index)."""
    tab_id = _tab_id(tab)
    if tab_id is None:
        raise TypeError("tabs.switch() needs a tab id such as 't2', a TabInfo, or id=, label=, index=")
    data = yield Call("tab_switch", {"tab": tab_id})
    return TabSwitchResult.from_raw(data)


def frames_tree() -> Op[tuple[FrameInfo, ...]]:
    """The frames of the tab, main frame first."""
    data = yield Call("frames", {"limit": 1000})
    wire = w.decode_result("frames", data)
    return tuple(FrameInfo.from_wire(f, r) for f, r in zip(wire.frames, data["frames"], strict=True))


def frame_get(
    id: str | None, selector: str | Ref[Any] | None, name: str | None, url: str | None
) -> Op[FrameInfo]:
    """The one frame that exactly one criterion names (FrameLookupError otherwise)."""
    given = [(k, v) for k, v in (("id", id), ("selector", selector), ("name", name), ("url", url)) if v is not None]
    if len(given) != 1:
        raise TypeError(
            f"frames.get() takes exactly one of id=, selector=, name=, url=; got {', '.join(k for k, _ in given) or 'none'}"
        )
    key, value = given[0]
    if isinstance(value, Actionable):
        value = value._wire_target()
    if not isinstance(value, str) or not value:
        raise TypeError(f"frames.get() {key}= must be a non-empty string, got {value!r}")
    data = yield Call("frame", {"target": value, "by": key, "set": False})
    wire = w.decode_result("frame", data)
    if wire.frame is None:
        raise FrameLookupError(
            f"frames.get({key}={value!r}) names the main frame, not a frame of the page; use the page itself",
            reason="scope_mismatch",
            criteria={key: value},
        )
    return FrameInfo.from_wire(wire.frame, data["frame"])


def tab_close(tab: str | TabInfo | None) -> Op[TabCloseResult]:
    """Close a tab (default: the active one)."""
    tab_id = _tab_id(tab)
    # The engine answers with the closed tab's fields (`tab`): one round trip.
    data = yield Call("tab_close", {"tab": tab_id} if tab_id else {})
    return TabCloseResult.from_raw(data)


def dialog_status() -> Op[DialogStatus]:
    """The dialog waiting in the active tab (and those in other tabs)."""
    data = yield Call("dialog_status", {})
    return DialogStatus.from_wire(w.decode_result("dialog_status", data))


def dialog_accept(text: str | None) -> Op[DialogResult]:
    """Accept (OK) the active tab's open dialog; ``text`` is what a prompt returns."""
    params: dict[str, Any] = {}
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"dialogs.accept() text must be a string or None, got {type(text).__name__}")
        params["text"] = text
    data = yield Call("dialog_accept", params)
    return DialogResult.from_wire(w.decode_result("dialog_accept", data))


def dialog_dismiss() -> Op[DialogResult]:
    """Dismiss (Cancel) the active tab's open dialog."""
    data = yield Call("dialog_dismiss", {})
    return DialogResult.from_wire(w.decode_result("dialog_dismiss", data))


def _settings(action: w.SettingsOutputActions, params: dict[str, Any]) -> Op[EmulationSettings]:
    data = yield Call(action, params)
    return EmulationSettings.from_wire(w.decode_result(action, data))


def _real(where: str, v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{where} must be a number, got {type(v).__name__}")
    return float(v)


def _opt_str(where: str, v: object) -> str | None:
    if v is not None and not isinstance(v, str):
        raise TypeError(f"{where} must be a string or None, got {type(v).__name__}")
    return v


def emulation_viewport(width: int | None, height: int | None, scale: float, mobile: bool) -> Op[EmulationSettings]:
    """Emulate a viewport in every tab; ``width`` and ``height`` None reset it."""
    params: dict[str, Any] = {}
    if (width is None) != (height is None):
        raise ValueError("emulation.viewport() width and height go together: give both, or neither to reset")
    if width is not None:
        for name, v in (("width", width), ("height", height)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"emulation.viewport() {name} must be an int, got {type(v).__name__}")
        params = {"width": width, "height": height, "deviceScaleFactor": _real("emulation.viewport() device_scale_factor", scale)}
        if not isinstance(mobile, bool):
            raise TypeError(f"emulation.viewport() mobile must be a bool, got {type(mobile).__name__}")
        if mobile:
            params["mobile"] = True
    return (yield from _settings("set_viewport", params))


def emulation_device(name: str | None) -> Op[EmulationSettings]:
    """Emulate a device of the table in every tab; None resets what a device set."""
    name = _opt_str("emulation.device() name", name)
    return (yield from _settings("set_device", {} if name is None else {"name": name}))


def emulation_devices() -> Op[tuple[Device, ...]]:
    """The device table."""
    data = yield Call("devices", {})
    return tuple(Device.from_wire(d) for d in w.decode_result("devices", data).devices)


def emulation_media(color_scheme: str | None, reduced_motion: str | None, media: str | None) -> Op[EmulationSettings]:
    """Emulate CSS media in every tab; all None resets them."""
    params: dict[str, Any] = {}
    for name, v, allowed, key in (
        ("color_scheme", color_scheme, COLOR_SCHEMES, "colorScheme"),
        ("reduced_motion", reduced_motion, REDUCED_MOTIONS, "reducedMotion"),
        ("media", media, MEDIA_TYPES, "media"),
    ):
        if v is None:
            continue
        if not isinstance(v, str):
            raise TypeError(f"emulation.media() {name} must be a string or None, got {type(v).__name__}")
        if v not in allowed:
            raise ValueError(f"emulation.media() {name} must be one of {', '.join(allowed)}, got {v!r}")
        params[key] = v
    return (yield from _settings("set_media", params))


def emulation_value(action: w.SettingsOutputActions, key: str, where: str, value: str | None) -> Op[EmulationSettings]:
    """A one-string setting (user agent, timezone, locale); None resets it."""
    value = _opt_str(where, value)
    return (yield from _settings(action, {} if value is None else {key: value}))


def emulation_geolocation(
    latitude: float | None, longitude: float | None, accuracy: float | None
) -> Op[EmulationSettings]:
    """Emulate a position (granting the permission); both None reset it."""
    if (latitude is None) != (longitude is None):
        raise ValueError("emulation.geolocation() latitude and longitude go together: give both, or neither to reset")
    params: dict[str, Any] = {}
    if latitude is not None:
        params["latitude"] = _real("emulation.geolocation() latitude", latitude)
        params["longitude"] = _real("emulation.geolocation() longitude", longitude)
        if accuracy is not None:
            params["accuracy"] = _real("emulation.geolocation() accuracy", accuracy)
    return (yield from _settings("set_geolocation", params))


def emulation_permissions(permissions: Sequence[str] | None, origin: str | None) -> Op[EmulationSettings]:
    """Grant permissions (and deny the others); None or empty resets every permission."""
    if permissions is None or (isinstance(permissions, Sequence) and not isinstance(permissions, str) and not permissions):
        if origin is not None:
            raise ValueError("emulation.permissions() origin needs permissions to grant")
        return (yield from _settings("set_permissions", {"clear": True}))
    if isinstance(permissions, (str, bytes)) or not isinstance(permissions, Sequence):
        raise TypeError(f"emulation.permissions() needs a sequence of names, got {type(permissions).__name__}")
    for p in permissions:
        if not isinstance(p, str):
            raise TypeError(f"emulation.permissions() names must be strings, got {type(p).__name__}")
    params: dict[str, Any] = {"permissions": list(permissions)}
    if _opt_str("emulation.permissions() origin", origin) is not None:
        params["origin"] = origin
    return (yield from _settings("set_permissions", params))


def emulation_offline(enabled: bool) -> Op[EmulationSettings]:
    """Take every tab offline, or back online."""
    if not isinstance(enabled, bool):
        raise TypeError(f"emulation.offline() enabled must be a bool, got {type(enabled).__name__}")
    return (yield from _settings("set_offline", {"offline": enabled}))


_THROTTLE_PRESETS = ("slow-3g", "fast-3g", "fast-4g")


def emulation_throttle(
    preset: str | None,
    latency_ms: int | None,
    download_kbps: int | None,
    upload_kbps: int | None,
    off: bool,
) -> Op[EmulationSettings]:
    """Throttle every tab's network (a preset, or latency and rates), or stop with ``off``."""
    if preset is not None and preset not in _THROTTLE_PRESETS:
        raise ValueError(f"emulation.throttle() preset must be one of {', '.join(_THROTTLE_PRESETS)}, got {preset!r}")
    if not isinstance(off, bool):
        raise TypeError(f"emulation.throttle() off must be a bool, got {type(off).__name__}")
    params: dict[str, Any] = {}
    for key, name, v in (
        ("latencyMs", "latency_ms", latency_ms),
        ("downloadKbps", "download_kbps", download_kbps),
        ("uploadKbps", "upload_kbps", upload_kbps),
    ):
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"emulation.throttle() {name} must be an int or None, got {type(v).__name__}")
        if v < 0:
            raise ValueError(f"emulation.throttle() {name} must be >= 0, got {v}")
        params[key] = v
    if preset is not None:
        params["preset"] = preset
    if off:
        params["off"] = True
    return (yield from _settings("set_throttle", params))


def emulation_settings() -> Op[EmulationSettings]:
    """The session's emulation and init scripts."""
    return (yield from _settings("settings", {}))


def _one_source(where: str, inline: tuple[str, object], other: tuple[str, object]) -> None:
    given = [name for name, v in (inline, other) if v is not None]
    if len(given) != 1:
        raise ValueError(f"{where} takes exactly one of {inline[0]} and {other[0]}, got {len(given)}")
    if inline[1] is not None and not isinstance(inline[1], str):
        raise TypeError(f"{where} {inline[0]} must be a string, got {type(inline[1]).__name__}")


def script_add_init(script: str | None, path: str | os.PathLike[str] | None) -> Op[str]:
    """Add an init script (inline or from a file); returns its id."""
    _one_source("scripts.add_init()", ("script", script), ("path", path))
    params: dict[str, Any] = {"script": script}
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"scripts.add_init() path must be a str or path, got {type(path).__name__}")
        params = {"path": os.path.abspath(os.fspath(path))}
    data = yield Call("add_init_script", params)
    return w.decode_result("add_init_script", data).id


def script_remove_init(identifier: str) -> Op[tuple[str, ...]]:
    """Remove an init script by id; returns the ids left."""
    if not isinstance(identifier, str):
        raise TypeError(f"scripts.remove_init() needs an id string, got {type(identifier).__name__}")
    data = yield Call("remove_init_script", {"identifier": identifier})
    return tuple(w.decode_result("remove_init_script", data).remaining)


def script_add(action: w.InjectedActions, key: str, where: str, source: str | None, url: str | None) -> Op[Injection]:
    """Add a script or style to the active page now (inline or from a URL)."""
    _one_source(where, (key, source), ("url", url))
    if url is not None and not isinstance(url, str):
        raise TypeError(f"{where} url must be a string, got {type(url).__name__}")
    params: dict[str, Any] = {key: source} if source is not None else {"url": url}
    data = yield Call(action, params)
    return Injection.from_wire(w.decode_result(action, data))


def status() -> Op[SessionStatus]:
    """The session's status."""
    data = yield Call("status", {})
    return SessionStatus.from_raw(data)


def close(deadline_s: float) -> Op[CloseResult]:
    """Close the session's browser and daemon within ``deadline_s``."""
    data = yield Call("close", {"timeout": max(1, int(deadline_s * 1000))}, deadline_s=deadline_s)
    return CloseResult.from_raw(data)


def native(action: str, params: Mapping[str, Any]) -> Op[BrowserResponse]:
    """Send one native action and return its whole envelope."""
    if not isinstance(action, str) or not action:
        raise TypeError(f"native.execute() needs an action name, got {action!r}")
    response = yield Call(action, dict(params), envelope=True)
    assert isinstance(response, BrowserResponse)
    return response


# -- request interception (routes, headers, credentials) --------------------------------------


def _header_map(label: str, headers: Mapping[str, str] | None) -> dict[str, str] | None:
    """A header mapping checked: str names to str values."""
    if headers is None:
        return None
    if not isinstance(headers, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
        raise TypeError(f"{label} must be a mapping of str header names to str values")
    return dict(headers)


def network_route(
    url: str,
    *,
    abort: bool | str = False,
    response: RouteResponse | Mapping[str, Any] | None = None,
    status: int | None = None,
    body: str | bytes | None = None,
    content_type: str | None = None,
    headers: Mapping[str, str] | None = None,
    resource_type: str | None = None,
    resource_types: Sequence[str] | None = None,
    times: int | None = None,
    set_headers: Mapping[str, str] | None = None,
    continue_request: bool = False,
) -> Op[Route]:
    """Add a route: answer (``response`` or the answer fields), abort, or continue with ``set_headers``."""
    if not isinstance(url, str):
        raise TypeError(f"network.route() url must be a glob string, got {type(url).__name__}")
    params: dict[str, Any] = {"url": url}
    given = {k: v for k, v in (("status", status), ("body", body), ("content_type", content_type), ("headers", headers)) if v is not None}
    if response is not None:
        if given:
            raise ValueError(f"network.route() takes response= or {', '.join(given)}, not both")
        answer = RouteResponse.of(response)
    else:
        answer = RouteResponse(status, body, content_type, headers)
    fulfills = any(v is not None for v in (answer.status, answer.body, answer.content_type, answer.headers))
    if abort is not False:
        if abort is True:
            reason = "failed"
        elif isinstance(abort, str) and abort in ABORT_REASONS:
            reason = abort
        else:
            raise ValueError(f"network.route() abort must be True or one of {', '.join(ABORT_REASONS)}, got {abort!r}")
        params["abort"] = reason
    if continue_request:
        params["continueRequest"] = True
    sh = _header_map("network.route() set_headers", set_headers)
    if sh is not None:
        params["setHeaders"] = sh
    if fulfills:
        if answer.status is not None:
            params["status"] = answer.status
        if isinstance(answer.body, bytes):
            fd, tmp = tempfile.mkstemp(prefix="agentbrowser-route-")
            with os.fdopen(fd, "wb") as f:
                f.write(answer.body)
            params["bodyFile"] = tmp
        elif answer.body is not None:
            params["body"] = answer.body
        if answer.content_type is not None:
            params["contentType"] = answer.content_type
        if answer.headers is not None:
            params["headers"] = dict(answer.headers)
    types: list[str] = []
    if resource_type is not None:
        types.append(resource_type)
    if resource_types is not None:
        if isinstance(resource_types, str):
            raise TypeError("network.route() resource_types must be a sequence of names, not a str")
        types.extend(resource_types)
    for t in types:
        if t not in RESOURCE_TYPES:
            raise ValueError(f"network.route() resource type {t!r} is not one of {', '.join(RESOURCE_TYPES)}")
    if types:
        params["resourceTypes"] = types
    if times is not None:
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"network.route() times must be an int >= 1 or None, got {times!r}")
        params["times"] = times
    try:
        data = yield Call("network_route", params)
    finally:
        if "bodyFile" in params:
            os.unlink(params["bodyFile"])
    return Route.from_wire(w.RouteAdded.decode(data).route, data["route"])


def network_unroute(url: str | None) -> Op[tuple[Route, ...]]:
    """Remove the routes of ``url`` (every route when None); the removed routes."""
    if url is not None and not isinstance(url, str):
        raise TypeError(f"network.unroute() url must be a glob string or None, got {type(url).__name__}")
    data = yield Call("network_unroute", {} if url is None else {"url": url})
    out = w.RoutesRemoved.decode(data)
    return tuple(Route.from_wire(r, raw) for r, raw in zip(out.removed, data["removed"], strict=True))


def network_routes() -> Op[tuple[Route, ...]]:
    """The session's routes, newest first."""
    data = yield Call("network_routes", {})
    out = w.RouteList.decode(data)
    return tuple(Route.from_wire(r, raw) for r, raw in zip(out.routes, data["routes"], strict=True))


def network_headers(headers: Mapping[str, str], origin: str | None) -> Op[tuple[str, ...]]:
    """Extra request headers for every request (or ``origin``'s); ``{}`` clears; their names."""
    hm = _header_map("network.headers() headers", headers)
    params: dict[str, Any] = {"headers": hm}
    if origin is not None:
        if not isinstance(origin, str):
            raise TypeError(f"network.headers() origin must be a str or None, got {type(origin).__name__}")
        params["origin"] = origin
    data = yield Call("set_headers", params)
    return tuple(w.HeadersSet.decode(data).names)


def network_credentials(username: str | None, password: str | None) -> Op[None]:
    """HTTP credentials (None, None clears them)."""
    if username is None and password is None:
        yield Call("set_credentials", {"clear": True})
        return None
    if not isinstance(username, str) or not isinstance(password, str):
        raise TypeError("network.credentials() takes a str username and a str password (or None, None to clear)")
    yield Call("set_credentials", {"username": username, "password": password})
    return None
