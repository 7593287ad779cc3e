"""Training (training/): the fit of the learned value and amigos-train's inputs."""
