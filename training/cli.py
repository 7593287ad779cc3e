"""``amigos-train``: the training commands, ``selfplay`` and ``fit``, each with its own options."""

from __future__ import annotations

import sys

USAGE = """usage: amigos-train {selfplay,fit} [options]   (-h after either for its options)

  selfplay   play games of an agent against itself into a JSON-lines file (resumable)
  fit        fit the learned value to self-play files, or run the whole recipe (--pipeline)"""


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand named first in ``argv`` (default: the command line); its exit code."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in ("selfplay", "fit"):
        print(USAGE, file=sys.stderr if args and args[0] not in ("-h", "--help") else sys.stdout)
        return 0 if args and args[0] in ("-h", "--help") else 2
    if args[0] == "selfplay":
        from .play import main as command
    else:
        try:
            from .train import main as command
        except ModuleNotFoundError as exc:  # (numpy: the train extra)
            print(f"amigos-train: {exc.name} is missing; install the train extra: pip install 'amigos[train]'",
                  file=sys.stderr)
            return 2
    return command(args[1:])


if __name__ == "__main__":
    sys.exit(main())
