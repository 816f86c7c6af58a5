# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The ramdisk size setup asks for (sizing.ramdisk_size_for): the
smallest whole MiB whose slice 0 (the driver's fake geometry: cylinders
of 300 KiB) holds the mirror, and for the copy method a ramdisk larger
than the mirror, so that cmp finds the mirror's end first (issue 27
§1.3)."""

import pytest

from svmram.svm import sizing

MIB = 1024 * 1024


@pytest.mark.parametrize("blocks, attach, copy", [
    (465885, 228, 228),        # the article's mirror: 227.5 MiB
    (458752, 225, 225),        # on EFI: 224 MiB, whose slice is too small
    # Mirrors exactly a ramdisk's slice 0: 4725 MiB (15 x 63 disks),
    # 1575 MiB (16 x 63), 1200 MiB and its multiples (EFI).
    (9676800, 4725, 4726),
    (3225600, 1575, 1576),
    (2457600, 1200, 1201),
    (2457600 * 54, 1200 * 54, 1200 * 54 + 1),
])
def test_the_copy_methods_ramdisk_is_larger_than_the_mirror(
        blocks, attach, copy):
    assert sizing.ramdisk_size_for(blocks) == attach * MIB
    assert sizing.ramdisk_size_for(blocks, copy=True) == copy * MIB
    size = copy * MIB
    assert sizing.ramdisk_slice_blocks(size) >= blocks
    assert size - blocks * 512 >= sizing.COPY_MARGIN


def test_ramdisk_holds():
    assert sizing.ramdisk_holds(4725 * MIB, 9676800)
    assert not sizing.ramdisk_holds(4725 * MIB, 9676800, copy=True)
    assert sizing.ramdisk_holds(4726 * MIB, 9676800, copy=True)
    assert not sizing.ramdisk_holds(4724 * MIB, 9676800)
