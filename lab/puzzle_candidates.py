"""Find puzzle candidates: decisions of recorded games where the agent made a move of a kind strong
players call a clear mistake, written out as draft puzzles to be read, judged and completed by hand.

    python -m lab.puzzle_candidates runs/gen0.jsonl --out runs/candidates [--limit 200]

Reads self-play records (`amigos-train selfplay`) and replays them.  The checks, each a theme of
``strategy.md``'s list of mistakes:

- ``pass-with-points``: passed while a place of power, a monument or an artifact with points could
  be had at once, with someone at 7 points or more;
- ``ring-order``: used a power that turns a component while a power of the same component that does
  not turn it was affordable (Ring of Midas and the like);
- ``pass-with-hand``: passed first in the round holding 10 or more essences and an artifact it could
  place;
- ``gold-for-monument``: took a gain without Gold when the same power or discard offered Gold, while
  a monument was the only thing it could claim next;
- ``place-not-discard``: placed an artifact without points when discarding it instead would have
  made a place of power affordable at once.

Each candidate is a JSON file in the puzzle format (`matches/puzzles.py`) with the move played in
``"played"`` and ``"best"`` left empty: a person decides the strong move and writes why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import amigos
from amigos import actions as A
from amigos.codes import ACTIONS
from amigos.position import describe
from training.play import read_games


def _kinds(legal) -> set:
    return {A.kind(a) for a in legal}


def _pass_with_points(s, legal, action) -> bool:
    if A.kind(action) != A.PASS or max(s.victory_points()) < 7:
        return False
    for a in legal:
        if A.kind(a) in (A.CLAIM_POP, A.CLAIM_MONUMENT, A.CLAIM_TOP):
            return True
        if A.kind(a) == A.PLACE and s.cards[A.subject(a)].points > 0:
            return True
    return False


def _ring_order(s, legal, action) -> bool:
    if A.kind(action) != A.POWER:
        return False
    card = s.cards[A.subject(action)]
    pw = card.powers[A.power_index(action)]
    if not pw.turn_self:
        return False
    return any(A.kind(a) == A.POWER and A.subject(a) == A.subject(action) and _repeatable(card.powers[A.power_index(a)])
               for a in legal)


def _repeatable(pw) -> bool:
    """A power that neither turns, destroys nor removes its component: usable again and again."""
    return not (pw.turn_self or pw.destroy == "self" or pw.remove_self is not None or pw.turn_other)


def _pass_with_hand(s, legal, action) -> bool:
    if A.kind(action) != A.PASS or any(s.passed):
        return False
    return sum(s.pool_of(A.player(action))) >= 10 and A.PLACE in _kinds(legal)


def _gold_for_monument(s, legal, action) -> bool:
    if A.kind(action) not in (A.POWER, A.DISCARD):
        return False
    gain = A.gain(action)
    if gain[4] > 0:
        return False
    p = A.player(action)
    same = [a for a in legal if A.macro_key(a) == A.macro_key(action)]
    offers_gold = any(A.gain(a)[4] > 0 for a in same)
    if not offers_gold:
        return False
    gold = s.pool_of(p)[4]
    places = [e for e in range(len(s.loc)) if s.loc[e] == 1 and s.cards[e].kind == amigos.cards.PLACE_OF_POWER]
    near_place = any(sum(max(0, s.cards[e].cost[k] - s.pool_of(p)[k]) for k in range(5)) <= 2 for e in places)
    return gold >= 2 and not near_place


def _place_not_discard(s, legal, action) -> bool:
    if A.kind(action) != A.PLACE or s.cards[A.subject(action)].points > 0:
        return False
    p = A.player(action)
    pool = s.pool_of(p)
    places = [e for e in range(len(s.loc)) if s.loc[e] == 1 and s.cards[e].kind == amigos.cards.PLACE_OF_POWER]
    for gain in ((0, 0, 0, 0, 1),) + tuple(tuple(int(k == i) + int(k == j) for k in range(5))
                                           for i in range(4) for j in range(i, 4)):
        after = [pool[k] + gain[k] for k in range(5)]
        for e in places:
            cost = s.cards[e].cost
            if all(after[k] >= cost[k] for k in range(5)) and not all(pool[k] >= cost[k] for k in range(5)):
                return True
    return False


CHECKS = {"pass-with-points": _pass_with_points, "ring-order": _ring_order, "pass-with-hand": _pass_with_hand,
          "gold-for-monument": _gold_for_monument, "place-not-discard": _place_not_discard}


def candidates(game: dict):
    """(theme, decision index, state, action) for every check that fires in ``game``."""
    s = amigos.new_game(game["seed"], game["variant"])
    for i, index in enumerate(game["choices"]):
        legal = s.legal_actions()
        action = legal[index]
        if len(legal) > 1 and s.phase == ACTIONS and not s.stack:
            for theme, check in CHECKS.items():
                if check(s, legal, action):
                    yield theme, i, s.clone(), action
        s.apply(action)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=Path, nargs="+", help="self-play files")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=50, help="candidates of each theme at most")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    count = {theme: 0 for theme in CHECKS}
    for path in args.games:
        for game in read_games(path):
            for theme, i, s, action in candidates(game):
                if count[theme] >= args.limit:
                    continue
                count[theme] += 1
                name = f"{theme}-{game['k']}-{i}"
                draft = {"id": name, "theme": theme,
                         "source": f"self-play game {game['k']} of {path.name} ({game['spec']}), decision {i}, "
                                   f"round {s.round}",
                         "why": "", "position": describe(s), "best": [],
                         "played": amigos.action_json(s, action), "played_text": amigos.action_text(s, action),
                         "player": s.current_player(), "vp": s.victory_points()}
                (args.out / f"{name}.json").write_text(json.dumps(draft, indent=1) + "\n")
    print(", ".join(f"{theme}: {n}" for theme, n in count.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
