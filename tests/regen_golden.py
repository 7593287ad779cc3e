"""The golden screens of tests/cli/test_tui.py: fixed-seed positions rendered at a width of 100.

Run ``.venv-dev/bin/python tests/regen_golden.py`` to rewrite ``tests/golden/*.txt`` after an intended change
to a screen (then read the diff before committing).  The tests only ever read these files.

The positions are reached with a small seeded policy of our own (not an AI agent), so the goldens change
only when the engine's rules, its order of legal actions or the views change.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402

import amigos  # noqa: E402
from amigos import actions as A  # noqa: E402
from amigos import cards as C  # noqa: E402
from amigos.codes import ACTIONS, SETUP_DRAFT, SETUP_REDRAFT  # noqa: E402
from amigos_cli.views.board import board, result_text  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
WIDTH = 100
NAMES = ["You", "AI (random)"]
FILES = ("board_action.txt", "board_rival_view.txt", "redraft.txt", "draft.txt", "result.txt")


def render(renderable) -> str:
    """Plain text of ``renderable`` on a 100-column recording console, trailing spaces trimmed."""
    console = Console(record=True, width=WIDTH, color_system=None, force_terminal=False, file=io.StringIO())
    console.print(renderable)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def policy(rng: random.Random, state):
    """Places, claims and powers more often than a uniform random choice (a fuller board)."""
    legal = state.legal_actions()
    rich_moves = [a for a in legal if A.kind(a) in (A.PLACE, A.CLAIM_POP, A.CLAIM_MONUMENT, A.POWER)]
    if rich_moves and rng.random() < 0.85:
        return rng.choice(rich_moves)
    return rng.choice(legal)


def play(state, rng, log, stop) -> None:
    """Apply the policy (logging moves as the session does) until ``stop(state)`` or the end."""
    while not state.is_terminal() and not stop(state):
        action = policy(rng, state)
        log.append(f"{NAMES[state.current_player()]}: {amigos.action_text(state, action)}")
        state.apply(action)


def action_position(seed: int = 7, round_: int = 3):
    """A standard game in the action phase of ``round_``, player 0 to act; (state, log)."""
    state, rng, log = amigos.new_game(seed), random.Random(seed), []
    play(state, rng, log, lambda s: s.round == round_ and s.phase == ACTIONS and s.current_player() == 0)
    assert not state.is_terminal()
    return state, log


def finished_game(seed: int = 7):
    state, rng, log = amigos.new_game(seed), random.Random(seed), []
    play(state, rng, log, lambda s: False)
    return state, log


def redraft_position(seed: int = 7):
    """Game 2 of a match, after the choice of the first player: the 16 artifacts face up."""
    first = amigos.new_game(seed)
    artifacts = [c.id for c in first.cards[:first.n_art]]
    mages = [C.MAGES[0].id, C.MAGES[1].id]
    state = amigos.next_game(seed + 1, mages, artifacts, 0, True)
    state.apply(state.legal_actions()[0])  # the chooser names the first player
    assert state.phase == SETUP_REDRAFT
    return state


def draft_position(seed: int = 7):
    """The draft variant during the draft, one pick made by each player."""
    state = amigos.new_game(seed, "draft")
    rng = random.Random(seed)
    for _ in range(2):
        state.apply(rng.choice(state.legal_actions()))
    assert state.phase == SETUP_DRAFT
    return state


def screens() -> dict[str, str]:
    """Golden file name -> its text."""
    state, log = action_position()
    end, _ = finished_game()
    redraft = redraft_position()
    draft = draft_position()
    return {
        "board_action.txt": render(board(state, 0, NAMES, log, "Game 1")),
        "board_rival_view.txt": render(board(state, 1, NAMES, log, "Game 1")),
        "redraft.txt": render(board(redraft, redraft.current_player(), NAMES, [], "Game 2 of a best of 3")),
        "draft.txt": render(board(draft, draft.current_player(), NAMES, [], "Game 1")),
        "result.txt": render(result_text(end, NAMES)),
    }


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, text in screens().items():
        path = GOLDEN / name
        old = path.read_text() if path.exists() else None
        path.write_text(text)
        print(f"{'unchanged' if old == text else 'wrote'} {path}")


if __name__ == "__main__":
    main()
