"""``amigos serve``: the full-screen game in a web browser (textual-serve), each tab its own game."""

from __future__ import annotations

import shlex
import sys
from typing import Annotated, Optional

import typer

from ai.agents import parse_spec, spec_text
from amigos.config import GameConfig
from matches.folder import matches_folder
from matches.match import Match
from matches.session import HUMAN, check_spec, new_seed

from ..errors import CliUsageError
from ..table.links import check_public_url
from .match import EXPANSION, P2, VARIANT, expansion_names, variant_name

HOST = Annotated[str, typer.Option("--host", help="Address to listen on (default: this machine only; 0.0.0.0: "
                                                  "every address of this machine; see docs/TABLE.md).")]
PORT = Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")]
PUBLIC_URL = Annotated[Optional[str], typer.Option(
    "--public-url", metavar="URL", help="The address people open, when a tunnel or a reverse proxy is in front of "
                                        "this server (https://example.org/amigos): every link is made from it.")]
FORMAT = Annotated[str, typer.Option("--format", help="game (a single game) or match (best of three).")]
MAX_GAMES = Annotated[int, typer.Option("--max-games", min=1, max=256,
                                        help="Games played at once; more tabs are asked to wait.")]


def game_command(p2: str, variant: str, fmt: str, expansions: tuple[str, ...] = (), players: int = 2) -> str:
    """The command each browser tab runs: a new game of a person against ``p2`` (every AI seat of a
    game of ``players``), saved in the folder of match files (as ``amigos play`` saves:
    `matches.folder.default_path`), with these expansions."""
    seats = [arg for seat in range(2, players + 1) for arg in (f"--p{seat}", p2)]
    table = ["--players", str(players)] if players != 2 else []
    return shlex.join([sys.executable, "-m", "amigos_cli", "play" if fmt == "game" else "match",
                       "--p1", "human", *seats, "--variant", variant, *table]
                      + [arg for name in expansions for arg in ("--expansion", name)])


def one_process(spec: str) -> str:
    """``spec`` searching in one process unless it names its ``workers``, and not in the person's time
    unless it says ``ponder``: a server's games share its cores (against one person at a terminal, a
    search takes two and ponders: `matches.session.bounded_spec`)."""
    kind, params = parse_spec(spec)
    if kind != "mcts" or ("workers" in params and "ponder" in params):
        return spec
    return spec_text(kind, {"workers": 1, "ponder": 0, **params})


def serve(host: HOST = "127.0.0.1", port: PORT = 8000, p2: P2 = "mcts:time=1.0", variant: VARIANT = "standard",
          format: FORMAT = "game", expansion: EXPANSION = None, max_games: MAX_GAMES = 8,
          players: Annotated[int, typer.Option("--players", help="Players at each tab's game: you and the AI in "
                                               "every other seat (2 to 4; 5 with --expansion lux).")] = 2,
          public_url: PUBLIC_URL = None) -> None:
    """Serve the game to web browsers: open the address it prints and play; every tab is a new game, ended
    when its tab closes and saved as 'amigos play' saves it: in the folder of match files (AMIGOS_MATCHES=FOLDER
    chooses it; 'amigos list' lists them)."""
    public = check_public_url(public_url)
    if format not in ("game", "match"):
        raise CliUsageError(f"unknown format {format!r} (expected game or match)")
    if format == "match" and players != 2:
        raise CliUsageError("a best-of-three match (with the redraft) is for two players: --format game")
    expansions = expansion_names(expansion)
    config = GameConfig.parse(variant_name(variant), expansions=expansions, players=players)
    ai = one_process(check_spec(p2))
    command = game_command(ai, variant_name(variant).replace("_", "-"), format, expansions, players)
    from ..serving import GameServer  # imported here: only this command needs the web server
    from ..table.model import Table, private_folder, table_path

    def new_table() -> Table:
        """A web board's game: a person against the AI in every other seat, saved in the tables' private
        folder (`amigos_cli.table.model.table_path`)."""
        seed = new_seed()
        specs = [HUMAN] + [ai] * (players - 1)
        names = ["You"] + [f"AI {p + 1} ({ai})" if players > 2 else f"AI ({ai})" for p in range(1, players)]
        path = table_path(seed)
        private_folder(path.parent)
        return Table.new(Match.new(seed, specs, config, fmt=format, names=names), path)

    server = GameServer(command, host=host, port=port, max_games=max_games, new_table=new_table, public_url=public)
    base = server.links.base
    typer.echo(f"Serving Amigos on {base} (Ctrl-C stops), {max_games} games at most at once: the terminal at "
               f"{base}/ (each tab plays: {command}; its game is saved in {matches_folder()}), the web board at "
               f"{base}/board")
    if server.links.note:
        typer.echo(server.links.note)
    server.serve()
