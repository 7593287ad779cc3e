"""The game screen: the whole public position from one player's side, as rich renderables.

Built for a 100x30 terminal: a line per player (mage, magic item, pool in colour, points, hand and deck
sizes, first-player token), their components in play (turned ones dimmed, essences on them), the
centre (face-up monuments, places of power, the face-up redraft), the player's hand, and the last few
actions in words.  Only what ``viewer`` may see is shown: everything is drawn from a `Seen`, the
engine's observation for the viewer (`amigos_cli.views.seen`); a function given a position looks at it
through that gate first (`look`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from amigos import cards as C

from .seen import Piece, Seen, look

if TYPE_CHECKING:
    from .seen import View

STYLES = ("bold red", "bold green", "bold blue", "bold white on grey35", "bold yellow")
LETTERS = C.ESSENCE_LETTERS

#: What a click on a card's name does on the full screen (the app's action, with the card's id).
SHOW_CARD = "app.show_card({!r})"


def essences(v: Sequence[int], empty: str = "-") -> Text:
    """``(2, 0, 1, 0, 3)`` as coloured ``2E 1C 3G``."""
    out = Text()
    for k in range(5):
        if v[k]:
            if out:
                out.append(" ")
            out.append(f"{v[k]}{LETTERS[k]}", style=STYLES[k])
    return out if out else Text(empty, style="dim")


def card_name(card: C.Card, style: str = "") -> Text:
    """A card's name that the full screen shows the text of when clicked (a plain name elsewhere)."""
    return Text(card.name, style=Style.parse(style or "none") + Style(meta={"@click": SHOW_CARD.format(card.id)}))


def component(piece: Piece) -> Text:
    t = card_name(piece.card, "dim" if piece.is_turned else "bold")
    if piece.is_turned:
        t.append(" (turned)", style="dim italic")
    if any(piece.essences):
        t.append(" [")
        t.append_text(essences(piece.essences))
        t.append("]")
    return t


def player_panel(seen: Seen, p: int, names: list[str]) -> Table:
    mine = seen.pieces(p)
    mage = [x for x in mine if x.card.kind == C.MAGE]
    item = [x for x in mine if x.card.kind == C.MAGIC_ITEM]
    rest = [x for x in mine if x.card.kind not in (C.MAGE, C.MAGIC_ITEM, C.SCROLL)]
    head = Text()
    head.append(f"{names[p]}", style="bold underline" if p == seen.viewer else "bold")
    head.append(f"  {seen.points(p)} VP", style="bold magenta")
    if seen.holds_token(p):
        head.append("  [first player]", style="cyan")
    if seen.has_passed(p):
        head.append("  passed", style="dim")
    head.append("  pool ")
    head.append_text(essences(seen.pool_counts(p)))
    head.append(f"  hand {seen.hand_size(p)}  deck {seen.deck_size(p)}", style="dim")
    table = Table.grid(padding=(0, 1))
    table.add_row(head)
    line = Text("  ")
    for x in mage + item:
        line.append_text(component(x))
        line.append("   ")
    table.add_row(line)
    if rest:
        line = Text("  ")
        for i, x in enumerate(rest):
            if i:
                line.append(" | ", style="dim")
            line.append_text(component(x))
        table.add_row(line)
    held = scrolls_line(seen, p)
    if held is not None:
        table.add_row(held)
    pile = seen.discards(p)
    if pile:
        table.add_row(Text("  discard: " + ", ".join(c.name for c in pile), style="dim"))
    return table


def held_scrolls(seen: Seen, p: int) -> list[Piece]:
    """The scrolls player ``p`` holds (*Lux et Tenebrae*; none in a base game)."""
    return [x for x in seen.pieces(p) if x.card.kind == C.SCROLL]


def scrolls_line(seen: Seen, p: int) -> Text | None:
    """"  scrolls: Shield, Augury": the scrolls player ``p`` holds (claimed with Inscription, kept until
    used); None when they hold none."""
    held = held_scrolls(seen, p)
    if not held:
        return None
    line = Text("  scrolls: ", style="cyan")
    line.append_text(Text(", ").join([card_name(x.card, "cyan") for x in held]))
    return line


def centre_scrolls(seen: Seen) -> Text | None:
    """"Scrolls: Augury, Shield, ...": the scrolls in the centre, free to claim with the Inscription
    magic item; None in a game without scrolls."""
    if not seen.has_scrolls():
        return None
    free = seen.scrolls_free()
    line = Text("Scrolls: ")
    line.append_text(Text(", ").join([card_name(c) for c in free]) if free else Text("none", style="dim"))
    taken = sum(len(held_scrolls(seen, p)) for p in range(seen.player_count))
    line.append(f"  (claimed with Inscription{f'; {taken} held' if taken else ''})", style="dim")
    return line


def centre(view: View, names: list[str], viewer: int | None = None) -> Table:
    """The monuments, the places of power, the scrolls and the redraft's face-up cards."""
    seen = look(view, viewer)
    table = Table.grid(padding=(0, 1))
    mons = seen.monuments()
    line = Text("Monuments: ")
    line.append_text(Text(", ").join([card_name(c) for c in mons]) if mons else Text("none"))
    table.add_row(line + Text(f"  (+{seen.monument_deck_size()} in the deck, 4G each)"))
    pops = seen.places()
    line = Text("Places of power: ")
    line.append_text(Text(", ").join([card_name(c) + Text(f" ({_cost(c.cost)})") for c in pops])
                     if pops else Text("none"))
    table.add_row(line)
    scrolls = centre_scrolls(seen)
    if scrolls is not None:
        table.add_row(scrolls)
    if seen.redrafting():
        face_up = [c.name for c in seen.face_up()]
        table.add_row(Text(f"Face up for the redraft ({len(face_up)} left): " + ", ".join(face_up), style="yellow"))
        for p in range(seen.player_count):
            taken = [c.name for c in seen.redraft_taken(p)]
            table.add_row(Text(f"  {names[p]} took: " + (", ".join(taken) or "nothing yet"), style="yellow"))
    return table


def _cost(v: Sequence[int]) -> str:
    return " ".join(f"{v[k]}{LETTERS[k]}" for k in range(5) if v[k]) or "free"


def any_part(n: int, after_fixed: bool) -> str:
    """The part of a cost that is ``n`` essences of any kind, as every screen writes it (the hand, the
    cards' table, a draft pick, the web board): "+3 any" after fixed essences, "3 any" alone."""
    return f"+{n} any" if after_fixed else f"{n} any"


def cost_words(cost: Sequence[int], cost_any: int) -> str:
    """A component's placement cost: "2E 1L", "2E +3 any", "3 any", "free"."""
    fixed = " ".join(f"{cost[k]}{LETTERS[k]}" for k in range(5) if cost[k])
    if not cost_any:
        return fixed or "free"
    return f"{fixed} {any_part(cost_any, True)}" if fixed else any_part(cost_any, False)


def known_deck(view: View, viewer: int) -> list[str]:
    """The artifacts of the viewer's deck that they have seen, by name and sorted: all of them (seen
    since the deal), except in a First Game the cards dealt face down and not seen yet (counted by
    `face_down_line`).  The order is not theirs to know."""
    return sorted(c.name for c in look(view, viewer).known_deck())


def face_down_line(view: View, viewer: int) -> str:
    """"3 cards dealt face down, not seen yet": what the viewer knows of the rest of their deck in a
    First Game; empty when they have seen all of it."""
    n = look(view, viewer).unseen_in_deck()
    return f"{n} card{'s' if n != 1 else ''} dealt face down, not seen yet" if n else ""


def hand_view(view: View, viewer: int, whose: str = "Your") -> Text:
    """The viewer's hand with costs, and in setup their draft packet, the cards they drafted so far and
    their mage options; ``whose`` begins each label ("Your", or "Ann's" for a replay of an AI's seat)."""
    seen = look(view, viewer)
    t = Text(f"{whose} hand: ", style="bold")
    hand = seen.own_hand()
    for i, c in enumerate(hand):
        if i:
            t.append(", ")
        t.append(c.name, style="bold")
        t.append(f" ({cost_words(c.cost, c.cost_any)})", style="dim")
    if not hand:
        t.append("empty", style="dim")
    packet = [c.name for c in seen.draft_packet()]
    if packet:
        t.append(f"\n{whose} draft packet: " + ", ".join(packet), style="yellow")
    if seen.phase_name == "SETUP_DRAFT":  # the drafted cards wait in the deck until the draft ends
        drafted = [c.name for c in seen.known_deck()]
        t.append(f"\n{whose} drafted cards: " + (", ".join(drafted) or "none yet"), style="yellow")
    if seen.round_number == 0 and seen.phase_name != "SETUP_DRAFT":  # dealt eight: the rest wait in the deck
        deck = known_deck(seen, viewer)
        if deck:
            t.append(f"\n{whose} deck (seen at the deal, order unknown): " + ", ".join(deck), style="dim")
        face_down = face_down_line(seen, viewer)
        if face_down:  # a First Game's deck: not seen at the deal
            t.append(f"\n{whose} deck: {face_down}", style="dim")
    options = [c.name for c in seen.mage_options()]
    if options:
        t.append(f"\n{whose} mage options: " + ", ".join(options), style="yellow")
    return t


def board(view: View, viewer: int, names: list[str], log: Sequence[str] = (), title: str = "", you: bool = True) -> Group:
    """The whole screen for ``viewer``, drawn from what they see (`look`): their hand is "Your hand",
    or with ``you`` false (someone else looking at the viewer's seat, as in a replay of AI games)
    "<name>'s hand"."""
    seen = look(view, viewer)
    rival = [p for p in range(seen.player_count) if p != viewer]
    head = Text(f"{title}  round {seen.round_number}  {seen.phase_name.lower().replace('_', ' ')}",
                style="bold reverse")
    parts: list[RenderableType] = [head]
    for p in rival:
        parts.append(player_panel(seen, p, names))
    parts.append(centre(seen, names))
    parts.append(player_panel(seen, viewer, names))
    parts.append(hand_view(seen, viewer, "Your" if you else f"{names[viewer]}'s"))
    if log:
        parts.append(Text("Last: " + " / ".join(log[-3:]), style="dim"))
    return Group(*parts)


def wins(name: str) -> str:
    """"Ann wins", but "You win"."""
    return "You win" if name == "You" else f"{name} wins"


def result_text(view: View, names: list[str]) -> Text:
    """Who won a finished game and by how much, all of it public (a spectator's `look`)."""
    seen = look(view)
    vp = [seen.points(p) for p in range(seen.player_count)]
    won = seen.winner_seats()
    t = Text()
    if len(won) > 1:
        t.append("Shared victory: " + " and ".join(names[p] for p in won), style="bold yellow")
    else:
        t.append(wins(names[won[0]]), style="bold green")
    t.append("  (" + ", ".join(f"{names[p]} {vp[p]} VP" for p in range(seen.player_count)) + f", round {seen.round_number})")
    top = max(vp)
    tied = [p for p in range(seen.player_count) if vp[p] == top]
    if len(tied) > 1:  # rules.md §11.6: the pool decides, each Gold counting as two essences
        t.append("; tied on points, so the pools decide (Gold counts 2): "
                 + ", ".join(f"{names[p]} {seen.pool_worth(p)}" for p in tied))
    return t


def match_result_text(record: dict[str, Any], final: View, names: list[str]) -> Text:
    """How a finished match ended, in one line: "Ann wins the match 2-1", "The match is drawn 1-1",
    or for a single game its `result_text` (``final``: the last game's final position)."""
    if record["best_of"] == 1:
        return result_text(final, names)
    result = record["result"]
    if result["shared"]:
        return Text(f"The match is drawn {result['score'][0]}-{result['score'][1]}.", style="bold yellow")
    return Text(f"{wins(names[result['winner']])} the match {max(result['score'])}-{min(result['score'])}.",
                style="bold green")
