# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""cmp FILE1 FILE2 [SKIP1 [SKIP2]]: byte by byte until they differ or
one ends; the skips only as _skip() says.  Equal to
the end of both: exit 0, silent.  The first difference: "F1 F2 differ:
char N, line L" on stdout, exit 1.  Equal until the shorter ends: "cmp:
EOF on SHORTER" on stderr, exit 1.  A wrong number of operands: the usage
line, exit 2.

The program is the release's (switch cmp_program):

* "libcmd", illumos-2016: /usr/bin/cmp is the ksh93 builtin, illumos-gate
  usr/src/lib/libcmd/common/cmp.c (cmp() for "EOF on", b_cmp for "F:
  cannot open [ERRNO TEXT]", exit 2).  A failed read ends a file as EOF
  does (sfreserve).
* "cmd-cmp", solaris10: usr/src/cmd/cmp/cmp.c (earg, barg "cmp: cannot
  open F", narg), which also takes a failed read (getc) for EOF.
* "cmd-cmp-ferror", solaris11: the Solaris 11 snapshot's cmd/cmp/cmp.c,
  which checks ferror at every EOF, the first file first (rearg): "cmp:
  error on reading F: STRERROR", exit 2.

Reading a ramdisk at its end fails with EINVAL (ramdisk.c rd_read); a
metadevice ends with an empty read (md_subr.c md_checkbuf).  So a ramdisk
exactly as large as the metadevice gives exit 0, or exit 2 on solaris11.

The files are the emulator's: a metadevice's raw device (/dev/md/rdsk/dN,
read through its read option, which opens it), a ramdisk's
(/dev/rramdisk/NAME) or a /dev/rdsk node (a slice, or a link to a lofi
device), compared as the data model holds them (label
blocks, then regions; dd.content).  GUESS: the line number of a
difference is printed as 1 (the model keeps no bytes to count newlines
in).
"""

from svmsim import devices, svm
from svmsim.programs import dd
from svmsim.state import REGIONS

USAGE = "usage: cmp [-l] [-s] file1 file2 [skip1] [skip2]\n"


def _skip(argv, label):
    """The skip operands (libcmd cmp.c b_cmp :240-262 @a593473611:
    strtol, bytes), as whole blocks: emulated only when both are the
    same number of blocks, at most the label blocks (svmram selftest
    compares its submirrors from block DK_LABEL_LOC + 1); None
    otherwise."""
    skips = argv[2:] + ["0"] * (4 - len(argv))
    if not all(s.isdigit() for s in skips) or skips[0] != skips[1] or \
            int(skips[0]) % 512 or int(skips[0]) // 512 > label:
        return None
    return int(skips[0]) // 512


def run(ctx, argv):
    label = svm.switch(ctx.st, "label_blocks")
    skip = _skip(argv, label) if 2 <= len(argv) <= 4 else None
    if skip is None or any(a.startswith("-") for a in argv):
        ctx.err(USAGE)
        return 2
    argv = argv[:2]
    found = []
    for path in argv:
        data = dd.content(ctx, path)
        if data is None:
            ctx.err(_cannot_open(ctx, path))
            return 2
        found.append(data)
    (size1, head1, regions1), (size2, head2, regions2) = found
    common = min(size1, size2)
    # The mirror's regions are the ones both files hold (the model maps
    # region r of a ramdisk to region r of the metadevice copied into it).
    size = min(size1, size2)
    differs = None
    if common and head1 != head2 and skip < label:
        differs = skip
    else:
        for r in range(REGIONS):
            if (r + 1) * size // REGIONS > common:
                break
            if regions1[r] != regions2[r]:
                differs = max(r * size // REGIONS, label if r == 0 else 0)
                break
    if differs is not None:
        # The position counts from the skip (libcmd cmp.c cmp(): pos
        # from 0 after sfseek; GUESS: cmd/cmp's too).
        ctx.out("%s %s differ: char %d, line 1\n" % (
            argv[0], argv[1], (differs - skip) * 512 + 1))
        return 1
    # The files that reach their end: the shorter, or both.
    ended = [path for path, size in zip(argv, (size1, size2))
             if size == common]
    failed = [path for path in ended if path.startswith("/dev/rramdisk/")]
    if failed and svm.switch(ctx.st, "cmp_program") == "cmd-cmp-ferror":
        ctx.err("cmp: error on reading %s: Invalid argument\n" % failed[0])
        return 2
    if size1 != size2:
        ctx.err("cmp: EOF on %s\n" % ended[0])
        return 1
    return 0


def _cannot_open(ctx, path):
    if svm.switch(ctx.st, "cmp_program") != "libcmd":
        return "cmp: cannot open %s\n" % path
    why = "No such file or directory" if devices.resolve(
        ctx.root, path) is None else "No such device or address"
    return "cmp: %s: cannot open [%s]\n" % (path, why)
