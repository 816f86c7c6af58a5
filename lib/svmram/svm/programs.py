# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the SVM backend runs, with their absolute paths: SVM's,
ramdiskadm, SMF's and the few others it reads the host with.  run.py is
the one module that starts processes; this table is the SVM backend's
own (md's is md/programs.py)."""

from .. import run
from ..errors import RefusedError

# Where SVM exists (illumos-gate storage-svm.p5m is pkg.obsolete since late
# 2016; OpenIndiana "6396 remove SVM", OmniOS obsolete from r151023).
NO_SVM_ADVICE = (
    "SVM ships with Oracle Solaris 11 (package storage/svm) and Solaris 10, "
    "and with illumos distributions released before illumos removed it in "
    "late 2016 (OpenIndiana Hipster 2016.10, OmniOS r151022 and older); on "
    "Solaris 11 'pkg install storage/svm' adds it.")

# Where to look when a command hangs (Words.hung_command).
HUNG = "svcs -x, the console, metastat"


def missing_command(name, path, reason):
    """A command that cannot be started: an SVM command missing means the
    host has no SVM, a precondition, not a failure (a step that hits this
    fails as a step; see execute.py)."""
    if name.startswith("meta"):
        return RefusedError(
            "this system has no Solaris Volume Manager (cannot run %s: %s)"
            % (path, reason), advice=NO_SVM_ADVICE)
    return run.missing_command(name, path, reason)


PROGRAMS = run.Programs("SVM", {
    "metadb": "/usr/sbin/metadb",
    "metainit": "/usr/sbin/metainit",
    "metattach": "/usr/sbin/metattach",
    "metadetach": "/usr/sbin/metadetach",
    "metaclear": "/usr/sbin/metaclear",
    "metaparam": "/usr/sbin/metaparam",
    "metareplace": "/usr/sbin/metareplace",
    "metasync": "/usr/sbin/metasync",
    "metaoffline": "/usr/sbin/metaoffline",
    "metaonline": "/usr/sbin/metaonline",
    "metastat": "/usr/sbin/metastat",
    "ramdiskadm": "/usr/sbin/ramdiskadm",
    "lofiadm": "/usr/sbin/lofiadm",
    "mkfile": "/usr/sbin/mkfile",
    "svcadm": "/usr/sbin/svcadm",
    "svccfg": "/usr/sbin/svccfg",
    "svcprop": "/usr/bin/svcprop",
    "svcs": "/usr/bin/svcs",
    "kstat": "/usr/bin/kstat",
    "dd": "/usr/bin/dd",
    "cmp": "/usr/bin/cmp",
    "fuser": "/usr/sbin/fuser",
    "prtvtoc": "/usr/sbin/prtvtoc",
    # svmram selftest's UFS on its scratch mirror (svm/selftest.py)
    "newfs": "/usr/sbin/newfs",
    "mount": "/usr/sbin/mount",
    "umount": "/usr/sbin/umount",
}, refusal=missing_command, hung=HUNG)
run_command = PROGRAMS.run
