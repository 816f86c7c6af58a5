# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Run the real sbin/svmram as a process with md's sysfs attributes
read and written through the fake kernel (fakekernel.sysfs_read and
sysfs_write, put at svmram's seam svmram.md.host.sysfs_read and
sysfs_write): a plain file cannot turn "writemostly" into the member's
state words as md's sysfs attribute does, nor fail a read with ENODEV as
the attributes of a member md is deleting do (fakekernel.remove_member),
nor give a spare its slot after so many observations as md's thread
does (fakekernel.MD_THREAD).
Everything else -- the CLI, the backend registry, run.py starting the
fake commands of SVMRAM_BINDIR -- is the command as installed.  The tests
run svmram in their own process (mdcli.py); this is for what only a
process shows (mdcli.Host.svmram(process=True)).

    python3 tests/md/fake_svmram.py ARGS...   (as sbin/svmram ARGS...)
"""

import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SBIN = os.path.join(TOP, "sbin", "svmram")

sys.path[:0] = [HERE, os.path.join(TOP, "lib")]

import fakekernel  # noqa: E402
from svmram.md import host  # noqa: E402

host.sysfs_read = fakekernel.sysfs_read
host.sysfs_write = fakekernel.sysfs_write
host.disk_read = fakekernel.disk_read
if os.environ.get("SVMRAM_TEST_MODULES"):
    # The modules the run imported, written as it exits (test_entropy.py).
    import atexit

    def _dump_modules(path=os.environ["SVMRAM_TEST_MODULES"]):
        with open(path, "w") as stream:
            stream.write("\n".join(sorted(sys.modules)) + "\n")
    atexit.register(_dump_modules)

sys.argv = [SBIN] + sys.argv[1:]
runpy.run_path(SBIN, run_name="__main__")
