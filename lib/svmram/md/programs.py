# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the md backend runs, with their absolute paths.  run.py
is the one module that starts processes; this table is the md backend's
own (SVM's is svm/programs.py)."""

from .. import run

PROGRAMS = run.Programs("md", {
    # Debian, Ubuntu, Fedora and RHEL (merged /usr) all answer to these
    # paths.
    "mdadm": "/sbin/mdadm",
    "modprobe": "/sbin/modprobe",
    "rmmod": "/sbin/rmmod",
    # Debian 12 ships it as /bin/systemctl (dpkg -S); merged /usr has both.
    "systemctl": "/bin/systemctl",
})
command_path = PROGRAMS.path
run_command = PROGRAMS.run
