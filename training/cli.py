"""``amigos-train``: the training commands (``selfplay``, ``fit``, ``neural``), a Typer app as ``amigos``
is, its commands one module each in `training.commands`.

Each answers as ``amigos`` does: an expected failure (an option value of the wrong kind or out of its
range, an unknown option, options that do not go together, a path that is missing, a folder, a FIFO or
a device, a file that is not what it should be, a runner that cannot go on, a disk that is full) is one
line ``amigos-train: ...`` on stderr and exit code 2 (`main`, the one place that catches them), and no
file is left half-written; Ctrl-C exits with 130, and a run goes on from its files when started again.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

import typer
from typer.core import TyperCommand

from amigos.errors import AmigosError

from .commands.fit import fit
from .commands.neural import neural
from .commands.selfplay import selfplay

PROG = "amigos-train"

app = typer.Typer(name=PROG, help="Amigos: training the AI's learned values (self-play, fits, networks).",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_show_locals=False,
                  context_settings={"help_option_names": ["-h", "--help"]})


class _Command(TyperCommand):
    """A command whose on/off options show as plain flags in its help (Typer's rich help gives them a
    ``<bool>`` type, as if they took a value), as ``amigos``'s do."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


for _command in (selfplay, fit, neural):  # (a docstring's lines joined: the help wraps them itself)
    app.command(_command.__name__, cls=_Command, help=" ".join(inspect.cleandoc(_command.__doc__ or "").split()))(
        _command)


def one_line(text: str) -> str:
    """``text`` on one line with every character a terminal would act on escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in " ".join(text.split()))


def _failure(exc: BaseException, argv: list[str]) -> str:
    """The message of an expected failure: the error's own, an OSError's file and reason, or a usage
    error's pointing at the help of the command concerned."""
    if isinstance(exc, OSError):
        reason = exc.strerror or type(exc).__name__
        return f"{exc.filename}: {reason}" if exc.filename is not None else reason
    if isinstance(exc, typer.TyperException):
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else f"{PROG} {argv[0]}" if argv and not argv[0].startswith("-") \
            else PROG
        return f"{exc.format_message()} (see {where} --help)"
    return str(exc) or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """Run the command named first in ``argv`` (default: the command line); its exit code (see the module
    docstring)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code = app(args=args, prog_name=PROG, standalone_mode=False)
    except (AmigosError, OSError) as exc:
        message = _failure(exc, args)
    except typer.Abort:
        return 130
    except typer.TyperException as exc:  # (Click's usage errors and their kin)
        if type(exc).__name__ == "NoArgsIsHelpError":  # (a bare ``amigos-train``: the help is printed already)
            return 2
        message = _failure(exc, args)
    except KeyboardInterrupt:
        return 130
    else:
        return code if isinstance(code, int) else 0
    sys.stderr.write(f"{PROG}: {one_line(message)}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
