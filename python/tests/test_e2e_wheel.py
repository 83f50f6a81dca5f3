"""The package as a user installs it: ``pip install`` from this checkout into fresh virtualenvs.

Two wheels are built the way pip builds them (PEP 517, an isolated build environment): one with the
maturin pip resolves today within ``pyproject.toml``'s range, one with the oldest maturin that range
allows.  Both reuse the workspace's release artifacts (target/release), so neither compiles the
workspace again.  Each is installed into a new virtualenv, the newest with the extras a code-mode
user takes, and driven from there on real Chromium with no ``AGENTBROWSER_BIN`` and no
``PYTHONPATH``: the SDK and the ``agentbrowser`` command must find their binaries on their own.
The source distribution is checked for what a build from it needs (the skills the binary embeds,
axe-core, the Python package); ``scripts/check-sdist.sh`` builds and installs from it end to end.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO

pytestmark = pytest.mark.e2e

EXTRAS = "openai,notebook,cdp,images"


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user who has only the venv: nothing points at this checkout."""
    drop = ("AGENTBROWSER_BIN", "PYTHONPATH", "VIRTUAL_ENV", "PIP_CONSTRAINT", "AGENTBROWSER_PYTHON")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def _run(args: list[str], *, cwd: Path | None = None, timeout: float = 600, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        args,
        cwd=cwd,
        env=_clean_env(**(env or {})),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


def oldest_maturin() -> str:
    """The lowest maturin ``pyproject.toml``'s build-system allows (``maturin>=X,<2``)."""
    text = (REPO / "pyproject.toml").read_text()
    found = re.search(r'requires = \["maturin>=([0-9.]+),<2"\]', text)
    assert found, "pyproject.toml's build-system no longer reads maturin>=X,<2"
    return found.group(1)


def build_wheel(out: Path, constraint: str | None) -> Path:
    """A wheel of this checkout built by pip (``constraint``: pins the build backend's maturin)."""
    env: dict[str, str] = {}
    if constraint is not None:
        pin = out / "constraint.txt"
        pin.write_text(constraint + "\n")
        env["PIP_CONSTRAINT"] = str(pin)
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w", str(out), str(REPO)],
        env=env,
    )
    (wheel,) = out.glob("agentbrowser_engine-*.whl")
    return wheel


def venv(path: Path) -> Path:
    """A new virtualenv at ``path``; its ``bin/``."""
    _run([sys.executable, "-m", "venv", str(path)])
    return path / "bin"


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``newest`` and ``oldest``: the wheel built with each end of the maturin range."""
    return {
        "newest": build_wheel(tmp_path_factory.mktemp("wheel-newest"), None),
        "oldest": build_wheel(tmp_path_factory.mktemp("wheel-oldest"), f"maturin=={oldest_maturin()}"),
    }


@pytest.fixture(scope="module")
def installed(wheels: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the newest wheel and the extras (``bin/``)."""
    bin_dir = venv(tmp_path_factory.mktemp("venv") / "v")
    _run([str(bin_dir / "pip"), "install", "-q", "--disable-pip-version-check", f"{wheels['newest']}[{EXTRAS}]"])
    yield bin_dir


def test_each_wheel_holds_the_package_both_binaries_and_axe(wheels: dict[str, Path]) -> None:
    for which, wheel in wheels.items():
        with zipfile.ZipFile(wheel) as z:
            names = set(z.namelist())
            generator = z.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
        data = "agentbrowser_engine-0.1.0.data"
        for needed in (
            "agentbrowser/__init__.py",
            "agentbrowser/py.typed",
            "agentbrowser/code/__main__.py",
            f"{data}/scripts/agentbrowser",
            f"{data}/scripts/agentbrowser-engine",
            f"{data}/data/share/agentbrowser/axe.min.js",
            f"{data}/data/share/agentbrowser/axe-core.LICENSE",
        ):
            assert needed in names, f"{which} wheel ({wheel.name}) lacks {needed}"
        if which == "oldest":
            version = oldest_maturin() + ".0" * (2 - oldest_maturin().count("."))
            assert f"maturin ({version})" in generator, generator


def test_the_bundled_axe_core_is_the_version_package_json_pins() -> None:
    bundled = REPO / "python/wheel-data/data/share/agentbrowser/axe.min.js"
    pinned = json.loads((REPO / "package.json").read_text())["dependencies"]["axe-core"]
    assert bundled.read_text().startswith(f"/*! axe v{pinned}\n"), (
        f"python/wheel-data carries another axe-core than package.json's {pinned}: "
        "copy node_modules/axe-core/axe.min.js there"
    )
    assert bundled.read_bytes() == (REPO / "node_modules/axe-core/axe.min.js").read_bytes()


SCENARIO = """
import json, sys
import agentbrowser
from agentbrowser import Browser, Wait
from agentbrowser._binary import find_binary

url = sys.argv[1]
with Browser.launch() as browser:
    browser.page.open(url)
    snapshot = browser.page.observe()
    snapshot.one(role="textbox", name="Name").fill("Ada")
    result = snapshot.one(role="button", name="Submit").click(wait=Wait.text("Submitted Ada"))
    shown = browser.page.evaluate("document.getElementById('result').textContent")
    typed = browser.page.evaluate("document.getElementById('name').value")
    print(json.dumps({
        "module": agentbrowser.__file__,
        "binary": find_binary(),
        "shown": shown,
        "typed": typed,
        "action": result.action,
        "changed": result.diff is not None and result.diff.changed,
    }))
"""


def scenario(bin_dir: Path, server: str, tmp_path: Path) -> dict[str, Any]:
    """What SCENARIO reports when the venv's Python runs it against the form page."""
    script = tmp_path / "scenario.py"
    script.write_text(SCENARIO)
    out = _run(
        [str(bin_dir / "python"), str(script), f"{server}/form"],
        cwd=tmp_path,
        env={"AGENTBROWSER_SOCKET_DIR": str(tmp_path / "sockets")},
        timeout=120,
    )
    report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return report


def test_the_sdk_from_a_fresh_venv_drives_chromium(installed: Path, server: str, tmp_path: Path) -> None:
    report = scenario(installed, server, tmp_path)
    venv_root = installed.parent
    assert report["module"].startswith(str(venv_root / "lib")), report["module"]
    assert report["binary"] == str(installed / "agentbrowser"), report["binary"]
    assert report["typed"] == "Ada"
    assert report["shown"] == "Submitted Ada"
    assert report["action"] == "click" and report["changed"], report


def test_the_command_from_a_fresh_venv_drives_chromium(installed: Path, server: str, tmp_path: Path) -> None:
    cli = str(installed / "agentbrowser")
    env = {"AGENTBROWSER_SOCKET_DIR": str(tmp_path / "sockets"), "AGENTBROWSER_SESSION": "wheel"}
    try:
        _run([cli, "open", f"{server}/form"], cwd=tmp_path, timeout=120, env=env)
        snapshot = json.loads(_run([cli, "--json", "snapshot"], cwd=tmp_path, env=env))
        refs = snapshot["data"]["refs"]
        name = next(k for k, v in refs.items() if v["role"] == "textbox" and v["name"] == "Name")
        submit = next(k for k, v in refs.items() if v["role"] == "button" and v["name"] == "Submit")
        _run([cli, "fill", name, "Grace"], cwd=tmp_path, env=env)
        clicked = _run([cli, "click", submit, "--wait-text", "Submitted Grace"], cwd=tmp_path, env=env)
        assert clicked.startswith(f'click {submit} (button "Submit")'), clicked
        shown = _run([cli, "get", "text", "#result"], cwd=tmp_path, env=env)
        assert shown.strip() == "Submitted Grace"
    finally:
        _run([cli, "close"], cwd=tmp_path, env=env)


def test_doctor_from_a_fresh_venv_passes(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "agentbrowser"), "doctor"], cwd=tmp_path, timeout=120)
    assert "FAIL" not in out, out
    axe = next(line for line in out.splitlines() if "axe-core" in line)
    assert axe.startswith("ok") and str(installed.parent / "share/agentbrowser/axe.min.js") in axe, axe
    python = next(line for line in out.splitlines() if "python package" in line)
    assert python.startswith("ok") and str(installed / "python3") in python, python


def test_the_oldest_maturins_wheel_installs_and_runs(wheels: dict[str, Path], server: str, tmp_path: Path) -> None:
    bin_dir = venv(tmp_path / "v")
    _run([str(bin_dir / "pip"), "install", "-q", "--disable-pip-version-check", str(wheels["oldest"])])
    report = scenario(bin_dir, server, tmp_path)
    assert report["binary"] == str(bin_dir / "agentbrowser")
    assert report["shown"] == "Submitted Ada"


def test_the_sdist_carries_what_a_build_from_it_needs(tmp_path: Path) -> None:
    _run([sys.executable, "-m", "maturin", "sdist", "-o", str(tmp_path)], cwd=REPO)
    (sdist,) = tmp_path.glob("agentbrowser_engine-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    skills = {str(p.relative_to(REPO)) for p in (REPO / "skills").rglob("*") if p.is_file()}
    assert skills <= names, f"the sdist lacks skills the binary embeds: {sorted(skills - names)}"
    for needed in (
        "Cargo.lock",
        "pyproject.toml",
        "crates/cli/build.rs",
        "crates/engine/src/js/actions.js",
        "python/agentbrowser/__init__.py",
        "python/wheel-data/data/share/agentbrowser/axe.min.js",
    ):
        assert needed in names, f"the sdist lacks {needed}"
    assert not any(n.startswith(("target/", "node_modules/")) for n in names)
