"""Expected failures of Amigos: each is reported by the CLI as one line with exit code 2."""


class AmigosError(Exception):
    """Base class of every expected failure: bad input, bad files, illegal moves."""


class IllegalAction(AmigosError):
    """An action that is not legal in the current state; the state is left unchanged."""


class SetupError(AmigosError):
    """A game setup that names unknown or duplicated components, or is otherwise malformed."""
