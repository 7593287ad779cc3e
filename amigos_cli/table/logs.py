"""What the web servers (``amigos host``, ``amigos serve``) write to their terminal's log: one line a
record, never a traceback (nor a traceback's local variables, which held requests and their tokens),
never a seat's token, and no access log at all (a seat's token is in its address).

A malformed request that the web framework answers itself (a 400 for a header too long, a bad
websocket handshake, ...) is the client's fault and answered: it is not logged.
"""

from __future__ import annotations

import logging
import re
import sys

from aiohttp.http_exceptions import HttpProcessingError

from ..views.safe import printable
from .model import TOKEN_SHAPE

#: A token in an address (``/t/TOKEN``, ``/ws/TOKEN``) or a token alone, as `model.new_token` makes them.
_TOKEN_PATH = re.compile(r"/(t|ws)/[^\s/?#'\"]+")
_TOKEN = re.compile(f"(?<![A-Za-z0-9_-]){TOKEN_SHAPE}(?![A-Za-z0-9_-])")
MAX_LINE = 300  # the longest log line written


def scrub(text: str) -> str:
    """``text`` with every seat's address and anything shaped like a token hidden, made printable
    (`amigos_cli.views.safe.printable`) and cut to `MAX_LINE` characters."""
    text = _TOKEN.sub("…", _TOKEN_PATH.sub(r"/\1/…", text))
    return printable(" ".join(text.split()), MAX_LINE)


class OneLine(logging.Formatter):
    """A record as one scrubbed line: its message, then its exception's kind and first line."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            message = f"{message} ({type(exc).__name__}{': ' + first if first else ''})"
        return scrub(f"{record.name}: {message}")


class _Answered(logging.Filter):
    """Drops the records of requests the framework refused and answered itself (4xx)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, HttpProcessingError)


def quiet_logging(level: int = logging.WARNING) -> None:
    """Log one scrubbed line a record (`OneLine`) to standard error from ``level`` on; no access log."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    handler.addFilter(_Answered())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("aiohttp.access").disabled = True
