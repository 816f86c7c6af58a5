# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the SVM backend runs: SVM's, ramdiskadm, SMF's and the
few others it reads the host with.  Their absolute paths live in
run.COMMANDS, the one table; run.py is the one module that starts
processes."""

from .. import run

NAMES = ("metadb", "metainit", "metattach", "metadetach", "metaclear",
         "metaparam", "metareplace", "metasync", "metaoffline", "metaonline",
         "metastat", "ramdiskadm", "svcadm", "svccfg", "svcprop", "svcs",
         "kstat", "dd", "fuser", "prtvtoc")
COMMANDS = {name: run.COMMANDS[name] for name in NAMES}


def command_path(name):
    """The path a -n script prints for `name`."""
    if name not in COMMANDS:
        raise KeyError("not in the SVM command table: %s" % name)
    return run.command_path(name)


def run_command(name, args, check=True):
    """Run `name` through run.run (argv list, LC_ALL=C, the per-command
    timeout, SVMRAM_TRACE and SVMRAM_BINDIR for tests)."""
    if name not in COMMANDS:
        raise KeyError("not in the SVM command table: %s" % name)
    return run.run(name, list(args), check=check)
