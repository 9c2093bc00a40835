"""Subcommands of `luza`. Each module here has `register(subparsers)`;
`hub.cli.COMMAND_MODULES` lists them."""
