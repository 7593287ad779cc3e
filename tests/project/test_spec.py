"""The repository's copy of the specification (spec/) is the project's shared folder's, byte for byte,
where that folder is beside the repository (it is in CI; a user's clone has only spec/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import ROOT

SPEC = ROOT / "spec"
SHARED = ROOT.parent / "shared"
#: Where each file of spec/ comes from in the shared folder.
SOURCES = {"rules.md": "rules.md", "PROTOCOL.md": "conformance/PROTOCOL.md",
           "reference_cards.json": "conformance/reference_cards.json",
           "bench_answer_key.json": "conformance/bench_answer_key.json", "scenarios": "conformance/scenarios",
           "cards": "cards"}


def files_under(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()} \
        if path.is_dir() else {"": path.read_bytes()}


def test_the_spec_folder_holds_what_the_tests_read():
    assert len(list((SPEC / "scenarios").glob("*.json"))) == 293
    assert all((SPEC / name).exists() for name in SOURCES)


@pytest.mark.skipif(not SHARED.is_dir(), reason="no shared folder beside the repository to compare with")
@pytest.mark.parametrize("name", SOURCES)
def test_spec_is_the_shared_folder_s_copy(name):
    source = SHARED / SOURCES[name]
    if source.is_dir():  # (the shared folder may hold more than the tests read, e.g. notes)
        ours = files_under(SPEC / name)
        theirs = {k: v for k, v in files_under(source).items() if k in ours or k.endswith(".json")}
        assert ours == theirs
    else:
        assert (SPEC / name).read_bytes() == source.read_bytes()
