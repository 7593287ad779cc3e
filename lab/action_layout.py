"""How to read an action's fields without slowing the compiled build (issue 52: `amigos.actions` the
only reader of the action layout): a field read by position (``a[2]``), through an accessor function
(``card(a)``), and as a per-kind NamedTuple (``a.card``), in a loop over 200,000 actions, and what
building each kind of action costs, in the pure interpreter and compiled with mypyc (the build's
compiler, from the test extra).

    python -m lab.action_layout
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

MODULE = textwrap.dedent('''
    from typing import Any, Final, NamedTuple

    Action = tuple[Any, ...]


    def kind(a: Action) -> int:
        return a[0]


    def card(a: Action) -> int:
        return a[2]


    class Place(NamedTuple):
        kind: int
        player: int
        card: int
        pay: tuple[int, int, int, int, int]


    def make_tuples(n: int) -> list[Action]:
        return [(i % 7, i % 2, i, (0, 1, 0, 0, 0)) for i in range(n)]


    def make_named(n: int) -> list[Place]:
        return [Place(i % 7, i % 2, i, (0, 1, 0, 0, 0)) for i in range(n)]


    def by_index(xs: list[Action]) -> int:
        s = 0
        for a in xs:
            if a[0] == 3:
                s += a[2]
        return s


    def by_accessor(xs: list[Action]) -> int:
        s = 0
        for a in xs:
            if kind(a) == 3:
                s += card(a)
        return s


    def by_named(xs: list[Place]) -> int:
        s = 0
        for a in xs:
            if a.kind == 3:
                s += a.card
        return s
''')

RUN = textwrap.dedent('''
    import sys, time
    sys.path.insert(0, sys.argv[1])
    import layout as B
    n = 200_000
    t, nt = B.make_tuples(n), B.make_named(n)

    def clock(f, *a, reps=20):
        best = 1e9
        for _ in range(reps):
            s = time.perf_counter(); f(*a); best = min(best, time.perf_counter() - s)
        return best * 1e9 / n

    build = "compiled" if B.__file__.endswith((".so", ".pyd")) else "pure"
    print(f"{build:8}: read by position {clock(B.by_index, t):5.1f} ns, by accessor {clock(B.by_accessor, t):5.1f} ns, "
          f"as a NamedTuple {clock(B.by_named, nt):5.1f} ns an action; built as tuples {clock(B.make_tuples, n, reps=5):6.1f} ns, "
          f"as NamedTuples {clock(B.make_named, n, reps=5):6.1f} ns")
''')


def main() -> None:
    with tempfile.TemporaryDirectory() as pure, tempfile.TemporaryDirectory() as compiled:
        for folder in (pure, compiled):
            (Path(folder) / "layout.py").write_text(MODULE)
        subprocess.run([sys.executable, "-c", RUN, pure], check=True)
        mypyc = shutil.which("mypyc", path=str(Path(sys.executable).parent))
        if mypyc is None or importlib.util.find_spec("mypyc") is None:
            print("compiled: mypyc is not installed (pip install '.[test]')")
            return
        subprocess.run([mypyc, "layout.py"], cwd=compiled, check=True, capture_output=True)
        (Path(compiled) / "layout.py").unlink()  # (the extension module only)
        subprocess.run([sys.executable, "-c", RUN, compiled], check=True)


if __name__ == "__main__":
    main()
