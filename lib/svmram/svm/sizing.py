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


def ramdisk_size_for(mirror_blocks):
    """Smallest whole-MiB ramdisk whose slice holds a submirror that can be
    attached to a mirror of mirror_blocks (metattach refuses a submirror
    smaller than the mirror: `submirror too small to attach`)."""
    size = -(-mirror_blocks * BLOCK // MIB) * MIB
    while ramdisk_slice_blocks(size) < mirror_blocks:
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
