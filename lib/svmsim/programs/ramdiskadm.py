# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""ramdiskadm: create (-a), delete (-d) and list ramdisks (ramdiskadm/main.c).

Exit 0 success, 1 runtime error, 2 usage error.  Messages start with the
program name.  The driver rules (ramdisk.c): names are unique, minors are
the first free from 1, at most ``ramdisk_max`` disks, all ramdisks
together may use ``ramdisk_percent`` (ramdisk.conf's percent_physmem as
the driver read it at boot) of availrmem_initial (page rounded), and the
pages must be reservable and free now.
"""

import errno

from svmsim import devices, regions, report, resync, svm
from svmsim.programs import kstat
from svmsim.messages import strerror

E_USAGE = 2
RD_NAME_LEN = 32
USAGE = "Usage: %s [ -a <name> <size>[g|m|k|b] | -d <name> ]\n"
MASK64 = (1 << 64) - 1
_DIGITS = frozenset("0123456789")
_NONZERO = frozenset("123456789")



def _re():
    """re, imported when first used, not by every command that imports
    this module (bench/emulator)."""
    import re
    return re

def strtoll0(text):
    """strtoll(text, &end, 0): returns (value, rest)."""
    if text[:1] in _NONZERO:
        # What the expression below finds for a decimal number (228m),
        # without importing re.
        end = 1
        while end < len(text) and text[end] in _DIGITS:
            end += 1
        return min(int(text[:end]), (1 << 63) - 1), text[end:]
    m = _re().match(r"^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)",
                    text)
    if not m:
        return 0, text
    digits = m.group(2)
    if digits[:2] in ("0x", "0X"):
        value = int(digits, 16)
    elif digits.startswith("0"):
        value = int(digits, 8)
    else:
        value = int(digits)
    value = min(value, (1 << 63) - 1)
    if m.group(1) == "-":
        value = -value
    return value, text[m.end():]


class _Usage(Exception):
    pass


def run(ctx, argv):
    try:
        return _run(ctx, argv)
    except _Usage:
        ctx.err(USAGE % ctx.prog)
        return E_USAGE


def _warn(ctx, text):
    ctx.err("%s: %s" % (ctx.prog, text))


def _run(ctx, argv):
    name, size = None, 0
    alloc = delete = errflag = False
    i = 0
    # getopt(argc, argv, "a:d:") written out rather than svmsim.getopt's:
    # ramdiskadm's main.c goes on after an illegal option (one message
    # each) and takes <size> from argv[optind] in the middle of the loop.
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        c = arg[1]
        if c not in "ad":
            ctx.err("%s: illegal option -- %s\n" % (ctx.prog, c))
            errflag = True
            i += 1
            continue
        if len(arg) > 2:
            optarg = arg[2:]
        elif i + 1 < len(argv):
            i += 1
            optarg = argv[i]
        else:
            ctx.err("%s: option requires an argument -- %s\n" % (ctx.prog, c))
            errflag = True
            break
        i += 1
        name = optarg
        if c == "a":
            alloc = True
            # main.c takes the size from argv[optind] straight away
            if i >= len(argv) or argv[i].startswith("-"):
                _warn(ctx, "<size> missing\n")
                raise _Usage()
            size = _parse_size(ctx, argv[i])
            i += 1
        else:
            delete = True
    if errflag or (alloc and delete) or i < len(argv):
        raise _Usage()
    if alloc or delete:
        for pfx in ("/dev/ramdisk/", "/dev/rramdisk/"):
            if name.startswith(pfx):
                name = name[len(pfx):]
                break
        ok = not name.startswith("-") and all(
            (ch.isascii() and ch.isalnum()) or ch in "_-" for ch in name)
        if not ok or len(name) > RD_NAME_LEN:
            _warn(ctx, 'illegal <name> "%s"\n' % name)
            raise _Usage()
    if alloc:
        return create(ctx, name, size)
    if delete:
        return remove(ctx, name)
    ctx.out(report.ramdisk_listing(ctx.st))
    return 0


def _parse_size(ctx, text):
    value, suffix = strtoll0(text)
    mult = {"b": 512, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
    if suffix in mult:
        value *= mult[suffix]
        suffix = ""
    value &= MASK64
    if value == 0 or suffix:
        _warn(ctx, 'Illegal <size> "%s"\n' % text)
        raise _Usage()
    return value


def _die(ctx, what, name, err):
    ctx.err('%s: %s "%s": %s\n' % (ctx.prog, what, name, strerror(err)))
    return 1


def create(ctx, name, size):
    """ramdisk.c rd_create_disk (lines 1183-1212 of commit 3e2cb48): a
    taken name is EEXIST; any failure of rd_alloc_resources is EAGAIN:
    no free minor (rd_find_free_minor gives 0, whose soft state, the
    control device's, exists), or rd_phys_alloc (309-367) refusing."""
    st = ctx.st
    if name in st["ramdisks"]:
        return _die(ctx, "couldn't create ramdisk", name, errno.EEXIST)
    used = {rd["minor"] for rd in st["ramdisks"].values()}
    free = [n for n in range(1, st["ramdisk_max"] + 1) if n not in used]
    page = st["pagesize"]
    pages = (size + page - 1) // page
    if not free or phys_alloc_refusal(st, pages):
        return _die(ctx, "couldn't create ramdisk", name, errno.EAGAIN)
    minor = free[0]
    st["ramdisk_seq"] += 1
    st["ramdisks"][name] = {"size": pages * page, "minor": minor,
                            "created": st["ramdisk_seq"]}
    regions.forget_device(st, [devices.RAMDISK_MAJOR, minor])
    devices.add_ramdisk_nodes(ctx.root, name, minor)
    ctx.out("/dev/ramdisk/%s\n" % name)
    return 0


# GUESS: tune.t_minarmem, the pages page_resv() keeps back (illumos
# param.c sets 25), and throttlefree = minfree = physmem/256 (the pageout
# defaults: lotsfree physmem/64, desfree half of it, minfree half again).
T_MINARMEM = 25


def phys_alloc_refusal(st, pages):
    """Why rd_phys_alloc refuses `pages` more pages, or None:

    * the cap (line 317): the ramdisks' pages together over
      rd_max_physmem, fixed when the driver initialised (cap_pages);
    * page_resv(npages, KM_NOSLEEP) (320): availrmem now, less the pages,
      under t_minarmem;
    * page_create_wait(npages, 0) (323), which does not wait: fewer free
      pages now than the request plus throttlefree."""
    page = st["pagesize"]
    in_use = sum(rd["size"] // page for rd in st["ramdisks"].values())
    if in_use + pages > cap_pages(st):
        return "cap"
    stats = kstat.stats(st)
    if stats["unix:0:system_pages:availrmem"] - pages < T_MINARMEM:
        return "availrmem"
    if stats["unix:0:system_pages:freemem"] < pages + throttlefree(st):
        return "freemem"
    return None


def throttlefree(st):
    return st["physmem"] // st["pagesize"] // 256


def cap_pages(st):
    """ramdisk.c rd_init_tuneables: rd_max_physmem = availrmem_initial *
    rd_percent_physmem / 100 (switch ramdisk_cap_basis: "physmem" takes
    the whole physical memory instead), the percentage being the one
    ramdisk.conf gave at the last boot (svmsim/drvconf.py)."""
    page = st["pagesize"]
    basis = st[svm.switch(st, "ramdisk_cap_basis")]
    return basis // page * st["ramdisk_percent"] // 100


def in_use(st, minor):
    """Is the ramdisk open?  ramdisk.c rd_delete_disk refuses only
    rd_is_open() (audit 8.4)."""
    return held_by_svm(st, [devices.RAMDISK_MAJOR, minor])


def held_by_svm(st, dev):
    """Does SVM hold the device `dev` open?  It opens a component while
    its stripe is open, or its mirror is open or resyncing (the resync
    thread opens the mirror).  lofi.c refuses an unmap of an open
    device the same way (is_opened).

    GUESS: SVM keeps no open on a component it has erred (Maintenance)."""
    for u in st["units"].values():
        if u["type"] != "stripe":
            continue
        parent = st["units"].get(u["parent"]) if u["parent"] else None
        held = svm.is_open(st, u["name"]) or parent is not None and (
            svm.is_open(st, parent["name"]) or resync.active(parent))
        if held and any(list(c["dev"]) == list(dev)
                        and c["state"] != "Maintenance"
                        for c in svm.all_comps(u)):
            return True
    return False


def remove(ctx, name):
    st = ctx.st
    rd = st["ramdisks"].get(name)
    if rd is None:
        return _die(ctx, "couldn't delete ramdisk", name, errno.EINVAL)
    if in_use(st, rd["minor"]):
        return _die(ctx, "couldn't delete ramdisk", name, errno.EBUSY)
    del st["ramdisks"][name]
    regions.forget_device(st, [devices.RAMDISK_MAJOR, rd["minor"]])
    devices.remove_ramdisk_nodes(ctx.root, name)
    return 0
