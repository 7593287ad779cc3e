"""Keys typed on the full screen: digits pressed within a second of each other make one number (1 then
2 is twelve), as the choice list and the payment picker read them; the key that quits from anywhere;
the key that shows the next rival in full."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds within which a digit continues the number before it.
DIGIT_PAUSE = 1.0

#: The key that saves and quits from anywhere, the typing boxes too (no card name and no essence has a q),
#: and the app's action it runs.
QUIT_KEY, QUIT_ACTION = "q", "quit_game"

#: '>': the next rival in full, in games of three or more (the game's board and the replay's); no
#: letter, which would filter the choices, and no digit, which jumps to one.
RIVAL_KEY = ">"


class NumberKeys:
    """The number being typed; ``clock`` tells the time in seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.digits = ""
        self.last = 0.0

    def add(self, digit: str) -> int:
        """Add a typed digit; the number typed so far."""
        now = self.clock()
        self.digits = (self.digits if now - self.last < DIGIT_PAUSE else "") + digit
        self.last = now
        return int(self.digits)

    def pending(self) -> str:
        """The digits typed last, if the pause since has not ended the number; "" otherwise."""
        return self.digits if self.clock() - self.last < DIGIT_PAUSE else ""
