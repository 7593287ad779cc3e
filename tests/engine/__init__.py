"""The rules engine (amigos/): card by card, scenarios, invariants, setups, player counts."""
