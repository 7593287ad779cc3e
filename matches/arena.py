"""Playing agents against each other, and measuring how often one beats another.

Games are played in pairs on the same deal with the seats swapped, so that neither agent profits from
a lucky deal or from the first-player draw.  `strength` runs pairs in parallel processes (or on a Dask cluster: `matches.runner`) and reports
the win rate with a 95% Wilson interval (a shared victory counts half).  The command that runs it is
``lab/strength.py``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import amigos
from ai.agents import make_agent
from amigos.adjudicate import adjudicated
from amigos.config import GameConfig
from amigos.rng import derive_seed

from .play import Game, play_out
from .runner import open_runner
from .sprt import SprtTest, sprt_over_pairs


def play_game(seed: int, config: GameConfig, specs: list[str], agent_seed: int | None = None,
              make: Callable[..., Any] = make_agent) -> dict[str, Any]:
    """One game of ``config`` dealt by ``seed``: ``specs[p]`` plays seat ``p``, built by
    ``make(spec, seed=...)`` (`Agent` each).  Returns winners, points, decision counts (``chose``: each
    seat's decisions among two or more legal actions), each seat's seconds of thought, and whether the
    game was decided at the round limit (`amigos.adjudicate`)."""
    state = amigos.deal(seed, config)
    base = seed if agent_seed is None else agent_seed
    agents = [make(spec, seed=derive_seed(base, "agent", p)) for p, spec in enumerate(specs)]
    game = Game(state, f"game {seed}")
    play_out(game, agents)
    for agent in agents:
        agent.close()
    return {"winners": state.winners(), "vp": state.victory_points(), "decisions": len(game.choices),
            "rounds": state.round, "thought": game.thought, "chose": game.chose, "adjudicated": adjudicated(state)}


def score_for(result: dict[str, Any], seat: int) -> float:
    """1 for a win, 0.5 for a shared win, 0 for a loss."""
    won = result["winners"]
    if seat not in won:
        return 0.0
    return 1.0 if len(won) == 1 else 0.5


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _pair(args: tuple[int, GameConfig, str, str, Callable[..., Any]]
          ) -> tuple[int, float, dict[str, Any], dict[str, Any]]:
    seed, config, a, b, make = args
    first = play_game(seed, config, [a, b], make=make)
    second = play_game(seed, config, [b, a], make=make)
    return seed, score_for(first, 0) + score_for(second, 1), first, second


def strength(a: str, b: str, games: int, config: GameConfig = GameConfig(), jobs: int = 1, seed: int = 0,
             out: Callable[[str], object] | None = None, first: int = 0,
             record: Callable[[dict[str, Any]], object] | None = None, make: Callable[..., Any] = make_agent,
             sprt: SprtTest | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """Play ``games`` games (``games // 2`` pairs, the deals of pairs ``first``, ``first + 1``, ... of
    ``seed``) of ``a`` against ``b``; returns the tally.  ``out(line)`` hears a progress line after
    every pair, ``record(pair)`` the pair's `pair_record`, in pair order whatever order the pairs end
    in.  Splitting a run by ``first`` plays exactly the deals of the whole run.  Pairs are played in
    ``jobs`` local processes, or with ``scheduler`` (a Dask scheduler's address) on its cluster
    (`matches.runner`).  ``make(spec, seed=...)`` builds the agents (it must be picklable when ``jobs > 1``
    or on a cluster).  With ``sprt`` (a `matches.sprt.SprtTest`) the run stops at the test's
    verdict (`matches.sprt`), which the result holds as ``"sprt"``; ``games`` is then the most played.
    Every game is set up by ``config``."""
    pairs = max(1, games // 2)
    records = []
    total = 0.0
    start = time.perf_counter()
    test = None
    with open_runner(jobs, scheduler) as runner:
        for i in range(first, first + pairs):
            runner.submit(str(i), _pair, (derive_seed(seed, "pair", i), config, a, b, make))
        for i, (_, points, g1, g2) in in_order(runner.as_completed(), first):
            records.append(pair_record(i, seed, config.variant, a, b, points, g1, g2))
            if config.expansions:
                records[-1]["expansions"] = list(config.expansions)
            if record is not None:
                record(records[-1])
            total += points
            _progress(out, a, b, total, 2 * len(records), start)
            if sprt is not None:
                test = sprt_over_pairs([r["points"] for r in records], *sprt)
                if out is not None:
                    out(test.line())
                if test.result != "continue":
                    break  # (leaving the runner's block cancels the pairs not played)
    result = tally(records)
    if test is not None:
        result["sprt"] = test.record()
    result.update(a=a, b=b, seconds=time.perf_counter() - start,
                  a_seconds_per_choice=result["a_seconds_per_choice"] or 0.0)
    return result


def seat_deal(seed: int, config: GameConfig, a: str, b: str, make: Callable[..., Any] = make_agent
              ) -> list[dict[str, Any]]:
    """One deal of ``config`` played once for each seat, ``a`` in that seat and ``b`` in every other:
    each game's seat of ``a``, winners, points and rounds."""
    out = []
    for seat in range(config.players):
        specs = [a if p == seat else b for p in range(config.players)]
        result = play_game(seed, config, specs, make=make)
        out.append({"seat": seat, "winners": result["winners"], "vp": result["vp"], "rounds": result["rounds"]})
    return out


def seat_points(games: Iterable[dict[str, Any]]) -> float:
    """What the agent in one seat scored over `seat_deal`'s games: 1 a win, 1/k a win shared by k."""
    return sum(1.0 / len(g["winners"]) for g in games if g["seat"] in g["winners"])


def seated(a: str, b: str, deals: int, config: GameConfig, jobs: int = 1, seed: int = 0,
           scheduler: str | None = None, make: Callable[..., Any] = make_agent) -> dict[str, Any]:
    """``a`` in one seat of a table of ``config.players``, ``b`` in the others, every seat in turn on each
    of ``deals`` deals of ``seed`` (`seat_deal`), so that every seat's luck is shared out alike:
    {"games", "score", "rate", "low", "high", "fair"} (a 95% Wilson interval; ``fair``: 1 / players, the
    share of an agent as strong as ``b``)."""
    by_deal: dict[int, float] = {}
    with open_runner(jobs, scheduler) as runner:
        for d in range(deals):
            runner.submit(str(d), seat_deal, derive_seed(seed, "deal", d), config, a, b, make)
        for key, games in runner.as_completed():
            by_deal[int(key)] = seat_points(games)
    points = sum(by_deal[d] for d in range(deals))  # (in deal order: the same sum whatever order they end in)
    played = deals * config.players
    low, high = wilson(points, played)
    return {"games": played, "score": points, "rate": points / played, "low": low, "high": high,
            "fair": 1.0 / config.players}


def in_order(results: Iterable[tuple[str, Any]], first: int = 0) -> Iterator[tuple[int, Any]]:
    """``(int(key), result)`` of jobs keyed ``str(first)``, ``str(first + 1)``, ... in the order of
    their keys, each yielded as soon as every job before it has ended (so that records and a
    sequential test read the pairs in order, whatever order parallel workers end them in)."""
    held: dict[int, Any] = {}
    following = first
    for key, result in results:
        held[int(key)] = result
        while following in held:
            yield following, held.pop(following)
            following += 1


def pair_record(index: int, seed: int, variant: str, a: str, b: str, points: float, first: dict[str, Any],
                second: dict[str, Any]) -> dict[str, Any]:
    """One pair's result as plain data (a JSON line of ``strength.py --record``): the pair's index and
    the run's seed (together they name the deal), A's points out of 2, and per game (A in seat 0, then
    in seat 1) the points, rounds, whether it was adjudicated and each agent's thinking time and
    number of choices."""
    games = []
    for seat, g in ((0, first), (1, second)):
        games.append({"vp": g["vp"], "winners": g["winners"], "rounds": g["rounds"],
                      "adjudicated": g["adjudicated"], "a_thought": round(g["thought"][seat], 4),
                      "a_chose": g["chose"][seat], "b_thought": round(g["thought"][1 - seat], 4),
                      "b_chose": g["chose"][1 - seat]})
    return {"pair": index, "seed": seed, "variant": variant, "a": a, "b": b, "points": points, "games": games}


def tally(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Combine pair records (of one run, or of a run split by pairs) into the totals `strength`
    reports; a pair recorded twice must agree with itself.  Returns games, score, rate, the Wilson
    interval, adjudicated games and A's seconds per choice."""
    by_pair: dict[tuple[int, int], dict[str, Any]] = {}
    for r in records:
        key = (r["seed"], r["pair"])
        if key in by_pair and by_pair[key]["points"] != r["points"]:
            raise ValueError(f"pair {r['pair']} of seed {r['seed']} is recorded twice with different results")
        by_pair[key] = r
    score = sum(r["points"] for r in by_pair.values())
    games = 2 * len(by_pair)
    thought = sum(g["a_thought"] for r in by_pair.values() for g in r["games"])
    chose = sum(g["a_chose"] for r in by_pair.values() for g in r["games"])
    low, high = wilson(score, games)
    return {"games": games, "score": score, "rate": score / games if games else 0.0, "low": low, "high": high,
            "adjudicated": sum(g["adjudicated"] for r in by_pair.values() for g in r["games"]),
            "a_seconds_per_choice": thought / chose if chose else None}


def paired_difference(a: dict[Any, float], b: dict[Any, float], z: float = 1.96) -> dict[str, Any]:
    """Two runs compared deal by deal: ``a`` and ``b`` map a deal (e.g. (seed, pair)) to the points
    out of 2 that each run's agent A scored on it.  Over the deals both played: their number, the
    mean difference a - b in points per 100 games and its 95% half-width (normal approximation),
    and how many deals each scored more on."""
    common = sorted(set(a) & set(b))
    d = [a[k] - b[k] for k in common]
    n = len(d)
    if n < 2:
        raise ValueError("a paired comparison needs at least two deals played by both runs")
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    return {"deals": n, "per_100_games": 50 * mean, "half_width": 50 * z * sd / math.sqrt(n),
            "a_better": sum(x > 0 for x in d), "b_better": sum(x < 0 for x in d)}


def _progress(out: Callable[[str], object] | None, a: str, b: str, total: float, played: int, start: float) -> None:
    if out is None:
        return
    low, high = wilson(total, played)
    out(f"{a} vs {b}: {total:g}/{played} = {total / played:.1%} (95% {low:.1%}-{high:.1%}), "
        f"{time.perf_counter() - start:.0f} s")
