"""The ``amigos`` Typer app and its entry point.

Commands live one per module under ``amigos_cli/commands/`` and are registered here.
``main()`` is the console script: an expected failure (``AmigosError``) is printed as the single
line ``amigos: <message>`` on stderr with exit code 2; Ctrl-C exits quietly with code 130.
"""

from __future__ import annotations

import sys

import typer

from amigos.errors import AmigosError
from amigos_cli.commands import bridge, cards, match, replay, resume, show, tournament

app = typer.Typer(
    name="amigos",
    help="Amigos: a Res Arcana card-game engine, AI players and command line.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

app.command("cards")(cards.cards)
app.command("bridge")(bridge.bridge)
app.command("play")(match.play)
app.command("match")(match.match)
app.command("resume")(resume.resume)
app.command("replay")(replay.replay)
app.command("show")(show.show)
app.command("tournament")(tournament.tournament)


def error_line(exc: BaseException) -> str:
    """The one line printed for an expected failure: ``amigos: <message>``."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return f"amigos: {message}"


def main(argv: list[str] | None = None) -> None:
    """Run the app on ``argv`` (default ``sys.argv[1:]``) and exit with its status."""
    try:
        app(args=argv, prog_name="amigos")
    except AmigosError as exc:
        sys.stderr.write(error_line(exc) + "\n")
        sys.stderr.flush()
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
