"""Reference conformance scenarios, played through the engine's bridge.

One test per scenario file (id = file name), all through one shared in-process
``amigos.bridge.Bridge`` like the reference harness's single bot process.
Scenario folder: $AMIGOS_SCENARIOS, else <repo>/spec/scenarios.
Files listed in deviations.txt are xfail (non-strict) with the listed reason.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conformance.harness import (
    REPO_ROOT,
    BridgeError,
    SubprocessBridge,
    default_scenario_dir,
    read_deviations,
    run_scenario,
    scenario_files,
)

HERE = Path(__file__).resolve().parent
SCENARIO_DIR = default_scenario_dir()
DEVIATIONS = read_deviations(HERE / "deviations.txt")
NO_SCENARIOS = f"scenario folder not found: {SCENARIO_DIR} (set AMIGOS_SCENARIOS)"


def _scenario_params() -> list:
    if not SCENARIO_DIR.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=NO_SCENARIOS),
                             id="no-scenarios")]
    params = []
    for path in scenario_files(SCENARIO_DIR):
        marks = []
        if path.name in DEVIATIONS:
            marks.append(pytest.mark.xfail(reason=DEVIATIONS[path.name], strict=False))
        params.append(pytest.param(path.name, marks=marks, id=path.name))
    return params


@pytest.fixture(scope="module")
def bridge():
    # Imported lazily so that collection works while the engine is absent.
    from amigos.bridge import Bridge
    return Bridge()


@pytest.mark.parametrize("file_name", _scenario_params())
def test_scenario(bridge, file_name):
    scenario = json.loads((SCENARIO_DIR / file_name).read_text(encoding="utf-8"))
    result = run_scenario(bridge, scenario, file_name)
    if result.skipped:
        pytest.skip(result.message)
    if not result.passed:
        pytest.fail(result.describe(), pytrace=False)


def test_inprocess_handle_line(bridge):
    """handle_line: blank line -> no reply; non-JSON -> an error object."""
    assert bridge.handle_line("   ") is None
    reply = json.loads(bridge.handle_line("this is not json"))
    assert isinstance(reply, dict) and isinstance(reply.get("error"), str)
    reply = json.loads(bridge.handle_line(json.dumps({"cmd": "no_such_command"})))
    assert isinstance(reply, dict) and isinstance(reply.get("error"), str)


# --------------------------------------------------------------------------
# The real `amigos bridge` subprocess (stdio protocol end to end)
# --------------------------------------------------------------------------

def _subprocess_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def _candidate_commands() -> list[list[str]]:
    candidates = []
    exe = Path(sys.executable).parent / "amigos"
    if exe.is_file() and os.access(exe, os.X_OK):
        candidates.append([str(exe), "bridge"])
    try:
        has_main = importlib.util.find_spec("amigos_cli.__main__") is not None
    except (ImportError, ValueError):
        has_main = False
    if has_main:
        candidates.append([sys.executable, "-m", "amigos_cli", "bridge"])
    return candidates


def _probe(command: list[str]) -> str | None:
    """None if `command` answers quit with status ok, else why not."""
    bot = SubprocessBridge(command, timeout=30, cwd=REPO_ROOT, env=_subprocess_env())
    try:
        bot.start()
        reply = bot.handle({"cmd": "quit"})
        if reply != {"status": "ok"}:
            return f"{command}: quit replied {reply!r}"
        return None
    except (OSError, BridgeError) as exc:
        return f"{command}: {exc}"
    finally:
        bot.kill()


def _engine_importable() -> bool:
    try:
        return importlib.util.find_spec("amigos.bridge") is not None
    except Exception:
        return False


@functools.lru_cache(maxsize=None)
def _find_bridge_command() -> tuple[tuple[str, ...] | None, str]:
    problems = []
    for command in _candidate_commands():
        problem = _probe(command)
        if problem is None:
            return tuple(command), ""
        problems.append(problem)
    return None, ("; ".join(problems) or "no `amigos` executable next to sys.executable "
                  "and no amigos_cli.__main__")


def bridge_command() -> list[str]:
    """The working `amigos bridge` command line, or pytest.skip."""
    command, problem = _find_bridge_command()
    if command is None:
        if _candidate_commands() and _engine_importable():
            # The command exists and the engine is there: a broken bridge is a bug.
            pytest.fail(f"`amigos bridge` does not work: {problem}", pytrace=False)
        pytest.skip(f"`amigos bridge` not available: {problem}")
    return list(command)


def _pick_files(count: int = 5) -> list[Path]:
    files = [p for p in scenario_files(SCENARIO_DIR) if p.name not in DEVIATIONS]
    if len(files) <= count:
        return files
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


def test_stdio_protocol_basics():
    """Blank line: no reply; non-JSON line and unknown command: an error
    object; quit: {"status": "ok"} and the process exits (stdin still open)."""
    command = bridge_command()
    bot = SubprocessBridge(command, timeout=30, cwd=REPO_ROOT, env=_subprocess_env())
    bot.start()
    try:
        bot.send_line("   ")
        bot.send_line("this is not json")
        first = json.loads(bot.read_line())
        assert isinstance(first, dict) and isinstance(first.get("error"), str), first
        bot.send_line(json.dumps({"cmd": "no_such_command"}))
        second = json.loads(bot.read_line())
        assert isinstance(second, dict) and isinstance(second.get("error"), str), second
        bot.send_line(json.dumps({"cmd": "get_state"}))  # no game yet
        third = json.loads(bot.read_line())
        assert isinstance(third, dict) and "state" not in third, third
        bot.send_line(json.dumps({"cmd": "quit"}))
        assert json.loads(bot.read_line()) == {"status": "ok"}
        try:
            code = bot.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pytest.fail("bridge process still running 5 s after quit")
        assert code == 0
    finally:
        bot.kill()


@pytest.mark.skipif(not SCENARIO_DIR.is_dir(), reason=NO_SCENARIOS)
def test_stdio_scenarios_match_inprocess(bridge):
    """~5 scenarios through one `amigos bridge` process give the same outcome
    (status and failing step) as the in-process bridge."""
    command = bridge_command()
    files = _pick_files()
    bot = SubprocessBridge(command, timeout=60, cwd=REPO_ROOT, env=_subprocess_env())
    try:
        for path in files:
            scenario = json.loads(path.read_text(encoding="utf-8"))
            assert bot.proc is None or bot.alive(), f"bridge died before {path.name}"
            over_stdio = run_scenario(bot, scenario, path.name)
            in_process = run_scenario(bridge, scenario, path.name)
            assert (over_stdio.status, over_stdio.step_index) == \
                (in_process.status, in_process.step_index), (
                f"{path.name}: stdio gave {over_stdio.describe()}\n"
                f"in-process gave {in_process.describe()}")
        assert bot.starts == 1 and bot.alive(), "one process must serve all files"
        assert bot.close() == {"status": "ok"}
    finally:
        bot.kill()
