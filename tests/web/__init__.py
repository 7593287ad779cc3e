"""The web: the online table (amigos host) and the served full screen (amigos serve)."""
