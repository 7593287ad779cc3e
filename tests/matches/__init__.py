"""The harness (matches/): match files, matches, tournaments, strength runs, SPRT."""
