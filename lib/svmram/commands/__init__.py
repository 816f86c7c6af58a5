# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One module per svmram subcommand: add_arguments(parser, argv)
(argv: the subcommand's arguments, which name the target whose backend's
options it takes) and run(args)."""
