# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""cmp FILE1 FILE2, as illumos usr/src/cmd/cmp/cmp.c (Solaris 10 and 11's
/usr/bin/cmp): byte by byte until they differ or one ends.  Equal to the
end of both: exit 0, silent.  The first difference: "F1 F2 differ: char
N, line L" on stdout, exit 1.  Equal until the shorter ends: "cmp: EOF on
SHORTER" on stderr, exit 1 (earg()).  A file that cannot be opened: "cmp:
cannot open F" on stderr, exit 2 (barg()); a wrong number of operands:
the usage line, exit 2 (narg()).

The files are the emulator's: a metadevice's raw device (/dev/md/rdsk/dN,
read through its read option, which opens it), a ramdisk's
(/dev/rramdisk/NAME) or a /dev/rdsk node (a slice, or a link to a lofi
device), compared as the data model holds them (label
blocks, then regions; dd.content).  GUESS: the line number of a
difference is printed as 1 (the model keeps no bytes to count newlines
in).
"""

from svmsim import svm
from svmsim.programs import dd
from svmsim.state import REGIONS

USAGE = "usage: cmp [-l] [-s] file1 file2 [skip1] [skip2]\n"


def run(ctx, argv):
    if len(argv) != 2 or any(a.startswith("-") for a in argv):
        ctx.err(USAGE)
        return 2
    found = []
    for path in argv:
        data = dd.content(ctx, path)
        if data is None:
            ctx.err("cmp: cannot open %s\n" % path)
            return 2
        found.append(data)
    (size1, head1, regions1), (size2, head2, regions2) = found
    common = min(size1, size2)
    label = svm.switch(ctx.st, "label_blocks")
    # The mirror's regions are the ones both files hold (the model maps
    # region r of a ramdisk to region r of the metadevice copied into it).
    size = min(size1, size2)
    differs = None
    if common and head1 != head2:
        differs = 0
    else:
        for r in range(REGIONS):
            if (r + 1) * size // REGIONS > common:
                break
            if regions1[r] != regions2[r]:
                differs = max(r * size // REGIONS, label if r == 0 else 0)
                break
    if differs is not None:
        ctx.out("%s %s differ: char %d, line 1\n" % (
            argv[0], argv[1], differs * 512 + 1))
        return 1
    if size1 != size2:
        ctx.err("cmp: EOF on %s\n" % argv[0 if size1 < size2 else 1])
        return 1
    return 0
