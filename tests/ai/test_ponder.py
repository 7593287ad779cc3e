"""Pondering: an AI that plays a person searches its next decision while the person decides, from its
own view only, and keeps what it found for the move the person makes (`ai.mcts.MCTSAgent.ponder`)."""

import time

import amigos
from ai import mcts as M
from ai.agents import make_agent
from amigos.actions import PASS, kind, player
from amigos.codes import ACTIONS, DECK, HAND
from amigos.config import GameConfig
from tests.helpers import hidden_twin


def person_to_move(seed: int, person: int = 0) -> amigos.GameState:
    """A position of the action phase, some rounds in, where ``person`` decides among several moves and
    holds at least two cards the other seat cannot see."""
    s = amigos.deal(seed, GameConfig())
    agents = [make_agent("mcts:iters=20", seed=seed + p) for p in range(2)]
    while not s.is_terminal():
        legal = s.legal_actions()
        hidden = sum(1 for e in range(s.n_art) if s.owner[e] == person and s.loc[e] in (HAND, DECK))
        if s.round >= 3 and s.current_player() == person and len(M.group(s, True)) >= 3 and s.phase == ACTIONS \
                and hidden >= 2:
            return s
        s.apply(legal[0] if len(legal) == 1 else agents[s.current_player()].select(s))
    raise AssertionError("no such position")


def test_a_ponder_never_reads_the_person_s_hidden_cards():
    """A search grown at the person's decision for the AI's seat finds the same replies in two positions
    that differ only in what the AI cannot see."""
    for seed in (3, 8):
        s = person_to_move(seed)
        twin = hidden_twin(s, viewer=1)
        found = M.replies(M.grow(s, 1, 300, None, 7)[0], 1)
        assert found and found == M.replies(M.grow(twin, 1, 300, None, 7)[0], 1)


def test_replies_are_the_ai_s_moves_under_each_of_the_person_s():
    """`replies` keeps, under each of the person's moves, only the nodes of the AI's own decision."""
    s = person_to_move(5)
    root, done = M.grow(s, 1, 400, None, 2)
    found = M.replies(root, 1)
    assert 0 < done <= 400 and found
    for key, stats in found.items():
        child = root.children[key]
        assert child.player == 0  # (the person's move)
        assert stats == {k: (g.n, g.w) for k, g in child.children.items() if g.player == 1}


def _after_the_person(s: amigos.GameState, agent, action) -> amigos.GameState:
    """The person makes ``action`` (the agent told of it), then the forced moves, as a match plays them."""
    agent.observe(s, action)
    s.apply(action)
    while not s.is_terminal() and len(s.legal_actions()) == 1:
        s.apply(s.legal_actions()[0])
    return s


def test_pondering_keeps_what_it_found_for_the_move_the_person_makes():
    """The AI ponders while the person thinks; after the person's move it starts from the replies to
    that move (its own moves there, visited), and only then: two decisions since, or a ponder for a
    decision that is not the AI's next, give nothing."""
    agent = make_agent("mcts:time=0.2,ponder=1,workers=1,seed=2")
    try:
        hits = 0
        for seed in (3, 5, 8):
            s = person_to_move(seed)
            agent.ponder(s, 1)
            time.sleep(1.0)
            top = max(M.group(s, True), key=lambda k: (kind(k) != PASS, k))  # (a move, not a pass)
            action = M.group(s, True)[top][0]
            s = _after_the_person(s, agent, action)
            if s.is_terminal() or s.current_player() != 1:
                assert agent.pondered(s) is None
                continue
            found = agent.pondered(s)
            assert found is not None
            assert all(player(k) == 1 for k in found)  # (the AI's own moves, in the worlds pondered)
            ai_moves = set(M.group(s, True))
            hits += sum(n for k, (n, _) in found.items() if k in ai_moves) > 0
            assert agent.pondered(s) is None  # (used once: the ponder is over)
        assert hits >= 1
        s = person_to_move(3)
        agent.ponder(s, 1)
        legal = s.legal_actions()
        agent.observe(s, legal[0])
        agent.observe(s, legal[-1])  # (two decisions since the ponder began)
        assert agent.pondered(s) is None
    finally:
        agent.close()


def test_an_iteration_budget_never_ponders():
    """A search on an iteration budget stays reproducible: ``ponder=1`` starts nothing."""
    agent = make_agent("mcts:iters=50,ponder=1,seed=1")
    s = person_to_move(3)
    agent.ponder(s, 1)
    assert agent._pool is None and agent.pondered(s) is None
    assert make_agent("mcts:time=0.2,seed=1").pondering is False  # (off unless asked for)


def test_the_time_goes_where_it_matters():
    """The search takes more of its time where the round may end the game, less for a choice of two."""
    agent = make_agent("mcts:time=1.0")
    s = person_to_move(3)
    groups = M.group(s, True)
    if max(s.scores()[0]) < M.NEAR_WIN:
        assert agent.seconds_for(s, groups) == (1.0 if len(groups) != 2 else M.TWO_MOVES_TIME)
    two = dict(list(groups.items())[:2])
    late = s.clone()
    late.temp_vp[0] = 9  # (someone within two points of winning)
    assert max(late.scores()[0]) >= M.NEAR_WIN
    assert agent.seconds_for(late, groups) == M.LAST_ROUND_TIME
    assert agent.seconds_for(late, two) == M.LAST_ROUND_TIME * M.TWO_MOVES_TIME
    assert make_agent("mcts:iters=10").seconds_for(late, groups) is None


def test_a_closed_agent_does_not_ponder_until_it_is_asked_again():
    """A table that stops closes its agents; a person's decision asked after that starts no worker,
    even after a last search (a ponder left running would hold the program's exit)."""
    agent = make_agent("mcts:time=0.2,ponder=1,workers=2,seed=1")
    s = person_to_move(3)
    agent.close()
    agent.ponder(s, 1)
    assert agent._pool is None and agent.pondered(s) is None
    ai_turn = person_to_move(3, person=1)
    agent.select(ai_turn)  # (a search the match thread had begun: it may still run)
    agent.ponder(s, 1)
    assert agent._ponder is None
    agent.close()
