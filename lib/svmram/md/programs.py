# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the md backend runs, with their absolute paths.  run.py
is the one module that starts processes; this table is the md backend's
own (SVM's is svm/programs.py)."""

from .. import run
from ..errors import RefusedError

NO_MDADM_ADVICE = (
    "Install mdadm (Debian and Ubuntu: apt install mdadm; Fedora and RHEL: "
    "dnf install mdadm); svmram's Linux backend drives md through it.")

# Where to look when a command hangs (Words.hung_command).
HUNG = "dmesg, cat /proc/mdstat, the console"


def missing_command(name, path, reason):
    """A command that cannot be started, in md's words: no mdadm is a
    precondition, named with the package that brings it."""
    if name == "mdadm":
        return RefusedError("this system has no mdadm (cannot run %s: %s)"
                            % (path, reason), advice=NO_MDADM_ADVICE)
    return RefusedError(
        "cannot run %s: %s" % (path, reason),
        advice="svmram needs this command from the base system (kmod, "
               "systemd); check that it is installed.")


PROGRAMS = run.Programs("md", {
    # Debian, Ubuntu, Fedora and RHEL (merged /usr) all answer to these
    # paths.
    "mdadm": "/sbin/mdadm",
    "modprobe": "/sbin/modprobe",
    "rmmod": "/sbin/rmmod",
    # Debian 12 ships it as /bin/systemctl (dpkg -S); merged /usr has both.
    "systemctl": "/bin/systemctl",
}, refusal=missing_command, hung=HUNG)
run_command = PROGRAMS.run
