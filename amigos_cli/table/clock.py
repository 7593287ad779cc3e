"""A table's move clocks (``amigos host --clock MINUTES``): each person's seat has a bank of time for the
whole match, which runs while the table waits for that seat's decision (several at once in a step the
players take together), as on Board Game Arena's turn-based tables.  When a bank runs out, the seat is
shown out of time; the AI takes the seat over only if the host named one (``--clock-agent SPEC``).

The banks are kept in the table's match file, so a resumed table goes on with the time left.
"""

from __future__ import annotations

from typing import Any, Final

MAX_MINUTES: Final = 600.0  # the longest bank a seat is given (ten hours)


class ClockError(ValueError):
    """A clock kept in a match file that cannot be read; the message says why in one line."""


class Clocks:
    """The banks of time of a table's people: ``left[seat]`` seconds once stopped, ``since[seat]`` the
    moment (a monotonic clock's) its bank began to run, while it runs; ``agent`` the agent spec that
    takes over a seat out of time (None: nobody does); ``out`` the seats whose time has run out."""

    def __init__(self, left: dict[int, float], agent: str | None = None, out: set[int] | None = None) -> None:
        self.left: dict[int, float] = dict(left)
        self.since: dict[int, float] = {}
        self.agent: str | None = agent
        self.out: set[int] = set(out or ())

    @classmethod
    def new(cls, seats: list[int], minutes: float, agent: str | None = None) -> Clocks:
        """A bank of ``minutes`` for each of ``seats``."""
        return cls({seat: minutes * 60.0 for seat in seats}, agent)

    def start(self, seat: int, now: float) -> None:
        """The table waits for ``seat``: its bank runs (it runs on if it runs already)."""
        if seat in self.left and seat not in self.since:
            self.since[seat] = now

    def stop(self, seat: int, now: float) -> None:
        """``seat`` has answered (or is no longer asked): its bank stops, the time taken off."""
        began = self.since.pop(seat, None)
        if began is not None:
            self.left[seat] = max(0.0, self.left[seat] - (now - began))

    def remaining(self, seat: int, now: float) -> float:
        """The seconds ``seat`` has left now."""
        began = self.since.get(seat)
        return max(0.0, self.left[seat] - (now - began if began is not None else 0.0))

    def run_out(self, now: float) -> list[int]:
        """The seats whose bank has just run out (each told once: it joins `out`)."""
        gone = [seat for seat in self.since if seat not in self.out and self.remaining(seat, now) <= 0.0]
        self.out.update(gone)
        return gone

    def view(self, seats: int, now: float) -> list[dict[str, Any] | None]:
        """Each seat's clock as the board shows it: ``{"left": seconds, "running": bool, "out": bool}``, or
        None for a seat without one (an agent's)."""
        return [None if seat not in self.left else
                {"left": round(self.remaining(seat, now), 1), "running": seat in self.since, "out": seat in self.out}
                for seat in range(seats)]

    def record(self, now: float) -> dict[str, Any]:
        """What the match file keeps: the seconds left of each bank (as of ``now``), the agent, the seats out."""
        return {"left": {str(seat): round(self.remaining(seat, now), 1) for seat in self.left},
                "agent": self.agent, "out": sorted(self.out)}

    @classmethod
    def from_record(cls, kept: Any, seats: int) -> Clocks:
        """The clocks a match file kept (`record`); `ClockError` for anything else."""
        if not isinstance(kept, dict) or not isinstance(kept.get("left"), dict):
            raise ClockError("a table's match file with a broken clock")
        left: dict[int, float] = {}
        for key, seconds in kept["left"].items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < seats and isinstance(seconds, (int, float))
                    and not isinstance(seconds, bool) and 0 <= seconds <= MAX_MINUTES * 60):
                raise ClockError("a table's match file with a broken clock")
            left[int(key)] = float(seconds)
        agent, out = kept.get("agent"), kept.get("out", [])
        if not (agent is None or isinstance(agent, str)) or not isinstance(out, list) or \
                not all(isinstance(seat, int) and seat in left for seat in out):
            raise ClockError("a table's match file with a broken clock")
        return cls(left, agent, set(out))
