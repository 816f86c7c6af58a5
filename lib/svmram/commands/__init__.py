"""One module per svmram subcommand: add_arguments(parser) and run(args)."""
