"""Where the review's two seeds disagree, and what would make them agree (issue 55: >= 90% of decisions
graded alike by two seeds at the default budget).

    python -m lab.review_noise --seed 2 --iters 1500 --focus 300 --record lab/runs/review/noise-2.jsonl

A self-play best of three of ``--agent`` (seeded as `lab.review_measures` seeds its k-th match), then for
each decision and review seeds 0 and 1: the search's chances of every move (`matches.review.chances`),
and, where the move played is not the preferred one, a search of ``--focus`` iterations through each of
the two alone (the root given that one move) for their chances with equal visits.  A line of the record
per decision: the visits and chances of the played and preferred moves by each seed, and the focused
chances; `summary` compares the grades of the current rule with those of the focused one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ai import mcts as M
from ai.agents import make_agent
from ai.evaluator import default_evaluator
from amigos import actions as A
from amigos.config import GameConfig
from amigos.rng import derive_seed
from lab.run_report import say_build
from matches import review as R
from matches.match import Match, play
from matches.session import history


def focused(state: Any, seat: int, key: tuple[Any, ...], iters: int, seed: int) -> float:
    """The chance of the move ``key`` by a search of ``iters`` iterations through it alone."""
    group = next(g for g in state.legal_groups() if A.macro_key(g[0]) == key)
    root, _ = M.grow(state, seat, iters, None, seed, root_groups={key: group}, evaluator=default_evaluator())
    if key in root.children:
        child = root.children[key]
        return child.w / child.n if child.n else 0.0
    # (a move of one way is played through: the root's children are the next decision's moves)
    n = sum(c.n for c in root.children.values())
    w = sum(c.w for c in root.children.values())
    movers = {c.player for c in root.children.values()}
    mean = w / n if n else 0.5
    return mean if movers == {seat} else 1.0 - mean


def decisions(seed: int, agent: str, iters: int, focus: int) -> list[dict[str, Any]]:
    match = Match.new(seed, [agent, agent], GameConfig(), fmt="match")
    play(match, [make_agent(agent, seed=2 * seed), make_agent(agent, seed=2 * seed + 1)])
    out = []
    counts: dict[int, int] = {}
    for step in history(match.record):
        k = counts[step.game] = counts.get(step.game, -1) + 1
        if step.action is None or len(step.before.legal_groups()) < 2:
            continue
        played = A.macro_key(step.action)
        line: dict[str, Any] = {"game": step.game, "index": k, "moves": len(step.before.legal_groups()), "seeds": []}
        for review_seed in (0, 1):
            s = derive_seed(review_seed, "review", step.game, k)
            found = R.chances(step.before, step.actor, iters, s)
            best = R.preferred_move(found)
            entry = {"best_visits": found[best][0], "best": found[best][1],
                     "played_visits": found.get(played, (0, 0.0))[0], "played": found.get(played, (0, 0.0))[1],
                     "same": best == played, "best_key": repr(best)}
            if best != played:
                entry["focus_best"] = focused(step.before, step.actor, best, focus, s + 1)
                entry["focus_played"] = focused(step.before, step.actor, played, focus, s + 2)
            line["seeds"].append(entry)
        out.append(line)
    return out


def grades(line: dict[str, Any], rule: str) -> list[str]:
    """The two seeds' grades of a decision by ``rule``: "now" (the review's) or "focus"."""
    out = []
    for e in line["seeds"]:
        if e["same"]:
            out.append("best")
        elif rule == "now":
            out.append(R.grade(max(0.0, e["best"] - e["played"])))
        else:
            out.append(R.grade(max(0.0, e["focus_best"] - e["focus_played"])))
    return out


def summary(lines: list[dict[str, Any]]) -> str:
    parts = []
    for rule in ("now", "focus"):
        alike = sum(len(set(grades(line, rule))) == 1 for line in lines)
        parts.append(f"{rule}: {alike}/{len(lines)} = {100 * alike / max(1, len(lines)):.1f}%")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    say_build()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--agent", default="mcts:iters=300")
    ap.add_argument("--iters", type=int, default=R.DEFAULT_ITERS)
    ap.add_argument("--focus", type=int, default=300)
    ap.add_argument("--record", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.record.exists():
        lines = [json.loads(line) for line in args.record.read_text().splitlines()]
    else:
        lines = decisions(args.seed, args.agent, args.iters, args.focus)
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text("".join(json.dumps(line) + "\n" for line in lines))
    print(summary(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
