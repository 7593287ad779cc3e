"""Hostile tournament folders, agent specs, bridge lines and names against the commands that read them:
the time, peak memory and answer of each, for this checkout and (``--commit C``) an earlier one.

    python -m lab.hostile_folders [--commit 369911d] [--limit 20]

Each case runs in its own process as in `hostile.py` (same limits, same verdicts); a case that must
not write outside its folder also checks that a file it links to is unchanged ("wrote outside").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from lab.hostile import export, run
from matches import report as R
from matches import tournament as T

Case = tuple[str, list[str], str, Callable[[], bool] | None]  # name, arguments, expected, check after
AGENTS = ["random", "greedy"]
RESUME = ["tournament", "--agent", "random", "--agent", "greedy", "--games", "2", "--seed", "11", "--resume"]


def folder_cases(root: Path) -> list[Case]:
    genuine = root / "genuine"
    T.run(genuine, T.TournamentSpec(AGENTS, 2, 11), jobs=1)
    R.write_summary(genuine)
    settings = json.loads((genuine / T.MANIFEST).read_text())
    cases: list[Case] = []

    def folder(name: str) -> Path:
        out = root / name
        shutil.copytree(genuine, out)
        return out

    def manifest(name: str, make: Callable[[Path], None]) -> Path:
        out = folder(name)
        (out / T.MANIFEST).unlink()
        make(out / T.MANIFEST)
        return out

    for report in ("summary.json", "games.csv"):
        out = folder(f"link-{report}")
        target = root / f"precious-{report}"
        target.write_text("mine")
        (out / report).unlink()
        (out / report).symlink_to(target)
        cases.append((f"{report} linked outside the folder", RESUME + ["--out", str(out)], "refused",
                      lambda target=target: target.read_text() == "mine"))
    elsewhere = root / "elsewhere.json"
    dangling = manifest("dangling", lambda p: p.symlink_to(elsewhere))
    cases.append(("a dangling tournament.json link", RESUME + ["--out", str(dangling)], "refused",
                  lambda: not os.path.lexists(elsewhere)))
    zero = manifest("zero", lambda p: p.symlink_to("/dev/zero"))
    fifo = manifest("fifo", os.mkfifo)
    deep = manifest("deep", lambda p: p.write_text("[" * 100_000 + "]" * 100_000))
    for name, out in (("tournament.json linked to /dev/zero", zero), ("tournament.json a FIFO", fifo),
                      ("tournament.json 100,000 deep", deep)):
        cases += [(name, ["show", str(out)], "refused", None), (name, RESUME + ["--out", str(out)], "refused", None)]
    for name, change in (('"schedule": 5', lambda s: s.update(schedule=5)),
                         ("seats [0, 99]", lambda s: s["schedule"][0].update(seats=[0, 99])),
                         ("an empty job", lambda s: s["schedule"].__setitem__(0, {})),
                         ('"sprt": {"elo0": "a"}', lambda s: s.update(sprt={"elo0": "a"}))):
        changed = json.loads(json.dumps(settings))
        change(changed)
        out = manifest(f"typed-{len(cases)}", lambda p, changed=changed: p.write_text(json.dumps(changed)))
        cases.append((name, ["show", str(out)], "refused", None))
    big = root / "big"
    big.mkdir()
    (big / T.MANIFEST).write_text(json.dumps(T.manifest(T.TournamentSpec(AGENTS, 100_000, 11))))
    cases.append(("a schedule of 100,000 games", ["show", str(big)], "ok", None))
    return cases


def other_cases(root: Path) -> list[Case]:
    play = ["play", "--p1", "random", "--plain", "--seed", "7", "--save", str(root / "p.amigos"), "--p2"]
    cases: list[Case] = [(f"--p2 {spec}", play + [spec], "refused", None)
                         for spec in ("mcts:time=nan", "mcts:time=inf", "mcts:iters=1e12", "expectimax:depth=1e6",
                                      "mcts:c=nan", "mcts:norm=nan")]
    cases.append(("mcts workers=2 in a whole game", ["play", "--p1", "random", "--p2", "mcts:iters=20,workers=2",
                                                     "--seed", "7", "--plain", "--save", str(root / "w.amigos")],
                  "ok", None))
    long_name = str(root / ("n" * 300 + ".amigos"))
    cases += [("a 300-character file name", [command, long_name], "refused", None) for command in ("show", "resume")]
    return cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", help="also run each case with this earlier commit's code")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds a command may take")
    args = ap.parse_args()
    here = str(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        before = None
        if args.commit:
            before = root / "code-before"
            before.mkdir()
            export(args.commit, before)
        for code, label in ((here, "now"), (str(before), "before")) if before else ((here, "now"),):
            cases_root = root / label
            cases_root.mkdir()
            for name, argv, expected, check in folder_cases(cases_root) + other_cases(cases_root):
                verdict, seconds, peak, _ = run(code, argv, args.limit)
                if check is not None and not check():
                    verdict = "wrote outside"
                mark = "pass" if verdict == expected else "FAIL"
                print(f"{label:6} {mark}  {name} ({argv[0]}{' --resume' if '--resume' in argv else ''}): "
                      f"{verdict}, {seconds:.2f} s, {peak:.0f} MB", flush=True)


if __name__ == "__main__":
    main()
