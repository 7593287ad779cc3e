"""``amigos-train``'s commands, one module each; `training.cli` registers them.  Each declares its options
and imports the module that does the work (numpy's, the ``train`` extra) only when it runs."""
