# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Validation of the names and sizes an administrator gives, and the
choice of free names (pure; the caller supplies what is in use).

registry.py imports this module alone to ask owns() and owns_host(), so
that naming an md array loads nothing else of SVM's: it imports only
errors.py."""

import os
import re
import sys
from types import MappingProxyType

from ..errors import UsageError

# What SVM's targets are called, and SVM in a phrase: svmram's help names
# every backend so (registry.described), and Words.target is NOUN.
NOUN = "mirror"
DESCRIPTION = "a mirror (Solaris Volume Manager)"

MAX_METADEVICES = 8192          # nmd can be raised to 8192 in md.conf
NMIRROR = 4                     # submirrors a mirror holds (md_mirror.h)
PASS_MAX = 9                    # a mirror's highest pass number
RAMDISK_NAME_MAX = 32           # RD_NAME_LEN

_METADEVICE = re.compile(r"d(0|[1-9][0-9]{0,3})\Z")
# A disk set's metadevice, SET/dN (blue/d10): libmeta's parse_device
# splits "%[^/]/%s" (meta_name.c:221 @a593473611), and a set name is 1 to
# MD_MAX_SETNAME = 50 printable characters other than INVALID_IN_NAMES,
# " *?/" (meta_set_hst.c:2050-2056, meta_basic.x:187,
# hdrs/meta_set_prv.h:68); dN is checked by is_metadevice.
_DISK_SET = re.compile(r"[!-)+-.0->@-~]{1,50}/(d[0-9]+)\Z")
_RAMDISK = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*\Z")
# The scratch ramdisks of the slot test (svm/probe.py): svmram_probe0,
# svmram_probe1, or the next free numbers when a record holds one.
SCRATCH_RAMDISK = "svmram_probe%d"
_SCRATCH = re.compile(r"svmram_probe[0-9]+\Z")
_LINK = re.compile(r"c([0-9]+)t([0-9]+)d([0-9]+)s([0-7])\Z")
_SIZE = re.compile(r"([1-9][0-9]*)([bkmg]?)\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
_UNITS = MappingProxyType(
    {"": 1, "b": 512, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3})


def owns(text, root="/"):
    """Is `text` written in SVM's target syntax: dN, or, on SVM's host
    only, a disk set's SET/dN (which SvmBackend.target refuses)?  Disk
    sets exist only where SVM runs, and elsewhere SET/dN is another
    backend's to claim (an LVM vg/lv named d10)."""
    return is_metadevice(text) or (is_disk_set_name(text) and
                                   owns_host(root))


def owns_host(root="/"):
    """Is the host under `root` one of SVM's: Solaris or illumos (Python
    says "sunos5") for the real root; an emulated root (SVMRAM_ROOT: the
    SVM emulator's) unless it is a Linux tree, which has a /sys/block."""
    if root in ("/", ""):
        return sys.platform.startswith("sunos")
    return not os.path.isdir(os.path.join(root, "sys", "block"))


def is_number(text):
    """A whole number in ASCII digits (str.isdigit() also takes '²')."""
    return bool(_NUMBER.match(text))


def is_metadevice(name):
    match = _METADEVICE.match(name)
    return bool(match) and int(match.group(1)) < MAX_METADEVICES


def is_disk_set_name(name):
    """A metadevice of a disk set (blue/d10), which svmram refuses."""
    match = _DISK_SET.match(name)
    return bool(match) and is_metadevice(match.group(1))


def is_ramdisk(name):
    return 0 < len(name) <= RAMDISK_NAME_MAX and bool(_RAMDISK.match(name))


def is_scratch_ramdisk(name):
    """A name svmram keeps for the scratch ramdisks of its slot test."""
    return bool(_SCRATCH.match(name))


def is_link(name):
    return bool(_LINK.match(name))


def metadevice(name, what="metadevice"):
    """A local-set metadevice name dNNN, or UsageError."""
    if is_disk_set_name(name):
        raise UsageError(
            "%s %r: disk sets are not supported: a ramdisk exists on one "
            "host only, while a shared disk set moves between hosts "
            "(metaset -t), and the host that takes the set over would have "
            "no RAM copy.  svmram works on mirrors of the local set"
            % (what, name))
    if not is_metadevice(name):
        raise UsageError("%s %r is not a metadevice name; use dN with N "
                         "from 0 to %d, for example d10"
                         % (what, name, MAX_METADEVICES - 1))
    return name


def ramdisk(name, mirror):
    """A name for the ramdisk of `mirror`'s RAM submirror (--name)."""
    if not is_ramdisk(name):
        raise UsageError(
            "ramdisk name %r is invalid; use up to %d letters, digits, "
            "'_' or '-', not starting with '-'" % (name, RAMDISK_NAME_MAX))
    if is_scratch_ramdisk(name):
        # The slot test would take it for its own leftover.  A mirror an
        # older svmram recorded with such a name keeps it (probe.py).
        raise UsageError(
            "ramdisk name %r is reserved: svmram's test of the slot "
            "behaviour makes and removes scratch ramdisks of that name"
            % (name,), advice="Give another name with --name, or leave "
            "--name out for %s." % default_ramdisk(mirror))
    return name


def link(name):
    """A cNtNdNsN name for the /dev/dsk and /dev/rdsk links."""
    if not is_link(name):
        raise UsageError("link name %r is invalid; use the cNtNdNsN form SVM "
                         "requires, for example c90t0d0s0" % (name,))
    return name


def controller_of(link_name):
    return int(_LINK.match(link_name).group(1))


def size(text):
    """A size in bytes from `N`, `Nb` (512-byte blocks), `Nk`, `Nm` or
    `Ng`, the lower-case suffixes ramdiskadm accepts."""
    match = _SIZE.match(text)
    if not match:
        raise UsageError("size %r is invalid; give a positive whole number "
                         "with an optional suffix b, k, m or g, for example "
                         "512m or 2g" % (text,))
    return int(match.group(1)) * _UNITS[match.group(2)]


def free_metadevice(in_use, near):
    """The first free dN after `near` (d10 -> d11, d12, ...), else the
    lowest free one."""
    base = int(near[1:])
    for number in list(range(base + 1, MAX_METADEVICES)) + list(range(base)):
        candidate = "d%d" % number
        if candidate not in in_use:
            return candidate
    raise UsageError("no free metadevice name is left; name one with "
                     "--submirror")


def free_link(used_controllers, first=90):
    """cNt0d0s0 on the first controller number >= `first` that no
    /dev/dsk or /dev/rdsk entry uses.  A high number keeps clear of
    controllers the system may assign to new hardware later."""
    number = first
    while number in used_controllers:
        number += 1
    return "c%dt0d0s0" % number


def default_ramdisk(mirror):
    return "svmram_%s" % mirror
