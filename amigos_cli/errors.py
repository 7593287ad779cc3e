"""Expected failures found by the CLI itself (not by Typer's parser)."""

from amigos.errors import AmigosError


class CliUsageError(AmigosError):
    """A bad argument or option value, e.g. an unknown kind or a name that matches no card."""
