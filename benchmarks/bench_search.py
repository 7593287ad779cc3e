"""The reference search bench (conformance/PROTOCOL.md §7): replay the answer key's games and ask our
``search`` at every decision; a reply is correct when it is among the key's optimal steps.

    python -m benchmarks.bench_search [--key FILE] [-n GAMES] [--bot "amigos bridge"]

Without ``--bot`` the searches run in-process through `amigos.bridge.Bridge`; with it, through a child
process speaking the protocol on stdin/stdout, as the reference harness does.  Prints correctness and
milliseconds per search (per game and overall).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KEY = ROOT / "spec" / "bench_answer_key.json"


class InProcess:
    def __init__(self):
        from ai.expectimax import bridge_search
        from amigos.bridge import Bridge
        self.bridge = Bridge(search=bridge_search)

    def ask(self, request: dict) -> dict:
        return json.loads(self.bridge.handle_line(json.dumps(request)))

    def close(self):
        pass


class Child:
    def __init__(self, command: str):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        try:
            self.ask({"cmd": "quit"})
        finally:
            self.proc.kill()


def run(key: dict, bot, games: int | None = None, out=print) -> dict:
    """Play the bench; returns ``{"searches", "correct", "seconds", "per_game": [...]}``."""
    total = correct = 0
    seconds = 0.0
    per_game = []
    for game in key["games"][:games]:
        actions = game["actions"]
        depth = key.get("depth", 3)
        reply = bot.ask({"cmd": "new_game_from_setup", "setup": actions[0]["step"], "player_id": 0,
                         "num_players": game["num_players"]})
        assert reply.get("status") == "ok", reply
        g_total = g_correct = 0
        g_seconds = 0.0
        for entry in actions[1:]:
            search = entry.get("search")
            if search:
                start = time.perf_counter()
                reply = bot.ask({"cmd": "search", "depth": depth, "maximizing_pid": search["maximizing_pid"]})
                g_seconds += time.perf_counter() - start
                g_total += 1
                if reply.get("step") in search["optimal_steps"]:
                    g_correct += 1
                else:
                    out(f"seed {game['seed']}: not optimal: {json.dumps(reply.get('step'))}")
            reply = bot.ask({"cmd": "advance", "step": entry["step"]})
            assert reply.get("status") == "ok", (entry["step"], reply)
        per_game.append({"seed": game["seed"], "searches": g_total, "correct": g_correct,
                         "ms_per_search": 1000 * g_seconds / max(g_total, 1)})
        out(f"seed {game['seed']:>3}: {g_correct}/{g_total} optimal, {1000 * g_seconds / max(g_total, 1):7.1f} ms/search")
        total += g_total
        correct += g_correct
        seconds += g_seconds
    out(f"total: {correct}/{total} optimal, {1000 * seconds / max(total, 1):.1f} ms/search")
    return {"searches": total, "correct": correct, "seconds": seconds, "per_game": per_game}


def main(argv=None) -> int:
    from lab.run_report import say_build
    say_build()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", type=Path, default=DEFAULT_KEY)
    parser.add_argument("-n", "--games", type=int, default=None, help="only the first N games")
    parser.add_argument("--bot", default=None, help='a bridge command line, e.g. ".venv-dev/bin/amigos bridge"')
    args = parser.parse_args(argv)
    key = json.loads(args.key.read_text())
    bot = Child(args.bot) if args.bot else InProcess()
    try:
        result = run(key, bot, args.games)
    finally:
        bot.close()
    return 0 if result["correct"] == result["searches"] else 1


if __name__ == "__main__":
    sys.exit(main())
