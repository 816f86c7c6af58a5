# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the SVM backend runs: SVM's, ramdiskadm, SMF's and the
few others it reads the host with.  Their absolute paths live in
run.COMMANDS, the one table; run.py is the one module that starts
processes."""

from .. import run

PROGRAMS = run.Programs("SVM", (
    "metadb", "metainit", "metattach", "metadetach", "metaclear",
    "metaparam", "metareplace", "metasync", "metaoffline", "metaonline",
    "metastat", "ramdiskadm", "svcadm", "svccfg", "svcprop", "svcs",
    "kstat", "dd", "cmp", "fuser", "prtvtoc", "lofiadm", "mkfile"))
command_path = PROGRAMS.path
run_command = PROGRAMS.run
