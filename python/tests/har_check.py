"""The HAR checks the network tests share: a HAR file validated against the HAR 1.2 JSON schema
(the npm ``har-schema`` package, installed by scripts/setup.sh) with jsonschema, and opened by
haralyzer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from haralyzer import HarParser
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT6

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "node_modules" / "har-schema" / "lib"


def validate_har(path: Path) -> dict[str, Any]:
    """The HAR at ``path``, checked against the HAR 1.2 JSON schema and opened by haralyzer."""
    har: dict[str, Any] = json.loads(path.read_text())
    resources = [
        (schema["$id"], Resource.from_contents(schema, default_specification=DRAFT6))
        for schema in (json.loads(p.read_text()) for p in SCHEMA_DIR.glob("*.json"))
    ]
    assert resources, f"no HAR schema in {SCHEMA_DIR} (scripts/setup.sh installs the npm har-schema)"
    registry: Registry[Any] = Registry().with_resources(resources)
    root = json.loads((SCHEMA_DIR / "har.json").read_text())
    validator = jsonschema.Draft6Validator(root, registry=registry, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(har)]
    assert errors == [], errors[:5]
    parser = HarParser(har)
    assert parser.pages, "haralyzer found no page"
    return har
