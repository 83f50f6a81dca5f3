"""The tool registry: ``@tools.action(...)``, parameter validation, injection, and code-mode binding.

>>> tools = Tools()
>>> @tools.action("Add two numbers")
... async def add(a: int, b: int = 1) -> str:
...     return str(a + b)

A tool's parameters come from its signature's type hints (``str``, ``int``, ``float``,
``bool``, ``list[...]``, ``dict[...]``, ``X | None``, ``Literal[...]``, defaults) or from a
``param_model`` (a dataclass, or any class with pydantic's ``model_validate``) that the
tool receives as its one argument.  Positional arguments map to the parameters in order;
unknown ones are refused with the allowed names.  Parameters named ``browser``
(the :class:`~agentbrowser.aio.AsyncBrowser`), ``page`` (its active
:class:`~agentbrowser.aio.AsyncPage`), ``page_url`` (the page's URL) and ``context``
(the :class:`ToolContext`) are injected, never taken from the caller, and so are browser-use's
``has_sensitive_data`` and ``available_file_paths``; its other injected names (``browser_session``,
``file_system``...) hold browser-use objects and are refused when the tool is registered.

A tool returns :class:`~agentbrowser.tools.ActionResult`, ``str`` (the extracted content)
or ``None``; anything else, an exception or running past its timeout (default 180 s)
gives an ``ActionResult`` with ``error``.  A tool with ``domains`` runs only on pages whose
URL matches one of its globs (:mod:`agentbrowser.tools.domains`), fails closed otherwise,
and is left out of :meth:`Tools.prompt_description` for such a page.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import keyword
import time
import types
import warnings
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin, get_type_hints

from ..models import clip
from .builtin import BUILTINS, structured_done
from .domains import SECRET_PLACEHOLDER, url_matches_any
from .results import ActionResult, ToolError, ToolImage

if TYPE_CHECKING:
    from ..aio import AsyncBrowser
    from ..code.secrets import SensitiveData

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "BROWSER_USE_ONLY",
    "INJECTED",
    "RegisteredAction",
    "ToolCallRecord",
    "ToolContext",
    "ToolParam",
    "Tools",
]

#: The default per-tool timeout in seconds (browser-use's ``BROWSER_USE_ACTION_TIMEOUT_S``).
DEFAULT_TIMEOUT_S = 180.0

#: Parameter names filled by the registry, never by the caller.
INJECTED: tuple[str, ...] = ("browser", "page", "page_url", "context", "has_sensitive_data", "available_file_paths")
#: browser-use's injected parameters that hold browser-use objects, and what a tool here declares instead.
BROWSER_USE_ONLY: dict[str, str] = {
    "browser_session": "declare `browser` (the AsyncBrowser) or `page` (its active AsyncPage)",
    "cdp_client": "declare `browser` and use browser.cdp",
    "page_extraction_llm": "give the tool a model of agentbrowser.llm yourself",
    "file_system": "use real paths (pathlib); `available_file_paths` is injected",
    "extraction_schema": "declare the schema as a parameter of your own",
}

_MISSING: Any = inspect.Parameter.empty
_ARG_CHARS = 200


@dataclass(frozen=True, slots=True)
class ToolCallRecord:
    """One tool call: its name, its arguments with secrets masked, its result, the images it made."""

    name: str
    args: Mapping[str, Any]
    result: ActionResult
    images: tuple[ToolImage, ...] = ()
    duration_s: float = 0.0


@dataclass(slots=True)
class ToolContext:
    """What tools run against: the browser, the run's namespace, the secrets, and where calls are recorded."""

    browser: AsyncBrowser | None
    namespace: dict[str, Any] = field(default_factory=dict)
    sensitive: SensitiveData | None = None
    record: Callable[[ToolCallRecord], None] | None = None
    #: Files the tools may read (browser-use's ``available_file_paths``, injected by that name).
    available_file_paths: Sequence[str] = ()


class _Invalid(Exception):
    """A parameter failed validation (the message names the tool and the parameter)."""


@dataclass(frozen=True, slots=True)
class ToolParam:
    """One caller-supplied parameter of a tool: name, type (``Any`` when unannotated), default."""

    name: str
    annotation: Any = Any
    default: Any = _MISSING
    default_factory: Callable[[], Any] | None = None
    keyword_only: bool = False

    @property
    def required(self) -> bool:
        """Whether the caller must give it."""
        return self.default is _MISSING and self.default_factory is None

    def render(self) -> str:
        """``name: type = default`` as in a Python signature."""
        text = f"{self.name}: {type_name(self.annotation)}"
        if self.default is not _MISSING:
            text += f" = {clip(repr(self.default), 60)}"
        elif self.default_factory is not None:
            text += " = ..."
        return text


@dataclass(frozen=True, slots=True)
class RegisteredAction:
    """One registered tool: its function, description, parameters, domains and timeout."""

    name: str
    description: str
    function: Callable[..., Any]
    params: tuple[ToolParam, ...]
    injected: frozenset[str]
    param_model: type | None = None
    model_arg: str | None = None
    domains: tuple[str, ...] | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    positional_only: tuple[str, ...] = ()

    def signature_text(self) -> str:
        """The parameters as in a Python signature (``a: int, b: str = 'x'``), keyword-only after ``*``."""
        parts: list[str] = []
        star = False
        for p in self.params:
            if p.keyword_only and not star:
                parts.append("*")
                star = True
            parts.append(p.render())
        return ", ".join(parts)

    def prompt_description(self) -> str:
        """``async name(params) -> ActionResult  # description`` (plus the domains, when restricted)."""
        line = f"async {self.name}({self.signature_text()}) -> ActionResult  # {' '.join(self.description.split())}"
        if self.domains is not None:
            line += f" [only on pages matching: {', '.join(self.domains) or 'none'}]"
        return line

    def allowed_on(self, url: str | None) -> bool:
        """Whether the tool may run on ``url`` (always, without domains; fail closed with them)."""
        return self.domains is None or url_matches_any(url, self.domains)

    def public_signature(self) -> inspect.Signature:
        """The signature a caller sees (no injected parameters)."""
        params = []
        for p in self.params:
            kind = inspect.Parameter.KEYWORD_ONLY if p.keyword_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
            params.append(inspect.Parameter(p.name, kind, default=p.default, annotation=p.annotation))
        return inspect.Signature(params, return_annotation=ActionResult)

    def name_arguments(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """The caller's arguments by parameter name, leniently (for records: nothing is validated)."""
        named: dict[str, Any] = {}
        positional = [p.name for p in self.params if not p.keyword_only]
        for i, value in enumerate(args):
            named[positional[i] if i < len(positional) else f"arg{i}"] = value
        named.update(kwargs)
        return named

    def bind_arguments(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """The validated values by parameter name; :class:`_Invalid` with a message naming the tool otherwise."""
        allowed = ", ".join(p.name for p in self.params) or "none"
        positional = [p for p in self.params if not p.keyword_only]
        if len(args) > len(positional):
            names = ", ".join(p.name for p in positional) or "none"
            raise _Invalid(
                f"{self.name}() takes {len(positional)} positional argument{'s' if len(positional) != 1 else ''} "
                f"({names}) but {len(args)} were given; signature: {self.name}({self.signature_text()})"
            )
        given: dict[str, Any] = {}
        for p, value in zip(positional, args, strict=False):
            given[p.name] = value
        known = {p.name for p in self.params}
        for key, value in kwargs.items():
            if key not in known:
                hint = " (it is injected, not passed)" if key in INJECTED else ""
                raise _Invalid(f"{self.name}() got an unknown parameter {key!r}{hint}; allowed parameters: {allowed}")
            if key in given:
                raise _Invalid(f"{self.name}() got parameter {key!r} twice (positionally and by name)")
            given[key] = value
        values: dict[str, Any] = {}
        for p in self.params:
            if p.name in given:
                values[p.name] = _coerce(given[p.name], p.annotation, f"{self.name}(): parameter {p.name!r}")
            elif p.required:
                raise _Invalid(
                    f"{self.name}() is missing the required parameter {p.name!r}; "
                    f"signature: {self.name}({self.signature_text()})"
                )
            elif self.param_model is None:
                continue  # the function's own default applies
            elif p.default_factory is not None:
                values[p.name] = p.default_factory()
            else:
                values[p.name] = p.default
        return values

    def build_model(self, values: dict[str, Any]) -> Any:
        """The ``param_model`` instance from validated ``values`` (:class:`_Invalid` when it refuses them)."""
        model = self.param_model
        assert model is not None
        try:
            validate = getattr(model, "model_validate", None)
            if callable(validate):
                return validate(values)
            return model(**values)
        except (TypeError, ValueError) as exc:
            raise _Invalid(f"invalid parameters for {self.name}(): {clip(str(exc), 600)}") from None
        except Exception as exc:  # pydantic's ValidationError is a ValueError; anything else says why too
            raise _Invalid(f"invalid parameters for {self.name}(): {type(exc).__name__}: {clip(str(exc), 600)}") from None


class Tools:
    """A registry of tools; built-ins (navigate, observe, click, fill, select, read, screenshot,
    tabs, switch_tab, done) unless ``builtins=False``; ``exclude`` names tools never registered."""

    def __init__(
        self,
        exclude_actions: Iterable[str] | None = None,
        output_model: type | None = None,
        display_files_in_done_text: bool = True,
        *,
        builtins: bool = True,
        exclude: Iterable[str] = (),
        default_timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        # exclude_actions, output_model and display_files_in_done_text are browser-use's names.
        if isinstance(exclude, str) or isinstance(exclude_actions, str):
            raise TypeError("Tools(exclude=...) takes a list of tool names, not one string")
        self._actions: dict[str, RegisteredAction] = {}
        self._exclude = frozenset(exclude) | frozenset(exclude_actions or ())
        self.default_timeout_s = default_timeout_s
        #: browser-use's flag; here ``done()``'s text never includes the files' contents (see docs).
        self.display_files_in_done_text = display_files_in_done_text
        self._output_model: type | None = None
        if builtins:
            for spec in BUILTINS:
                self.action(spec.description)(spec.function)
            if output_model is not None:
                self.use_structured_output_action(output_model)
        else:
            self._output_model = output_model

    @property
    def registry(self) -> Tools:
        """This registry (browser-use's ``tools.registry``), so ``@tools.registry.action(...)`` registers too."""
        return self

    def use_structured_output_action(self, output_model: type) -> None:
        """Make ``done`` take ``data`` (validated by ``output_model``: a pydantic model or a dataclass) instead
        of ``text``; its result's ``extracted_content`` is the data as JSON (browser-use's structured ``done``)."""
        self._output_model = output_model
        if "done" in self._actions:
            del self._actions["done"]
        self.action(
            "Finish the task: data is the final answer as an object of the output model, "
            "success=False if it could not be done, files_to_display lists files to show.",
            name="done",
        )(structured_done(output_model))

    def get_output_model(self) -> type | None:
        """The output model of the structured ``done`` (None: ``done`` takes text)."""
        return self._output_model

    def set_coordinate_clicking(self, enabled: bool) -> None:
        """browser-use's switch to click by x/y; here ``click`` always takes a ref (a warning says so when enabled)."""
        if enabled:
            warnings.warn("coordinate clicking is not offered: click(ref) acts on a snapshot ref", stacklevel=2)

    def exclude_action(self, action_name: str) -> None:
        """Unregister ``action_name`` if registered, and never register it later (no error when unknown)."""
        self._exclude = self._exclude | {action_name}
        self._actions.pop(action_name, None)

    # -- registration -----------------------------------------------------------------

    def action(
        self,
        description: str,
        param_model: type | None = None,
        domains: Sequence[str] | None = None,
        allowed_domains: Sequence[str] | None = None,
        terminates_sequence: bool = False,
        *,
        name: str | None = None,
        timeout_s: float | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering a tool (named after the function unless ``name``); returns the function unchanged.

        ``allowed_domains`` is an alias of ``domains`` (browser-use's two names; not both).
        ``terminates_sequence`` is accepted for browser-use code and has no effect: a cell runs to its end.
        """
        if not isinstance(description, str) or not description.strip():
            raise ValueError("a tool needs a description (one line saying what it does)")
        if domains is not None and allowed_domains is not None:
            raise ValueError("Cannot specify both 'domains' and 'allowed_domains': they are aliases for the same parameter")
        domains = domains if domains is not None else allowed_domains
        if isinstance(domains, str):
            raise TypeError("domains takes a list of URL globs, not one string")

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            action = _build_action(
                fn,
                name or fn.__name__,
                description.strip(),
                param_model,
                tuple(domains) if domains is not None else None,
                self.default_timeout_s if timeout_s is None else timeout_s,
            )
            if action.name in self._exclude:
                return fn
            if action.name in self._actions:
                raise ValueError(
                    f"a tool named {action.name!r} is already registered; "
                    f"remove it first (tools.remove({action.name!r}) or Tools(exclude=[{action.name!r}]))"
                )
            self._actions[action.name] = action
            return fn

        return register

    def remove(self, name: str) -> None:
        """Unregister a tool (KeyError when unknown)."""
        self.get(name)
        del self._actions[name]

    # -- lookups -------------------------------------------------------------------------

    def names(self) -> tuple[str, ...]:
        """The tool names in registration order."""
        return tuple(self._actions)

    def get(self, name: str) -> RegisteredAction:
        """The tool named ``name``; KeyError naming the known tools otherwise."""
        try:
            return self._actions[name]
        except KeyError:
            raise KeyError(f"no tool named {name!r}; tools: {', '.join(self._actions) or 'none'}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._actions

    def __iter__(self) -> Iterator[RegisteredAction]:
        return iter(tuple(self._actions.values()))

    def __len__(self) -> int:
        return len(self._actions)

    def __repr__(self) -> str:
        return f"Tools({', '.join(self._actions)})"

    def available(self, url: str | None) -> tuple[RegisteredAction, ...]:
        """The tools allowed on ``url`` (domain-restricted ones only when it matches)."""
        return tuple(a for a in self._actions.values() if a.allowed_on(url))

    def prompt_description(self, url: str | None = None) -> str:
        """One line per tool: ``async name(param: type = default, ...) -> ActionResult  # description``.

        With ``url``, tools whose ``domains`` do not match it are left out (fail closed; an
        empty URL matches none); without it every tool is listed, restricted ones with their globs.
        """
        actions = self._actions.values() if url is None else self.available(url)
        return "\n".join(a.prompt_description() for a in actions)

    # -- calling ----------------------------------------------------------------------------

    async def act(
        self,
        name: str,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        ctx: ToolContext | None = None,
    ) -> ActionResult:
        """Run one tool: check domains, substitute secrets, validate, inject, call, normalise, mask, record.

        Never raises for a tool's failure (the result carries ``error``); cancellation propagates.
        """
        ctx = ctx if ctx is not None else ToolContext(browser=None)
        kwargs = dict(kwargs or {})
        started = time.monotonic()
        action = self._actions.get(name)
        if action is None:
            result = ActionResult(error=f"unknown tool {name!r}; tools: {', '.join(self._actions) or 'none'}")
            record_args: dict[str, Any] = {**{f"arg{i}": v for i, v in enumerate(args)}, **kwargs}
        else:
            record_args = action.name_arguments(args, kwargs)
            result = await self._run(action, tuple(args), kwargs, ctx)
        sensitive = ctx.sensitive
        if sensitive:
            result = _mask_result(result, sensitive)
            record_args = sensitive.mask_value(record_args)
        if ctx.record is not None:
            images = _images(result)
            masked = {k: _bounded_arg(v) for k, v in record_args.items()}
            ctx.record(ToolCallRecord(name, masked, result, images, time.monotonic() - started))
        return result

    async def _run(
        self, action: RegisteredAction, args: tuple[Any, ...], kwargs: dict[str, Any], ctx: ToolContext
    ) -> ActionResult:
        url_cache: list[str] = []

        async def page_url() -> str:
            if not url_cache:
                url_cache.append(await _current_url(ctx))
            return url_cache[0]

        name = action.name
        if action.domains is not None:
            url = await page_url()
            if not action.allowed_on(url):
                return ActionResult(
                    error=f"{name} is not allowed on this page ({url or 'no page URL'}): it runs only on pages "
                    f"matching {', '.join(action.domains) or 'no pattern'}"
                )
        sensitive = ctx.sensitive
        wanted = _placeholder_names((args, kwargs))
        if wanted:
            if not sensitive:
                return ActionResult(
                    error=f"{name}: the arguments use secret placeholders ({', '.join(wanted)}) "
                    "but no sensitive data was given"
                )
            url = await page_url()
            allowed = sensitive.allowed(url)
            missing = [n for n in wanted if n not in allowed]
            if missing:
                return ActionResult(
                    error=f"{name}: secret{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                    f"{'are' if len(missing) > 1 else 'is'} not available on this page ({url or 'no page URL'}); "
                    f"available here: {', '.join(sorted(allowed)) or 'none'}"
                )
            args = tuple(sensitive.substitute_value(a, url) for a in args)
            kwargs = {k: sensitive.substitute_value(v, url) for k, v in kwargs.items()}
        try:
            values = action.bind_arguments(args, kwargs)
            call_args: list[Any] = []
            if action.param_model is not None:
                assert action.model_arg is not None
                call_kwargs: dict[str, Any] = {action.model_arg: action.build_model(values)}
            else:
                call_kwargs = values
            for key in action.positional_only:
                if key in call_kwargs:
                    call_args.append(call_kwargs.pop(key))
        except _Invalid as exc:
            return ActionResult(error=str(exc))
        if action.injected & {"browser", "page"} and ctx.browser is None:
            return ActionResult(error=f"{name} needs a browser, and this tool context has none")
        for special in action.injected:
            if special == "browser":
                call_kwargs["browser"] = ctx.browser
            elif special == "page":
                assert ctx.browser is not None
                call_kwargs["page"] = ctx.browser.page
            elif special == "page_url":
                call_kwargs["page_url"] = await page_url()
            elif special == "context":
                call_kwargs["context"] = ctx
            elif special == "has_sensitive_data":
                call_kwargs["has_sensitive_data"] = ctx.sensitive is not None
            elif special == "available_file_paths":
                call_kwargs["available_file_paths"] = list(ctx.available_file_paths)
        timeout = asyncio.timeout(action.timeout_s)
        try:
            async with timeout:
                out = action.function(*call_args, **call_kwargs)
                if inspect.isawaitable(out):
                    out = await out
        except TimeoutError as exc:
            if timeout.expired():
                return ActionResult(error=f"{name} timed out after {action.timeout_s:g} s")
            return ActionResult(error=f"{name} failed: {_describe(exc)}")
        except ToolError as exc:
            return ActionResult(error=f"{name} failed: {exc.result.error}")
        except Exception as exc:
            return ActionResult(error=f"{name} failed: {_describe(exc)}")
        if isinstance(out, ActionResult):
            return out
        if isinstance(out, str):
            return ActionResult(extracted_content=out)
        if out is None:
            return ActionResult()
        return ActionResult(
            error=f"{name} returned {type(out).__name__}; a tool returns ActionResult, str or None"
        )

    def bind(self, ctx: ToolContext) -> dict[str, Callable[..., Awaitable[ActionResult]]]:
        """Code-mode functions, one per tool: ``await name(*args, **kwargs) -> ActionResult``,
        raising :class:`ToolError` when the result carries an error."""
        return {a.name: self._bound(a, ctx) for a in self._actions.values()}

    def _bound(self, action: RegisteredAction, ctx: ToolContext) -> Callable[..., Awaitable[ActionResult]]:
        tools = self
        tool_name = action.name

        async def call(*args: Any, **kwargs: Any) -> ActionResult:
            result = await tools.act(tool_name, args, kwargs, ctx)
            if result.error is not None:
                raise ToolError(result)
            return result

        call.__name__ = call.__qualname__ = tool_name
        call.__doc__ = action.description
        setattr(call, "__signature__", action.public_signature())  # noqa: B010 - mypy does not know __signature__
        return call


# -- building an action ---------------------------------------------------------------------


def _build_action(
    fn: Callable[..., Any],
    name: str,
    description: str,
    param_model: type | None,
    domains: tuple[str, ...] | None,
    timeout_s: float,
) -> RegisteredAction:
    if not callable(fn):
        raise TypeError(f"@tools.action decorates a function, got {type(fn).__name__}")
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"a tool name must be a Python identifier, got {name!r}")
    if not timeout_s > 0:
        raise ValueError(f"tool {name}: timeout_s must be positive, got {timeout_s!r}")
    if domains is not None:
        for d in domains:
            if not isinstance(d, str) or not d.strip():
                raise ValueError(f"tool {name}: domains must be non-empty URL globs, got {d!r}")
    sig = inspect.signature(fn)
    injected: set[str] = set()
    own: list[inspect.Parameter] = []
    for p in sig.parameters.values():
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError(f"tool {name}: **{p.name} is not allowed; declare every parameter by name")
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError(f"tool {name}: *{p.name} is not allowed; declare every parameter by name")
        if p.name in BROWSER_USE_ONLY:
            raise ValueError(
                f"tool {name}: {p.name} is browser-use's injected {p.name}, which agentbrowser does not have: "
                f"{BROWSER_USE_ONLY[p.name]}"
            )
        if p.name in INJECTED:
            injected.add(p.name)
        else:
            own.append(p)
    hints = _hints(fn, {p.name for p in own})
    positional_only = tuple(p.name for p in own if p.kind is inspect.Parameter.POSITIONAL_ONLY)
    if param_model is not None:
        if not isinstance(param_model, type):
            raise TypeError(f"tool {name}: param_model must be a class, got {param_model!r}")
        if len(own) != 1:
            raise ValueError(
                f"tool {name}: with param_model the function takes exactly one parameter (the model instance) "
                f"besides the injected {', '.join(INJECTED)}; it has {', '.join(p.name for p in own) or 'none'}"
            )
        params = _model_params(name, param_model)
        return RegisteredAction(
            name, description, fn, params, frozenset(injected), param_model, own[0].name, domains, timeout_s,
            positional_only,
        )
    params = tuple(
        ToolParam(
            p.name,
            hints.get(p.name, Any),
            p.default,
            None,
            p.kind is inspect.Parameter.KEYWORD_ONLY,
        )
        for p in own
    )
    return RegisteredAction(
        name, description, fn, params, frozenset(injected), None, None, domains, timeout_s, positional_only
    )


def _hints(obj: Any, names: set[str]) -> dict[str, Any]:
    """The resolved annotations of ``names`` (an unresolvable one counts as ``Any``)."""
    try:
        return {k: v for k, v in get_type_hints(obj).items() if k in names}
    except Exception:
        pass
    raw = getattr(obj, "__annotations__", {}) or {}
    scope = dict(getattr(obj, "__globals__", None) or vars(inspect.getmodule(obj) or types.ModuleType("x")))
    out: dict[str, Any] = {}
    for key in names:
        ann = raw.get(key, Any)
        if isinstance(ann, str):
            try:
                ann = eval(ann, scope)  # noqa: S307 - the tool author's own annotation
            except Exception:
                ann = Any
        out[key] = ann
    return out


def _model_params(tool: str, model: type) -> tuple[ToolParam, ...]:
    if dataclasses.is_dataclass(model):
        fields = [f for f in dataclasses.fields(model) if f.init]
        hints = _hints(model, {f.name for f in fields})
        params = []
        for f in fields:
            factory = f.default_factory if f.default_factory is not dataclasses.MISSING else None
            default = f.default if f.default is not dataclasses.MISSING else _MISSING
            params.append(ToolParam(f.name, hints.get(f.name, Any), default, factory, f.kw_only is True))
        return tuple(params)
    model_fields = getattr(model, "model_fields", None)
    if isinstance(model_fields, Mapping):
        params = []
        for key, info in model_fields.items():
            required = bool(getattr(info, "is_required", lambda: True)())
            factory = getattr(info, "default_factory", None)
            default = _MISSING if required or factory is not None else getattr(info, "default", None)
            params.append(ToolParam(key, getattr(info, "annotation", Any) or Any, default, factory))
        return tuple(params)
    if callable(getattr(model, "model_validate", None)):
        hints = _hints(model, set(getattr(model, "__annotations__", {})))
        return tuple(ToolParam(k, v, getattr(model, k, _MISSING)) for k, v in hints.items())
    raise TypeError(f"tool {tool}: param_model must be a dataclass or a class with model_validate (pydantic)")


# -- validation ------------------------------------------------------------------------------


def type_name(tp: Any) -> str:
    """A type as written in Python source: ``str``, ``list[str]``, ``str | None``, ``Literal['a', 'b']``."""
    if tp is Any or tp is _MISSING:
        return "Any"
    if tp is type(None) or tp is None:
        return "None"
    origin = get_origin(tp)
    if origin is Literal:
        return f"Literal[{', '.join(repr(a) for a in get_args(tp))}]"
    if origin is Union or origin is types.UnionType:
        return " | ".join(type_name(a) for a in get_args(tp))
    if origin is not None:
        args = get_args(tp)
        base = getattr(origin, "__name__", str(origin))
        return f"{base}[{', '.join('...' if a is Ellipsis else type_name(a) for a in args)}]" if args else base
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


def _got(value: Any) -> str:
    return f"{type(value).__name__} {clip(repr(value), 80)}"


def _coerce(value: Any, tp: Any, where: str) -> Any:
    """``value`` checked against ``tp`` (ints accepted for floats; lists/tuples for lists); _Invalid otherwise."""
    if tp is Any or tp is _MISSING or tp is object:
        return value
    origin = get_origin(tp)
    if origin is Literal:
        for choice in get_args(tp):
            if value == choice and type(value) is type(choice):
                return value
        raise _Invalid(f"{where} must be one of {', '.join(repr(a) for a in get_args(tp))}, got {_got(value)}")
    if origin is Union or origin is types.UnionType:
        options = get_args(tp)
        if value is None and type(None) in options:
            return None
        real = [o for o in options if o is not type(None)]
        if len(real) == 1:  # X | None: the inner check's message is the precise one
            return _coerce(value, real[0], where)
        for option in options:
            if option is type(None):
                continue
            try:
                return _coerce(value, option, where)
            except _Invalid:
                continue
        raise _Invalid(f"{where} must be {type_name(tp)}, got {_got(value)}")
    if tp is type(None) or tp is None:
        if value is None:
            return None
        raise _Invalid(f"{where} must be None, got {_got(value)}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _Invalid(f"{where} must be bool, got {_got(value)}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise _Invalid(f"{where} must be int, got {_got(value)}")
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise _Invalid(f"{where} must be float, got {_got(value)}")
    if tp is str:
        if isinstance(value, str):
            return value
        raise _Invalid(f"{where} must be str, got {_got(value)}")
    container = origin or tp
    args = get_args(tp)
    if container in (list, Sequence, tuple) or (isinstance(container, type) and container.__name__ == "Sequence"):
        if not isinstance(value, (list, tuple)):
            raise _Invalid(f"{where} must be {type_name(tp)} (a list), got {_got(value)}")
        if container is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            if len(value) != len(args):
                raise _Invalid(f"{where} must be {type_name(tp)} ({len(args)} items), got {len(value)} items")
            return tuple(_coerce(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args, strict=True)))
        item = args[0] if args else Any
        items = [_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if container is tuple else items
    if container in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise _Invalid(f"{where} must be {type_name(tp)} (a dict), got {_got(value)}")
        kt, vt = args if len(args) == 2 else (Any, Any)
        return {_coerce(k, kt, f"{where} key"): _coerce(v, vt, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(tp, type):
        if isinstance(value, tp):
            return value
        raise _Invalid(f"{where} must be {type_name(tp)}, got {_got(value)}")
    return value  # a typing construct this registry does not check


# -- helpers -------------------------------------------------------------------------------------


async def _current_url(ctx: ToolContext) -> str:
    if ctx.browser is None:
        return ""
    try:
        return await ctx.browser.page.url()
    except Exception:
        return ""


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {clip(text, 2000)}" if text else type(exc).__name__


def _placeholder_names(value: Any) -> tuple[str, ...]:
    from_re: list[str] = []
    _collect_placeholders(value, from_re)
    return tuple(dict.fromkeys(from_re))


def _collect_placeholders(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        if "<secret>" in value:
            out.extend(SECRET_PLACEHOLDER.findall(value))
    elif isinstance(value, Mapping):
        for v in value.values():
            _collect_placeholders(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _collect_placeholders(v, out)


def _mask_result(result: ActionResult, sensitive: SensitiveData) -> ActionResult:
    changes: dict[str, Any] = {}
    for key in ("extracted_content", "error", "long_term_memory"):
        text = getattr(result, key)
        if text:
            masked = sensitive.mask(text)
            if masked != text:
                changes[key] = masked
    if result.attachments:
        masked_list = [sensitive.mask(a) for a in result.attachments]
        if masked_list != result.attachments:
            changes["attachments"] = masked_list
    return dataclasses.replace(result, **changes) if changes else result


def _images(result: ActionResult) -> tuple[ToolImage, ...]:
    """The result's images, decoded; an entry that does not decode (not a mapping, bad base64) is left out."""
    out: list[ToolImage] = []
    for entry in result.images or ():
        try:
            out.append(ToolImage.from_entry(entry))
        except (ValueError, TypeError, AttributeError):
            continue
    return tuple(out)


def _bounded_arg(value: Any) -> Any:
    if isinstance(value, str):
        return clip(value, _ARG_CHARS * 10)
    if isinstance(value, (bytes, bytearray)):
        return f"<{len(value)} bytes>"
    return value

