"""The agents (ai/): the search, its values, the network, the planner, puzzles, goldens."""
