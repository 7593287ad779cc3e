"""Where the links of a table (``amigos host``) and of ``amigos serve`` point: addresses a friend can open
them at, made from the addresses the server actually listens on, or from ``--public-url`` (a tunnel's or a
reverse proxy's address, in front of the server).

A server listening on this machine only (127.0.0.1, ``localhost``) gives ``http://localhost:PORT`` links
and says that only this machine can open them; one listening on every address (0.0.0.0, ``::``) gives
this machine's own addresses (the first the main one, the others listed once); one listening on a
given address gives that address.  docs/TABLE.md tells a user how to share a table."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..errors import CliUsageError

if TYPE_CHECKING:
    from aiohttp import web

SHARING = "docs/TABLE.md"  # the user's page on sharing a table, named by the notes below the links
#: Private addresses a UDP socket is "connected" to (which sends no packet) for the address this machine
#: would send from: the one a friend on its network reaches it at, when its name resolves to loopback only.
PROBES = ((socket.AF_INET, "10.255.255.255"), (socket.AF_INET6, "fd00::1"))
#: What the address a server is told to listen on (``--host``) means, beside an IP address of its own.
EVERY = {"": (socket.AF_INET, socket.AF_INET6)}  # (aiohttp's "" listens on every address of both families)
LOOPBACK_NAMES = ("localhost",)
#: The Host header of a request whose page may name it (`origin_of`): a name or an IPv4 address, or an
#: IPv6 address in brackets, with an optional port.  Anything else is not used.
HOST_HEADER = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")


@dataclass(frozen=True)
class Links:
    """Where links point: ``bases`` the origins a link is made from (``http://192.168.1.5:8000``, or the
    public URL without its trailing slash), the first the main one and the others as good; ``note`` a
    line to say below the links (who can open them, the other addresses), or None."""

    bases: tuple[str, ...]
    note: str | None = None

    @property
    def base(self) -> str:
        """The main origin (the first of `bases`)."""
        return self.bases[0]

    def seat(self, token: str) -> str:
        """The main link of the seat (or spectators) whose token is ``token``."""
        return f"{self.base}/t/{token}"


def check_public_url(text: str | None) -> str | None:
    """``--public-url``'s value as the base of every link (its trailing slashes dropped), or None when
    not given.  It must be an http or https URL with a host and no query, fragment or user: anything
    else is a one-line `CliUsageError`."""
    if text is None:
        return None
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 - (read for its check: a port that is no number or out of range raises)
    except ValueError as exc:
        raise CliUsageError(f"--public-url {text!r} is no URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CliUsageError(f"--public-url {text!r} must be an http:// or https:// URL with a host "
                            "(e.g. https://example.org/amigos)")
    if parts.query or parts.fragment or "?" in text or "#" in text or parts.username is not None:
        raise CliUsageError(f"--public-url {text!r} must have no query (?), fragment (#) or user")
    if any(ch.isspace() or not ch.isprintable() for ch in parts.netloc + parts.path):
        raise CliUsageError(f"--public-url {text!r} must have no spaces or control characters")
    return f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")


def origin(host: str, port: int) -> str:
    """``http://HOST:PORT``, an IPv6 address in brackets."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def bound(runner: web.AppRunner) -> list[tuple[str, int]]:
    """The (address, port) of every socket ``runner``'s sites listen on: the real port of a server told
    to listen on port 0, and each address a name (``localhost``) resolved to."""
    found: list[tuple[str, int]] = []
    for name in runner.addresses:
        pair = (str(name[0]), int(name[1]))
        if pair not in found:
            found.append(pair)
    return found


def machine_addresses(families: Sequence[int] = (socket.AF_INET, socket.AF_INET6)) -> list[str]:
    """This machine's own addresses of these families that another machine may reach: neither loopback,
    nor link-local (an IPv6 one would need its interface named), nor any other special kind.  The
    address it would send from comes first (IPv4 first), then those its name resolves to; [] when it
    has none (no network, or a name that resolves to loopback only)."""
    found: list[str] = []

    def add(text: str) -> None:
        try:
            address = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            return
        if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
            return
        if address.version == 6 and address.ipv4_mapped is not None:
            return
        if str(address) not in found:
            found.append(str(address))

    for family in families:
        for kind, probe in PROBES:
            if kind == family:
                with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
                    udp.connect((probe, 9))  # (a UDP "connection" sends nothing: it only picks the route)
                    add(udp.getsockname()[0])
        with contextlib.suppress(OSError, UnicodeError):
            for info in socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM):
                add(str(info[4][0]))
    return found


def _kind(host: str) -> tuple[str, Any]:
    """What a listening address is: ("loopback", the name to show), ("every", its families) or
    ("address", the address or name itself)."""
    if host in EVERY:
        return "every", EVERY[host]
    if host.lower() in LOOPBACK_NAMES:
        return "loopback", "localhost"
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return "address", host  # (a name of this machine's, shown as given)
    if address.is_unspecified:
        return "every", (socket.AF_INET if address.version == 4 else socket.AF_INET6,)
    if address.is_loopback:
        return "loopback", "localhost" if str(address) in ("127.0.0.1", "::1") else str(address)
    return "address", str(address)


def links(listening: Sequence[tuple[str, int]], public_url: str | None = None) -> Links:
    """Where links point for a server listening on ``listening`` (each address and its port, as `bound`
    reads them, or as a server is told to listen), or through ``public_url`` (`check_public_url`'s base:
    every link is made from it, whatever the server listens on)."""
    where = ", ".join(f"{host or '*'}:{port}" for host, port in listening)
    if public_url is not None:
        return Links((public_url,), f"Links through {public_url}/: this server listens on {where}, for the tunnel "
                                    "or the proxy in front of it.")
    bases: list[str] = []
    kinds = [_kind(host) for host, _ in listening]
    for (kind, what), (_, port) in zip(kinds, listening):
        if kind == "every":
            addresses = machine_addresses(what)
            named = [origin(a, port) for a in addresses] or [origin(socket.gethostname(), port)]
        else:
            named = [origin(what, port)]
        bases += [b for b in named if b not in bases]
    if all(kind == "loopback" for kind, _ in kinds):
        return Links(tuple(bases), f"Only this machine can open these links (it listens on {where}); to share "
                                   f"them, see {SHARING}.")
    others = f" The same links work at {', '.join(bases[1:])} (this machine's other addresses)." if bases[1:] else ""
    if any(kind == "every" for kind, _ in kinds):
        ports = ", ".join(sorted({str(port) for _, port in listening}))
        return Links(tuple(bases), f"Other machines on this network can open these links (a firewall may have to "
                                   f"let port {ports} in: see {SHARING}).{others}")
    return Links(tuple(bases), others.strip() or None)


def origin_of(host_header: str, scheme: str = "http") -> str | None:
    """The origin a browser asked a page at (``http://`` and its Host header), for the page's own links
    to the server (its websocket, its files): they then work from wherever the browser is (through an
    SSH tunnel's local port too).  None for a Host header that is not a plain name or address (and
    port), which no page names."""
    if not HOST_HEADER.match(host_header):
        return None
    return f"{scheme}://{host_header}"
