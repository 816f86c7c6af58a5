# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""dd, just enough to read from a metadevice: `dd if=/dev/md/rdsk/d10
of=/dev/null count=1 [bs=N]`.  Reading opens the metadevice, which is
what svmram uses to force a mirror's first open after boot (reference
9.1); the open applies the emulator's first-open rule.  Other files are
refused, so nothing outside the emulator is ever read.
"""

from svmsim import devices, svm

_MD = r"/dev/md/r?dsk/(d[0-9]+)\Z"     # re is imported where it is used
USAGE = "usage: dd [operand...]\n"


def run(ctx, argv):
    operands = dict(arg.split("=", 1) for arg in argv if "=" in arg)
    if len(operands) != len(argv) or "if" not in operands \
            or operands.get("of") != "/dev/null":
        ctx.err(USAGE)
        return 2
    path = operands["if"]
    real = devices.resolve(ctx.root, path)
    import re
    match = re.match(_MD, path)
    if real is None or match is None or match.group(1) not in ctx.st["units"]:
        ctx.err("dd: %s: open: No such file or directory\n" % path)
        return 2
    name = match.group(1)
    svm.open_device(ctx.st, name)
    svm.close_device(ctx.st, name)
    count = operands.get("count", "1")
    ctx.err("%s+0 records in\n%s+0 records out\n" % (count, count))
    return 0
