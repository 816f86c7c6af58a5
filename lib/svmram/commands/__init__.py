# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One module per svmram subcommand: add_arguments(parser) and run(args)."""
