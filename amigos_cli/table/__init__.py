"""An online table: people at a distance at one game, each in a browser (`amigos host`)."""
