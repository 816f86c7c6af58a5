# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the md backend runs, with their absolute Linux paths.

Debian, Ubuntu, Fedora and RHEL (merged /usr) all answer to these paths:
/sbin is /usr/sbin there, and mdadm and kmod install into it.

run.py is the one module that starts processes, but its table holds the
illumos commands; until the backend boundary of issue 13 gives each
backend its own table, run_command() adds these entries to run.COMMANDS
(only names it does not hold) and then calls run.run().
"""

from .. import run

COMMANDS = {
    "mdadm": "/sbin/mdadm",
    "modprobe": "/sbin/modprobe",
    "rmmod": "/sbin/rmmod",
}


def _register():
    for name, path in COMMANDS.items():
        run.COMMANDS.setdefault(name, path)


def command_path(name):
    """The path a -n script prints for `name`."""
    if name not in COMMANDS:
        raise KeyError("not in the md command table: %s" % name)
    _register()
    return run.command_path(name)


def run_command(name, args, check=True):
    """Run `name` from COMMANDS through run.run (argv list, LC_ALL=C, the
    per-command timeout, SVMRAM_TRACE and SVMRAM_BINDIR for tests)."""
    if name not in COMMANDS:
        raise KeyError("not in the md command table: %s" % name)
    _register()
    return run.run(name, list(args), check=check)
