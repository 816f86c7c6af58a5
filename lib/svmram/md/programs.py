# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the md backend runs.  Their absolute paths live in
run.COMMANDS, the one table; run.py is the one module that starts
processes."""

from .. import run

PROGRAMS = run.Programs("md", ("mdadm", "modprobe", "rmmod", "systemctl"))
command_path = PROGRAMS.path
run_command = PROGRAMS.run
