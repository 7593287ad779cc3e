"""The full screen's two figures: keystrokes per decision (the line prompt against the full screen,
on the same recorded game), and the time from a key press to the redrawn board in a late-game
position (median).

    python -m lab.screen_speed [--file lab/data/g101.amigos] [--presses 60]
    python -m lab.screen_speed --file /tmp/p5.amigos --redraw-only [--size 100x30]

A file of AIs alone (``amigos play --players 5 --expansion lux --p1 random ... --p5 random --save
/tmp/p5.amigos``) is timed from its first seat (``--redraw-only``: it has no person's keys to count).

Keystrokes: for every decision of the file's person, the line prompt takes the choice's number and
Enter, and for an action with several ways to pay the way's number and Enter; the full screen takes
Enter on the highlighted choice, or the fewer of (arrows, a number) and Enter (nothing when the one
action has several ways: the picker opens at once), and in the picker
Enter on the suggested way, or the fewest of (arrows from it, a number, the typed essences)
and Enter.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import amigos
from ai.agents import make_agent
from ai.collect import automatic_collect
from ai.heuristics import best_variant
from amigos.config import GameConfig
from amigos_cli.tui.game import GameApp
from amigos_cli.tui.keys import RIVAL_KEY
from amigos_cli.views.choices import keeps_a_bonus, ordered_variants, vectors
from matches.match import Match, config_of
from matches.record import load
from matches.session import HUMAN


def typed_length(action: tuple) -> int:
    """Characters typed to name a way in the picker ("2e 1d", "3c / 2g"), Enter counted apart: typed
    on the picker's list, the first of them begins the typed way."""
    pay, gain = vectors(action)
    words = [" ".join(f"{n}e" for n in v if n) for v in (pay, gain) if v and any(v)]
    return len(" / ".join(words) or "0e")


def cost(state: amigos.GameState, action: tuple) -> tuple[int, int]:
    """Keystrokes (line prompt, full screen) of one decision, as the module docstring counts them."""
    groups = state.legal_groups()
    i = next(k for k, g in enumerate(groups) if action in g)
    line = len(str(i + 1)) + 1
    screen = 0
    lit = next((k for k, g in enumerate(groups) if keeps_a_bonus(state, g[0])), 0)  # (as `Choices.fill`)
    if not (len(groups) == 1 and len(groups[0]) > 1):  # else the picker opens at once
        screen += 1 if i == lit else min(abs(i - lit), len(str(i + 1))) + 1
    if len(groups[i]) > 1:
        ways = ordered_variants(groups[i])
        line += len(str(ways.index(action) + 1)) + 1
        preferred = ways.index(best_variant(state, groups[i]))
        k = ways.index(action)
        screen += 1 if k == preferred else min(abs(k - preferred), len(str(k + 1)), typed_length(action)) + 1
    return line, screen


Decisions = Iterator[tuple[amigos.GameState, tuple, tuple[int, int]]]  # the person's: position, action, round


def file_decisions(path: Path) -> Decisions:
    """The decisions of the file's person (its seats played by ``human``), with (game, round)."""
    record = load(path).record
    seats = [p for p, player in enumerate(record["players"]) if player["spec"] == HUMAN]
    replay = Match.new(record["seed"], [p["spec"] for p in record["players"]], config_of(record),
                       fmt="match" if record["best_of"] > 1 else "game")
    for actor, step, *_ in (d for g in record["games"] for d in g["decisions"]):
        replay.to_act()
        state = replay.state
        action = amigos.action_from_json(state, step)
        if actor in seats:
            yield state, action, (replay.game_number, state.round)
        replay.decide(action, stamp=False)


def selfplay_decisions(games: int, spec: str, seed: int) -> Decisions:
    """The first seat's decisions among two or more choices in ``games`` games of ``spec`` against
    itself (a stand-in for a person who plays like it), with (game, round)."""
    for k in range(games):
        state = amigos.deal(seed + k, GameConfig())
        agents = [make_agent(spec, seed=seed + k + p) for p in range(2)]
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else agents[state.current_player()].select(state)
            if len(legal) > 1 and state.current_player() == 0:
                yield state, action, (k, state.round)
            state.apply(action)


def keystrokes(decisions: Decisions, auto_collect: bool = False) -> tuple[float, float, int, int]:
    """(line prompt, full screen) keystrokes per decision of the person, their decisions, and the
    rounds they played; with ``auto_collect`` the decisions it makes cost no key (and count as none)."""
    line = screen = count = 0
    rounds: set[tuple[int, int]] = set()
    for state, action, when in decisions:
        rounds.add(when)
        if not (auto_collect and automatic_collect(state) == action):
            a, b = cost(state, action)
            line, screen, count = line + a, screen + b, count + 1
    return line / count, screen / count, count, len(rounds)


async def latency(match: Match, presses: int, size: tuple[int, int] = (120, 40)) -> tuple[float, float, float | None]:
    """Median milliseconds from a key press to the redrawn screen (the last frame Textual writes for
    it, when the screen has settled): moving the highlight (the card panel follows), a new decision
    offered (board, hand, choices and log redrawn), and with three players or more the next rival
    shown in full (`RIVAL_KEY`: the board laid out again; None of two players)."""
    with tempfile.TemporaryDirectory() as folder:
        app = GameApp(match, Path(folder) / "speed.amigos")
        async with app.run_test(size=size) as pilot:
            while app.asking is None:
                await pilot.pause(0.05)
            frames: list[float] = []
            display = app._display

            def stamped(*args, **kwargs):
                frames.append(time.perf_counter())
                return display(*args, **kwargs)

            app._display = stamped
            moves, offers, rivals = [], [], []
            seat, state = app.asking
            for k in range(presses):
                frames.clear()
                start = time.perf_counter()
                await pilot.press("down" if k % 2 == 0 else "up")
                if frames:
                    moves.append(frames[-1] - start)
            for _ in range(presses if state.n_players > 2 else 0):
                frames.clear()
                start = time.perf_counter()
                await pilot.press(RIVAL_KEY)
                if frames:
                    rivals.append(frames[-1] - start)
            for _ in range(presses // 4):
                frames.clear()
                start = time.perf_counter()
                app.offer(seat, state.clone())
                await pilot.pause()
                if frames:
                    offers.append(frames[-1] - start)
            await pilot.press("q")
    return (statistics.median(moves) * 1000, statistics.median(offers) * 1000,
            statistics.median(rivals) * 1000 if rivals else None)


def late_position(path: Path) -> Match:
    """The file's game at the person's last decision in its last round (a late-game board).  A file
    of AIs alone (``amigos play --p1 random --p2 random ...``) is seen from its first seat, which a
    person then plays."""
    record = load(path).record
    seats = [p for p, player in enumerate(record["players"]) if player["spec"] == HUMAN]
    players = record["players"]
    if not seats:
        seats = [0]
        players = [dict(players[0], spec=HUMAN)] + players[1:]
    decisions = record["games"][0]["decisions"]
    last = max(k for k, d in enumerate(decisions) if d[0] in seats)
    record = dict(record, status="unfinished", result=None, players=players,
                  games=[dict(record["games"][0], decisions=decisions[:last], result=None)])
    record["games"][0].pop("final_digest", None)
    return Match.from_record(record)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=Path("lab/data/g101.amigos"))
    ap.add_argument("--presses", type=int, default=60)
    ap.add_argument("--selfplay", type=int, default=0, metavar="N",
                    help="also count the first seat's keys in N games of --agent against itself")
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--redraw-only", action="store_true", help="time the redraw only (no keystrokes counted)")
    ap.add_argument("--size", default="120x40", help="the screen's columns x lines (default 120x40)")
    args = ap.parse_args()
    sources = [] if args.redraw_only else [(str(args.file), lambda: file_decisions(args.file))]
    if args.selfplay:
        sources.append((f"{args.selfplay} games of {args.agent}",
                        lambda: selfplay_decisions(args.selfplay, args.agent, 1)))
    for name, source in sources:
        for auto in (False, True):
            report(name, auto, *keystrokes(source(), auto))
    match = late_position(args.file)
    columns, lines = (int(n) for n in args.size.split("x"))
    moves, offers, rivals = asyncio.run(latency(match, args.presses, (columns, lines)))
    print(f"late game (round {match.state.round}, {match.state.n_players} players, {args.size}): key to redrawn "
          f"screen, median {moves:.1f} ms (highlight moved); a new decision's whole board {offers:.1f} ms"
          + (f"; the next rival in full ('>') {rivals:.1f} ms" if rivals is not None else ""))


def report(name: str, auto: bool, line: float, screen: float, count: int, rounds: int) -> None:
    print(f"{name}, auto-collect {'on' if auto else 'off'}: {count} decisions of the person asked in "
              f"{rounds} rounds; keystrokes per decision: line prompt {line:.2f}, full screen {screen:.2f}; "
              f"per round: line prompt {line * count / rounds:.1f}, full screen {screen * count / rounds:.1f}")


if __name__ == "__main__":
    main()
