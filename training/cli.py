"""``amigos-train``: the training commands (``selfplay``, ``fit``, ``neural``, ``policy``), each with its own options.

Each answers as ``amigos`` does: an expected failure (an option value of the wrong kind or out of its
range, a path that is missing, a folder, a FIFO or a device, a file that is not what it should be, a
runner that cannot go on, a disk that is full) is one line ``amigos-train: ...`` on stderr and exit code 2
(`guarded`, the one place that catches them), and no file is left half-written.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import NoReturn

from amigos.errors import AmigosError

USAGE = """usage: amigos-train {selfplay,fit,neural,policy} [options]   (-h after one for its options)

  selfplay   play games of an agent against itself into a JSON-lines file (resumable)
  fit        fit the linear learned value to self-play files, or run its whole recipe (--pipeline)
  neural     train the neural value by TD(lambda) from self-play, in generations (resumable)
  policy     train the model of a player's choices on the games of neural's runs"""
COMMANDS = ("selfplay", "fit", "neural", "policy")
SEEDS = (-(1 << 63), (1 << 64) - 1)  # a seed's range, as an agent spec's (`ai.agents.LIMITS`)
MAX_JOBS = 256                       # local processes at most, as an agent's workers


class UsageError(AmigosError):
    """A command line its command's parser refuses (an unknown option, a value of the wrong kind or out of
    its range); the message says which in one line."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are `UsageError` (one line through `guarded`), not argparse's
    usage block and exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} -h)")


def whole(low: int, high: int) -> Callable[[str], int]:
    """An option's type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not {ascii(text)[:40]}")
        return value
    return parse


def number(low: float, high: float) -> Callable[[str], float]:
    """An option's type: a number from ``low`` to ``high``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # (NaN is in no range)
            raise argparse.ArgumentTypeError(f"must be a number from {low:g} to {high:g}, not {ascii(text)[:40]}")
        return value
    return parse


def guarded(command: Callable[[list[str] | None], int], argv: list[str] | None) -> int:
    """``command(argv)``'s exit code; for an expected failure (`amigos.errors.AmigosError`: a usage error
    of its parser, a bad file or option; or an `OSError`) the one line ``amigos-train: MESSAGE`` on stderr
    and 2; for Ctrl-C, 130."""
    try:
        return command(argv)
    except AmigosError as exc:
        message = str(exc)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        message = f"{exc.filename}: {reason}" if exc.filename is not None else reason
    except KeyboardInterrupt:
        return 130
    print(f"amigos-train: {one_line(message)}", file=sys.stderr)
    return 2


def one_line(text: str) -> str:
    """``text`` on one line with every character a terminal would act on escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in " ".join(text.split()))


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand named first in ``argv`` (default: the command line); its exit code."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr if args and args[0] not in ("-h", "--help") else sys.stdout)
        return 0 if args and args[0] in ("-h", "--help") else 2
    if args[0] == "selfplay":
        from .play import main as command
    else:
        try:
            if args[0] == "fit":
                from .train import main as command
            elif args[0] == "neural":
                from .neural import main as command
            else:
                from .policy import main as command
        except ModuleNotFoundError as exc:  # (numpy: the train extra)
            print(f"amigos-train: {exc.name} is missing; install the train extra: pip install 'amigos[train]'",
                  file=sys.stderr)
            return 2
    return command(args[1:])


if __name__ == "__main__":
    sys.exit(main())
