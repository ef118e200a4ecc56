"""The ``fugitive`` command line: one module per subcommand, each owned by its package."""
