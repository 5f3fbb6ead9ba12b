"""Shared test helpers: building small logs, and finding the examples and ../shared."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared"


def log_bytes(header: dict, *events: dict | str) -> bytes:
    """A log: the header, then each event (a dict, or a raw line such as a comment)."""
    lines = [json.dumps({"type": "game", **header})]
    lines += [e if isinstance(e, str) else json.dumps(e) for e in events]
    return ("\n".join(lines) + "\n").encode()


def shared_path(*parts: str) -> Path:
    """A file of ../shared; skips the test where it is absent (a user's clone), fails under CI."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is required when CI is set")
        pytest.skip(f"{path} is absent (../shared is not part of a clone)")
    return path
