"""Tournaments: agents play each other in seat-swapped pairs on the same deals, in parallel processes.

The schedule is a function of the agents, the number of games, the format and the seed alone, so the
same command plays the same games.  Every game (or match) is written to its own match file in the
output folder when it ends (named by `game_file`, its schedule id kept in the file), beside
``tournament.json`` (the settings and the schedule); the standings (`standings`) and the reports
(`matches.report`, `matches.cardstats`) are rebuilt from those files alone.  A killed tournament
resumes by skipping the games whose files are finished.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Final, Literal, cast, get_args

import amigos
from ai.agents import make_agent
from amigos import files
from amigos.config import OFFICIAL, GameConfig
from amigos.rng import derive_seed
from matches.arena import wilson
from matches.runner import Runner, open_runner
from matches.sprt import Sprt, SprtTest, sprt_over_pairs

from . import manifest as M
from .lock import Lock, clean_stale
from .manifest import TournamentError
from .match import Match, config_of, play
from .record import MatchFileError, load, save

MANIFEST = M.NAME
MANIFEST_FORMAT = M.FORMAT
MATCH_SUFFIX = ".amigos"
SIDES = "abcde"  # a deal's games: "a" with the table's first agent in seat 1, "b" with the seats turned once, ...
NAME_CHARS = re.compile(r"[^A-Za-z0-9._=+-]")  # what a file name keeps of an agent's name; the rest is "_"
MAX_NAME_IN_FILE = 40  # of each agent's name in a file name: two of them stay far below 255 bytes


def schedule(agents: list[str], games: int, seed: int, gauntlet: bool = False, table: int = 2) -> list[dict[str, Any]]:
    """Every game to play: each table of ``table`` agents (every pairing with two; every combination
    of that many with more; with ``gauntlet`` only those the first agent sits at) plays ``games`` games,
    rounded up to whole deals: a deal is played once in each rotation of the seats."""
    if len(agents) < max(2, table):
        raise TournamentError(f"a tournament of {table}-player games needs at least {max(2, table)} agents "
                              "(give an agent twice to seat it twice)")
    for spec in agents:
        make_agent(spec)  # a spec that parses but cannot be built is refused here, before any file
    if len(agents) > M.MAX_AGENTS:
        raise TournamentError(f"a tournament takes at most {M.MAX_AGENTS} agents")
    if games < 1:
        raise TournamentError("--games must be at least 1")
    tables = [t for t in combinations(range(len(agents)), table) if not gauntlet or t[0] == 0]
    deals = -(-games // table)
    if len(tables) * table * deals > M.MAX_SCHEDULE:
        raise TournamentError(f"a tournament plays at most {M.MAX_SCHEDULE} games: fewer --games or agents")
    jobs = []
    for seats in tables:
        for k in range(deals):
            deal = derive_seed(seed, "deal", *seats, k)
            for turn in range(table):  # (with two: the seats as listed, then swapped)
                jobs.append({"id": "-".join(map(str, seats)) + f"-{k}-{turn}",
                             "seats": list(seats[turn:] + seats[:turn]), "seed": deal})
    return jobs


MatchFormat = Literal["game", "match"]
MATCH_FORMATS: tuple[MatchFormat, ...] = get_args(MatchFormat)


@dataclass(frozen=True)
class TournamentSpec:
    """What a tournament plays, all of which `manifest` writes to ``tournament.json``: ``games`` games
    (or best-of-three matches, ``fmt="match"``) per table of ``agents`` (a round robin of pairings, or
    of every ``config.players`` of them at a table; the first against each other with ``gauntlet``),
    dealt from ``seed`` with ``config``'s variant, ruleset and expansions.  ``sprt`` makes it a
    sequential test of its two agents (`sprt_of`): ``games`` is then the most it plays.
    `TournamentError` (one line) for settings no tournament can have."""

    agents: tuple[str, ...]
    games: int
    seed: int = 0
    fmt: MatchFormat = "game"
    config: GameConfig = GameConfig()
    gauntlet: bool = False
    sprt: SprtTest | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "agents", tuple(self.agents))  # (a list given is kept as a tuple)
        if self.fmt not in MATCH_FORMATS:
            raise TournamentError(f"--format must be {' or '.join(MATCH_FORMATS)}, not {self.fmt!r}")
        if self.sprt is not None and (len(self.agents) != 2 or self.gauntlet or self.config.players != 2):
            raise TournamentError("--sprt tests two agents against each other: give exactly two --agent")
        if self.fmt == "match" and self.config.players != 2:
            raise TournamentError("a best-of-three match is for two players: --format game with --players")


def manifest(spec: TournamentSpec) -> dict[str, Any]:
    """The settings and schedule of ``spec`` as ``tournament.json`` keeps them; ``"expansions"`` and
    ``"ruleset"`` only where they are not the base game's official rules (as files made before them)."""
    config = spec.config
    settings: dict[str, Any] = {"format": MANIFEST_FORMAT, "version": 1, "agents": list(spec.agents),
                                "games": spec.games, "match_format": spec.fmt, "variant": config.variant}
    if config.expansions:
        settings["expansions"] = list(config.expansions)
    if config.ruleset != OFFICIAL:
        settings["ruleset"] = config.ruleset
    if config.players != 2:
        settings["table"] = config.players
    settings.update({"seed": spec.seed, "gauntlet": spec.gauntlet,
                     "schedule": schedule(list(spec.agents), spec.games, spec.seed, spec.gauntlet, config.players)})
    if spec.sprt is not None:
        settings["sprt"] = spec.sprt._asdict()
    return settings


def sprt_of(settings: dict[str, Any], outcomes: list[dict[str, Any]]) -> Sprt | None:
    """The SPRT of a tournament run with ``--sprt`` (None without), over its seat-swapped pairs in
    schedule order, the first agent's points over each pair; see `matches.sprt.sprt_over_pairs`."""
    test = settings.get("sprt")
    if test is None:
        return None
    by_id = {o["id"]: o for o in outcomes}
    scores: list[float | None] = []
    jobs = settings["schedule"]
    for k in range(0, len(jobs) - 1, 2):
        pair = [by_id.get(jobs[k]["id"]), by_id.get(jobs[k + 1]["id"])]
        scores.append(None if None in pair else sum(_first_agent_score(cast("dict[str, Any]", o)) for o in pair))
    return sprt_over_pairs(scores, test["elo0"], test["elo1"], test["alpha"], test["beta"])


def _first_agent_score(o: dict[str, Any]) -> float:
    """The first agent's points in one finished game or match: 1, 0.5 (shared) or 0."""
    if o["winner"] is None:
        return 0.5
    return 1.0 if o["seats"][o["winner"]] == 0 else 0.0


# -- names and files -------------------------------------------------------------------------------------

def agent_names(agents: Sequence[str]) -> list[str]:
    """The agents' names in the standings, the crosstable and the files: each spec, and ``spec#k``
    (k = 1, 2, ... in the order given) for a spec given more than once, so that no two are alike."""
    counts: dict[str, int] = {}
    for spec in agents:
        counts[spec] = counts.get(spec, 0) + 1
    seen: dict[str, int] = {}
    names = []
    for spec in agents:
        if counts[spec] == 1:
            names.append(spec)
        else:
            seen[spec] = seen.get(spec, 0) + 1
            names.append(f"{spec}#{seen[spec]}")
    return names


def deal_of(job: dict[str, Any], settings: dict[str, Any]) -> tuple[int, str]:
    """The deal a scheduled game plays, numbered from 0 in schedule order, and its side ("a", or "b",
    "c", ... with the seats turned once, twice, ...): a deal's games are next to each other in the
    schedule."""
    n = _positions(settings["schedule"]).get(job["id"])
    if n is None:
        raise TournamentError(f"game {job['id']!r} is not in the tournament's schedule")
    table = len(job["seats"])
    return n // table, SIDES[n % table]


_POSITIONS: list[tuple[list[dict[str, Any]], dict[str, int]]] = []  # the last schedules looked into, with their index


def _positions(jobs: list[dict[str, Any]]) -> dict[str, int]:
    """Each scheduled id's place in ``jobs``, built once per schedule (a folder's files are named by
    it: asked for each of a large schedule's games, a scan would be quadratic)."""
    for known, index in _POSITIONS:
        if known is jobs and len(index) == len(jobs):
            return index
    index = {job["id"]: n for n, job in enumerate(jobs)}
    _POSITIONS[:] = [(jobs, index)] + _POSITIONS[:3]
    return index


def file_name_part(name: str) -> str:
    """An agent's name as a part of a file name: letters, digits and ``._=+-`` kept, anything else
    ``_``, at most `MAX_NAME_IN_FILE` characters, never starting with a dot (a hidden file)."""
    safe = NAME_CHARS.sub("_", name)[:MAX_NAME_IN_FILE]
    return "_" + safe[1:] if safe.startswith(".") else safe


def game_file(job: dict[str, Any], settings: dict[str, Any]) -> str:
    """The name of a scheduled game's match file: the agents in seat order, the deal and its side,
    e.g. ``greedy-vs-mcts_iters=60-deal003-a.amigos``.  Unique in the tournament (the deal and side
    alone are), and safe on any filesystem."""
    names = agent_names(settings["agents"])
    deal, side = deal_of(job, settings)
    seated = "-vs-".join(file_name_part(names[a]) for a in job["seats"])
    return f"{seated}-deal{deal:03d}-{side}{MATCH_SUFFIX}"


def game_path(out: Path, job: dict[str, Any], settings: dict[str, Any]) -> Path:
    """Where a scheduled game's file is in ``out``: its `game_file`, or the ``ID.amigos`` that
    tournaments before those names wrote, when only that one is there (so they still resume)."""
    path = out / game_file(job, settings)
    old = out / f"{job['id']}{MATCH_SUFFIX}"
    return old if not os.path.lexists(path) and os.path.lexists(old) else path


def read_manifest(out: Path) -> dict[str, Any]:
    """The settings in ``out``'s ``tournament.json``, checked field by field (`matches.manifest`) and
    its schedule compared with the one its settings make; `TournamentError` (one line) otherwise."""
    settings = M.read(out)
    made = schedule(settings["agents"], settings["games"], settings["seed"], settings["gauntlet"],
                    settings.get("table", 2))
    if made != settings["schedule"]:
        raise TournamentError(f"{out / MANIFEST}: not a tournament manifest (its schedule is not the one "
                              "its agents, games and seed make)")
    return settings


def check_folder(out: Path, settings: dict[str, Any], resume: bool) -> None:
    """Refuse a folder that holds another tournament, or this one without ``resume``, or links that
    point outside it."""
    if not os.path.lexists(out):
        return
    if not out.is_dir():
        raise TournamentError(f"{out}: not a folder")
    M.check_links(out)
    if os.path.lexists(out / MANIFEST):
        if read_manifest(out) != settings:
            raise TournamentError(f"{out} holds a different tournament; choose another --out")
        if not resume:
            raise TournamentError(f"{out} holds this tournament already; add --resume to continue it")


def make_folder(out: Path) -> None:
    """Create ``out`` (and its parents) if missing; `TournamentError` saying why it cannot be."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TournamentError(f"{out}: cannot make the folder ({files.reason(exc)})") from None


def prepare(out: Path, settings: dict[str, Any], resume: bool,
            warn: Callable[[str], object] | None = None) -> list[dict[str, Any]]:
    """Create or check the output folder; returns the jobs still to play.  A game file that is corrupt
    or not the scheduled game (`scheduled_match`) is put aside as ``NAME.amigos.rejected``, told to
    ``warn(line)``, and its game played again."""
    check_folder(out, settings, resume)
    make_folder(out)
    if not os.path.lexists(out / MANIFEST):
        M.write(out, settings)
    todo = []
    for job in settings["schedule"]:
        file = game_path(out, job, settings)
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


def scheduled_match(file: Path, job: dict[str, Any], settings: dict[str, Any]) -> tuple[Match | None, str | None]:
    """The match in ``file`` and None, or None and why it cannot count for ``job``: unreadable, or
    another game than the one scheduled (its schedule id, seed, agents and seats, format, variant;
    files written before the id was kept have none, and count by the rest)."""
    try:
        match = load(file)
    except MatchFileError as exc:
        return None, str(exc).removeprefix(f"{file}: ")
    record = match.record
    specs = [settings["agents"][a] for a in job["seats"]]
    expected = {"seed": job["seed"], "agents": specs, "best_of": 3 if settings["match_format"] == "match" else 1,
                "variant": settings["variant"], "expansions": list(settings.get("expansions") or ()),
                "ruleset": settings.get("ruleset", OFFICIAL)}
    found = {"seed": record["seed"], "agents": [p["spec"] for p in record["players"]],
             "best_of": record["best_of"], "variant": record["variant"], "expansions": list(match.expansions),
             "ruleset": record.get("ruleset", OFFICIAL)}
    if "tournament" in record:
        tag = record["tournament"]
        found["id"] = tag.get("id") if isinstance(tag, dict) else None
        expected["id"] = job["id"]
    for field, value in expected.items():
        if found[field] != value:
            return None, f"not this tournament's game ({field} differs from the schedule)"
    return match, None


def play_job(job: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """Play one scheduled game or match and return its record (`Match.record`), plain data that any
    runner's worker (a local process or a Dask worker on another machine) hands back to the client,
    which writes the file (`save_job`).  ``settings``: the manifest's agents, match format, variant
    and expansions (the schedule is not needed).  A function of the job and the settings alone: the
    same job gives the same game on any worker (with iteration budgets)."""
    specs = [settings["agents"][a] for a in job["seats"]]
    names = [f"{specs[p]} #{job['seats'][p] + 1}" for p in range(len(specs))]
    match = Match.new(job["seed"], specs, config_of(settings), fmt=settings["match_format"], names=names)
    match.record["tournament"] = {"id": job["id"]}  # which scheduled game the file holds (`scheduled_match`)
    agents = [make_agent(spec, seed=derive_seed(job["seed"], "seat", p, spec)) for p, spec in enumerate(specs)]
    play(match, agents)
    for agent in agents:
        agent.close()
    return match.record


def save_job(out: Path, job: dict[str, Any], record: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """Write a finished job's match file (`game_file` in ``out``) from its record, in the client;
    returns its outcome.  A record made by another version of amigos (a worker installed apart) is
    refused: its games would not be this tournament's."""
    for field, mine in (("app_version", amigos.__version__), ("rules_version", amigos.RULES_VERSION)):
        if record.get(field) != mine:
            raise TournamentError(f"a worker runs amigos with {field} {record.get(field)}, this program "
                                  f"{mine}: install the same version on every machine")
    match = Match(record)  # (only saved and summed up: no replay needed)
    save(match, out / game_file(job, settings))
    return outcome(job, match)


def outcome(job: dict[str, Any], match: Match) -> dict[str, Any]:
    """What the standings need from one finished game or match: its seats, its winning seat (None when
    shared), the games won by each seat and each game's result."""
    result = match.record["result"]
    return {"id": job["id"], "seats": job["seats"], "winner": None if result["shared"] else result["winner"],
            "score": result["score"], "games": [g["result"] for g in match.record["games"]]}


def places(outcome: dict[str, Any]) -> list[int]:
    """Each seat's place in a finished game or match: the winners first (equal), then, in a game of
    more than two, the others by their points (equal points, an equal place); each place one more than
    the players ahead of it."""
    seats = len(outcome["seats"])
    if seats == 2:
        winner = outcome["winner"]
        return [1, 1] if winner is None else [1 + (winner != seat) for seat in range(2)]
    result = outcome["games"][0]
    key = [(p in result["winners"], result["vp"][p]) for p in range(seats)]
    return [1 + sum(1 for q in range(seats) if key[q] > key[p]) for p in range(seats)]


def run(out: Path, spec: TournamentSpec, jobs: int = 1, resume: bool = False,
        on_result: Callable[[dict[str, Any], int, int], object] | None = None,
        warn: Callable[[str], object] | None = None, runner: Runner | None = None) -> list[dict[str, Any]]:
    """Play the tournament ``spec`` in ``out`` (what is left of it), holding the folder's lock (`InUse`
    if another program runs it); ``on_result(outcome, done, total)`` after each game, ``warn(line)``
    for a game file put aside.  Games are played by ``runner`` (`matches.runner`, e.g. a `DaskRunner`
    on a cluster; by default ``jobs`` local processes), which this function stops when it returns;
    whichever plays them, this process writes every file, once per game.  With ``spec.sprt`` it stops
    as soon as the test reaches a verdict: games in flight then are stopped and not counted."""
    out = Path(out)
    settings = manifest(spec)
    with runner or open_runner(jobs) as runner:
        out.mkdir(parents=True, exist_ok=True)
        with Lock(out):
            return _run(out, settings, runner, resume, on_result, warn)


def _run(out: Path, settings: dict[str, Any], runner: Runner, resume: bool,
         on_result: Callable[[dict[str, Any], int, int], object] | None,
         warn: Callable[[str], object] | None) -> list[dict[str, Any]]:
    todo = prepare(out, settings, resume, warn)
    total = len(settings["schedule"])
    done = total - len(todo)
    results: list[dict[str, Any]] = []
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
        r = save_job(out, by_id[key], record, settings)
        written.add(key)
        done += 1
        results.append(r)
        if on_result:
            on_result(r, done, total)
        if decided is not None and decided(r):
            break  # (leaving the runner's block cancels the games not yet played)
    return results


def _verdict_watch(out: Path, settings: dict[str, Any]) -> Callable[[dict[str, Any] | None], bool]:
    """A function of each new outcome (or None) that tells whether the tournament's SPRT has reached
    a verdict, counting the games already in ``out``."""
    try:
        _, outcomes = collect(out)
    except amigos.AmigosError:
        outcomes = []

    def decided(outcome: dict[str, Any] | None) -> bool:
        if outcome is not None:
            outcomes.append(outcome)
        return cast("Sprt", sprt_of(settings, outcomes)).result != "continue"  # (settings have an "sprt")

    return decided


# -- standings ------------------------------------------------------------------------------------------

def collect(out: Path, warn: Callable[[str], object] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The manifest and the outcome of every finished game in ``out``, from the files alone; a file
    that is not the scheduled game is told to ``warn(line)`` and not counted."""
    M.check_links(out)
    settings = read_manifest(out)
    outcomes = []
    for job in settings["schedule"]:
        file = game_path(out, job, settings)
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


def winning_seats(outcome: dict[str, Any]) -> list[int]:
    """The seats that won a finished game or match: one, or those sharing the victory (a shared
    two-player game or drawn match: both)."""
    if outcome["winner"] is not None:
        return [outcome["winner"]]
    if len(outcome["seats"]) == 2:
        return [0, 1]
    return list(outcome["games"][0]["winners"])


def standings(agents: list[str], outcomes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per agent, best first: its name (`agent_names`), spec and index in ``agents``; games, wins,
    losses, shared (victories shared with others), the points they make (a win 1, a victory shared by k
    players 1/k) as a rate with a 95% interval, the mean place, and a rating with its 95% error on the
    Elo scale (mean 0): Bradley-Terry's from two-player games (`_elo`), OpenSkill's Plackett-Luce from
    games of more (`_openskill`)."""
    rows: list[dict[str, Any]] = [{"agent": name, "spec": spec, "index": i, "games": 0, "wins": 0, "losses": 0,
                                   "shared": 0, "points": 0.0, "places": 0}
                                  for i, (name, spec) in enumerate(zip(agent_names(agents), agents))]
    for o in outcomes:
        won, placed = winning_seats(o), places(o)
        for seat, agent in enumerate(o["seats"]):
            row = rows[agent]
            row["games"] += 1
            row["places"] += placed[seat]
            if seat not in won:
                row["losses"] += 1
            else:
                row["wins" if len(won) == 1 else "shared"] += 1
                row["points"] += 1.0 / len(won)
    if any(len(o["seats"]) > 2 for o in outcomes):
        elo, err = _openskill(len(agents), outcomes)
    else:
        pairs = []  # (a, b, score of a): 1, 0 or ½ by their places 1 and 2
        for o in outcomes:
            first, second = places(o)
            pairs.append((o["seats"][0], o["seats"][1], 0.5 + 0.5 * (second - first)))
        elo, err = _elo(len(agents), pairs)
    for row in rows:
        played = row["games"]
        row["rate"] = row["points"] / played if played else 0.0
        row["low"], row["high"] = wilson(row["points"], played)
        row["mean_place"] = row.pop("places") / played if played else None
        row["elo"] = elo[row["index"]]
        row["elo_error"] = err[row["index"]]
    return sorted(rows, key=lambda r: (-r["elo"], r["index"]))


#: OpenSkill's ratings on the Elo scale: its Plackett-Luce model gives a player rated d more the chance
#: exp(d/c) / (1 + exp(d/c)) of placing ahead, c = sqrt(2) beta for two certain ratings, where Elo gives
#: 1 / (1 + 10^(-d/400)).
OPENSKILL_TO_ELO: Final = 400.0 / (math.log(10.0) * math.sqrt(2.0) * 25.0 / 6.0)


def _openskill(n: int, outcomes: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """OpenSkill's Plackett-Luce ratings of ``n`` agents from games of several players, each game a
    ranking by its placings, taken in schedule order (the order `collect` gives, so that the same
    games give the same ratings); on the Elo scale with mean 0, and a 95% error (1.96 sigma)."""
    from openskill.models import PlackettLuce  # (a rating made for games of several players)
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(n)]
    for o in outcomes:
        if len(set(o["seats"])) != len(o["seats"]):
            continue  # (an agent against itself tells nothing of its rating)
        teams = model.rate([[ratings[a]] for a in o["seats"]], ranks=[float(x) for x in places(o)])
        for a, (rated,) in zip(o["seats"], teams):
            ratings[a] = rated
    mean = sum(r.mu for r in ratings) / n
    return ([(r.mu - mean) * OPENSKILL_TO_ELO for r in ratings],
            [1.96 * r.sigma * OPENSKILL_TO_ELO if any(a in o["seats"] for o in outcomes) else float("inf")
             for a, r in enumerate(ratings)])


def _elo(n: int, pairs: list[tuple[int, int, float]]) -> tuple[list[float], list[float]]:
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
