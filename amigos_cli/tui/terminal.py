"""The full screen's apps leave a terminal as they found it.

Textual draws on the terminal's alternate screen.  Where the terminal was resized while the app ran,
tmux (3.3) shrinks the alternate screen back to the size it was entered at when the app leaves it, and
pushes the lines it cuts into the shell's scrollback: half of the last frame then stands above the
app's parting line ("Saved to ...").  An alternate screen cleared just before it is left has nothing
to push, so `LeavingApp`'s terminal driver clears it first.
"""

from __future__ import annotations

from typing import Final, TypeVar

from textual.app import App
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver

CLEAR: Final = "\x1b[2J\x1b[H"  # erase the whole screen, cursor home

ReturnType = TypeVar("ReturnType")


class ClearingLinuxDriver(LinuxDriver):
    """Textual's terminal driver, clearing the alternate screen before it leaves it."""

    def stop_application_mode(self) -> None:
        self.write(CLEAR)
        super().stop_application_mode()


class LeavingApp(App[ReturnType]):
    """An app that clears the alternate screen before it leaves it (see the module docstring); other
    drivers (the browser's in ``amigos serve``, the tests' headless one) are Textual's own."""

    def get_driver_class(self) -> type[Driver]:
        driver = super().get_driver_class()
        return ClearingLinuxDriver if driver is LinuxDriver else driver
