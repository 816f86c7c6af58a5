# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Run the real sbin/svmram with md's sysfs writes going to the fake
kernel (fakekernel.sysfs_write): a plain file cannot turn "writemostly"
into the member's state words as md's sysfs attribute does; and the
attributes of a member md is deleting read as the kernel's do, failing
with ENODEV (fakekernel.remove_member); and md's thread gives a spare
its slot after so many observations (fakekernel.MD_THREAD).  Everything
else -- the CLI, the backend registry, run.py starting the fake commands of
SVMRAM_BINDIR -- is the command as installed.

    python3 tests/md/fake_svmram.py ARGS...   (as sbin/svmram ARGS...)
"""

import errno
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SBIN = os.path.join(TOP, "sbin", "svmram")

sys.path[:0] = [HERE, os.path.join(TOP, "lib")]

import fakekernel  # noqa: E402
from svmram.md import host  # noqa: E402

host.MdHost._write = fakekernel.sysfs_write
_os_read = os.read


def _sysfs_read(fd, size):
    try:
        path = os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        path = ""
    if path.startswith(os.path.realpath(fakekernel.root()) + "/sys/") and \
            fakekernel.is_removed(path):
        fakekernel.count_enodev()
        raise OSError(errno.ENODEV, os.strerror(errno.ENODEV))
    data = _os_read(fd, size)
    if path.startswith(os.path.realpath(fakekernel.root()) + "/sys/"):
        fakekernel.array_state_read(path)
    return data


os.read = _sysfs_read
if os.environ.get("SVMRAM_TEST_MODULES"):
    # The modules the run imported, written as it exits (test_entropy.py).
    import atexit

    def _dump_modules(path=os.environ["SVMRAM_TEST_MODULES"]):
        with open(path, "w") as stream:
            stream.write("\n".join(sorted(sys.modules)) + "\n")
    atexit.register(_dump_modules)

sys.argv = [SBIN] + sys.argv[1:]
runpy.run_path(SBIN, run_name="__main__")
