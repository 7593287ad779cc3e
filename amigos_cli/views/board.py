"""The game screen: the whole public position from one player's side, as rich renderables.

Built for a 100x30 terminal: a line per player (mage, magic item, pool in colour, points, hand and deck
sizes, first-player token), their components in play (turned ones dimmed, essences on them), the
centre (face-up monuments, places of power, the face-up redraft), the player's hand, and the last few
actions in words.  Only what ``viewer`` may see is shown.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from amigos import cards as C
from amigos.codes import (
    AVAILABLE,
    BEING_CHOSEN,
    DECK,
    DISCARD,
    DRAFTING,
    FACE_UP,
    HAND,
    IN_PLAY,
    MONUMENT_DECK,
    PHASE_NAMES,
    SETUP_CHOOSE_FIRST,
    SETUP_DRAFT,
    SETUP_REDRAFT,
)
from amigos.flow import pool_score
from amigos.observe import unseen_deck
from amigos.state import GameState

STYLES = ("bold red", "bold green", "bold blue", "bold white on grey35", "bold yellow")
LETTERS = "ELCDG"


def essences(v: Sequence[int], empty: str = "-") -> Text:
    """``(2, 0, 1, 0, 3)`` as coloured ``2E 1C 3G``."""
    out = Text()
    for k in range(5):
        if v[k]:
            if out:
                out.append(" ")
            out.append(f"{v[k]}{LETTERS[k]}", style=STYLES[k])
    return out if out else Text(empty, style="dim")


def card_name(state: GameState, e: int, style: str = "") -> Text:
    """A card's name that the full screen shows the text of when clicked (a plain name elsewhere)."""
    return Text(state.cards[e].name, style=Style.parse(style or "none") + Style(meta={"@click": f"app.show_card({e})"}))


def component(state: GameState, e: int) -> Text:
    t = card_name(state, e, "dim" if state.turned[e] else "bold")
    if state.turned[e]:
        t.append(" (turned)", style="dim italic")
    on = state.essences_on(e)
    if any(on):
        t.append(" [")
        t.append_text(essences(on))
        t.append("]")
    return t


def player_panel(state: GameState, p: int, viewer: int, names: list[str]) -> Table:
    vp = state.victory_points()
    loc, owner, cards = state.loc, state.owner, state.cards
    mine = [e for e in range(len(loc)) if loc[e] == IN_PLAY and owner[e] == p]
    mage = [e for e in mine if cards[e].kind == C.MAGE]
    item = [e for e in mine if cards[e].kind == C.MAGIC_ITEM]
    rest = [e for e in mine if cards[e].kind not in (C.MAGE, C.MAGIC_ITEM, C.SCROLL)]
    head = Text()
    head.append(f"{names[p]}", style="bold underline" if p == viewer else "bold")
    head.append(f"  {vp[p]} VP", style="bold magenta")
    if state.first_player == p and state.phase != SETUP_CHOOSE_FIRST:  # not before someone chose who starts
        head.append("  [first player]", style="cyan")
    if state.passed[p]:
        head.append("  passed", style="dim")
    head.append("  pool ")
    head.append_text(essences(state.pool_of(p)))
    hand = sum(1 for e in range(state.n_art) if loc[e] == HAND and owner[e] == p)
    deck = sum(1 for e in range(state.n_art) if loc[e] == DECK and owner[e] == p)
    head.append(f"  hand {hand}  deck {deck}", style="dim")
    table = Table.grid(padding=(0, 1))
    table.add_row(head)
    line = Text("  ")
    for e in mage + item:
        line.append_text(component(state, e))
        line.append("   ")
    table.add_row(line)
    if rest:
        line = Text("  ")
        for i, e in enumerate(rest):
            if i:
                line.append(" | ", style="dim")
            line.append_text(component(state, e))
        table.add_row(line)
    held = scrolls_line(state, p)
    if held is not None:
        table.add_row(held)
    pile = [e for e in range(state.n_art) if loc[e] == DISCARD and owner[e] == p]
    if pile:
        table.add_row(Text("  discard: " + ", ".join(cards[e].name for e in pile), style="dim"))
    return table


def scroll_entities(state: GameState) -> list[int]:
    """The game's scrolls (*Lux et Tenebrae*; none in a base game), wherever they are."""
    return [e for e in range(len(state.loc)) if state.cards[e].kind == C.SCROLL]


def scrolls_line(state: GameState, p: int) -> Text | None:
    """"  scrolls: Shield, Augury": the scrolls player ``p`` holds (claimed with Inscription, kept until
    used); None when they hold none."""
    held = [e for e in scroll_entities(state) if state.loc[e] == IN_PLAY and state.owner[e] == p]
    if not held:
        return None
    line = Text("  scrolls: ", style="cyan")
    line.append_text(Text(", ").join([card_name(state, e, "cyan") for e in held]))
    return line


def centre_scrolls(state: GameState) -> Text | None:
    """"Scrolls: Augury, Shield, ...": the scrolls in the centre, free to claim with the Inscription
    magic item; None in a game without scrolls."""
    scrolls = scroll_entities(state)
    if not scrolls:
        return None
    free = [e for e in scrolls if state.loc[e] == AVAILABLE]
    line = Text("Scrolls: ")
    line.append_text(Text(", ").join([card_name(state, e) for e in free]) if free else Text("none", style="dim"))
    taken = len(scrolls) - len(free)
    line.append(f"  (claimed with Inscription{f'; {taken} held' if taken else ''})", style="dim")
    return line


def centre(state: GameState, names: list[str]) -> Table:
    loc, cards = state.loc, state.cards
    table = Table.grid(padding=(0, 1))
    mons = [e for e in range(len(loc)) if loc[e] == AVAILABLE and cards[e].kind == C.MONUMENT]
    deck = sum(1 for e in range(len(loc)) if loc[e] == MONUMENT_DECK)
    pops = [e for e in range(len(loc)) if loc[e] == AVAILABLE and cards[e].kind == C.PLACE_OF_POWER]
    line = Text("Monuments: ")
    line.append_text(Text(", ").join([card_name(state, e) for e in mons]) if mons else Text("none"))
    table.add_row(line + Text(f"  (+{deck} in the deck, 4G each)"))
    line = Text("Places of power: ")
    line.append_text(Text(", ").join([card_name(state, e) + Text(f" ({_cost(cards[e].cost)})") for e in pops])
                     if pops else Text("none"))
    table.add_row(line)
    scrolls = centre_scrolls(state)
    if scrolls is not None:
        table.add_row(scrolls)
    face_up = [cards[e].name for e in range(state.n_art) if loc[e] == FACE_UP]
    if face_up or state.phase in (SETUP_REDRAFT,):
        table.add_row(Text(f"Face up for the redraft ({len(face_up)} left): " + ", ".join(face_up), style="yellow"))
        for p in range(state.n_players):
            taken = [cards[e].name for e in range(state.n_art) if loc[e] == DECK and state.owner[e] == p]
            table.add_row(Text(f"  {names[p]} took: " + (", ".join(taken) or "nothing yet"), style="yellow"))
    return table


def _cost(v: Sequence[int]) -> str:
    return " ".join(f"{v[k]}{LETTERS[k]}" for k in range(5) if v[k]) or "free"


def known_deck(state: GameState, viewer: int) -> list[str]:
    """The artifacts of the viewer's deck that they have seen, by name and sorted: all of them (seen
    since the deal), except in a First Game the cards dealt face down and not seen yet
    (`amigos.observe.unseen_deck`, counted by `face_down_line`).  The order is not theirs to know."""
    unseen = unseen_deck(state, viewer)
    return sorted(state.cards[e].name for e in range(state.n_art)
                  if state.loc[e] == DECK and state.owner[e] == viewer and e not in unseen)


def face_down_line(state: GameState, viewer: int) -> str:
    """"3 cards dealt face down, not seen yet": what the viewer knows of the rest of their deck in a
    First Game; empty when they have seen all of it."""
    n = len(unseen_deck(state, viewer))
    return f"{n} card{'s' if n != 1 else ''} dealt face down, not seen yet" if n else ""


def hand_view(state: GameState, viewer: int, whose: str = "Your") -> Text:
    """The viewer's hand with costs, and in setup their draft packet, the cards they drafted so far and
    their mage options; ``whose`` begins each label ("Your", or "Ann's" for a replay of an AI's seat)."""
    loc, owner, cards = state.loc, state.owner, state.cards
    t = Text(f"{whose} hand: ", style="bold")
    hand = [e for e in range(state.n_art) if loc[e] == HAND and owner[e] == viewer]
    for i, e in enumerate(hand):
        if i:
            t.append(", ")
        c = cards[e]
        t.append(c.name, style="bold")
        t.append(f" ({_cost(c.cost)}{' +' + str(c.cost_any) + '*' if c.cost_any else ''})", style="dim")
    if not hand:
        t.append("empty", style="dim")
    packet = [cards[e].name for e in range(state.n_art) if loc[e] == DRAFTING and owner[e] == viewer]
    if packet:
        t.append(f"\n{whose} draft packet: " + ", ".join(packet), style="yellow")
    if state.phase == SETUP_DRAFT:  # the drafted cards wait in the deck until the draft ends
        drafted = [cards[e].name for e in range(state.n_art) if loc[e] == DECK and owner[e] == viewer]
        t.append(f"\n{whose} drafted cards: " + (", ".join(drafted) or "none yet"), style="yellow")
    if state.round == 0 and state.phase != SETUP_DRAFT:  # dealt eight: the rest wait in the deck
        deck = known_deck(state, viewer)
        if deck:
            t.append(f"\n{whose} deck (seen at the deal, order unknown): " + ", ".join(deck), style="dim")
        face_down = face_down_line(state, viewer)
        if face_down:  # a First Game's deck: not seen at the deal
            t.append(f"\n{whose} deck: {face_down}", style="dim")
    options = [cards[e].name for e in range(len(loc)) if loc[e] == BEING_CHOSEN and owner[e] == viewer]
    if options:
        t.append(f"\n{whose} mage options: " + ", ".join(options), style="yellow")
    return t


def board(state: GameState, viewer: int, names: list[str], log: Sequence[str] = (), title: str = "", you: bool = True) -> Group:
    """The whole screen for ``viewer``: their hand is "Your hand", or with ``you`` false (someone else
    looking at the viewer's seat, as in a replay of AI games) "<name>'s hand"."""
    rival = [p for p in range(state.n_players) if p != viewer]
    head = Text(f"{title}  round {state.round}  {PHASE_NAMES[state.phase].lower().replace('_', ' ')}",
                style="bold reverse")
    parts: list[RenderableType] = [head]
    for p in rival:
        parts.append(player_panel(state, p, viewer, names))
    parts.append(centre(state, names))
    parts.append(player_panel(state, viewer, viewer, names))
    parts.append(hand_view(state, viewer, "Your" if you else f"{names[viewer]}'s"))
    if log:
        parts.append(Text("Last: " + " / ".join(log[-3:]), style="dim"))
    return Group(*parts)


def wins(name: str) -> str:
    """"Ann wins", but "You win"."""
    return "You win" if name == "You" else f"{name} wins"


def result_text(state: GameState, names: list[str]) -> Text:
    vp = state.victory_points()
    won = state.winners()
    t = Text()
    if len(won) > 1:
        t.append("Shared victory: " + " and ".join(names[p] for p in won), style="bold yellow")
    else:
        t.append(wins(names[won[0]]), style="bold green")
    t.append("  (" + ", ".join(f"{names[p]} {vp[p]} VP" for p in range(state.n_players)) + f", round {state.round})")
    top = max(vp)
    tied = [p for p in range(state.n_players) if vp[p] == top]
    if len(tied) > 1:  # rules.md §11.6: the pool decides, each Gold counting as two essences
        t.append("; tied on points, so the pools decide (Gold counts 2): "
                 + ", ".join(f"{names[p]} {pool_score(state, p)}" for p in tied))
    return t


def match_result_text(record: dict[str, Any], final: GameState, names: list[str]) -> Text:
    """How a finished match ended, in one line: "Ann wins the match 2-1", "The match is drawn 1-1",
    or for a single game its `result_text` (``final``: the last game's final position)."""
    if record["best_of"] == 1:
        return result_text(final, names)
    result = record["result"]
    if result["shared"]:
        return Text(f"The match is drawn {result['score'][0]}-{result['score'][1]}.", style="bold yellow")
    return Text(f"{wins(names[result['winner']])} the match {max(result['score'])}-{min(result['score'])}.",
                style="bold green")
