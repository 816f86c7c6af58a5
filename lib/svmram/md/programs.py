# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the md backend runs.  Their absolute paths live in
run.COMMANDS, the one table; run.py is the one module that starts
processes."""

from .. import run

NAMES = ("mdadm", "modprobe", "rmmod", "systemctl")
COMMANDS = {name: run.COMMANDS[name] for name in NAMES}


def command_path(name):
    """The path a -n script prints for `name`."""
    if name not in COMMANDS:
        raise KeyError("not in the md command table: %s" % name)
    return run.command_path(name)


def run_command(name, args, check=True):
    """Run `name` through run.run (argv list, LC_ALL=C, the per-command
    timeout, SVMRAM_TRACE and SVMRAM_BINDIR for tests)."""
    if name not in COMMANDS:
        raise KeyError("not in the md command table: %s" % name)
    return run.run(name, list(args), check=check)
