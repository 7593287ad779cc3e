"""The proof behind the puzzle ``discard-egg-for-calm-1`` (``lab/egg_proof.py``): its bound on our
points is never below what a winning line scores, its search finds that line's win, and the puzzle's
answers are the moves it proves (the whole proof takes minutes: `lab/egg_proof.py`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lab"))

from egg_proof import Proof, load  # noqa: E402
from puzzles import PUZZLES, is_best, matches  # noqa: E402

from amigos import action_json  # noqa: E402
from amigos.codes import CHANCE_PENDING  # noqa: E402
from amigos.position import build_position  # noqa: E402
from amigos.state import GameState  # noqa: E402

PUZZLE = json.loads((PUZZLES / "discard-egg-for-calm-1.json").read_text(encoding="utf-8"))

# A winning line (the puzzle's "why"), each of our moves told by its protocol form.
LINE: list[Callable[[dict[str, Any]], bool]] = [
    lambda j: j["__type__"] == "DiscardForEssences" and j["gain"] == {"calm": 2},
    lambda j: j.get("card_name") == "Magical Shard" and j["gain"] == {"calm": 1},
    lambda j: j.get("card_name") == "Transmuter" and j["pay"] == {"life": 2} and j["gain"] == {"calm": 3},
    lambda j: j.get("card_name") == "Sorcerer's Bestiary" and j.get("power_index") == 1
    and j["pay"] == {"elan": 2, "death": 2},
    lambda j: j["__type__"] == "PlaceArtifact" and j["artifact_name"] == "Water Dragon",
    lambda j: j.get("card_name") == "Tree of Life",
    lambda j: j.get("card_name") == "Alchemy" and j["pay"] == {"life": 4},
    lambda j: j["__type__"] == "ClaimMonument" and j["monument_name"] == "Colossus",
]


def _play_line(proof: Proof, s: GameState) -> list[tuple[GameState, int]]:
    """Every position of the line with the rival's recorded moves in between: (position, next rival move)."""
    seen, k = [], 0
    for ours in LINE:
        while s.current_player() == 1:
            if s.stack and s.stack[-1][0] in CHANCE_PENDING:  # (the card drawn on passing)
                s.apply(s.legal_actions()[0])
                continue
            s.apply(next(a for a in s.legal_actions() if matches(proof.script[k], action_json(s, a))))
            k += 1
        seen.append((s.clone(), k))
        s.apply(next(a for a in s.legal_actions() if ours(action_json(s, a))))
    seen.append((s.clone(), k))
    return seen


def test_the_bound_never_falls_below_the_winning_line_and_the_search_finds_its_win():
    position, script = load()
    root = build_position(**position, seed=0).clone_offering_chance()
    proof = Proof(root, script)
    line = _play_line(proof, root.clone())
    final = line[-1][0]
    assert final.victory_points() == [11, 10]
    for s, _ in line:
        assert s.stack or proof.bound(s) >= 11
    s, k = line[-4]  # (the Water Dragon in play, three moves to go: a search of seconds)
    assert proof.wins(s.clone(), k)


def test_the_puzzle_is_the_play_test_position_and_its_answers_keep_a_calm_from_the_egg():
    position, _ = load()
    assert PUZZLE["position"] == json.loads(json.dumps(position))
    s = build_position(**PUZZLE["position"], seed=0)
    egg = {json.dumps(action_json(s, a)["gain"]): is_best(PUZZLE, s, a) for a in s.legal_actions()
           if action_json(s, a)["__type__"] == "DiscardForEssences"}
    assert egg['{"gold": 1}'] is False  # (the move played)
    assert all(best == ("calm" in gain) for gain, best in egg.items())
    placing = next(a for a in s.legal_actions() if action_json(s, a)["__type__"] == "PlaceArtifact")
    assert not is_best(PUZZLE, s, placing)
