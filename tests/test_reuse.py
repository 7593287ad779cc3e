"""A search keeps its tree (`reuse=1`): the next decision of the same seat starts from the replies to the
move it played and the rival's answer (`ai.mcts.MCTSAgent.reused`), and the game stays reproducible."""

from __future__ import annotations

from ai.agents import make_agent
from amigos.config import GameConfig
from amigos.setup import deal


def play(specs: list[str], seed: int, decisions: int = 60) -> tuple[list, list]:
    """Up to ``decisions`` of a game between ``specs`` (every agent told of every decision, as a match
    tells them); the actions and the first agent's info after each of its searched decisions."""
    s = deal(seed, GameConfig())
    agents = [make_agent(spec, seed=seed + p) for p, spec in enumerate(specs)]
    actions, infos = [], []
    while not s.is_terminal() and len(actions) < decisions:
        p = s.current_player()
        action = agents[p].select(s)
        if p == 0 and agents[0].info.get("iterations"):
            infos.append(dict(agents[0].info))
        for agent in agents:
            agent.observe(s, action)
        s.apply(action)
        actions.append(action)
    return actions, infos


def test_the_next_search_starts_from_the_replies_it_kept():
    """With reuse, some decisions start with visits from the last search (the replies to the move played
    and the rival's answer); without it, none; the same seeds play the same game."""
    actions, infos = play(["mcts:iters=200", "mcts:iters=50"], 3)
    assert sum(1 for info in infos if info.get("known", 0) > 0) >= 3
    assert play(["mcts:iters=200", "mcts:iters=50"], 3)[0] == actions
    _, plain = play(["mcts:iters=200,reuse=0", "mcts:iters=50"], 3)
    assert not any("known" in info for info in plain)


def test_the_replies_are_those_of_the_move_played_and_the_answer_made():
    """`reused` looks up the last search's child for its move, then the rival's answer under it, and
    gives the children of the seat's own decision there."""
    from ai import mcts as M
    s = deal(5, GameConfig())
    agent, rival = make_agent("mcts:iters=300,seed=1"), make_agent("mcts:iters=30,seed=2")
    checked = 0
    while not s.is_terminal() and checked < 3:
        p = s.current_player()
        mover = agent if p == 0 else rival
        action = mover.select(s)
        kept = agent._kept
        for a in (agent, rival):
            a.observe(s, action)
        s.apply(action)
        while not s.is_terminal() and len(s.legal_actions()) == 1:
            s.apply(s.legal_actions()[0])
        if p == 1 and kept is not None and s.current_player() == 0 and len(kept.seen) == 2:
            node = kept.root.children[kept.chosen].children.get(kept.seen[1][1])
            want = None if node is None else {k: (g.n, g.w) for k, g in node.children.items() if g.player == 0}
            assert agent.reused(s) == want
            assert agent._kept is None  # (let go: used once)
            checked += want is not None
            agent._kept = None
    assert checked == 3
    assert M.REUSE == 1
