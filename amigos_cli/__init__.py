"""The Amigos command line: a Typer app with one module per command (the only layer that prints)."""
