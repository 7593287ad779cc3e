"""The AI's levels in a player's words, and the question a game started at the line prompt without
``--p2`` asks first (the full screen's is `amigos_cli.tui.levels`): from a gentle rival a new player can
beat to the full-strength default (`ai.agents.LEVELS`)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from ai.agents import LEVELS

#: Each level in a player's words, the strongest last (the default).
LEVEL_WORDS: dict[int, str] = {
    1: "gentle: little search, often a weaker move",
    2: "easy: a little more search, still errs",
    3: "steady: a brief search, rarely errs",
    4: "strong: a long search, never a move it judged worse",
    5: "full strength: a second's search a move (the default)",
}
DEFAULT_LEVEL = max(LEVELS)
QUESTION = "Which AI do you want to play against?"
NEXT_TIME = "Next time: amigos play --p2 level:N"


def ask_level_at_prompt(console: Console, read: Callable[[str], str] | None = None) -> str | None:
    """Ask for the AI's level at the line prompt (``read``: `input` by default): its agent spec
    (``level:N``; Enter: the default), or None when the person leaves (q, or the input ends).  A
    mistyped answer is asked again."""
    read = read or input
    console.print(QUESTION, style="bold")
    for n in LEVELS:
        console.print(f"  {n}. Level {n}: {LEVEL_WORDS[n]}")
    console.print(NEXT_TIME, style="dim")
    while True:
        try:
            answer = read(f"Level (1-{max(LEVELS)}; Enter: {DEFAULT_LEVEL}; q: leave): ").strip().lower()
        except EOFError:
            return None
        if not answer:
            return f"level:{DEFAULT_LEVEL}"
        if answer in ("q", "quit"):
            return None
        if answer.isdigit() and int(answer) in LEVELS:
            return f"level:{int(answer)}"
        console.print(f"'{answer}' is not a level: type a number from 1 to {max(LEVELS)}.", style="yellow",
                      markup=False)
