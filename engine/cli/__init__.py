"""The `jacknine` command line: one module per group of commands, each with a `register(app)`."""
