"""The docs that ship: every document cited is in the repository, and docs/rules.md is current.

Issue 15 item 4: code and ``--help`` used to cite LOG_FORMAT.md and CLI.md,
which were not in the repository.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from gamelog.domain.ruletext import rules
from gamelog.projections.reports.rulebook import render_rulebook
from tests.conftest import ROOT

# A document's name as text cites one: a path of words ending in .md (``docs/cli.md``, ``../docs/log-format.md``).
CITATION = re.compile(r"(?<![\w/.-])((?:\.\./|[\w.-]+/)*[\w-]+\.md)\b")
PROVENANCE = ".source.txt"
"""Provenance files name files of the outside sources they came from (another project's notes): not ours to ship."""


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [f for f in out.splitlines() if (ROOT / f).is_file()]


def resolves(citing: str, cited: str, names: set[str]) -> bool:
    """Relative to the citing file's folder, or to the repository's root; a bare name, any file of that name."""
    folder = (ROOT / citing).parent
    if (folder / cited).is_file() or (ROOT / cited).is_file():
        return True
    return "/" not in cited and cited in names


def test_no_file_cites_a_document_that_is_not_in_the_repository():
    files = tracked_files()
    names = {f.rsplit("/", 1)[-1] for f in files}
    missing = []
    for path in files:
        # This file names the citations it must catch.
        if path.endswith(PROVENANCE) or path.startswith("tests/golden/") or path == "tests/test_docs.py":
            continue
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            missing += [f"{path}:{number}: {m}" for m in CITATION.findall(line) if not resolves(path, m, names)]
    assert missing == []


@pytest.mark.parametrize("line, cited", [
    ("see LOG_FORMAT.md", ["LOG_FORMAT.md"]),
    ("(CLI.md)", ["CLI.md"]),
    ("`../shared/RULES.md`", ["../shared/RULES.md"]),
    ("[docs](docs/cli.md).", ["docs/cli.md"]),
    ("a markdown file, not .md alone", []),
])
def test_the_citation_pattern_finds_what_a_reader_would_follow(line, cited):
    assert CITATION.findall(line) == cited


def test_the_bare_names_that_used_to_be_cited_would_be_caught():
    names = {f.rsplit("/", 1)[-1] for f in tracked_files()}
    assert not resolves("cli/main.py", "LOG_FORMAT.md", names) and not resolves("cli/main.py", "CLI.md", names)
    assert resolves("examples/README.md", "../docs/log-format.md", names) and resolves("cli/main.py", "RULES.md", names)


def test_the_rules_page_is_current_and_lists_every_rule_id():
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page == render_rulebook(), "regenerate: python -m projections.reports.rulebook > docs/rules.md"
    listed = re.findall(r"^\| ([^|]+?) \| (?:yes|no|partly) \|", page, re.M)
    assert sorted(listed) == sorted(rules()) and len(listed) == len(set(listed))


def test_the_rules_page_groups_rules_under_their_game():
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = lambda heading: page.split(heading, 1)[1].split("\n## ", 1)[0]
    assert "| MOV-IOU | partly |" in section("## Merchant of Venus (`merchant-of-venus`)")
    uchronia = section("## Uchronia (`uchronia`)")
    assert "| UCH-COST | yes | Wood and clay buildings need 1 resource" in uchronia and "| UCH-FORUM | no |" in uchronia
    assert "| TI4-VP-SOURCE | no |" in section("## Twilight Imperium 4th edition (`twilight-imperium-4`)")
    assert "| LOG-CORRECTION | no |" in section("## The log format's own (every game)")


@pytest.mark.parametrize("page", ["log-format.md", "cli.md", "rules.md", "adding-a-game.md"])
def test_the_readme_links_every_page_of_the_docs(page):
    assert f"(docs/{page})" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_log_format_page_names_every_event_type_and_setting():
    import msgspec

    from gamelog.domain.games import GAMES

    page = (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")
    for name, game in GAMES.items():
        section = page.split(f"(`{name}`)", 1)[1].split("\n## ", 1)[0]
        assert all(f"`{t.__struct_config__.tag}`" in page for t in game.event_types), name
        setup = next(f.type for f in msgspec.structs.fields(game.header_type) if f.name == "setup")
        assert [f.name for f in msgspec.structs.fields(setup) if f"`{f.name}`" not in section] == [], name
