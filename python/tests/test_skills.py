"""``agentbrowser.skills``: the skills bundled in the binary, as the CLI serves them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO
from agentbrowser import skills
from agentbrowser.skills import Skill, SkillFile, SkillPart

SKILLS = REPO / "skills"


def test_available_lists_the_repository_skills(agentbrowser_bin: Path) -> None:
    names = skills.available()
    expected = {"audit", "capture", "code-mode", "core", "mcp", "network", "reading", "safety", "state"}
    assert expected <= set(names) and names == tuple(sorted(names))
    assert "contributing" not in names and "contributing" in skills.available(include_hidden=True)
    listed = skills.list()
    assert tuple(s.name for s in listed) == names
    assert all(isinstance(s, Skill) and s.description and len(s.files) == 1 for s in listed)


def test_get_read_part_markdown(agentbrowser_bin: Path) -> None:
    main = (SKILLS / "core" / "SKILL.md").read_text()
    core = skills.get("core")
    assert core.name == "core" and not core.hidden and core.description.startswith("Drive a real Chromium")
    assert core.files == (SkillFile("SKILL.md", main),) and core.markdown == main
    assert main.endswith(core.content) and not core.content.startswith("---")
    assert SkillPart("references/errors.md", "reference") in core.parts
    assert SkillPart("SKILL.md", "main") in skills.parts("core")
    errors = (SKILLS / "core" / "references" / "errors.md").read_text()
    assert skills.read("core", "./references/errors.md") == errors
    assert skills.part("core", "references/errors.md") == SkillFile("references/errors.md", errors)
    assert core.read("references/errors.md") == errors
    full = skills.get("core", full=True)
    assert len(full.files) == len(full.parts) and "<!-- part: references/errors.md -->" in full.markdown
    assert skills.markdown("core") == main and skills.markdown("core", full=True) == full.markdown
    assert skills.get("contributing").hidden


@pytest.mark.parametrize("path", ["../core/SKILL.md", "/etc/passwd", "", "a/../../b", "nope.md"])
def test_bad_part_paths_raise_key_error(agentbrowser_bin: Path, path: str) -> None:
    with pytest.raises(KeyError):
        skills.part("core", path)


def test_unknown_names_raise_key_error(agentbrowser_bin: Path) -> None:
    with pytest.raises(KeyError, match="unknown skill 'nope'.*core"):
        skills.get("nope")
    with pytest.raises(KeyError):
        skills.read("nope")
