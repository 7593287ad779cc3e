"""Make a trained value network the packaged one for its player count (``ai/data/value_net.npz`` for
two players, ``value_net_Np.npz`` for more: `ai.network.net_file`), with its record.

    python -m lab.package_net lab/runs/neural-5/net-2.npz --note "..."

Copies the network's weights and training record (`ai.network.ValueNet.info`: games, generations,
held-out loss, what played them) and adds where it comes from: its run folder and generation, the
commit of the checkout packaging it, and the run's progress lines up to that generation (the games
and held-out figures of each).  The agents load the packaged file unless their spec names another
(``net=FILE``: `ai.evaluator.Evaluator.load`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from ai.evaluator import packaged_model
from ai.network import NetError, ValueNet, net_file

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("net", type=Path, help="a run's net-G.npz")
    ap.add_argument("--out", type=Path, help="default: the package's file for the network's player count")
    ap.add_argument("--note", default="", help="why this network (the measurement that chose it)")
    args = ap.parse_args(argv)
    name, _, number = args.net.stem.partition("-")
    if name != "net" or not number.isdigit():
        print(f"error: {args.net}: not a run's network (net-G.npz)", file=sys.stderr)
        return 2
    try:
        net = ValueNet.load(args.net, packaged_model())
    except NetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out is None:
        args.out = ROOT / "ai" / "data" / net_file(net.players)
    generation = int(number)
    progress = args.net.parent / "progress.jsonl"
    lines = [json.loads(x) for x in progress.read_text().splitlines()] if progress.exists() else []
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    folder = args.net.resolve().parent
    net.info.update(run=str(folder.relative_to(ROOT)) if folder.is_relative_to(ROOT) else str(folder),
                    generation=generation, commit=commit, note=args.note,
                    progress=[x for x in lines if x.get("generation", 0) <= generation])
    net.save(args.out)
    print(f"{args.out}: network {generation} of {net.info['run']}, {args.out.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
