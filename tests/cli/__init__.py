"""The command line and the full screen (amigos_cli/ but its web table)."""
