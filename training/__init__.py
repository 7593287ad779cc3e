"""Self-play and fitting the learned value: ``amigos-train selfplay`` plays games of an agent against
itself (`training.play`, `training.selfplay`), ``amigos-train fit`` fits the value to them
(`training.train`).  Behind the ``train`` extra (numpy); playing needs none of it."""
