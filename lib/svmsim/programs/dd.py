# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""dd, just enough to read from a metadevice: `dd if=/dev/md/rdsk/d10
of=/dev/null count=1 [bs=N]`.  Reading opens the metadevice, which is
what svmram uses to force a mirror's first open after boot (reference
9.1); the open of a closed mirror applies the emulator's open rule
(units.first_open).  Other files are
refused, so nothing outside the emulator is ever read.

And to write zeros to one: `dd if=/dev/zero of=/dev/md/rdsk/d10 count=N
[bs=N] [oseek=N|seek=N]`, which is how a raw-device user meets a labeled
unit's block 0 (md_subr.c md_checkbuf; svm.checkbuf).  Each record is one
write(2): the first refused one ends dd as illumos dd.c flsh() does
(perror("write"), term(2): the statistics count the refused record
out, since nofr is counted before the write, dd.c 1755-1771).  A write
open refused by mdopen prints "dd: FILE: open: ..." and exits 2 without
statistics (dd.c 842-846).
"""

import os
import stat

from svmsim import devices, monitor, regions, svm
from svmsim.state import REGIONS
from svmsim.lean import MappingProxyType

_ERRNO = MappingProxyType({"EROFS": "Read-only file system",
                           "EINVAL": "Invalid argument"})

_MD = r"/dev/md/r?dsk/(d[0-9]+)\Z"     # re is imported where it is used
USAGE = "usage: dd [operand...]\n"


def run(ctx, argv):
    operands = dict(arg.split("=", 1) for arg in argv if "=" in arg)
    if len(operands) == len(argv) and operands.get("if") == "/dev/zero" \
            and "of" in operands:
        return write(ctx, operands)
    if len(operands) == len(argv) and operands.get("of", "").startswith(
            "/dev/rramdisk/"):
        return copy(ctx, operands)
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


def _number(text):
    """dd.c number(): digits with an optional k (1024) or b (512)."""
    import re
    m = re.match(r"([0-9]+)([kb]?)\Z", text)
    if m is None:
        return None
    return int(m.group(1)) * {"": 1, "k": 1024, "b": 512}[m.group(2)]


def write(ctx, operands):
    import re
    path = operands["of"]
    match = re.match(_MD, path)
    nums = [_number(operands.get(k, d)) for k, d in
            (("bs", "512"), ("count", "1"),
             ("oseek", operands.get("seek", "0")))]
    bs, count, oseek = nums
    if match is None or None in nums or bs % 512 or bs == 0 \
            or set(operands) - {"if", "of", "bs", "count", "oseek", "seek"}:
        ctx.err(USAGE)
        return 2
    name = match.group(1)
    if devices.resolve(ctx.root, path) is None \
            or name not in ctx.st["units"]:
        ctx.err("dd: %s: open: No such file or directory\n" % path)
        return 2
    err = svm.open_for_write(ctx.st, name)
    if err is not None:
        ctx.err("dd: %s: open: %s\n" % (path, _ERRNO[err]))
        return 2
    svm.open_device(ctx.st, name)
    try:
        u = ctx.st["units"][name]
        per = bs // 512
        done = 0
        for i in range(count):
            blkno = (oseek + i) * per
            err = svm.checkbuf(ctx.st, name, blkno, True)
            if err == "EOF":
                # write(2) returns 0: dd's short write message, then exit 2
                ctx.err("dd: unexpected short write, wrote 0 bytes, "
                        "expected %d\n" % bs)
                ctx.err("%d+0 records in\n%d+0 records out\n"
                        % (done + 1, done + 1))
                return 2
            if err is not None:
                ctx.err("write: %s\n" % _ERRNO[err])
                ctx.err("%d+0 records in\n%d+0 records out\n"
                        % (done + 1, done + 1))
                return 2
            n = min(per, u["size"] - blkno)     # md_checkbuf 2061-2065
            _land(ctx.st, u, blkno, n,
                  blkno < svm.switch(ctx.st, "label_blocks"))
            done += 1
            if n < per:
                ctx.err("dd: unexpected short write, wrote %d bytes, "
                        "expected %d\n" % (n * 512, bs))
                ctx.err("%d+0 records in\n%d+0 records out\n"
                        % (done, done))
                return 2
    finally:
        svm.close_device(ctx.st, name)
    ctx.err("%d+0 records in\n%d+0 records out\n" % (done, done))
    return 0


def copy(ctx, operands):
    """`dd if=/dev/md/rdsk/dN of=/dev/rramdisk/NAME bs=N [count=N]`: read
    a metadevice (a read open, allowed on a submirror too: md.c 1537
    refuses only writes) and write what it returns into a ramdisk, its
    label blocks included.  Without count dd reads to the end (md_checkbuf
    cuts the last transfer, 2061-2065, and ends at b_lblkno == total)."""
    import re
    src, path = operands.get("if", ""), operands["of"]
    bs = _number(operands.get("bs", "512"))
    count = _number(operands["count"]) if "count" in operands else None
    match = re.match(_MD, src)
    if match is None or bs is None or bs % 512 or bs == 0 or (
            "count" in operands and count is None) or \
            set(operands) - {"if", "of", "bs", "count"}:
        ctx.err(USAGE)
        return 2
    name = match.group(1)
    if devices.resolve(ctx.root, src) is None or name not in ctx.st["units"]:
        ctx.err("dd: %s: open: No such file or directory\n" % src)
        return 2
    rd = _ramdisk(ctx, path)
    if rd is None:
        ctx.err("dd: %s: open: No such file or directory\n" % path)
        return 2
    st = ctx.st
    svm.open_device(st, name)
    try:
        u = st["units"][name]
        blocks = u["size"] if count is None else min(
            u["size"], count * bs // 512)
        if blocks > rd["size"] // 512:
            # GUESS: never asked for by svmram (its ramdisk holds the
            # mirror); a write past a ramdisk's end fails ENXIO.
            ctx.err("write: No such device or address\n")
            return 2
        _, stripe_of = _reader(st, u)
        dev = [devices.RAMDISK_MAJOR, rd["minor"]]
        data = regions.device_data(st, dev)
        for r in range(REGIONS):
            if (r + 1) * u["size"] // REGIONS <= blocks:
                data[r] = regions.read(st, stripe_of(r), r) or 0
        if blocks:
            st.setdefault("devhead", {})[devices.devkey(dev)] = \
                regions.head_read(st, stripe_of(0)) or 0
    finally:
        svm.close_device(st, name)
    whole, part = divmod(blocks * 512, bs)
    ctx.err("%d+%d records in\n%d+%d records out\n"
            % (whole, part > 0, whole, part > 0))
    return 0


def _ramdisk(ctx, path):
    """The ramdisk /dev/rramdisk/NAME names, if it exists."""
    name = path[len("/dev/rramdisk/"):]
    if devices.resolve(ctx.root, path) is None:
        return None
    return ctx.st["ramdisks"].get(name)


def _reader(st, u):
    """(unit, region -> the stripe a read of that region is served from):
    a mirror's read option picks a submirror (the monitor's
    all_read_candidates, reference 4.1), a stripe serves itself."""
    if u["type"] != "mirror":
        return u, lambda r: u
    candidates = monitor.all_read_candidates(st, u, monitor._Regions(st))

    def stripe_of(r):
        found = candidates[r]
        return st["units"][found[0]["name"]] if found else u
    return u, stripe_of


def content(ctx, path):
    """(blocks, label-block version, region versions) of what a read of
    `path` returns, or None when it cannot be opened: a metadevice (read
    as dd reads it) or a ramdisk's raw device."""
    import re
    match = re.match(_MD, path)
    st = ctx.st
    if match is not None:
        name = match.group(1)
        if devices.resolve(ctx.root, path) is None or name not in st["units"]:
            return None
        svm.open_device(st, name)
        svm.close_device(st, name)
        u, stripe_of = _reader(st, st["units"][name])
        return (u["size"], regions.head_read(st, stripe_of(0)) or 0,
                [regions.read(st, stripe_of(r), r) or 0
                 for r in range(REGIONS)])
    if path.startswith("/dev/rdsk/"):
        # A slice or a link to a lofi device (svmram selftest's scratch
        # submirrors): what the kernel answers at the node's number.
        node = devices.stat_path(ctx.root, path)
        if node is None or not stat.S_ISCHR(node.st_mode):
            return None
        dev = [os.major(node.st_rdev), os.minor(node.st_rdev)]
        info = devices.kernel_device(st, dev)
        if info is None:
            return None
        return (info["blocks"],
                st.setdefault("devhead", {}).get(devices.devkey(dev), 0),
                list(regions.device_data(st, dev)))
    if path.startswith("/dev/rramdisk/"):
        rd = _ramdisk(ctx, path)
        if rd is None:
            return None
        dev = [devices.RAMDISK_MAJOR, rd["minor"]]
        return (rd["size"] // 512,
                st.setdefault("devhead", {}).get(devices.devkey(dev), 0),
                list(regions.device_data(st, dev)))
    return None


def _land(st, u, blkno, nblks, head):
    """The data of one write: new versions in the regions it covers (a
    mirror through the monitor's application write, so its truth moves;
    a top-level stripe directly).  `head`: it covers label blocks."""
    first = blkno * REGIONS // u["size"]
    last = (blkno + nblks - 1) * REGIONS // u["size"]
    for r in range(first, last + 1):
        if u["type"] == "mirror":
            monitor.app_write(st, u, r, head=head and r == first)
        else:
            st["version"] += 1
            monitor.count_write(st, u)
            regions.write(st, u, r, st["version"])
            if head and r == first:
                regions.head_write(st, u, st["version"])
