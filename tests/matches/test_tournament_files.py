"""Tournament folders read and written through the same checkpoint as match files: links out of the
folder refused (never written through), ``tournament.json`` a bounded regular file of bounded depth with
every field typed and ranged, reports written atomically whatever stood in their place."""

from __future__ import annotations

import copy
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import manifest as M
from matches import report as R
from matches import tournament as T
from tests.matches.test_hardening import amigos
from tests.matches.test_hardening import one_line_refusal as refused

AGENTS = ["random", "greedy"]
SEED = 11
ARGS = ["--agent", "random", "--agent", "greedy", "--games", "2", "--seed", str(SEED)]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tournament") / "t"
    T.run(out, T.TournamentSpec(AGENTS, 2, SEED), jobs=1)
    R.write_summary(out)
    return out


@pytest.fixture
def folder(played: Path, tmp_path: Path) -> Path:
    out = tmp_path / "t"
    shutil.copytree(played, out, symlinks=True)
    return out


def manifest(out: Path) -> dict[str, Any]:
    return json.loads((out / M.NAME).read_text())


# -- links ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("report", ["summary.json", "summary.csv", "games.csv"])
def test_resume_never_writes_through_a_report_linked_outside(folder: Path, tmp_path: Path, report: str) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("mine")
    (folder / report).unlink()
    (folder / report).symlink_to(target)
    refused(amigos("tournament", *ARGS, "--out", str(folder), "--resume"), report, "links outside the folder")
    assert target.read_text() == "mine"


def test_a_report_linked_inside_the_folder_is_replaced_not_followed(folder: Path) -> None:
    kept = folder / "notes.txt"
    kept.write_text("mine")
    (folder / "summary.json").unlink()
    (folder / "summary.json").symlink_to(kept.name)
    R.write_summary(folder)
    assert kept.read_text() == "mine"
    assert not (folder / "summary.json").is_symlink()
    assert json.loads((folder / "summary.json").read_text())["standings"]


def test_a_dangling_manifest_link_creates_nothing(folder: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    (folder / M.NAME).unlink()
    (folder / M.NAME).symlink_to(target)
    for args in (["show", str(folder)], ["tournament", *ARGS, "--out", str(folder), "--resume"]):
        refused(amigos(*args), M.NAME)
        assert not os.path.lexists(target)


@pytest.mark.parametrize("kind", ["zero", "fifo", "folder"])
@pytest.mark.parametrize("command", ["show", "resume"])
def test_a_manifest_that_is_no_regular_file_is_one_line(folder: Path, kind: str, command: str) -> None:
    path = folder / M.NAME
    path.unlink()
    if kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    args = ["show", str(folder)] if command == "show" else ["tournament", *ARGS, "--out", str(folder), "--resume"]
    line = refused(amigos(*args, timeout=20))
    assert M.NAME in line or "links outside" in line, line


# -- the manifest's content ------------------------------------------------------------------------------

def test_a_manifest_nested_100000_deep_is_one_line(folder: Path) -> None:
    (folder / M.NAME).write_text("[" * 100_000 + "]" * 100_000)
    refused(amigos("show", str(folder)), "nested more than")


def _set(path: str, value: Any) -> Any:
    def change(settings: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = settings
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


@pytest.mark.parametrize("change, fragment", [
    (_set("schedule", 5), "'schedule'"),
    (_set("schedule.0.seats", [0, 99]), "schedule[0].seats"),
    (_set("schedule.0", {}), "schedule[0]"),
    (_set("schedule", []), "'schedule'"),
    (_set("sprt", {"elo0": "a", "elo1": 5, "alpha": 0.05, "beta": 0.05}), "sprt.elo0"),
    (_set("agents", ["random", "mcts:time=nan"]), "agents[1]"),
    (_set("agents", "random"), "'agents'"),
    (_set("games", 1e300), "'games'"),
    (_set("seed", True), "'seed'"),
    (_set("variant", ["standard"]), "'variant'"),
    (_set("version", 99), "newer Amigos"),
    (_set("schedule.1.seed", 12345), "not the one its agents"),
])
def test_a_mistyped_manifest_is_one_line_in_show_and_resume(folder: Path, change: Any, fragment: str) -> None:
    settings = manifest(folder)
    change(settings)
    (folder / M.NAME).write_text(json.dumps(settings))
    refused(amigos("show", str(folder)), fragment)
    refused(amigos("tournament", *ARGS, "--out", str(folder), "--resume"), fragment)


def test_a_schedule_of_100000_games_is_shown(tmp_path: Path) -> None:
    """`show` of a large folder reads the manifest and looks for each game's file once (the timeout only
    guards against a hang; the time is measured in lab/README.md)."""
    out = tmp_path / "big"
    out.mkdir()
    games = 100_000
    M.write(out, T.manifest(T.TournamentSpec(AGENTS, games, SEED)))
    start = time.perf_counter()
    result = amigos("show", str(out), "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["scheduled"] == games and summary["played"] == 0
    print(f"show of {games} scheduled games: {time.perf_counter() - start:.1f} s")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
KEYS = ["format", "version", "agents", "games", "seed", "match_format", "variant", "gauntlet", "expansions",
        "sprt", "schedule", "schedule.0", "schedule.0.id", "schedule.0.seats", "schedule.0.seed", "agents.0"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(KEYS), value=JSON)
def test_any_field_changed_to_any_value_is_accepted_or_one_line(played: Path, key: str, value: Any) -> None:
    settings = copy.deepcopy(manifest(played))
    _set(key, value)(settings)
    try:
        M.check(settings, "fuzz")
    except T.TournamentError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("fuzz: ")


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_for_a_manifest_are_read_or_refused_in_one_line(tmp_path_factory: pytest.TempPathFactory,
                                                                  data: bytes) -> None:
    out = tmp_path_factory.mktemp("fuzz")
    (out / M.NAME).write_bytes(data)
    try:
        M.read(out)
    except T.TournamentError as exc:
        assert "\n" not in str(exc)


# -- the reports -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["bytes", "fifo", "inner link", "read-only"])
def test_reports_are_rewritten_as_regular_files_whatever_stood_there(folder: Path, kind: str) -> None:
    path = folder / "summary.json"
    expected = json.loads(path.read_text())
    path.unlink()
    if kind == "bytes":
        path.write_bytes(os.urandom(300))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "inner link":
        path.symlink_to("games.csv")
    else:
        path.write_text("{}")
        path.chmod(0o444)
    games = (folder / "games.csv").read_text()
    result = amigos("tournament", *ARGS, "--out", str(folder), "--resume")
    assert result.returncode == 0, result.stderr
    assert path.is_file() and not path.is_symlink()
    assert json.loads(path.read_text()) == expected
    assert (folder / "games.csv").read_text() == games


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=500))
def test_any_bytes_in_summary_json_are_replaced_by_the_summary(folder: Path, data: bytes) -> None:
    path = folder / "summary.json"
    expected = json.loads(path.read_text())
    path.write_bytes(data)
    R.write_summary(folder)
    assert json.loads(path.read_text()) == expected


def test_an_out_folder_that_cannot_be_made_is_one_line_before_anything_is_printed(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    result = amigos("tournament", *ARGS, "--out", str(blocker / "t"))
    refused(result, "cannot make the folder", "not a folder")
    assert result.stdout == ""
