"""One module per ``amigos`` command; each is registered in ``amigos_cli.app``."""
