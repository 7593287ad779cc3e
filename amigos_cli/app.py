"""The ``amigos`` Typer app and its entry point.

Commands live one per module under ``amigos_cli/commands/`` and are registered here.
``main()`` is the console script: an expected failure (``AmigosError``) and a usage error found by the
parser (an unknown command or option, a missing or malformed value) are printed as the single line
``amigos: <message>`` on stderr with exit code 2; Ctrl-C exits quietly with code 130.
"""

from __future__ import annotations

import inspect
import sys
from importlib.metadata import version
from typing import TYPE_CHECKING, Annotated, Any, Callable

import typer
from typer.core import TyperCommand, TyperGroup

from amigos.errors import AmigosError
from amigos.files import reason
from amigos_cli.commands import bridge, cards, host, match, replay, resume, review, serve, show, tournament
from amigos_cli.commands import list as listing  # (as: the builtin list stays list here)
from amigos_cli.views.safe import printable

if TYPE_CHECKING:
    from typer._click.core import Context, Parameter  # (Typer's own copy of Click)


def _plain_flags(params: list[Parameter]) -> list[Parameter]:
    """Show on/off options (``--json``, ``--help``, ...) as plain flags in the help: Typer's rich help
    gives them a ``<bool>`` type, as if they took a value, which they refuse."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _plain_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _plain_flags(super().get_params(ctx))


app = typer.Typer(
    name="amigos",
    help="Amigos: a Res Arcana card-game engine, AI players and command line.",
    no_args_is_help=True,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_show_locals=False,
    cls=_Group,
)

COMMANDS: dict[str, Callable[..., Any]] = {
            "cards": cards.cards, "bridge": bridge.bridge, "play": match.play, "match": match.match,
            "resume": resume.resume, "list": listing.list_matches, "replay": replay.replay, "review": review.review, "show": show.show,
            "tournament": tournament.tournament, "serve": serve.serve, "host": host.host}


def command_help(function: Callable[..., Any]) -> str:
    """A command's help from its docstring, each paragraph on one line for the help to wrap: Typer
    keeps the line breaks of every paragraph after the first, which breaks lines at any width."""
    paragraphs = inspect.cleandoc(function.__doc__ or "").split("\n\n")
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


for _name, _function in COMMANDS.items():
    app.command(_name, cls=_Command, help=command_help(_function))(_function)


def _print_version(value: bool) -> None:
    if value:
        from amigos import COMPILED
        build = "compiled with mypyc" if COMPILED else "pure Python"
        typer.echo(f"amigos {version('amigos')} ({build})")
        raise typer.Exit()


@app.callback()
def _options(show_version: Annotated[bool, typer.Option(
        "--version", help="Print the version and exit.", callback=_print_version, is_eager=True)] = False) -> None:
    """Amigos: a Res Arcana card-game engine, AI players and command line."""


def error_line(exc: BaseException) -> str:
    """The one line printed for an expected failure: ``amigos: <message>``."""
    message = printable(" ".join(str(exc).split()), None) or type(exc).__name__
    return f"amigos: {message}"


def usage_line(exc: typer.TyperException, argv: list[str]) -> str:
    """The one line printed for a parser error, pointing at the help of the command concerned:
    ``amigos: No such option: --bogus (see amigos play --help)``.  Some errors (a missing option value)
    come without their context; the command is then the first argument, if it names one."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        where = ctx.command_path
    else:
        where = f"amigos {argv[0]}" if argv and argv[0] in COMMANDS else "amigos"
    message = printable(" ".join(exc.format_message().split()), None) or type(exc).__name__
    return f"amigos: {message} (see {where} --help)"


def os_error_line(exc: OSError) -> str:
    """The one line printed for an OSError no command expected (a name too long, a disk gone, ...):
    ``amigos: NAME: the name is too long``, a long name shortened."""
    name = str(exc.filename) if exc.filename is not None else ""
    if len(name) > 80:
        name = f"{name[:40]}...{name[-20:]}"
    message = printable(f"{name}: {reason(exc)}" if name else reason(exc), None)
    return f"amigos: {message}"


def _fail(line: str, code: int) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Run the app on ``argv`` (default ``sys.argv[1:]``) and exit with its status.

    The app runs outside Click's standalone mode so that its usage errors reach us instead of being
    printed as Typer's multi-line box; ``--help`` and a bare ``amigos`` still print the help."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        code = app(args=argv, prog_name="amigos", standalone_mode=False)
    except AmigosError as exc:
        _fail(error_line(exc), 2)
    except OSError as exc:
        _fail(os_error_line(exc), 2)
    except typer.Abort:
        _fail("amigos: aborted", 1)
    except typer.TyperException as exc:  # Click's UsageError and its kin
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare ``amigos``: the help is printed already
            sys.exit(2)                                 # (Typer tells this class by its name too)
        _fail(usage_line(exc, argv), 2)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
