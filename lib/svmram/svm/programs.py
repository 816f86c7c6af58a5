# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The commands the SVM backend runs, with their absolute paths: SVM's,
ramdiskadm, SMF's and the few others it reads the host with.  run.py is
the one module that starts processes; this table is the SVM backend's
own (md's is md/programs.py)."""

from .. import run

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
})
command_path = PROGRAMS.path
run_command = PROGRAMS.run
