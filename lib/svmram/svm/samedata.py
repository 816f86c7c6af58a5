# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The proof that a copy of a mirror in a ramdisk is exact, as an action
of a step (actions.py): `cmp MIRROR RAMDISK`, read from both devices.

The ramdisk is larger than the mirror, so an exact copy is what cmp
reports as the mirror ending first: "cmp: EOF on MIRROR" on stderr, exit
1, nothing on stdout (illumos usr/src/cmd/cmp/cmp.c earg(); Solaris 10
and 11's /usr/bin/cmp is that program).  Anything else (a difference, an
open failure, a mirror longer than the ramdisk) is a failure: the copy is
not used.
"""

import shlex
from dataclasses import dataclass

from ..errors import SvmramError


@dataclass(frozen=True)
class SameData:
    mirror: str         # /dev/md/rdsk/dM: the shorter
    copy: str           # /dev/rramdisk/NAME
    advice: str = ""

    def expected(self):
        return "cmp: EOF on %s" % self.mirror

    def perform(self, context):
        result = context.runner("cmp", [self.mirror, self.copy], check=False)
        if result.returncode == 1 and not result.stdout and \
                result.stderr.strip() == self.expected():
            return
        said = (result.stdout.strip() or result.stderr.strip() or
                "exit status %d" % result.returncode).splitlines()[0]
        raise SvmramError(
            "the copy in %s is not the same as %s (cmp: %s)" % (
                self.copy, self.mirror, said), advice=self.advice or None)

    def script_line(self, host_path, program_path):
        # The script stops (set -e) unless cmp says what svmram accepts.
        return "test \"$(%s %s %s 2>&1)\" = %s" % (
            program_path("cmp"), shlex.quote(self.mirror),
            shlex.quote(self.copy), shlex.quote(self.expected()))
