"""An online table (`amigos host`, amigos_cli/table): people at a distance play one game through real
websocket clients; each seat's stream and the spectators' never hold a card hidden from them; a dropped
connection rejoins; a second tab takes a seat over; wrong, stolen, stale and malformed answers are
refused and change nothing; the host killed mid-game resumes with the same links."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from amigos.codes import (
    BEING_CHOSEN,
    DECK,
    DRAFT_RESERVE,
    DRAFTING,
    HAND,
    MONUMENT_DECK,
    P_SCRYORDER,
    SETUP_CHOOSE_FIRST,
    SETUP_REDRAFT,
)
from amigos.config import GameConfig
from amigos_cli.table.model import Table, TableError
from amigos_cli.table.server import TableServer
from amigos_cli.table.view import view as view_of
from amigos_cli.views.choices import menu_groups
from matches.match import Match
from matches.record import load

HIDDEN = (HAND, DECK, DRAFTING, DRAFT_RESERVE, BEING_CHOSEN)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """The card ids ``seat`` (None: spectators) may not see in ``state`` (in a redraft every artifact
    was laid face up, and each pick is public)."""
    known = state.known_decks[seat] if seat is not None else frozenset()
    if state.phase in (SETUP_CHOOSE_FIRST, SETUP_REDRAFT):
        known = {c.id for c in state.cards[:state.n_art]}
    out = {state.cards[e].id for e in range(len(state.loc))
           if state.loc[e] in HIDDEN and state.owner[e] != seat and state.cards[e].id not in known}
    out |= {state.cards[e].id for e in range(len(state.loc))
            if state.loc[e] == MONUMENT_DECK and not (seat is not None and state.mon_seer == seat and state.order[e] >= 0)}
    return out


def scried(state: Any, seat: int) -> set[str]:
    """The monuments ``seat`` looks at or knows the order of now (a Seer's or an Oracle's look at the
    monument deck): the log may name them to that seat afterwards."""
    known = {state.cards[e].id for e in range(len(state.loc))
             if state.loc[e] == MONUMENT_DECK and state.mon_seer == seat and state.order[e] >= 0}
    top = state.stack[-1] if state.stack else None
    if top is not None and top[0] == P_SCRYORDER and top[1] == seat:
        known |= {state.cards[e].id for e in top[3]}
    return known


class Recording(TableServer):
    """The server, keeping each view it builds with the position it was built from."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.sent: list[tuple[Any, int | None, str]] = []

    def view_for(self, seat: int | None, snapshot: Any) -> dict[str, Any]:
        data = super().view_for(seat, snapshot)
        self.sent.append((snapshot.state, seat, json.dumps(data)))
        return data


async def seat_client(port: int, token: str, rng: random.Random, received: list[dict[str, Any]],
                      stop_after: int | None = None) -> None:
    """A person's tab: answer every decision of theirs with a random choice and way, until the game is
    over (or ``stop_after`` answers: the connection drops)."""
    answered = 0
    async with aiohttp.ClientSession() as client:
        async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
            async for message in ws:
                data = json.loads(message.data)
                received.append(data)
                if data["type"] == "view" and data["over"]:
                    return
                if data["type"] == "view" and data["choices"]:
                    groups = data["choices"]["groups"]
                    g = rng.randrange(len(groups))
                    w = rng.randrange(len(groups[g]["ways"])) if groups[g]["ways"] else 0
                    await ws.send_json({"type": "choose", "ask": data["choices"]["ask"], "group": g, "way": w})
                    answered += 1
                    if stop_after is not None and answered >= stop_after:
                        return


async def spectator(port: int, token: str, received: list[dict[str, Any]]) -> None:
    async with aiohttp.ClientSession() as client:
        async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
            async for message in ws:
                data = json.loads(message.data)
                received.append(data)
                if data["type"] == "view" and data["over"]:
                    return


@contextlib.asynccontextmanager
async def served(server: TableServer, port: int) -> AsyncIterator[None]:
    """``server``'s table played and served on ``port`` for the block, then stopped."""
    runner = await server.start("127.0.0.1", port)
    try:
        yield
    finally:
        server.table.stop()
        await runner.cleanup()


def _table(tmp_path: Path, specs: list[str], seed: int = 5) -> Table:
    match = Match.new(seed, specs, GameConfig(players=len(specs)), fmt="game",
                      names=[f"Player {p + 1}" for p in range(len(specs))])
    return Table.new(match, tmp_path / "table.amigos")


def test_two_people_and_an_agent_play_a_whole_game_and_see_only_their_own(tmp_path):
    table = _table(tmp_path, ["human", "greedy", "human"])
    server = Recording(table)
    port = free_port()
    streams: dict[Any, list[dict[str, Any]]] = {0: [], 2: [], None: []}

    async def play() -> None:
        async with served(server, port):
            await asyncio.wait_for(asyncio.gather(
                seat_client(port, table.tokens[0], random.Random(1), streams[0]),
                seat_client(port, table.tokens[2], random.Random(2), streams[2]),
                spectator(port, table.spectator, streams[None])), timeout=240)

    asyncio.run(play())
    saved = load(tmp_path / "table.amigos")
    assert saved.is_over() and saved.record["table"]["tokens"][1] is None
    for seat in (0, 2, None):
        assert streams[seat][0]["type"] == "cards" and streams[seat][-1]["over"]
        assert streams[seat][0]["essences"] == ["elan", "life", "calm", "death", "gold"]
        assert all(m.get("you") == seat for m in streams[seat] if m["type"] == "view")
    assert any(m["choices"] for m in streams[0] if m["type"] == "view")
    assert not any(m["choices"] for m in streams[None] if m["type"] == "view")
    checked = 0
    looked: dict[int | None, set[str]] = {0: set(), 2: set(), None: set()}  # monuments each has looked at
    for state, seat, text in server.sent:  # what each connection was sent, against its position, in order
        if seat is not None:
            looked[seat] |= scried(state, seat)
        leaked = [cid for cid in hidden_from(state, seat) - looked[seat] if f'"{cid}"' in text]
        assert not leaked, (seat, leaked)
        checked += 1
        for token in table.tokens + [table.spectator]:
            assert token is None or token not in text
    assert checked > 100


def test_a_dropped_connection_rejoins_where_it_was_and_a_second_tab_takes_the_seat_over(tmp_path):
    table = _table(tmp_path, ["human", "random"], seed=8)
    server = TableServer(table)
    port = free_port()

    async def scenario() -> None:
        async with served(server, port):
            first: list[dict[str, Any]] = []
            await asyncio.wait_for(seat_client(port, table.tokens[0], random.Random(3), first, stop_after=3), 60)
            asked = table.snapshot.asked
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[0]}") as one:
                    cards = await one.receive_json(timeout=10)
                    again = await one.receive_json(timeout=10)
                    assert cards["type"] == "cards" and again["type"] == "view"
                    if asked is not None and asked[0] == 0:  # (the decision waits for the seat again)
                        assert again["choices"]["ask"] == asked[1]
                    async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[0]}") as two:
                        told = []
                        async for message in one:  # (until the server closes the first tab)
                            told.append(json.loads(message.data)["type"])
                        assert "replaced" in told and one.closed
                        assert (await two.receive_json(timeout=10))["type"] == "cards"

    asyncio.run(scenario())


def test_wrong_stale_malformed_and_spectators_answers_are_refused_and_change_nothing(tmp_path):
    table = _table(tmp_path, ["human", "human"], seed=2)
    server = TableServer(table)
    port = free_port()

    async def scenario() -> None:
        async with served(server, port):
            async with aiohttp.ClientSession() as client:
                for path in ("/t/nosuchtoken0000000000", "/ws/nosuchtoken0000000000", "/t/", "/board-files/../model.py", "/board-files/board.html"):
                    async with client.get(f"http://127.0.0.1:{port}{path}") as reply:
                        assert reply.status == 404
                for _ in range(50):
                    if table.snapshot.asked is not None:
                        break
                    await asyncio.sleep(0.1)
                seat, ask = table.snapshot.asked
                other = 1 - seat
                decisions = len(table.match.record["games"][0]["decisions"])
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[other]}") as ws:
                    await ws.receive_json(timeout=10)
                    await ws.receive_json(timeout=10)
                    # (choosing mages, every seat is asked at once: the other seat's own ask is another)
                    together = table.snapshot.together
                    theirs = "past" if together is not None and other in together.offers else "not your decision"
                    for bad, why in (({"type": "choose", "ask": ask, "group": 0, "way": 0}, theirs),
                                     ("{not json", "not JSON"), ({"type": "hello"}, "unknown message"),
                                     ({"type": "choose", "ask": "1", "group": 0, "way": 0}, "whole numbers")):
                        await (ws.send_str(bad) if isinstance(bad, str) else ws.send_json(bad))
                        reply = await _next_of(ws, "refused")
                        assert why in reply["why"]
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.tokens[seat]}") as ws:
                    await ws.receive_json(timeout=10)
                    await ws.receive_json(timeout=10)
                    for bad, why in (({"type": "choose", "ask": ask - 1, "group": 0, "way": 0}, "past"),
                                     ({"type": "choose", "ask": ask, "group": 999, "way": 0}, "no such choice"),
                                     ({"type": "choose", "ask": ask, "group": 0, "way": 99}, "no such way")):
                        await ws.send_json(bad)
                        assert why in (await _next_of(ws, "refused"))["why"]
                    assert len(table.match.record["games"][0]["decisions"]) == decisions
                    assert table.snapshot.asked == (seat, ask)
                    await ws.send_json({"type": "choose", "ask": ask, "group": 0, "way": 0})
                    await ws.send_json({"type": "choose", "ask": ask, "group": 0, "way": 0})  # (replayed)
                    assert "not your decision" in (await _next_of(ws, "refused"))["why"] or \
                        "past" in (await _next_of(ws, "refused"))["why"]
                    for _ in range(100):  # (the match's thread records the answer)
                        if len(table.match.record["games"][0]["decisions"]) > decisions:
                            break
                        await asyncio.sleep(0.05)
                    assert len(table.match.record["games"][0]["decisions"]) == decisions + 1
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{table.spectator}") as ws:
                    await ws.send_json({"type": "choose", "ask": 1, "group": 0, "way": 0})
                    assert "spectators watch" in (await _next_of(ws, "refused"))["why"]

    asyncio.run(scenario())


async def _next_of(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        message = await ws.receive_json(timeout=10)
        if message.get("type") == kind:
            return message


def _links(proc: subprocess.Popen[str]) -> dict[str, str]:
    links: dict[str, str] = {}
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"^\s+(.+): http://\S+/t/(\S+)$", line)
        if found:
            links[found.group(1)] = found.group(2)
        if "to stop" in line:
            return links
    raise AssertionError(f"no links: {links}")


def test_the_host_killed_mid_game_resumes_with_the_same_links_and_loses_no_decision(tmp_path):
    port = free_port()
    amigos = [sys.executable, "-m", "amigos_cli", "host"]
    first = subprocess.Popen(amigos + ["--p1", "human", "--p2", "random", "--seed", "6", "--save", "t.amigos",
                                       "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        links = _links(first)
        asyncio.run(asyncio.wait_for(seat_client(port, links["Player 1"], random.Random(4), [], stop_after=6), 60))
        time.sleep(0.5)
        before = len(load(tmp_path / "t.amigos").record["games"][0]["decisions"])
        assert before >= 6
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    second = subprocess.Popen(amigos + ["--resume", "t.amigos", "--port", str(port)], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                              start_new_session=True)
    try:
        again = _links(second)
        assert again == links
        received: list[dict[str, Any]] = []
        asyncio.run(asyncio.wait_for(seat_client(port, links["Player 1"], random.Random(5), received, stop_after=2), 60))
        assert received[1]["type"] == "view" and received[1]["log"]  # (the game as it was, not a new one)
        deadline = time.monotonic() + 10
        while len(load(tmp_path / "t.amigos").record["games"][0]["decisions"]) < before + 2:
            assert time.monotonic() < deadline, "the answers after resuming were not saved"
            time.sleep(0.2)
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        out, err = second.communicate(timeout=30)
    assert "Traceback" not in err and links["Player 1"] not in err
    assert second.returncode == 0, err


def test_a_file_that_is_no_table_and_bad_settings_are_one_line(tmp_path):
    from matches.record import save
    plain = Match.new(1, ["human", "random"], fmt="game")
    save(plain, tmp_path / "plain.amigos")
    amigos = [sys.executable, "-m", "amigos_cli", "host"]
    for args, words in ((["--resume", "plain.amigos"], "not a table's match file"),
                        (["--p1", "random", "--p2", "greedy"], "at least one person"),
                        (["--players", "3", "--format", "match"], "two players")):
        done = subprocess.run(amigos + args, cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_host_hands_a_gone_person_s_seat_to_an_agent_and_the_file_keeps_it(tmp_path):
    """A seat waiting for a person who is gone: 'agent N' lets an agent answer it from now on (the
    waiting decision too), the seat is shown as the AI's, and a resumed table keeps it."""
    table = _table(tmp_path, ["human", "human"], seed=9)
    server = TableServer(table)
    port = free_port()

    async def scenario() -> None:
        async with served(server, port):
            for _ in range(100):
                if table.snapshot.asked is not None:
                    break
                await asyncio.sleep(0.05)
            table.hand_to_agent(0, "random")
            table.hand_to_agent(1, "greedy")
            for _ in range(600):
                if table.match.is_over():
                    break
                await asyncio.sleep(0.1)
            assert table.match.is_over()
            assert [s["kind"] for s in server.seats()] == ["agent", "agent"]

    asyncio.run(scenario())
    saved = load(tmp_path / "table.amigos")
    assert saved.record["table"]["handed"] == {"0": "random", "1": "greedy"}
    assert Table.resumed(saved, tmp_path / "table.amigos").handed == {0: "random", 1: "greedy"}
    with pytest.raises(TableError, match="not a person's"):
        _table(tmp_path / "x", ["human", "random"]).hand_to_agent(1, "greedy")


def test_every_view_of_a_game_of_four_with_the_expansion_holds_no_hidden_card(tmp_path):
    """The board's data (`amigos_cli.table.view.view`: the position, the centre's scrolls, the log,
    the note, the choices and their cards, the result) built for each seat and for spectators after
    every decision of a game of four with *Lux et Tenebrae* played at random: no card hidden from that
    seat; the choices' cards are the cards their actions are about; the note names a Life loss."""
    from ai.agents import make_agent
    from amigos import actions as A
    from amigos_cli.table.view import LogBook
    from amigos_cli.views.safe import player_names
    from matches.session import HUMAN, Session, Step

    specs = ["human"] * 4
    match = Match.new(13, specs, GameConfig(players=4, expansions=("lux",)), fmt="game",
                      names=[f"P{p + 1}" for p in range(4)])
    session = Session(match, tmp_path / "four.amigos", seat_for=lambda seat: make_agent("random"))  # (its log steps only)
    names = player_names(match.record)
    book = LogBook(names, [s == HUMAN for s in specs])
    rng = random.Random(7)
    looked: dict[int | None, set[str]] = {p: set() for p in range(4)} | {None: set()}
    seats = [{"kind": "person", "connected": True}] * 4
    notes = set()
    for _ in range(2000):
        if match.is_over():
            break
        actor = match.to_act()
        state = match.state
        for seat in (0, 1, 2, 3, None):
            if seat is not None:
                looked[seat] |= scried(state, seat)
            data = view_of(state, seat, names, session.steps, (state.current_player(), 1), seats, book=book)
            text = json.dumps(data)
            leaked = [cid for cid in hidden_from(state, seat) - looked[seat] if f'"{cid}"' in text]
            assert not leaked, (seat, leaked)
            if data["choices"]:
                for group, actions in zip(data["choices"]["groups"], menu_groups(state)):
                    first = actions[0]
                    assert group["card"] == (state.cards[A.subject(first)].id if group["act"] not in (
                        "top_monument", "life_loss", "scry_deck", "scry_order", "discard_choice", "first_player")
                        else None), group
        notes.add(data["note"].split(" (")[0].split(" ", 1)[1])
        assert data["position"]["scrolls_in_game"]
        before = state.clone()
        action = rng.choice(rng.choice(state.legal_groups()))
        match.decide(action)
        session.steps.append(Step(actor, A.kind(action), A.TYPE_NAMES[A.kind(action)], 1, None, before, match.state.clone()))
    final = view_of(match.state, None, names, session.steps, None, seats, book=book)
    assert final["over"] and final["result"]["winners"] and len(final["result"]["vp"]) == 4
    assert "must answer a Life loss" in notes and "to play" in notes, notes


def test_a_best_of_three_at_a_table_plays_its_redraft_and_its_three_games(tmp_path):
    """Two people play a whole best of three (the choice of who starts, the face-up redraft) through
    their tabs; neither stream holds a card hidden from its seat."""
    match = Match.new(12, ["human", "human"], GameConfig(), fmt="match", names=["Ann", "Bob"])
    table = Table.new(match, tmp_path / "m.amigos")
    server = Recording(table)
    port = free_port()
    streams: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

    async def play() -> None:
        async with served(server, port):
            await asyncio.wait_for(asyncio.gather(
                seat_client(port, table.tokens[0], random.Random(7), streams[0]),
                seat_client(port, table.tokens[1], random.Random(8), streams[1])), timeout=600)

    asyncio.run(play())
    saved = load(tmp_path / "m.amigos")
    assert saved.is_over() and len(saved.record["games"]) >= 2
    assert any(d[1]["__type__"] == "RedraftPick" for d in saved.record["games"][1]["decisions"])
    for state, seat, text in server.sent:
        assert not [cid for cid in hidden_from(state, seat) - scried(state, seat) if f'"{cid}"' in text], seat


def test_the_host_stops_at_once_on_ctrl_c_or_quit_while_its_input_stays_open(tmp_path):
    """A terminal's input stays open: the host must not wait for a line to end (a reader blocked on it
    kept the program from exiting after 'Stopped.')."""
    amigos = [sys.executable, "-m", "amigos_cli", "host", "--p1", "human", "--p2", "random", "--seed", "4"]
    for stop in ("ctrl-c", "quit"):
        port = free_port()
        host = subprocess.Popen(amigos + ["--save", f"{stop}.amigos", "--port", str(port)], cwd=tmp_path,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _links(host)
            assert host.stdin is not None
            if stop == "quit":
                host.stdin.write("quit\n")
                host.stdin.flush()
            else:
                host.send_signal(signal.SIGINT)
            host.wait(timeout=15)  # (its input still open: `communicate` would close it)
        finally:
            host.kill()
        assert host.stdout is not None
        assert host.returncode == 0 and "Stopped. Open it again with" in host.stdout.read()


def _joined(words: list[dict[str, Any]]) -> str:
    """A choice's segments (`amigos_cli.table.view.words`) as words again."""
    from amigos.text import essences_text
    return "".join(essences_text(w["essences"]) if "essences" in w else w["text"] for w in words)


def test_a_choice_s_essences_and_points_come_as_data():
    """The segments of a choice's words hold each essence count as five counts and the note of the
    points it wins or costs with its number; an essence count inside that note stays words; joined
    again (`essences_text`), the segments are the words.  Every count `amigos.text.essences_text`
    writes is read as the counts it was written from: the two ends of the words agree."""
    import itertools

    from amigos.text import essences_text
    from amigos_cli.table.view import words

    assert words("Place Witch  (+1 VP)") == [{"text": "Place Witch  "}, {"points": 1, "text": "(+1 VP)"}]
    assert words("Use Prism: pay 1 Life, gain 2 gold  (costs 3 VP; ends the game: you win)") == [
        {"text": "Use Prism: pay "}, {"essences": [0, 1, 0, 0, 0]}, {"text": ", gain "},
        {"essences": [0, 0, 0, 0, 2]}, {"text": "  "}, {"points": -3, "text": "(costs 3 VP; ends the game: you win)"}]
    assert words("Take the 2 gold  (+2 VP; kept for its power, which takes 1 gold off it)")[-1]["points"] == 2
    assert words("Pass, taking Alchemy") == [{"text": "Pass, taking Alchemy"}]
    assert words("") == []
    for counts in itertools.product(range(3), repeat=5):
        text = "pay " + essences_text(counts)
        cut = words(text)
        assert [sum(w["essences"][k] for w in cut if "essences" in w) for k in range(5)] == list(counts), text
        assert all(len([n for n in w["essences"] if n]) == 1 for w in cut if "essences" in w)
        assert _joined(cut) == text


def test_every_view_of_a_game_carries_its_choices_points_and_note_as_data(tmp_path):
    """Through a whole random game of three with the expansion, as the board draws them: every choice's
    and way's segments joined again are its words, and the note of points says what
    `points_change` says; each player's points come from the ids of their cards in play (with the
    First Player token and the round's points), summing to their points; the note to the seat deciding
    is the note's decision said to it, None on a plain turn."""
    from amigos import actions as A
    from amigos import cards as C
    from amigos_cli.views.choices import points_change

    match = Match.new(17, ["human"] * 3, GameConfig(players=3, expansions=("lux",)), fmt="game", names=["A", "B", "C"])
    seats = [{"kind": "person", "connected": True}] * 3
    rng = random.Random(9)
    kinds: dict[str, int] = {}
    for _ in range(3000):
        if match.is_over():
            break
        state = match.state
        seat = state.current_player()
        data = view_of(state, seat, ["A", "B", "C"], [], (seat, 1), seats)
        json.dumps(data)
        for group, actions in zip(data["choices"]["groups"], menu_groups(state)):
            assert _joined(group["words"]).lower() == group["text"].lower(), group
            for way in group["ways"]:
                assert _joined(way["words"]).lower() == way["text"].lower(), way
            points = [w["points"] for w in group["words"] if "points" in w]
            scored = len(actions) == 1 or A.kind(actions[0]) == A.TAKE
            change = points_change(state, actions[0]) if scored else 0
            assert points == ([change] if change else []), (group["text"], change)
            for w in group["words"] + [w for way in group["ways"] for w in way["words"]]:
                kinds["essences" if "essences" in w else "points" if "points" in w else "text"] = 1 + kinds.get(
                    "essences" if "essences" in w else "points" if "points" in w else "text", 0)
        for p, entry in enumerate(data["position"]["players"]):
            assert sum(f["points"] for f in entry["points_from"]) == state.vp(p)
            in_play = {c["id"] for c in entry["in_play"]}
            for f in entry["points_from"]:
                assert (f["card"] in in_play and f["label"] == C.BY_ID[f["card"]].name) if f["card"] is not None \
                    else f["label"] in ("first player", "this round"), f
        name, deciding = data["note"].split(" ", 1)
        assert name == "ABC"[seat]
        if deciding == "to play":
            assert data["note_you"] is None
        else:
            you = data["note_you"]
            assert you is not None and you.split(" ", 1)[1:] == deciding.split(" ", 1)[1:], (deciding, you)
        match.decide(rng.choice(rng.choice(state.legal_groups())))
    assert match.is_over() and min(kinds.values()) > 10, kinds
    final = view_of(match.state, 0, ["A", "B", "C"], [], None, seats)
    assert final["note"] == "" and final["note_you"] is None and final["choices"] is None


def test_the_match_s_thread_tells_the_server_its_end_and_no_view_s_task_is_left(tmp_path):
    """`TableServer.ended` is set on the event loop by the match's thread as it ends, after its last
    change went on its way; the views' tasks are kept until sent (`TableServer.tasks`) and none is left
    once they are."""
    table = _table(tmp_path, ["random", "greedy"], seed=3)
    server = TableServer(table)
    port = free_port()
    received: list[dict[str, Any]] = []

    async def scenario() -> None:
        async with served(server, port):
            watching = asyncio.create_task(spectator(port, table.spectator, received))
            await asyncio.wait_for(server.ended.wait(), 120)
            assert table.match.is_over() and table.snapshot.over
            await server.sent()
            assert not server.tasks
            await asyncio.wait_for(watching, 30)

    asyncio.run(scenario())
    assert received[-1]["type"] == "view" and received[-1]["over"]


def test_the_host_ends_by_itself_once_the_game_is_over(tmp_path):
    """A host whose input stays open stops by itself when its match's thread ends: the person's seat
    handed to an agent, the game plays out and the host says it is over."""
    port = free_port()
    host = subprocess.Popen([sys.executable, "-m", "amigos_cli", "host", "--p1", "human", "--p2", "random", "--seed",
                             "2", "--save", "end.amigos", "--port", str(port)], cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _links(host)
        assert host.stdin is not None
        host.stdin.write("agent 1 random\n")
        host.stdin.flush()
        host.wait(timeout=120)  # (its input still open)
    finally:
        host.kill()
    assert host.stdout is not None and host.stderr is not None
    assert host.returncode == 0 and "The game is over." in host.stdout.read(), host.stderr.read()
    assert load(tmp_path / "end.amigos").is_over()


class Numbered(TableServer):
    """A server whose views are numbered in the order they are made, every other one big (compressed off
    the event loop by aiohttp) and the rest small (compressed on it)."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.made = 0
        self.filler = random.Random(1).randbytes(48_000).hex()

    def view_for(self, seat: int | None, snapshot: Any) -> dict[str, Any]:
        self.made += 1
        return {"type": "view", "number": self.made, "filler": self.filler if self.made % 2 else ""}


def test_a_connection_s_views_arrive_in_the_order_they_were_made_the_latest_last(tmp_path):
    """Changes that come one after another are sent to a compressing page in order, so its last view is
    of the latest snapshot: a small view sent after a big one never overtakes it (the page would be left
    on a past decision, its buttons waiting for an answer that had come).  Changes that come while a
    view is on its way are sent once, after it."""
    server = Numbered(_table(tmp_path, ["human", "random"], seed=2))
    port = free_port()
    numbers: list[int] = []

    async def scenario() -> None:
        async with served(server, port):
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{server.table.spectator}",
                                             compress=15) as ws:
                    assert (await ws.receive_json(timeout=10))["type"] == "cards"
                    numbers.append((await ws.receive_json(timeout=10))["number"])  # (the view on joining)
                    for _ in range(12):
                        server.broadcast()
                    await server.sent()
                    with contextlib.suppress(asyncio.TimeoutError):  # (every view sent: none for a second)
                        while True:
                            numbers.append((await ws.receive_json(timeout=1))["number"])

    asyncio.run(scenario())
    assert numbers == sorted(numbers) and numbers[-1] == server.made and 2 <= len(numbers) < 12
