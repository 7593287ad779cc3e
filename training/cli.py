"""``amigos-train``: the training commands (``selfplay``, ``fit``, ``neural``, ``policy``), each with its own options."""

from __future__ import annotations

import sys

USAGE = """usage: amigos-train {selfplay,fit,neural,policy} [options]   (-h after one for its options)

  selfplay   play games of an agent against itself into a JSON-lines file (resumable)
  fit        fit the linear learned value to self-play files, or run its whole recipe (--pipeline)
  neural     train the neural value by TD(lambda) from self-play, in generations (resumable)
  policy     train the model of a player's choices on the games of neural's runs"""
COMMANDS = ("selfplay", "fit", "neural", "policy")


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
