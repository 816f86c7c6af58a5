# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Run sbin/svmram as an older svmram that did not yet refuse its own
reserved scratch ramdisk names for --name (tests/scenario/
test_dead_ends.py): such a mirror may be recorded on a host, and svmram's
record wins over its name rules.

    python3 old_svmram.py SUBCOMMAND ARGS...
"""

import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SVMRAM = os.path.join(os.path.dirname(os.path.dirname(HERE)), "sbin",
                      "svmram")


def patch():
    """svmram's name rule for --name as the older release had it; returns
    what undoes it (test_dead_ends.py runs svmram in its own process so)."""
    from svmram.errors import UsageError
    from svmram.svm import names
    real = names.ramdisk

    def ramdisk(name, *mirror):
        if not names.is_ramdisk(name):
            raise UsageError("ramdisk name %r is invalid" % (name,))
        return name
    names.ramdisk = ramdisk
    return lambda: setattr(names, "ramdisk", real)


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(SVMRAM), "..", "lib"))
    patch()
    sys.argv = [SVMRAM] + sys.argv[1:]
    runpy.run_path(SVMRAM, run_name="__main__")


if __name__ == "__main__":
    main()
