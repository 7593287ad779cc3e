"""The README is a user's guide: at most 300 lines, no commit hashes, and the pages it links to exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_300_lines_and_names_no_commit():
    assert len(README.splitlines()) <= 300
    assert not re.findall(r"(?<![\w.-])[0-9a-f]{7,40}(?![\w.-])", README)


def test_every_page_the_readme_links_to_is_there():
    links = re.findall(r"\]\(((?:docs|lab)/[^)#]+)\)", README)
    assert "docs/LUX.md" in links and "docs/CLUSTER.md" in links
    assert all((ROOT / link).is_file() for link in links)
