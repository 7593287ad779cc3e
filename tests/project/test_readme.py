"""The README is a user's guide: at most 300 lines, no commit hashes, and the pages it links to exist."""

from __future__ import annotations

import re

from tests.helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


#: A line of prose at most this wide, so that 300 lines are 300 lines a reader reads (a table's row, a
#: code line and an image are as wide as they must be).
PROSE_WIDTH = 120


def test_the_readme_is_at_most_300_lines_of_prose_a_screen_wide_and_names_no_commit():
    lines = README.splitlines()
    assert len(lines) <= 300
    in_code, wide = False, []
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_code = not in_code
        elif not (in_code or line.startswith(("|", "![")) or len(line) <= PROSE_WIDTH):
            wide.append(number)
    assert not wide, f"README.md lines {wide} are wider than {PROSE_WIDTH} characters"
    assert not re.findall(r"(?<![\w.-])[0-9a-f]{7,40}(?![\w.-])", README)


def test_every_page_the_readme_links_to_is_there():
    links = re.findall(r"\]\(((?:docs|lab)/[^)#]+)\)", README)
    assert "docs/LUX.md" in links and "docs/CLUSTER.md" in links
    assert all((ROOT / link).is_file() for link in links)


def test_the_two_commands_use_two_venvs_and_ci_runs_the_test_command_as_written():
    """Running the tests after playing keeps the play command's compiled install: the test command
    installs the editable source into a venv of its own (issue 54, point 3)."""
    play, tests = re.findall(r"```sh\n(.+?)\n```", README)[:2]
    venv = re.compile(r"python3 -m venv (\S+)")
    assert venv.search(play) and venv.search(tests)
    assert venv.search(play).group(1) != venv.search(tests).group(1)  # type: ignore[union-attr]
    assert "pip install -e" in tests and "pip install -e" not in play
    assert tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
