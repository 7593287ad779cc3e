"""``amigos-train``'s commands, one module each; `training.cli` registers them.  Each declares its options
(their bounds in its help) and calls the module that does the work."""
