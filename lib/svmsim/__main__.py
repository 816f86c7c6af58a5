# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""``python3 -m svmsim``: the emulator's control interface (see cli.py)."""

import sys

from svmsim.cli import main

sys.exit(main(sys.argv[1:]))
