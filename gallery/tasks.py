"""The gallery's tasks: what a user does on each page, as steps an agent would take (elements named
by role and name as an accessibility snapshot shows them, or by their visible text), and a check
over the app's own state (``window.__state``, kept by the app's handlers) that is true exactly
when the task happened. The runner also evaluates the check before the steps: a task whose
effect is already there cannot pass."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gallery.engine_api import Target

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Step:
    """One call of the :class:`gallery.engine_api.Engine` protocol: method name and arguments."""

    op: str
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        return f"{self.op}({', '.join(_show(a) for a in self.args)})"


def _show(arg: Any) -> str:
    if isinstance(arg, Target):
        if arg.role is not None:
            return f'{arg.role} "{arg.name}"' + (f" #{arg.nth}" if arg.nth else "")
        return f'text "{arg.text}"' if arg.text is not None else f"css {arg.css}"
    return repr(arg)


@dataclass(frozen=True)
class Task:
    """A user's task on one gallery page."""

    id: str
    library: str
    #: Path of the page under the gallery's origin; ``{other}`` stands for the second origin.
    page: str
    goal: str
    steps: tuple[Step, ...]
    #: JavaScript over the app's state, true exactly when the task happened.
    check: str
    #: Whether the check may take a moment after the last step (an effect that lands a frame or a
    #: transition later). False for a wait: its answer must already be true when it returns.
    settle: bool = True


def role(r: str, name: str, nth: int = 0) -> Target:
    """An element by role and accessible name."""
    return Target(role=r, name=name, nth=nth)


def text(t: str, nth: int = 0) -> Target:
    """An element by its visible text."""
    return Target(text=t, nth=nth)


def click(t: Target) -> Step:
    """Click the element."""
    return Step("click", (t,))


def fill(t: Target, value: str) -> Step:
    """Replace the field's value."""
    return Step("fill", (t, value))


def type_text(value: str) -> Step:
    """Type into the focused element."""
    return Step("type_text", (value,))


def press(key: str) -> Step:
    """Press a key or chord."""
    return Step("press", (key,))


def check(t: Target, checked: bool = True) -> Step:
    """Check (or uncheck) a checkbox, radio or switch."""
    return Step("check", (t, checked))


def drag(source: Target, dest: Target) -> Step:
    """Drag one element onto another."""
    return Step("drag", (source, dest))


def scroll(direction: str, pixels: int) -> Step:
    """Scroll what the user would scroll."""
    return Step("scroll", (direction, pixels))


def wait_text(value: str, timeout_s: float = 5.0) -> Step:
    """Wait until the text shows."""
    return Step("wait_text", (value, timeout_s))


def _task(id: str, library: str, page: str, goal: str, steps: list[Step], check: str, settle: bool = True) -> Task:
    return Task(id, library, page, goal, tuple(steps), check, settle)


S = "window.__state"

TASKS: list[Task] = [
    # Bootstrap 5: the hidden-input + label toggles are the most common toggle markup on the web.
    _task(
        "bootstrap-btn-check",
        "bootstrap",
        "/bootstrap.html",
        "Turn on the Bold toggle button (btn-check)",
        [check(role("checkbox", "Bold"))],
        f"{S}.bold === true",
    ),
    _task(
        "bootstrap-btn-radio",
        "bootstrap",
        "/bootstrap.html",
        "Pick the Medium size (btn-check radios)",
        [check(role("radio", "Medium"))],
        f"{S}.size === 'medium'",
    ),
    _task(
        "bootstrap-btn-check-click",
        "bootstrap",
        "/bootstrap.html",
        "Click the Italic toggle button",
        [click(role("checkbox", "Italic"))],
        f"{S}.italic === true",
    ),
    _task(
        "bootstrap-switch",
        "bootstrap",
        "/bootstrap.html",
        "Turn Wi-Fi on (form-switch)",
        [check(role("switch", "Wi-Fi"))],
        f"{S}.wifi === true",
    ),
    _task(
        "bootstrap-label-checkbox",
        "bootstrap",
        "/bootstrap.html",
        "Agree to the terms by clicking the label",
        [click(text("I agree to the terms"))],
        f"{S}.terms === true",
    ),
    _task(
        "bootstrap-radio",
        "bootstrap",
        "/bootstrap.html",
        "Choose express shipping",
        [check(role("radio", "Express shipping"))],
        f"{S}.ship === 'express'",
    ),
    _task(
        "bootstrap-dropdown",
        "bootstrap",
        "/bootstrap.html",
        "Archive from the Actions dropdown",
        [click(role("button", "Actions")), click(role("button", "Archive"))],
        f"{S}.action === 'archive'",
    ),
    _task(
        "bootstrap-modal-confirm",
        "bootstrap",
        "/bootstrap.html",
        "Delete the account and confirm in the modal",
        [click(role("button", "Delete account")), click(role("button", "Confirm delete"))],
        f"{S}.deleted === true && {S}.modalHidden === true",
    ),
    _task(
        "bootstrap-modal-close",
        "bootstrap",
        "/bootstrap.html",
        "Open the delete modal and close it with its X",
        [click(role("button", "Delete account")), click(role("button", "Close"))],
        f"{S}.modalShown === true && {S}.modalHidden === true && !{S}.deleted",
    ),
    _task(
        "bootstrap-collapse",
        "bootstrap",
        "/bootstrap.html",
        "Show the shipping details (collapse)",
        [click(role("button", "Show details"))],
        f"{S}.detailsShown === true",
    ),
    _task(
        "bootstrap-navbar-link",
        "bootstrap",
        "/bootstrap.html",
        "Go to Pricing in the navbar (expanded at desktop widths, 992 px and up)",
        [click(role("link", "Pricing"))],
        f"{S}.nav === 'pricing'",
    ),
    # MUI
    _task(
        "mui-select",
        "mui",
        "/mui.html",
        "Set Age to Thirty",
        [click(role("combobox", "Age")), click(role("option", "Thirty"))],
        f"{S}.age === 30",
    ),
    _task(
        "mui-autocomplete",
        "mui",
        "/mui.html",
        "Pick The Godfather in the Movie autocomplete",
        [fill(role("combobox", "Movie"), "godf"), click(role("option", "The Godfather"))],
        f"{S}.movie === 'The Godfather'",
    ),
    _task(
        "mui-switch",
        "mui",
        "/mui.html",
        "Turn on dark mode",
        [check(role("switch", "Dark mode"))],
        f"{S}.dark === true",
    ),
    _task(
        "mui-checkbox",
        "mui",
        "/mui.html",
        "Tick Remember me",
        [check(role("checkbox", "Remember me"))],
        f"{S}.remember === true",
    ),
    _task(
        "mui-datepicker",
        "mui",
        "/mui.html",
        "Pick 15 May 2024 in the calendar",
        [click(role("button", "Choose date")), click(role("gridcell", "15"))],
        f"{S}.date === '2024-05-15'",
    ),
    _task(
        "mui-dialog",
        "mui",
        "/mui.html",
        "Open the dialog and agree",
        [click(role("button", "OPEN DIALOG")), click(role("button", "AGREE"))],
        f"{S}.dialog === 'agree' && {S}.dialogClosed === true",
    ),
    _task(
        "mui-snackbar",
        "mui",
        "/mui.html",
        "Save a draft and wait for the snackbar",
        [click(role("button", "SAVE DRAFT")), wait_text("Draft saved")],
        f"{S}.toastOpen === true",
        settle=False,
    ),
    # Radix UI
    _task(
        "radix-select",
        "radix",
        "/radix.html",
        "Pick Banana",
        [click(role("combobox", "Fruit")), click(role("option", "Banana"))],
        f"{S}.fruit === 'banana'",
    ),
    _task(
        "radix-checkbox",
        "radix",
        "/radix.html",
        "Accept the terms",
        [check(role("checkbox", "Accept terms and conditions"))],
        f"{S}.terms === true",
    ),
    _task(
        "radix-switch",
        "radix",
        "/radix.html",
        "Turn airplane mode on",
        [check(role("switch", "Airplane mode"))],
        f"{S}.airplane === true",
    ),
    _task(
        "radix-dropdown",
        "radix",
        "/radix.html",
        "Duplicate from the Options menu",
        [click(role("button", "Options")), click(role("menuitem", "Duplicate"))],
        f"{S}.menu === 'Duplicate'",
    ),
    _task(
        "radix-dialog",
        "radix",
        "/radix.html",
        "Rename the profile to Ada Lovelace in the dialog",
        [
            click(role("button", "Edit profile")),
            fill(role("textbox", "Name"), "Ada Lovelace"),
            click(role("button", "Save changes")),
        ],
        f"{S}.profileName === 'Ada Lovelace' && {S}.dialogOpen === false",
    ),
    _task(
        "radix-tabs",
        "radix",
        "/radix.html",
        "Switch to the Password tab",
        [click(role("tab", "Password"))],
        f"{S}.tab === 'password'",
    ),
    # Headless UI
    _task(
        "headlessui-listbox",
        "headlessui",
        "/headless.html",
        "Assign Tom Cook",
        [click(role("button", "Assignee Wade Cooper")), click(role("option", "Tom Cook"))],
        f"{S}.assignee === 'Tom Cook'",
    ),
    _task(
        "headlessui-combobox",
        "headlessui",
        "/headless.html",
        "Pick Devon Webb as reviewer by typing",
        [fill(role("combobox", "Reviewer"), "devon"), click(role("option", "Devon Webb"))],
        f"{S}.reviewer === 'Devon Webb'",
    ),
    _task(
        "headlessui-combobox-keys",
        "headlessui",
        "/headless.html",
        "Pick Tanya Fox with the keyboard",
        [fill(role("combobox", "Reviewer"), "tanya"), press("ArrowDown"), press("Enter")],
        f"{S}.reviewer === 'Tanya Fox'",
    ),
    # react-select
    _task(
        "react-select-single",
        "react-select",
        "/react-select.html",
        "Choose Strawberry",
        [click(role("combobox", "Flavour")), click(role("option", "Strawberry"))],
        f"{S}.flavour === 'strawberry'",
    ),
    _task(
        "react-select-multi",
        "react-select",
        "/react-select.html",
        "Add Green and Blue",
        [
            fill(role("combobox", "Colours"), "gre"),
            press("Enter"),
            fill(role("combobox", "Colours"), "blu"),
            press("Enter"),
        ],
        f'JSON.stringify({S}.colours) === \'["green","blue"]\'',
    ),
    # flatpickr
    _task(
        "flatpickr-calendar",
        "flatpickr",
        "/flatpickr.html",
        "Pick 15 May 2024 as departure",
        [click(role("textbox", "Departure")), click(role("generic", "May 15, 2024"))],
        f"{S}.departure === '2024-05-15'",
    ),
    _task(
        "flatpickr-typed",
        "flatpickr",
        "/flatpickr.html",
        "Type 2024-06-20 as the return date",
        [fill(role("textbox", "Return"), "2024-06-20"), press("Enter")],
        f"{S}.return === '2024-06-20'",
    ),
    # TipTap (ProseMirror)
    _task(
        "tiptap-type",
        "tiptap",
        "/tiptap.html",
        "Write a sentence in the editor",
        [click(role("textbox", "Message body")), type_text("Hello from the gallery")],
        f"{S}.text === 'Hello from the gallery'",
    ),
    _task(
        "tiptap-bold",
        "tiptap",
        "/tiptap.html",
        "Write a bold word",
        [click(role("textbox", "Message body")), click(role("button", "Bold")), type_text("Loud")],
        f"{S}.html === '<p><strong>Loud</strong></p>'",
    ),
    _task(
        "tiptap-fill",
        "tiptap",
        "/tiptap.html",
        "Fill the editor",
        [fill(role("textbox", "Message body"), "Filled text")],
        f"{S}.text === 'Filled text'",
    ),
    # CodeMirror 6
    _task(
        "codemirror-type",
        "codemirror",
        "/codemirror.html",
        "Add a line at the end of the code",
        [click(role("textbox", "Source code")), press("Control+End"), type_text("const answer = 42;")],
        f"({S}.doc || '').endsWith('}}\\nconst answer = 42;')",
    ),
    _task(
        "codemirror-fill",
        "codemirror",
        "/codemirror.html",
        "Replace the code",
        [fill(role("textbox", "Source code"), "let x = 1;")],
        f"{S}.doc === 'let x = 1;'",
    ),
    # SortableJS (pointer fallback) and dnd kit (PointerSensor)
    _task(
        "sortablejs-drag",
        "sortablejs",
        "/sortable.html",
        "Move Apples below Cherries",
        [drag(text("Apples"), text("Cherries"))],
        f"{S}.order && {S}.order.indexOf('apples') > {S}.order.indexOf('cherries')",
    ),
    _task(
        "dndkit-drag",
        "dnd-kit",
        "/dndkit.html",
        "Move Write report to Deploy release's place",
        [drag(role("button", "Write report"), role("button", "Deploy release"))],
        f'JSON.stringify({S}.order) === \'["Review code","Deploy release","Write report","Send invoice"]\'',
    ),
    # TanStack Virtual in an app shell (fixed document, scrolling <main>)
    _task(
        "virtual-scroll",
        "tanstack-virtual",
        "/virtual.html",
        "Scroll the orders down past order 40",
        [scroll("down", 2000)],
        f"{S}.rendered && {S}.rendered[0] >= 40",
    ),
    _task(
        "virtual-open-row",
        "tanstack-virtual",
        "/virtual.html",
        "Scroll to order 55 and open it",
        [scroll("down", 2000), click(role("button", "Open order 55"))],
        f"{S}.opened === 55",
    ),
    # Shoelace web components (shadow DOM)
    _task(
        "shoelace-checkbox",
        "shoelace",
        "/shoelace.html",
        "Tick Email me updates",
        [check(role("checkbox", "Email me updates"))],
        f"{S}.updates === true",
    ),
    _task(
        "shoelace-switch",
        "shoelace",
        "/shoelace.html",
        "Turn notifications on",
        [check(role("switch", "Notifications"))],
        f"{S}.notify === true",
    ),
    _task(
        "shoelace-select",
        "shoelace",
        "/shoelace.html",
        "Pick the Large size",
        [click(role("combobox", "Size")), click(role("option", "Large"))],
        f"{S}.size === 'large'",
    ),
    _task(
        "shoelace-dialog",
        "shoelace",
        "/shoelace.html",
        "Open the settings dialog and save",
        [click(role("button", "Open settings")), click(role("button", "Save settings"))],
        f"{S}.settingsSaved === true && {S}.dialogHidden === true",
    ),
    _task(
        "shoelace-toast",
        "shoelace",
        "/shoelace.html",
        "Send a message and wait for the toast",
        [click(role("button", "Send message")), wait_text("Message sent")],
        f"{S}.toastOpen === true",
        settle=False,
    ),
    _task(
        "shoelace-tooltip-wait",
        "shoelace",
        "/shoelace.html",
        "Sync settings and wait for the confirmation (a tooltip's text in its shadow root)",
        [click(role("button", "Sync settings")), wait_text("Settings synced")],
        f"{S}.syncedShown === true",
        settle=False,
    ),
    # Plain HTML everyday patterns
    _task(
        "html-label-checkbox",
        "html",
        "/plain.html",
        "Subscribe by clicking the checkbox's label",
        [click(text("Subscribe to newsletter"))],
        f"{S}.news === true",
    ),
    _task(
        "html-label-radio",
        "html",
        "/plain.html",
        "Pay by card by clicking the radio's label",
        [click(text("Pay by card"))],
        f"{S}.pay === 'card'",
    ),
    _task(
        "html-css-switch",
        "html",
        "/plain.html",
        "Turn on the dark theme (CSS switch)",
        [check(role("checkbox", "Dark theme"))],
        f"{S}.dark === true",
    ),
    _task(
        "html-sr-only-checkbox",
        "html",
        "/plain.html",
        "Accept cookies (sr-only checkbox)",
        [check(role("checkbox", "Accept cookies"))],
        f"{S}.cookies === true",
    ),
    _task(
        "html-file-label",
        "html",
        "/plain.html",
        "Open the avatar chooser from its label",
        [click(text("Upload avatar"))],
        f"{S}.avatarChooser === true",
    ),
    _task(
        "html-number",
        "html",
        "/plain.html",
        "Set the quantity to -5",
        [fill(role("spinbutton", "Quantity"), "-5")],
        f"{S}.qty === -5",
    ),
    _task(
        "html-iframe-button",
        "html",
        "/plain.html",
        "Pay in the same-origin frame",
        [click(role("button", "Pay now"))],
        f"{S}.framePaid === true",
    ),
    _task(
        "html-cross-origin-iframe",
        "html",
        "/plain.html?other={other}",
        "Start a chat in the other origin's frame",
        [click(role("button", "Start chat"))],
        f"{S}.chat === 'started'",
    ),
    _task(
        "html-frame-wait",
        "html",
        "/plain.html",
        "Load the receipt and wait for it in the payment frame",
        [click(role("button", "Load receipt")), wait_text("Receipt ready")],
        f"{S}.receiptShown === true",
        settle=False,
    ),
    _task(
        "html-popup-then-continue",
        "html",
        "/plain.html",
        "Open the help popup, then highlight the totals in the page (its next animation frame)",
        [click(role("button", "Open help window")), click(role("button", "Highlight totals"))],
        f"{S}.highlighted === true",
    ),
]


def by_id() -> dict[str, Task]:
    """The tasks by id (ids are unique)."""
    tasks = {t.id: t for t in TASKS}
    assert len(tasks) == len(TASKS), "duplicate task ids"
    return tasks


#: The npm packages behind each library name the tasks use ("html" is the browser's own).
LIBRARY_PACKAGES: dict[str, list[str]] = {
    "bootstrap": ["bootstrap"],
    "mui": ["@mui/material", "@mui/x-date-pickers"],
    "radix": [
        "@radix-ui/react-select",
        "@radix-ui/react-checkbox",
        "@radix-ui/react-switch",
        "@radix-ui/react-dropdown-menu",
        "@radix-ui/react-dialog",
        "@radix-ui/react-tabs",
    ],
    "headlessui": ["@headlessui/react"],
    "react-select": ["react-select"],
    "flatpickr": ["flatpickr"],
    "tiptap": ["@tiptap/core", "@tiptap/starter-kit"],
    "codemirror": ["codemirror"],
    "sortablejs": ["sortablejs"],
    "dnd-kit": ["@dnd-kit/core", "@dnd-kit/sortable"],
    "tanstack-virtual": ["@tanstack/react-virtual"],
    "shoelace": ["@shoelace-style/shoelace"],
    "html": [],
}


def library_versions() -> dict[str, list[str]]:
    """Each library's packages with the exact versions package.json pins (``name@version``)."""
    pins = json.loads((REPO / "package.json").read_text())["devDependencies"]
    return {lib: [f"{p}@{pins[p]}" for p in pkgs] for lib, pkgs in LIBRARY_PACKAGES.items()}


#: How docs/gallery.md names each library.
LIBRARY_TITLES: dict[str, str] = {
    "bootstrap": "Bootstrap 5",
    "mui": "MUI",
    "radix": "Radix UI primitives",
    "headlessui": "Headless UI",
    "react-select": "react-select",
    "flatpickr": "flatpickr",
    "tiptap": "TipTap (ProseMirror)",
    "codemirror": "CodeMirror 6",
    "sortablejs": "SortableJS (pointer fallback)",
    "dnd-kit": "dnd kit (PointerSensor)",
    "tanstack-virtual": "TanStack Virtual (in an app shell whose `<main>` scrolls)",
    "shoelace": "Shoelace web components",
    "html": "Plain HTML",
}


def coverage_markdown() -> str:
    """The tables of docs/gallery.md's "What the gallery covers": libraries with their pinned
    packages, pages and task counts, then every task with its steps (`python3 -m gallery.tasks`)."""
    versions = library_versions()
    by_library: dict[str, list[Task]] = {}
    for t in TASKS:
        by_library.setdefault(t.library, []).append(t)
    lines = ["| library | packages (exact versions) | page | tasks |", "|---|---|---|---|"]
    for lib, tasks in by_library.items():
        packages = ", ".join(f"`{p}`" for p in versions[lib]) or "the browser's own controls"
        pages = ", ".join(f"`{p}`" for p in sorted({t.page.split("?")[0] for t in tasks}))
        lines.append(f"| {LIBRARY_TITLES[lib]} | {packages} | {pages} | {len(tasks)} |")
    lines += ["", "| task | library | what the user does | steps |", "|---|---|---|---|"]
    for t in TASKS:
        steps = "; ".join(str(s) for s in t.steps).replace("|", "\\|")
        lines.append(f"| `{t.id}` | {t.library} | {t.goal} | {steps} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(coverage_markdown(), end="")
