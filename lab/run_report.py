"""What the strength commands share: the ``--record`` file and the closing lines of a run.

Imported by the benchmark commands as ``lab.run_report``; `say_build` names the build they measure.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from matches.sprt import SprtTest, check_rates, parse_bounds


def say_build() -> None:
    """Name, as the report's first line, the build these measurements run on (the compiled or pure
    ``amigos``, and where from): ``python -m lab.NAME`` imports the checkout's, ``python -P -m lab.NAME``
    an installed one (`lab/README.md`)."""
    import amigos
    build = "compiled with mypyc" if amigos.COMPILED else "pure Python"
    print(f"amigos: {build}, from {Path(amigos.__file__ or '').parent}", flush=True)


class RecordFile:
    """A ``--record`` file opened for appending; calling it writes one pair record as a JSON line and
    flushes, so that a run stopped midway keeps every pair it finished.  Raises OSError if the file
    cannot be opened."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.sink = path.open("a", encoding="utf-8")

    def __call__(self, pair: dict) -> None:
        self.sink.write(json.dumps(pair) + "\n")
        self.sink.flush()

    def close(self) -> None:
        self.sink.close()


def open_record(path: Path | None) -> RecordFile | None:
    """The ``--record`` file of ``path`` (None without one); a file that cannot be written ends the
    command with a one-line error and exit code 2, before any game is played."""
    if path is None:
        return None
    try:
        return RecordFile(path)
    except OSError as e:
        print(f"error: cannot write {path}: {e.strerror}", file=sys.stderr)
        raise SystemExit(2) from None


def final_lines(result: dict) -> list[str]:
    """The two lines that close a run: the score with its 95% interval, and A's thinking time."""
    adjudicated = f"; {result['adjudicated']} adjudicated at the round limit" if result["adjudicated"] else ""
    score = (f"final: {result['a']} vs {result['b']}: {result['score']:g}/{result['games']} = {result['rate']:.1%} "
             f"(95% interval {result['low']:.1%}-{result['high']:.1%}) in {result['seconds']:.0f} s{adjudicated}")
    thought = (f"{result['a']} thought {result['a_seconds_per_choice']:.3f} s a decision on average "
               "(over decisions among two or more legal actions)")
    lines = [score, thought]
    if "sprt" in result:
        t = result["sprt"]
        verdict = {"H0": "H0 accepted", "H1": "H1 accepted", "continue": "no verdict"}[t["result"]]
        lines.append(f"SPRT [{t['elo0']:g}, {t['elo1']:g}]: LLR {t['llr']:.2f} ({t['lower']:.2f}, "
                     f"{t['upper']:.2f}), {verdict} after {t['pairs']} pairs {t['pentanomial']}; "
                     f"Elo {t['elo']:+.1f} (95% {t['elo_low']:+.1f} to {t['elo_high']:+.1f})")
    return lines


def add_sprt_options(ap: argparse.ArgumentParser) -> None:
    """``--sprt ELO0,ELO1 [--alpha A] [--beta B]``: stop the run at the SPRT's verdict (`matches.sprt`)."""
    ap.add_argument("--sprt", metavar="ELO0,ELO1",
                    help="stop when the SPRT of A being ELO1 rather than ELO0 Elo stronger decides "
                         "(the game count is then the most played)")
    ap.add_argument("--alpha", type=float, default=0.05, help="the SPRT's false-positive rate")
    ap.add_argument("--beta", type=float, default=0.05, help="the SPRT's false-negative rate")


def sprt_settings(args: argparse.Namespace) -> SprtTest | None:
    """The SPRT settings of `add_sprt_options` (None without ``--sprt``); a bad value ends the
    command with a one-line error and exit code 2."""
    if args.sprt is None:
        return None
    try:
        elo0, elo1 = parse_bounds(args.sprt)
        check_rates(args.alpha, args.beta)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    return SprtTest(elo0, elo1, args.alpha, args.beta)
