"""Tournaments: agents play each other in seat-swapped pairs on the same deals, in parallel processes.

The schedule is a function of the agents, the number of games, the format and the seed alone, so the
same command plays the same games.  Every game (or match) is written to its own match file in the
output folder when it ends, beside ``tournament.json`` (the settings and the schedule); the standings
(`standings`) and ``summary.json``/``summary.csv`` can be rebuilt from those files alone.  A killed
tournament resumes by skipping the games whose files are finished.
"""

from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path
from collections.abc import Sequence
from typing import Any, Callable, Iterator, cast

import amigos
from ai.agents import make_agent
from ai.arena import wilson
from ai.runner import Runner, open_runner
from ai.sprt import Sprt, sprt_over_pairs
from amigos import cards as C
from amigos.rng import derive_seed
from amigos.setup import card_sets
from amigos.state import IN_PLAY, GameState

from .lock import Lock, clean_stale
from .match import Match, play
from .record import MatchFileError, load, save

MANIFEST = "tournament.json"


class TournamentError(amigos.AmigosError):
    """Bad tournament settings or a folder that holds another tournament."""


def schedule(agents: list[str], games: int, seed: int, gauntlet: bool = False) -> list[dict]:
    """Every game to play: ``games`` per pairing (rounded up to whole seat-swapped pairs)."""
    if len(agents) < 2:
        raise TournamentError("a tournament needs at least two agents")
    for spec in agents:
        make_agent(spec)  # a spec that parses but cannot be built is refused here, before any file
    if games < 1:
        raise TournamentError("--games must be at least 1")
    pairings = [(0, j) for j in range(1, len(agents))] if gauntlet else \
        [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    jobs = []
    for i, j in pairings:
        for k in range((games + 1) // 2):
            deal = derive_seed(seed, "deal", i, j, k)
            for swap in (0, 1):
                seats = (i, j) if swap == 0 else (j, i)
                jobs.append({"id": f"{i}-{j}-{k}-{swap}", "seats": list(seats), "seed": deal})
    return jobs


def manifest(agents: list[str], games: int, fmt: str, variant: str, seed: int, gauntlet: bool,
             sprt: dict | None = None, expansions: Sequence[str] = ()) -> dict:
    """The settings and schedule written to ``tournament.json``.  ``sprt`` ({"elo0", "elo1", "alpha",
    "beta"}) makes the tournament a sequential test of its two agents (`sprt_of`): ``games`` is then
    the most it plays.  ``expansions`` (e.g. ``("lux",)``) are played in every game and kept as
    ``"expansions"``; a base-game tournament has no such key (as those made before expansions)."""
    if sprt is not None and (len(agents) != 2 or gauntlet):
        raise TournamentError("--sprt tests two agents against each other: give exactly two --agent")
    expansions = list(dict.fromkeys(expansions))
    try:
        card_sets(expansions)
    except amigos.SetupError as exc:
        raise TournamentError(str(exc)) from None
    settings: dict[str, Any] = {"format": "amigos.tournament", "version": 1, "agents": list(agents), "games": games,
                                "match_format": fmt, "variant": variant}
    if expansions:
        settings["expansions"] = expansions
    settings.update({"seed": seed, "gauntlet": gauntlet, "schedule": schedule(agents, games, seed, gauntlet)})
    if sprt is not None:
        settings["sprt"] = dict(sprt)
    return settings


def sprt_of(settings: dict, outcomes: list[dict]) -> Sprt | None:
    """The SPRT of a tournament run with ``--sprt`` (None without), over its seat-swapped pairs in
    schedule order, the first agent's points over each pair; see `ai.sprt.sprt_over_pairs`."""
    test = settings.get("sprt")
    if test is None:
        return None
    by_id = {o["id"]: o for o in outcomes}
    scores: list[float | None] = []
    jobs = settings["schedule"]
    for k in range(0, len(jobs) - 1, 2):
        pair = [by_id.get(jobs[k]["id"]), by_id.get(jobs[k + 1]["id"])]
        scores.append(None if None in pair else sum(_first_agent_score(cast("dict", o)) for o in pair))
    return sprt_over_pairs(scores, test["elo0"], test["elo1"], test["alpha"], test["beta"])


def _first_agent_score(o: dict) -> float:
    """The first agent's points in one finished game or match: 1, 0.5 (shared) or 0."""
    if o["winner"] is None:
        return 0.5
    return 1.0 if o["seats"][o["winner"]] == 0 else 0.0


def check_folder(out: Path, settings: dict, resume: bool) -> None:
    """Refuse a folder that holds another tournament, or this one without ``resume``."""
    path = out / MANIFEST
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError):
            raise TournamentError(f"{path}: not a tournament manifest") from None
        if old != settings:
            raise TournamentError(f"{out} holds a different tournament; choose another --out")
        if not resume:
            raise TournamentError(f"{out} holds this tournament already; add --resume to continue it")


def prepare(out: Path, settings: dict, resume: bool, warn: Callable[[str], object] | None = None) -> list[dict]:
    """Create or check the output folder; returns the jobs still to play.  A game file that is corrupt
    or not the scheduled game (`foreign`) is put aside as ``ID.amigos.rejected``, told to
    ``warn(line)``, and its game played again."""
    check_folder(out, settings, resume)
    out.mkdir(parents=True, exist_ok=True)
    path = out / MANIFEST
    if not path.exists():
        path.write_text(json.dumps(settings, indent=1))
    todo = []
    for job in settings["schedule"]:
        file = out / f"{job['id']}.amigos"
        if os.path.lexists(file):
            clean_stale(file)
            match, problem = scheduled_match(file, job, settings)
            if problem is None and cast("Match", match).is_over():  # (a match whenever no problem)
                continue
            if problem is not None:
                aside = file.with_name(file.name + ".rejected")
                if not os.path.lexists(aside):  # the first one put aside is kept; later ones go
                    os.replace(file, aside)
                elif file.is_dir() and not file.is_symlink():
                    raise TournamentError(f"{file}: a folder where a game file belongs; remove it")
                else:
                    file.unlink()
                if warn:
                    warn(f"{file}: {problem}; put aside as {aside.name}, the game is played again")
        todo.append(job)
    return todo


def scheduled_match(file: Path, job: dict, settings: dict) -> tuple[Match | None, str | None]:
    """The match in ``file`` and None, or None and why it cannot count for ``job``: unreadable, or
    another game than the one scheduled (seed, agents and seats, format, variant)."""
    try:
        match = load(file)
    except MatchFileError as exc:
        return None, str(exc).removeprefix(f"{file}: ")
    record = match.record
    specs = [settings["agents"][a] for a in job["seats"]]
    expected = {"seed": job["seed"], "agents": specs, "best_of": 3 if settings["match_format"] == "match" else 1,
                "variant": settings["variant"], "expansions": list(settings.get("expansions") or ())}
    found = {"seed": record["seed"], "agents": [p["spec"] for p in record["players"]],
             "best_of": record["best_of"], "variant": record["variant"], "expansions": list(match.expansions)}
    for field, value in expected.items():
        if found[field] != value:
            return None, f"not this tournament's game ({field} differs from the schedule)"
    return match, None


def play_job(job: dict, settings: dict) -> dict:
    """Play one scheduled game or match and return its record (`Match.record`), plain data that any
    runner's worker (a local process or a Dask worker on another machine) hands back to the client,
    which writes the file (`save_job`).  ``settings``: the manifest's agents, match format, variant
    and expansions (the schedule is not needed).  A function of the job and the settings alone: the
    same job gives the same game on any worker (with iteration budgets)."""
    specs = [settings["agents"][a] for a in job["seats"]]
    names = [f"{specs[p]} #{job['seats'][p] + 1}" for p in range(2)]
    match = Match.new(job["seed"], specs, variant=settings["variant"], fmt=settings["match_format"], names=names,
                      expansions=settings.get("expansions") or ())
    agents = [make_agent(spec, seed=derive_seed(job["seed"], "seat", p, spec)) for p, spec in enumerate(specs)]
    play(match, agents)
    for agent in agents:
        agent.close()
    return match.record


def save_job(out: Path, job: dict, record: dict) -> dict:
    """Write a finished job's match file (``ID.amigos`` in ``out``) from its record, in the client;
    returns its outcome.  A record made by another version of amigos (a worker installed apart) is
    refused: its games would not be this tournament's."""
    for field, mine in (("app_version", amigos.__version__), ("rules_version", amigos.RULES_VERSION)):
        if record.get(field) != mine:
            raise TournamentError(f"a worker runs amigos with {field} {record.get(field)}, this program "
                                  f"{mine}: install the same version on every machine")
    match = Match(record)  # (only saved and summed up: no replay needed)
    save(match, out / f"{job['id']}.amigos")
    return outcome(job, match)


def outcome(job: dict, match: Match) -> dict:
    """What the standings need from one finished game or match."""
    result = match.record["result"]
    return {"id": job["id"], "seats": job["seats"], "winner": None if result["shared"] else result["winner"],
            "score": result["score"], "games": [g["result"] for g in match.record["games"]]}


def run(out: Path, agents: list[str], games: int, fmt: str, variant: str, seed: int, jobs: int = 1,
        gauntlet: bool = False, resume: bool = False,
        on_result: Callable[[dict, int, int], object] | None = None, sprt: dict | None = None,
        warn: Callable[[str], object] | None = None, expansions: Sequence[str] = (),
        runner: Runner | None = None) -> list[dict]:
    """Play the tournament (what is left of it), holding the folder's lock (`InUse` if another
    program runs it); ``on_result(outcome, done, total)`` after each game, ``warn(line)`` for a game
    file put aside.  Games are played by ``runner`` (`ai.runner`, e.g. a `DaskRunner` on a cluster;
    by default ``jobs`` local processes), which this function stops when it returns; whichever
    plays them, this process writes every file, once per game.  With ``sprt`` (see `manifest`) it
    stops as soon as the test reaches a verdict: games in flight then are stopped and not counted.
    ``expansions``: played in every game (see `manifest`)."""
    out = Path(out)
    if fmt not in ("game", "match"):
        raise TournamentError("--format must be game or match")
    if variant not in amigos.VARIANTS:
        raise TournamentError(f"unknown variant {variant!r}")
    settings = manifest(agents, games, fmt, variant, seed, gauntlet, sprt, expansions)
    with runner or open_runner(jobs) as runner:
        out.mkdir(parents=True, exist_ok=True)
        with Lock(out):
            return _run(out, settings, runner, resume, on_result, warn)


def _run(out: Path, settings: dict, runner: Runner, resume: bool,
         on_result: Callable[[dict, int, int], object] | None, warn: Callable[[str], object] | None) -> list[dict]:
    todo = prepare(out, settings, resume, warn)
    total = len(settings["schedule"])
    done = total - len(todo)
    results: list[dict] = []
    decided = _verdict_watch(out, settings) if "sprt" in settings else None
    if decided is not None and decided(None):
        return results
    by_id = {job["id"]: job for job in todo}
    # What a game needs of the settings, without the schedule: sent with every job, it would make
    # sending a large tournament's jobs quadratic in its games.
    rules = {key: value for key, value in settings.items() if key != "schedule"}
    for job in todo:
        runner.submit(job["id"], play_job, job, rules)
    written: set[str] = set()
    for key, record in runner.as_completed():
        if key in written:  # (a job run twice, e.g. after a lost worker: its first record counts)
            continue
        r = save_job(out, by_id[key], record)
        written.add(key)
        done += 1
        results.append(r)
        if on_result:
            on_result(r, done, total)
        if decided is not None and decided(r):
            break  # (leaving the runner's block cancels the games not yet played)
    return results


def _verdict_watch(out: Path, settings: dict) -> Callable[[dict | None], bool]:
    """A function of each new outcome (or None) that tells whether the tournament's SPRT has reached
    a verdict, counting the games already in ``out``."""
    try:
        _, outcomes = collect(out)
    except amigos.AmigosError:
        outcomes = []

    def decided(outcome: dict | None) -> bool:
        if outcome is not None:
            outcomes.append(outcome)
        return cast("Sprt", sprt_of(settings, outcomes)).result != "continue"  # (settings have an "sprt")

    return decided


# -- standings ------------------------------------------------------------------------------------------

def collect(out: Path, warn: Callable[[str], object] | None = None) -> tuple[dict, list[dict]]:
    """The manifest and the outcome of every finished game in ``out``, from the files alone; a file
    that is not the scheduled game is told to ``warn(line)`` and not counted."""
    try:
        settings = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        raise TournamentError(f"{out}: no tournament here ({MANIFEST} missing or unreadable)") from None
    outcomes = []
    for job in settings["schedule"]:
        file = out / f"{job['id']}.amigos"
        if os.path.lexists(file):
            match, problem = scheduled_match(file, job, settings)
            if problem is not None:
                if warn:
                    warn(f"{file}: {problem}; not counted")
                continue
            assert match is not None  # (no problem: a match)
            if match.is_over():
                outcomes.append(outcome(job, match))
    return settings, outcomes


def standings(agents: list[str], outcomes: list[dict]) -> list[dict]:
    """Per agent: games, wins, losses, shared, win rate with a 95% interval, Elo with its error."""
    n = len(agents)
    rows: list[dict[str, Any]] = [{"agent": spec, "index": i, "games": 0, "wins": 0, "losses": 0, "shared": 0}
                                  for i, spec in enumerate(agents)]
    pairs = []  # (a, b, score of a)
    for o in outcomes:
        a, b = o["seats"]
        for seat, agent in enumerate(o["seats"]):
            row = rows[agent]
            row["games"] += 1
            if o["winner"] is None:
                row["shared"] += 1
            elif o["winner"] == seat:
                row["wins"] += 1
            else:
                row["losses"] += 1
        pairs.append((a, b, 0.5 if o["winner"] is None else (1.0 if o["winner"] == 0 else 0.0)))
    elo, err = _elo(n, pairs)
    for row in rows:
        points = row["wins"] + 0.5 * row["shared"]
        row["rate"] = points / row["games"] if row["games"] else 0.0
        row["low"], row["high"] = wilson(points, row["games"])
        row["elo"] = elo[row["index"]]
        row["elo_error"] = err[row["index"]]
    return sorted(rows, key=lambda r: (-r["elo"], r["index"]))


def _elo(n: int, pairs: list[tuple[int, int, float]]) -> tuple[list, list]:
    """Bradley-Terry ratings on the Elo scale (mean 0) by minorise-maximise, and 95% error bars from
    the Fisher information (each rating's own term; a rough but honest size)."""
    if not pairs:
        return [0.0] * n, [float("inf")] * n
    strength = [1.0] * n
    wins = [0.5] * n  # a tiny prior keeps the ratings finite when an agent wins or loses everything
    games: dict[tuple[int, int], int] = {}
    for a, b, s in pairs:
        wins[a] += s
        wins[b] += 1 - s
        games[(a, b)] = games.get((a, b), 0) + 1
    for _ in range(500):
        new = []
        for i in range(n):
            denom = 0.0
            for (a, b), g in games.items():
                if a == i or b == i:
                    other = b if a == i else a
                    denom += g / (strength[i] + strength[other])
            denom += 1.0 / (strength[i] + 1.0)  # the prior's virtual game against a rating-0 opponent
            new.append(wins[i] / denom if denom else strength[i])
        mean = math.exp(sum(math.log(x) for x in new) / n)
        strength = [x / mean for x in new]
    elo = [400 * math.log10(x) for x in strength]
    err = []
    for i in range(n):
        info = 0.0
        for (a, b), g in games.items():
            if a == i or b == i:
                other = b if a == i else a
                p = strength[i] / (strength[i] + strength[other])
                info += g * p * (1 - p)
        se = 1 / math.sqrt(info) if info > 0 else float("inf")
        err.append(1.96 * se * 400 / math.log(10))
    return elo, err


def write_summary(out: Path) -> list[dict]:
    """Rebuild ``summary.json`` and ``summary.csv`` in ``out`` from its files; returns the standings."""
    settings, outcomes = collect(out)
    rows = standings(settings["agents"], outcomes)
    data = {"agents": settings["agents"], "format": settings["match_format"], "variant": settings["variant"],
            "expansions": list(settings.get("expansions") or ()), "seed": settings["seed"], "played": len(outcomes), "scheduled": len(settings["schedule"]),
            "standings": rows}
    test = sprt_of(settings, outcomes)
    if test is not None:
        data["sprt"] = test.record()
    (out / "summary.json").write_text(json.dumps(data, indent=1))
    with open(out / "summary.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent", "games", "wins", "losses", "shared", "win_rate", "rate_low", "rate_high", "elo",
                    "elo_error"])
        for r in rows:
            w.writerow([r["agent"], r["games"], r["wins"], r["losses"], r["shared"], f"{r['rate']:.4f}",
                        f"{r['low']:.4f}", f"{r['high']:.4f}", f"{r['elo']:.1f}", f"{r['elo_error']:.1f}"])
    return rows


# -- card statistics --------------------------------------------------------------------------------------

def card_stats(out: Path) -> list[dict]:
    """For every card: how often a player who drafted (was dealt), played or claimed it won that game,
    with 95% intervals; from the match files alone.  Claimed: a monument or place of power its owner
    has at the game's end, or a scroll (of the *Lux et Tenebrae* expansion) the player claimed at any
    time in the game (a used scroll goes back to the centre, so the end alone would miss it)."""
    settings, _ = collect(out)
    tally: dict[str, dict[str, Any]] = {}

    def add(card_id: str, how: str, won: float) -> None:
        row = tally.setdefault(card_id, {"card": card_id, "drafted": [0, 0.0], "played": [0, 0.0],
                                         "claimed": [0, 0.0]})
        row[how][0] += 1
        row[how][1] += won

    for job in settings["schedule"]:
        file = out / f"{job['id']}.amigos"
        if not file.exists():
            continue
        match, problem = scheduled_match(file, job, settings)
        if problem is not None or not cast("Match", match).is_over():  # (a match whenever no problem)
            continue
        assert match is not None  # (no problem: a match)
        for game in _replayed_games(match):
            state, placed, scrolls, result = game
            won = result["winners"]
            for p in range(2):
                share = (1.0 / len(won)) if p in won else 0.0
                for e in range(state.n_art):
                    if _dealt_to(state, e) == p:
                        add(state.cards[e].id, "drafted", share)
                for cid in placed[p]:
                    add(cid, "played", share)
                for e, c in enumerate(state.cards):
                    if c.kind in (C.MONUMENT, C.PLACE_OF_POWER) and state.owner[e] == p and state.loc[e] == IN_PLAY:
                        add(c.id, "claimed", share)
                for cid in sorted(scrolls[p]):
                    add(cid, "claimed", share)
    rows = []
    for row in tally.values():
        out_row = {"card": row["card"], "name": C.BY_ID[row["card"]].name}
        for how in ("drafted", "played", "claimed"):
            n, w = row[how]
            low, high = wilson(w, n)
            out_row[how] = {"games": n, "win_rate": w / n if n else None, "low": low, "high": high}
        rows.append(out_row)
    return sorted(rows, key=lambda r: r["name"])


def _dealt_to(state: GameState, e: int) -> int:
    """The player whose artifacts entity ``e`` belongs to (its owner, unless a Dragon was taken)."""
    return state.owner[e] if state.owner[e] in (0, 1) else -1


class _Replayed(Match):
    """A match replayed (`Match.from_record`) that keeps each game's final position and the scrolls
    each player held at some point of each game, looked at after every move."""

    def __init__(self, record: dict) -> None:
        super().__init__(record)
        self.finals: list[GameState] = []
        self.scrolls: list[list[set[str]]] = []  # per game, per player: scroll ids
        self._cards: tuple | None = None  # the card list of the game `_scroll_entities` belongs to
        self._scroll_entities: list[int] = []

    def _start_game(self, expected_seed: int | None = None) -> None:
        self.scrolls.append([set(), set()])
        super()._start_game(expected_seed)

    def _after_move(self) -> None:
        state = self.state
        if self._cards is not state.cards:  # a new game: its entities are numbered anew
            self._cards = state.cards
            self._scroll_entities = [e for e, c in enumerate(state.cards) if c.kind == C.SCROLL]
        held = self.scrolls[-1]
        for e in self._scroll_entities:
            if state.loc[e] == IN_PLAY and state.owner[e] in (0, 1):
                held[state.owner[e]].add(state.cards[e].id)
        if state.is_terminal() and len(self.finals) < self.game_number:
            self.finals.append(state)  # (the next game gets a state of its own)
        super()._after_move()


def _replayed_games(match: Match) -> Iterator[tuple[GameState, list[list[str]], list[set[str]], dict]]:
    """(final state, artifacts each player placed, scrolls each player claimed, result) of every game
    of a finished match, from one replay of its record."""
    record = match.record
    watched = cast("_Replayed", _Replayed.from_record(record))
    for gi, game in enumerate(record["games"]):
        placed: list[list[str]] = [[], []]
        for d in game["decisions"]:
            if d[1]["__type__"] == "PlaceArtifact":
                placed[d[0]].append(C.BY_NAME[d[1]["artifact_name"]].id)
        yield watched.finals[gi], placed, watched.scrolls[gi], game["result"]
