"""The links of ``amigos host`` and ``amigos serve`` work from where the friend is (issue 53): made from
the address the server actually listens on (its real port with ``--port 0``), this machine's own
addresses with ``--host 0.0.0.0``, or ``--public-url``; seats named with ``--name``; ``--p3`` alone seats
three.  Every bad value is one line and exit code 2, and leaves no file."""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from amigos_cli.app import main
from amigos_cli.errors import CliUsageError
from amigos_cli.table.links import check_public_url, links, machine_addresses
from matches.record import load
from tests.web.test_serve import serving
from tests.web.test_table_hardening import host, stop

AMIGOS = [sys.executable, "-m", "amigos_cli"]
LINK = re.compile(r"^  (.+): (https?://\S+/t/(\S+))$")  # a seat's (or the spectators') line


def printed(proc: subprocess.Popen[str]) -> tuple[dict[str, str], list[str]]:
    """The links a host prints (each seat's name, and "spectators", to its link) and its lines up to
    its help line."""
    found: dict[str, str] = {}
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        link = LINK.match(line.rstrip("\n"))
        if link:
            found[link.group(1)] = link.group(2)
        if "to stop" in line:
            return found, lines
    raise AssertionError(f"no links: {lines}")


def page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as reply:
        assert reply.status == 200
        return reply.read().decode()


def refused(args: list[str], folder: Path, words: str, capsys: pytest.CaptureFixture[str] | None = None) -> None:
    """``amigos ARGS`` run in ``folder`` exits with code 2 and the one line ``amigos: ...`` holding
    ``words`` on its standard error, and leaves no file: in a process of its own, or with ``capsys``
    through the command line's entry point in this one (as fast as a function call)."""
    if capsys is None:
        done = subprocess.run(AMIGOS + args, cwd=folder, capture_output=True, text=True, timeout=60)
        code, err = done.returncode, done.stderr
    else:
        capsys.readouterr()
        with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exited:
            patch.chdir(folder)
            main(args)
        code, err = exited.value.code, capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("amigos: ") and words in err, (args, err)
    assert "Traceback" not in err and list(folder.iterdir()) == [], args


def test_with_host_0_0_0_0_the_links_are_this_machine_s_addresses_and_each_opens_its_seat(tmp_path):
    addresses = machine_addresses([socket.AF_INET])
    if not addresses:
        pytest.skip("this machine has no IPv4 address but loopback")
    proc, _ = host(tmp_path, "--p1", "human", "--p2", "human", "--seed", "3", "--save", "t.amigos",
                   "--host", "0.0.0.0")
    try:
        found, lines = printed(proc)
        record = load(tmp_path / "t.amigos").record
        tokens = record["table"]["tokens"] + [record["table"]["spectator"]]
        assert sorted(url.rsplit("/", 1)[1] for url in found.values()) == sorted(tokens)
        for name, url in found.items():
            parts = urlsplit(url)
            assert parts.hostname == addresses[0] and not ipaddress.ip_address(parts.hostname).is_loopback, url
            assert "board-files/board.js" in page(url), name
        assert not any("localhost" in line or "127.0.0.1" in line for line in lines)
        assert any("Other machines on this network" in line for line in lines)

        async def seat(url: str) -> dict[str, Any]:
            origin = urlsplit(url)
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(f"ws://{origin.netloc}/ws/{url.rsplit('/', 1)[1]}") as ws:
                    return await ws.receive_json(timeout=10)

        assert asyncio.run(seat(found["Player 2"]))["type"] == "cards"
    finally:
        stop(proc)


def test_port_0_takes_a_free_port_and_the_links_name_it(tmp_path):
    proc = subprocess.Popen(AMIGOS + ["host", "--port", "0", "--seed", "4", "--save", "t.amigos"], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        found, lines = printed(proc)
        port = urlsplit(found["Player 1"]).port
        assert port and port > 0 and all(urlsplit(url).port == port for url in found.values())
        assert all(url.startswith(f"http://localhost:{port}/t/") for url in found.values())
        assert any("Only this machine can open these links" in line and "docs/TABLE.md" in line for line in lines)
        assert "board-files/board.js" in page(f"http://127.0.0.1:{port}/t/{found['Player 1'].rsplit('/', 1)[1]}")
    finally:
        stop(proc)


def test_with_a_public_url_every_link_is_made_from_it_and_the_table_answers_where_it_listens(tmp_path):
    proc, port = host(tmp_path, "--p1", "human", "--p2", "greedy", "--seed", "5", "--save", "t.amigos",
                      "--public-url", "https://example.org/amigos/")
    try:
        found, lines = printed(proc)
        record = load(tmp_path / "t.amigos").record
        assert found == {"Player 1": f"https://example.org/amigos/t/{record['table']['tokens'][0]}",
                         "spectators": f"https://example.org/amigos/t/{record['table']['spectator']}"}
        assert any(f"listens on 127.0.0.1:{port}" in line for line in lines)
        assert "board-files/board.js" in page(f"http://127.0.0.1:{port}/t/{record['table']['tokens'][0]}")
    finally:
        stop(proc)


def test_a_bad_public_url_is_one_line_and_exit_2(tmp_path, capsys):
    for url, words in (("example.org", "http:// or https://"), ("ftp://example.org/", "http:// or https://"),
                       ("https://", "with a host"), ("https://example.org/?a=1", "no query"),
                       ("https://example.org/#x", "fragment"), ("https://me@example.org/", "user"),
                       ("https://example.org:99999/", "no URL"), ("https://[::1/", "no URL"),
                       ("https://example.org/a b", "no spaces")):
        refused(["host", "--public-url", url, "--save", "x.amigos"], tmp_path, words, capsys)
    refused(["serve", "--public-url", "javascript:alert(1)"], tmp_path, "http:// or https://", capsys)
    refused(["host", "--public-url", "https://example.org/amigos?x", "--save", "x.amigos"], tmp_path, "no query")


def test_public_urls_and_addresses_as_links_make_them():
    assert check_public_url(None) is None
    for given, base in (("https://example.org/amigos/", "https://example.org/amigos"),
                        ("https://example.org/amigos", "https://example.org/amigos"),
                        ("http://example.org", "http://example.org"), ("https://example.org//", "https://example.org"),
                        ("http://[2001:db8::1]:8080/x/", "http://[2001:db8::1]:8080/x")):
        assert check_public_url(given) == base
        assert links([("0.0.0.0", 8000)], base).seat("TOKEN") == f"{base}/t/TOKEN"
    with pytest.raises(CliUsageError):
        check_public_url("https://example.org/?")
    assert links([("127.0.0.1", 8000)]).bases == ("http://localhost:8000",)
    assert links([("::1", 8000)]).bases == ("http://localhost:8000",)
    assert links([("192.0.2.7", 8000)]).bases == ("http://192.0.2.7:8000",)
    assert links([("2001:db8::7", 8000)]).seat("T") == "http://[2001:db8::7]:8000/t/T"
    assert links([("2001:db8::7", 8000)]).note is None
    every = links([("0.0.0.0", 8000)])
    assert all(urlsplit(b).hostname != "0.0.0.0" for b in every.bases) and every.note and "8000" in every.note


def test_a_seat_named_with_name_is_called_so_in_the_links_the_file_and_its_view(tmp_path):
    proc, port = host(tmp_path, "--p1", "human", "--p2", "human", "--p3", "greedy", "--seed", "6",
                      "--save", "t.amigos", "--name", "2=Bob", "--name", "3=Deep Thought")
    try:
        found, _ = printed(proc)
        assert set(found) == {"Player 1", "Bob", "spectators"}
        assert [p["name"] for p in load(tmp_path / "t.amigos").record["players"]] == \
            ["Player 1", "Bob", "Deep Thought"]

        async def view(token: str) -> dict[str, Any]:
            async with aiohttp.ClientSession() as client:
                async with client.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
                    while (message := await ws.receive_json(timeout=10))["type"] != "view":
                        pass
                    return message

        seen = asyncio.run(view(found["Bob"].rsplit("/", 1)[1]))
        assert seen["you"] == 1 and seen["names"] == ["Player 1", "Bob", "Deep Thought"]
    finally:
        stop(proc)


def test_bad_names_are_one_line_and_exit_2(tmp_path, capsys):
    for names, words in ((["2"], "is not N=NAME"), (["x=Bob"], "is not N=NAME"), (["3=Bob"], "no seat 3"),
                         (["0=Bob"], "no seat 0"), (["1="], "empty"), (["1=   "], "empty"),
                         (["1=" + "a" * 21], "at most 20"), (["1=a\x1bb"], "printable"), (["1=a\u202eb"], "printable"),
                         (["2=Bob", "2=Al"], "seat 2 twice"), (["1=Bob", "2=bob"], "both be called"),
                         (["1=Player 2"], "both be called")):
        refused(["host", "--save", "x.amigos", *[arg for n in names for arg in ("--name", n)]], tmp_path, words, capsys)
    refused(["host", "--resume", "x.amigos", "--name", "1=Ann"], tmp_path, "--name is for a new table", capsys)
    refused(["host", "--save", "x.amigos", "--name", "2=Bob", "--name", "2=Al"], tmp_path, "seat 2 twice")


def test_p3_alone_seats_three_and_a_smaller_players_names_the_count_needed(tmp_path, capsys):
    proc, _ = host(tmp_path, "--p3", "greedy", "--seed", "7", "--save", "t.amigos")
    try:
        printed(proc)
        assert [p["spec"] for p in load(tmp_path / "t.amigos").record["players"]] == ["human", "human", "greedy"]
    finally:
        stop(proc)
    folder = tmp_path / "refused"
    folder.mkdir()
    refused(["host", "--players", "2", "--p3", "greedy", "--save", "x.amigos"], folder, "give --players 3")
    refused(["host", "--players", "3", "--p5", "greedy", "--save", "x.amigos"], folder, "give --players 5", capsys)
    refused(["host", "--p5", "greedy", "--save", "x.amigos"], folder, "5 with Lux", capsys)


def test_serve_s_page_names_the_server_as_the_browser_reached_it_or_by_its_public_url(tmp_path):
    """The terminal's page opens its websocket where the browser asked the page (through a tunnel's
    port too), not where the server listens; with --public-url, there, and the web board's seat too."""
    with serving(tmp_path, "--p2", "random") as (port, _, _):
        asked = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": f"tunnel.example:{port + 1}"})
        with urllib.request.urlopen(asked, timeout=10) as reply:
            assert f"ws://tunnel.example:{port + 1}/ws" in reply.read().decode()
        forged = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": '"><script>x'})
        with urllib.request.urlopen(forged, timeout=10) as reply:
            text = reply.read().decode()
            assert "<script>x" not in text and f"ws://localhost:{port}/ws" in text
    with serving(tmp_path, "--p2", "random", "--public-url", "https://example.org/amigos/") as (port, page_, proc):
        assert "wss://example.org/amigos/ws" in page_ and "https://example.org/amigos/static/" in page_

        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any) -> None:
                return None

        with pytest.raises(urllib.error.HTTPError) as moved:
            urllib.request.build_opener(Stay).open(f"http://127.0.0.1:{port}/board", timeout=10)
        assert moved.value.code == 302
        assert re.fullmatch(r"https://example\.org/amigos/t/[A-Za-z0-9_-]{22}", moved.value.headers["Location"])
