# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Ramdisk geometry and sizing (pure).

The illumos ramdisk driver fakes a geometry (ramdisk.c): nhead 1,
ncyl = size / 100 KiB below 2 MiB and size / 300 KiB above, nsect =
size / (512 * ncyl), and slice 0 is ncyl * nsect blocks, a little less than
size / 512.  SVM then rounds a stripe down to its first component's
cylinder (nhead * nsect) and a mirror down to its first submirror's
cylinder (meta_stripe.c stripe_geom, meta_mirror.c mirror_geom).
"""

from . import driverconf

BLOCK = 512
MIB = 1024 * 1024


def ramdisk_geometry(size_bytes):
    """(ncyl, nhead, nsect) the ramdisk driver reports for this size."""
    if size_bytes < 2 * MIB:
        ncyl = size_bytes // (100 * 1024)
    else:
        ncyl = size_bytes // (300 * 1024)
    ncyl = max(ncyl, 1)
    return ncyl, 1, size_bytes // (BLOCK * ncyl)


def ramdisk_slice_blocks(size_bytes):
    """Blocks in slice 0 of a ramdisk of size_bytes (a whole number of
    pages; svmram only asks for whole MiB, so page rounding never applies)."""
    ncyl, nhead, nsect = ramdisk_geometry(size_bytes)
    return ncyl * nhead * nsect


def ramdisk_cylinder_blocks(size_bytes):
    _, nhead, nsect = ramdisk_geometry(size_bytes)
    return nhead * nsect


def round_down(value, unit):
    return value - value % unit


# How much larger than the mirror the copy method's ramdisk is at least:
# a page (8 KiB on SPARC, 4 KiB on x86).  Its proof, `cmp MIRROR RAMDISK`
# (samedata.py), must find the mirror's end first: the ramdisk driver
# refuses a read at the ramdisk's end (ramdisk.c rd_read, EINVAL), which
# illumos's cmp takes for EOF (both end: exit 0) and Solaris 11's reports
# (exit 2), so a ramdisk exactly the mirror's size would fail the proof on
# every release, differently.  Such mirrors are real: 9676800 blocks on
# 15 x 63 disks, 3225600 on 16 x 63, any multiple of 2457600 on EFI.
COPY_MARGIN = 8192


def ramdisk_holds(size_bytes, mirror_blocks, copy=False):
    """Whether a ramdisk of size_bytes serves a mirror of mirror_blocks:
    its slice holds a submirror that can be attached (metattach refuses a
    submirror smaller than the mirror: `submirror too small to attach`),
    and for the copy method it is COPY_MARGIN larger than the mirror."""
    return ramdisk_slice_blocks(size_bytes) >= mirror_blocks and (
        not copy or size_bytes >= mirror_blocks * BLOCK + COPY_MARGIN)


def ramdisk_size_for(mirror_blocks, copy=False):
    """Smallest whole-MiB ramdisk that serves a mirror of mirror_blocks
    (ramdisk_holds)."""
    size = -(-mirror_blocks * BLOCK // MIB) * MIB
    while not ramdisk_holds(size, mirror_blocks, copy):
        size += MIB
    return size


def mirror_size_with_ram_first(stripe_blocks, ram_size_bytes):
    """Size of `metainit MIRROR -m RAM DISK...`: the smallest submirror,
    rounded down to the RAM submirror's cylinder (it is the first one)."""
    return round_down(min(stripe_blocks), ramdisk_cylinder_blocks(ram_size_bytes))


def human_size(size_bytes):
    """ramdiskadm-style size: 228m, 2g, or bytes."""
    for suffix, unit in (("g", 1024 * MIB), ("m", MIB), ("k", 1024)):
        if size_bytes % unit == 0:
            return "%d%s" % (size_bytes // unit, suffix)
    return str(size_bytes)


# --- the ramdisk memory cap (ramdisk.c, illumos-gate 3e2cb48) --------------
#
# rd_init_tuneables (lines 258-301), run when the driver attaches (rd_attach
# line 813), normally once per boot: percent_physmem is looked up in
# ramdisk.conf as a string (ddi_prop_lookup_string, 283-284; sunddi.c
# i_ddi_prop_search skips a property of another type, so an unquoted
# integer is not found), converted with stoi (286, the leading digits), and
# replaced by the default 25 when it is 100 or more (289-295); then
# rd_max_physmem = availrmem_initial * percent / 100 pages (300).
# rd_phys_alloc (309-367) refuses a ramdisk whose pages would take all
# ramdisks over that cap (317), or that cannot be reserved (page_resv
# KM_NOSLEEP, 320) or found free (page_create_wait without waiting, 323)
# now; rd_create_disk then returns EAGAIN (1208-1211), which ramdiskadm
# prints as "couldn't create ramdisk "NAME": Resource temporarily
# unavailable" (ramdiskadm/main.c 101-102, utils.c die 76-77).

DEFAULT_PERCENT = 25             # ramdisk.h RD_DEFAULT_PERCENT_PHYSMEM
MAX_PERCENT = 99                 # rd_init_tuneables ignores 100 or more
MIN_FREE_PERCENT = 10            # memory a ramdisk must leave free (svmram)
T_MINARMEM = 25                  # pages page_resv keeps back (param.c)


def conf_setting(confs):
    """What the driver takes from the conf files `confs` ((path, text,
    mtime), in the order they are read, the later winning): (percent,
    where, note), where = (path, value, quoted, line) of the setting or
    None."""
    where = None
    for path, text, _ in confs:
        found = driverconf.found(text, "percent_physmem")
        if found is not None:
            where = (path,) + found
    if where is None:
        return DEFAULT_PERCENT, None, (
            "the driver's default, as ramdisk.conf sets no percent_physmem")
    path, value, quoted, _ = where
    if value is None:
        return DEFAULT_PERCENT, where, (
            "%s names percent_physmem without a value, which the driver "
            "does not read as a string, so it takes its default" % path)
    if not quoted:
        return DEFAULT_PERCENT, where, (
            "%s sets percent_physmem=%s, a number, but the driver reads it "
            "as a string (percent_physmem=\"%s\";), so it takes its "
            "default" % (path, value, value))
    percent = driverconf.stoi(value)
    if percent > MAX_PERCENT:
        return DEFAULT_PERCENT, where, (
            "%s sets percent_physmem=\"%s\", which the driver ignores "
            "(it ignores 100 or more) for its default" % (path, value))
    return percent, where, "percent_physmem=\"%s\" in %s" % (value, path)


def conf_doubts(confs):
    """Where the kernel warns in the conf files `confs`: ([(path, line,
    problem)], [every percent a percent_physmem="..." anywhere in them
    would give, read or dropped]).  With a warning svmram cannot be sure
    it reads the files as the kernel did, and counts with the smallest."""
    problems, percents = [], []
    for path, text, _ in confs:
        problems += [(path, line, what)
                     for line, what in driverconf.read(text)[1]]
        tokens = [t for t in driverconf.lex(text)[0]
                  if t[0] != "newline"]
        for i, (kind, word, _) in enumerate(tokens[:-2]):
            if (kind, word, tokens[i + 1][0], tokens[i + 2][0]) == (
                    "name", "percent_physmem", "=", "str"):
                percent = driverconf.stoi(tokens[i + 2][1])
                if percent <= MAX_PERCENT:
                    percents.append(percent)
    return problems, sorted(set(percents))


class MemoryCap:
    """The ramdisk memory cap on this host as svmram reads it (pure).

    availrmem_initial is not a kstat: svmram takes availrmem now plus
    the pages of the ramdisks that exist (rd_phys_alloc reserved them
    from availrmem), a lower bound (the kernel's own locked memory since
    boot is missing from it).  The percentage is what ramdisk.conf gives,
    unless a conf file is newer than the boot: then the value in effect
    is the one the driver read at boot, which svmram cannot see, and it
    counts with the smaller of that file's value and the default; or
    unless the kernel warns about a conf file (conf_doubts): then svmram
    counts with the smallest of its reading, the default, and every
    percent_physmem="..." in the files."""

    def __init__(self, snap):
        self.page = snap.page_bytes or 4096
        self.physmem = snap.physmem_bytes
        self.freemem = snap.freemem_bytes
        self.availrmem = snap.availrmem_bytes
        self.ramdisks = dict(snap.ramdisks)
        self.used = sum(self.pages(size) for size in self.ramdisks.values()) \
            * self.page
        self.basis = self.availrmem + self.used if self.availrmem \
            else self.physmem * 15 // 16
        self.next_percent, self.where, self.note = conf_setting(
            snap.ramdisk_confs)
        self.changed = snap.boot_time is not None and any(
            mtime > snap.boot_time for _, _, mtime in snap.ramdisk_confs)
        self.problems, self.candidates = conf_doubts(snap.ramdisk_confs)
        self.percent = min(self.next_percent, DEFAULT_PERCENT) \
            if self.changed else self.next_percent
        if self.problems:
            self.percent = min([self.percent, DEFAULT_PERCENT]
                               + self.candidates)
        self.conf = snap.ramdisk_conf
        self.cap = self.cap_at(self.percent)

    def pages(self, size):
        return -(-size // self.page)

    def cap_at(self, percent):
        return self.basis // self.page * percent // 100 * self.page

    def percent_for(self, total):
        """The smallest valid percent_physmem whose cap holds `total`
        bytes of ramdisks, or None when none does."""
        pages = self.pages(total)
        percent = max(1, -(-pages * 100 // (self.basis // self.page)))
        return percent if percent <= MAX_PERCENT else None

    def largest(self):
        """The largest ramdisk this host can ever give svmram: under the
        cap at 99 %, and leaving MIN_FREE_PERCENT of memory free out of
        at most availrmem at boot."""
        return min(self.cap_at(MAX_PERCENT),
                   self.basis - self.physmem * MIN_FREE_PERCENT // 100)

    def sureness(self):
        """How sure the cap is, in words."""
        if self.problems:
            path, line, what = self.problems[0]
            return ("the kernel warns about line %d of %s (%s), so svmram "
                    "cannot be sure what the driver took from it; it counts "
                    "with %d%%, the smallest it may have taken" % (
                        line, path, what, self.percent))
        if self.changed:
            return ("ramdisk.conf was changed after the last boot, so the "
                    "driver may still use the value it read then; svmram "
                    "counts with %d%%" % self.percent)
        return ("availrmem at boot is taken as availrmem now plus the "
                "ramdisks' pages, a lower bound")

    def describe(self):
        """'240 MiB (25% of availrmem at boot, at least 960 MiB; ...)'."""
        return "%s (%d%% of availrmem at boot, at least %s; %s)" % (
            mib_text(self.cap), self.percent, mib_text(self.basis),
            self.note)


def mib_text(size):
    return "%d MiB" % (size // MIB) if size % MIB == 0 else \
        "%.1f MiB" % (size / MIB)


# --- the copy method's window (docs/design.md, "Mirrors whose submirrors
# are not labeled") ----------------------------------------------------------
#
# The mirror must stay closed while its data is copied into the ramdisk and
# compared with it: both read every block of the mirror from its disks.
# The read speed is an assumption (open question 1, decided: a fixed,
# conservative figure, stated wherever the window is shown).

ASSUMED_READ_MIB_S = 30
COPY_READS = 2              # the copy, then the comparison


def copy_window_seconds(blocks):
    return -(-blocks * BLOCK * COPY_READS // (ASSUMED_READ_MIB_S * MIB))


def copy_window_text(blocks):
    """'about 16 minutes (227.5 MiB read twice, to copy and to compare,
    at an assumed 30 MiB/s disk read speed)'."""
    return "about %s (%s read twice, to copy and to compare, at an " \
        "assumed %d MiB/s disk read speed)" % (
            duration_text(copy_window_seconds(blocks)),
            mib_text(blocks * BLOCK), ASSUMED_READ_MIB_S)


def duration_text(seconds):
    if seconds < 120:
        return "%d seconds" % seconds
    return "%d minutes" % -(-seconds // 60)
