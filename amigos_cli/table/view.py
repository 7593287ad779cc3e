"""What one seat of a table (or a spectator) is sent: plain JSON data built from a position, never more
than that seat may see (`amigos.observe.observation`).  The page draws these fields as they are: it reads
no number or name back out of words (the wire carries essences as five counts, points as numbers, cards
as ids of the catalog).

`catalog` is sent once: every component of the card sets by id, with its name, kind, types, cost
(``[elan, life, calm, death, gold]`` and ``cost_any``), points (and what its points count, in words,
for the cards whose points vary) and text.

`view` is sent after every change:

- ``position``: the observation, each player's entry with its ``name`` and ``points_from``, where its
  points come from, each ``{"card": ID or None, "label": words, "points": n}`` (the card in play, or
  None for the First Player token and the round's points: ``label`` is then "first player" or "this
  round"), and in the centre ``scrolls_available`` (ids) and ``scrolls_in_game``;
- ``log``: the log as the seat may know it (`LogBook`), ``[style, words]`` lines; ``moves``: the number of
  decisions made so far; ``last``: each player's last decision of this game as the seat may know it,
  ``{"text": words, "card": id or None}`` (its card only when the decision is not a secret one), or None;
- ``to_play``: the seat to play (None once over); ``deciding``: every seat to play now (several in a
  step the players take at once: `amigos.together`); ``note``: what they are deciding, for every seat
  ("Bob must answer a Life loss ...", "Ann to play", "Waiting for Ann and Bob: choosing mages at
  once"); ``note_you``: the same said to a seat deciding ("choose what to collect from Witch"), None
  for a plain turn;
- ``match``: a best of three's game and score (`match_of`); ``over`` and ``result`` (`result`);
- ``choices``, when the decision is the seat's (else None): ``{"ask": n, "groups": [...]}``, each group
  ``{"text", "words", "act", "card", "ways"}``: its words (`amigos_cli.views.choices.group_text`) as
  ``text`` and as ``words`` (`words`: segments ``{"text": s}``, ``{"essences": [5 counts]}`` and
  ``{"points": n, "text": s}``), the kind of action (`amigos.actions.KIND_WORDS`), the card it is about (an id, or None),
  and its ways to pay or gain when it has several (``[]`` when one), each ``{"text", "words"}``, in the
  order the full screen lists them.

A choice comes back as (ask, group, way): the ask's number makes a stale or replayed answer harmless
(`amigos_cli.table.model.Table.choose`).

While a step taken together lasts (choosing mages, a round of draft picks, a Collect), every viewer is
shown the table as the step began, with the log up to then: nobody sees another's choice before all
have chosen.  A seat sees its own standing in the step (its mage chosen, its pool after its collects)
and is asked its next decision there, ahead of its turn in seat order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from amigos import actions as A
from amigos import cards as C
from amigos.adjudicate import adjudicated
from amigos.codes import COLLECT, PHASE_NAMES, SETUP_CHOOSE_MAGES, SETUP_DRAFT
from amigos.flow import pool_score
from amigos.observe import SPECTATOR, observation
from amigos.state import GameState
from matches.match import Match
from matches.session import Step

from ..views.board import any_part
from ..views.choices import card_of, group_text, menu_groups, ordered_variants, variant_text
from ..views.log import SECRET, round_line, settled_lines, step_line
from ..views.outcome import collects
from .model import Together

LOG_LINES = 300  # the most recent log lines a view carries
#: The words of a source of points that is no card (`amigos.observe`'s ``points_breakdown``).
SOURCE_LABELS = {"first_player": "first player", "this_round": "this round"}

#: What a player is deciding, by the pending decision's kind (`amigos.observe.PENDING_NAMES`): (the
#: note every seat reads after the player's name, the same said to the player: ``note_you``).
PENDING_WORDS = {"gain": ("chooses what to collect from {card}", "choose what to collect from {card}"),
                 "take_stored": ("chooses whether to take the essences on {card}",
                                 "choose whether to take the essences on {card}"),
                 "collect_cost": ("chooses how to pay {card}'s collect cost", "choose how to pay {card}'s collect cost"),
                 "discard": ("chooses cards to discard", "choose cards to discard"),
                 "scry_deck": ("chooses a deck to look at", "choose a deck to look at"),
                 "scry_order": ("puts the cards looked at back", "put the cards looked at back"),
                 "placement": ("places with {card}", "place with {card}"),
                 "victory_react": ("may React to the victory check with {card}", "may React to the victory check with {card}"),
                 "bank": ("chooses how many essences to put on {card}", "choose how many essences to put on {card}")}
#: Any other pending decision's words.
CHOOSES = ("chooses", "choose")
#: The same in the setup phases, by phase name.
PHASE_WORDS = {"SETUP_CHOOSE_MAGES": ("chooses a mage", "choose a mage"),
               "SETUP_CHOOSE_ITEMS": ("chooses a magic item", "choose a magic item"),
               "SETUP_DRAFT": ("drafts an artifact", "draft an artifact"),
               "SETUP_CHOOSE_FIRST": ("chooses who starts", "choose who starts"),
               "SETUP_REDRAFT": ("picks an artifact of the redraft", "pick an artifact of the redraft")}

#: An essence count in a choice's words as the screens write it (`amigos.text.essences_text`: "2 elan";
#: a card's text: "1 Gold"): a whole number, a space and a kind of `amigos.cards.ESSENCES`, in any case.
ESSENCE_WORDS = re.compile(rf"([0-9]+) ({'|'.join(C.ESSENCES)})\b", re.IGNORECASE | re.ASCII)
#: The note in brackets of what a choice wins or costs in points (`amigos_cli.views.choices.group_text`:
#: "(+1 VP)", "(costs 3 VP; ends the game: you win)"), and its number.
POINTS_NOTE = re.compile(r"\([^()]*\bVP\b[^()]*\)", re.ASCII)
POINTS = re.compile(r"(\+|costs )([0-9]+) VP\b", re.ASCII)


def vocabulary() -> dict[str, Any]:
    """The engine's names the page draws with, sent once with the catalog: the essences in their order
    (``essences``, and their ``letters``) and the kinds of action (``acts``, a group's ``act``)."""
    return {"essences": list(C.ESSENCES), "letters": C.ESSENCE_LETTERS, "acts": list(A.KIND_WORDS)}


def catalog(sets: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Every component of the card ``sets`` by id (all of them, not only those dealt: which were dealt
    is hidden): name, kind, types (Dragon, Creature, Demon), cost (five counts and the "any"
    essences), points, what its points count ("" for fixed points), text."""
    return {card.id: {"name": card.name, "kind": C.KIND_NAMES[card.kind].lower(),
                      "types": [t.capitalize() for t in card.types if t != C.KIND_NAMES[card.kind].lower()],
                      "cost": list(card.cost), "cost_any": card.cost_any,
                      "cost_any_words": any_part(card.cost_any, any(card.cost)) if card.cost_any else "",
                      "points": card.points,
                      "points_from": _points_words(card), "text": card.text}
            for card in C.CARDS if card.set in sets}


def _points_words(card: C.Card) -> str:
    """"1 per Gold on it", "2 per Dragon, 1 per Creature": what a card's varying points count."""
    words = []
    if card.vp_per_essence:
        words += [f"{n} per {name} on it" for n, name in zip(card.vp_per_essence, ("Elan", "Life", "Calm", "Death", "Gold"))
                  if n]
    for n, what in ((card.vp_per_dragon, "Dragon"), (card.vp_per_creature, "Creature"), (card.vp_per_demon, "Demon")):
        if n:
            words.append(f"{n} per {what} you have")
    if card.vp_per_artifacts:
        words.append(f"{card.vp_per_artifacts[0]} per {card.vp_per_artifacts[1]} artifacts you have")
    return ", ".join(words)


class LogBook:
    """The log of a table as each seat may know it, one ``[style, text]`` line at a time: a bold
    ``round`` line with the score as each round begins, ``forced`` lines for what forced moves did
    between decisions (a round's collects), and each decision (`step_line`) as ``person`` or
    ``agent``.  Kept for each viewer and extended with the new steps only, so a view costs the lines of
    the latest decision, not the whole game; a log made anew (an undo) is put in words anew."""

    def __init__(self, names: Sequence[str], people: Sequence[bool]) -> None:
        self.names: list[str] = list(names)
        self.people: list[bool] = list(people)
        # viewer: (steps, lines, header, the last step put in words)
        self.kept: dict[int, tuple[int, list[list[str]], tuple[int, int] | None, Step | None]] = {}

    def lines(self, steps: Sequence[Step], viewer: int) -> list[list[str]]:
        """Every line of ``steps`` as ``viewer`` (`SPECTATOR` for spectators) may know them."""
        done, lines, header, last = self.kept.get(viewer, (0, [], None, None))
        if done > len(steps) or (done and steps[done - 1] is not last):  # (not the same log: begin again)
            done, lines, header = 0, [], None
        for step in steps[done:]:
            header = self._round(lines, header, step.game, step.before)
            lines.extend(["forced", line] for line in settled_lines(step, viewer, self.names))
            lines.append(["person" if self.people[step.actor] else "agent", step_line(step, viewer, self.names)])
            began = collects(step.before, step.after, self.names)
            if began:
                header = self._round(lines, header, step.game, step.after)
                lines.append(["forced", began])
        self.kept[viewer] = (len(steps), lines, header, steps[-1] if steps else None)
        return lines

    def _round(self, lines: list[list[str]], header: tuple[int, int] | None, game: int,
               state: GameState) -> tuple[int, int] | None:
        if (game, state.round) != header and state.round > 0:
            lines.append(["round", round_line(game, state, self.names)])
            return (game, state.round)
        return header


def view(state: GameState, seat: int | None, names: Sequence[str], steps: Sequence[Step],
         asked: tuple[int, int] | None, seats: Sequence[dict[str, Any]], *, book: LogBook | None = None,
         match: dict[str, Any] | None = None, together: Together | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of ``state``: see the module docstring.  ``asked`` is the
    seat asked now and the ask's number (None while an agent thinks or the game is over); ``seats``
    each seat's standing (its kind, whether its person is connected); ``book`` the table's log as each
    viewer knows it (a new one when None: every seat a person's); ``match`` a best of three's game
    number and score (`match_of`), None for a single game; ``together`` the step taken together under
    way (`amigos_cli.table.model.Together`), None when there is none."""
    viewer = SPECTATOR if seat is None else seat
    book = book if book is not None else LogBook(names, [True] * len(names))
    over = state.is_terminal()
    if together is not None and not over:
        return _together_view(state, seat, names, steps, asked, seats, book, match, together)
    they, you = ("", None) if over else _deciding(state)
    seen = _seen(state, viewer, names)
    out: dict[str, Any] = {
        "type": "view", "you": seat, "names": list(names), "seats": list(seats), "position": seen,
        "log": book.lines(steps, viewer)[-LOG_LINES:], "moves": len(steps),
        "last": last_moves(steps, seat, names, _game(match, steps), _words_in(seen)),
        "to_play": None if over else state.current_player(),
        "deciding": [] if over else [state.current_player()],
        "note": "" if over else f"{names[state.current_player()]} {they}", "note_you": you, "choices": None,
        "over": over, "match": match,
        "result": result(state) if over else None,
    }
    if asked is not None and asked[0] == seat and not over:
        out["choices"] = choices(state, asked[1], names)
    return out


#: What the players do in a step taken together, for the note of those waiting.
TOGETHER_WORDS = {SETUP_CHOOSE_MAGES: "choosing mages", SETUP_DRAFT: "drafting", COLLECT: "collecting"}


def _together_view(state: GameState, seat: int | None, names: Sequence[str], steps: Sequence[Step],
                   asked: tuple[int, int] | None, seats: Sequence[dict[str, Any]], book: LogBook,
                   match: dict[str, Any] | None, together: Together) -> dict[str, Any]:
    """`view` while a step taken together lasts: the table as the step began, the seat's own standing in
    it, and the seat's next decision there when it has one (asked ahead, or the one the match waits for)."""
    viewer = SPECTATOR if seat is None else seat
    seen = _seen(together.start, viewer, names)
    place = together.places.get(seat) if seat is not None else None
    deciding = list(together.deciding)
    mine = seat is not None and seat in deciding and place is not None
    if place is not None and seat is not None:
        own = _seen(place, seat, names)
        seen["players"][seat] = own["players"][seat]
        # (the decision pending there is the seat's own only while it decides: the rest of that
        # position is stand-ins')
        seen["pending"] = own["pending"] if mine else None
    waiting = [names[q] for q in deciding if q != seat]
    activity = TOGETHER_WORDS[state.phase]
    note = f"Waiting for {_listed(waiting)}: {activity} at once" if waiting else f"{activity.capitalize()} at once"
    out: dict[str, Any] = {
        "type": "view", "you": seat, "names": list(names), "seats": list(seats), "position": seen,
        "log": book.lines(steps[:together.steps], viewer)[-LOG_LINES:], "moves": together.steps,
        "last": last_moves(steps[:together.steps], seat, names, _game(match, steps), _words_in(seen)),
        "to_play": seat if mine else (deciding[0] if deciding else state.current_player()),
        "deciding": deciding, "note": note,
        "note_you": _deciding(place)[1] if mine and place is not None else None,
        "choices": None, "over": False, "match": match, "result": None,
    }
    if asked is not None and asked[0] == seat:
        out["choices"] = choices(state, asked[1], names)
    elif mine and place is not None and seat is not None and seat in together.offers:
        out["choices"] = choices(place, together.offers[seat], names)
    return out


def _game(match: dict[str, Any] | None, steps: Sequence[Step]) -> int:
    """The number of the game in play: a best of three's (`match_of`), else the one game's."""
    return int(match["game"]) if match is not None else (steps[-1].game if steps else 1)


def last_moves(steps: Sequence[Step], seat: int | None, names: Sequence[str], game: int,
               visible: set[str]) -> list[dict[str, Any] | None]:
    """Each player's last decision in game number ``game`` among ``steps``, as ``seat`` (None: a
    spectator) may know it: its log line's words (`step_line`) and its card if the seat sees it now (in
    ``visible``, the words of the seat's view of the table) and the decision is no secret from it
    (`SECRET`); None for a player who has made none yet."""
    out: list[dict[str, Any] | None] = [None] * len(names)
    for step in reversed(steps):
        if step.game != game:
            break
        if out[step.actor] is None:
            viewer = SPECTATOR if seat is None else seat
            # (not a rival's secret pick, nor a monument looked at on the deck's top)
            shown = step.card is not None and not (step.kind in SECRET and seat != step.actor) and step.card in visible
            text = step_line(step, viewer, list(names))
            if step.kind == A.CHOOSE_MAGE and step.card in visible:  # (the mages revealed since: named)
                text, shown = f"{names[step.actor]} chose {C.BY_ID[step.card].name}", True
            out[step.actor] = {"text": text, "card": step.card if shown else None}
        if all(entry is not None for entry in out):
            break
    return out


def _words_in(data: Any) -> set[str]:
    """Every string in ``data`` (an observation: dicts and lists of them)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*map(_words_in, data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*map(_words_in, data)) if data else set()
    return set()


def _seen(state: GameState, viewer: int, names: Sequence[str]) -> dict[str, Any]:
    """The observation of ``state`` by ``viewer`` with each player's ``name`` and ``points_from``."""
    seen = observation(state, viewer)
    for p, entry in enumerate(seen["players"]):
        entry["name"] = names[p]
        entry["points_from"] = [_source(part) for part in entry["points_breakdown"]]
    return seen


def _listed(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def choices(state: GameState, ask: int, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The decision asked: its number and every group of legal actions with its words (``text``, and cut
    for the page: ``words``), its kind (`amigos.actions.KIND_WORDS`), the card it is about (None for none) and its ways
    (none when it has one, else each with its words, `ordered_variants`); a rival a choice names is
    called by ``names``."""
    groups = []
    for group in menu_groups(state):
        ways = ordered_variants(group)
        groups.append({**_worded(group_text(state, group, names)), "act": A.KIND_WORDS[A.kind(group[0])],
                       "card": card_of(state, group[0]),
                       "ways": [_worded(variant_text(state, a)) for a in ways] if len(ways) > 1 else []})
    return {"ask": ask, "groups": groups}


def _worded(text: str) -> dict[str, Any]:
    return {"text": text, "words": words(text)}


def words(text: str) -> list[dict[str, Any]]:
    """A choice's words (the screens' own: `group_text`, `variant_text`) cut once, here, into what the
    page draws, in order: ``{"text": s}`` words as they are, ``{"essences": [elan, life, calm, death,
    gold]}`` a count of one kind (`ESSENCE_WORDS`, drawn as a coloured count) and ``{"points": n,
    "text": s}`` the note of the points the choice wins (n > 0) or costs (n < 0) (`POINTS_NOTE`, drawn
    marked; an essence count inside it stays words).  The words' texts and counts joined again
    (`amigos.text.essences_text`) give ``text`` back; a test holds both ends to it."""
    marks: list[tuple[int, int, dict[str, Any]]] = []
    for m in ESSENCE_WORDS.finditer(text):
        counts = [0] * 5
        counts[C.ESSENCES.index(m.group(2).lower())] = int(m.group(1))
        marks.append((m.start(), m.end(), {"essences": counts}))
    for m in POINTS_NOTE.finditer(text):
        found = POINTS.search(m.group())
        if found is not None:
            n = int(found.group(2))
            marks.append((m.start(), m.end(), {"points": n if found.group(1) == "+" else -n, "text": m.group()}))
    out: list[dict[str, Any]] = []
    at = 0
    for start, end, mark in sorted(marks, key=lambda mark: mark[0]):
        if start < at:
            continue  # (inside a mark already: an essence count in the points' note)
        if start > at:
            out.append({"text": text[at:start]})
        out.append(mark)
        at = end
    if at < len(text):
        out.append({"text": text[at:]})
    return out


def _deciding(state: GameState) -> tuple[str, str | None]:
    """What the player to play is deciding, for the view's ``note`` ("Bob must answer a Life loss (2 Life,
    from Bone Dragon): React or pay", "Ann chooses what to collect from Witch", "Ann to play") and
    ``note_you``: (as the others read it after the player's name, as the player reads it after "you",
    None for a plain turn of the actions phase): ("chooses a mage", "choose a mage"), ("to play", None)."""
    pending = observation(state, SPECTATOR)["pending"]
    if pending is not None:
        if pending["kind"] == "life_loss":
            what = (f"must answer a Life loss ({pending['amount']} Life, from {C.BY_ID[pending['attacker']].name}): "
                    "React or pay")
            return what, what
        card = C.BY_ID[pending["card"]].name if "card" in pending else "a card"
        they, you = PENDING_WORDS.get(pending["kind"], CHOOSES)
        return they.format(card=card), you.format(card=card)
    phase = PHASE_NAMES[state.phase]
    if phase in PHASE_WORDS:
        return PHASE_WORDS[phase]
    return "to play", None


def result(state: GameState) -> dict[str, Any]:
    """A finished game's result, all of it public: the winners, every player's points, the pools'
    worth (Gold counting 2) that decides a tie on points, the round, and whether the round limit
    decided it."""
    vp = state.victory_points()
    return {"winners": state.winners(), "vp": list(vp), "pools": [pool_score(state, p) for p in range(state.n_players)],
            "tied": sum(1 for v in vp if v == max(vp)) > 1, "round": state.round, "adjudicated": adjudicated(state)}


def match_of(match: Match) -> dict[str, Any] | None:
    """A best of three's game number and score (`Match.score`: a game won a player; a shared game
    scores none); None for a single game."""
    if match.record["best_of"] <= 1:
        return None
    return {"game": match.game_number, "best_of": match.record["best_of"], "wins": match.score(),
            "over": match.is_over()}


def _source(part: dict[str, Any]) -> dict[str, Any]:
    """One source of a player's points (the observation's ``points_breakdown``) with its label: the card's
    name, or "first player" and "this round" for the First Player token and the round's points."""
    label = C.BY_ID[part["card"]].name if part["card"] is not None else SOURCE_LABELS[part["source"]]
    return {"card": part["card"], "label": label, "points": part["points"]}
