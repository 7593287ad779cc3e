"""The golden games of tests/engine/test_engine_golden.py: the deal of a few seeds in every variant and the
protocol form and digest of their first decisions.

Agents of different commits play each other (``lab/against_commit.py``) and match files replay
only while a seed deals the same game and actions keep their protocol form.  Run
``.venv-dev/bin/python tests/regen_engine_golden.py`` to rewrite ``tests/golden/engine_seeds.json`` only
after a change of rules meant to change games (with a rules version bump), and read the diff.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import amigos  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden" / "engine_seeds.json"
GAMES = [(seed, variant) for variant in ("standard", "first_game", "draft") for seed in (1, 7, 123456789)]
STEPS = 120
EVERY = 10


def record(seed: int, variant: str) -> dict:
    """The game ``seed`` deals in ``variant``, played by a policy seeded with ``seed``: the first
    decision's legal actions, every decision's protocol form and the digest every ``EVERY`` steps."""
    state = amigos.new_game(seed, variant)
    rng = random.Random(seed)
    first = [amigos.action_json(state, a) for a in state.legal_actions()]
    steps, digests = [], [state.digest()]
    for i in range(STEPS):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        steps.append(amigos.action_json(state, action))
        state.apply(action)
        if (i + 1) % EVERY == 0:
            digests.append(state.digest())
    return {"seed": seed, "variant": variant, "first_legal": first, "steps": steps, "digests": digests}


def main() -> None:
    GOLDEN.write_text(json.dumps([record(seed, variant) for seed, variant in GAMES], indent=0) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
