# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The geometry SVM gives slices of EFI-labeled disks (issue 27 §1.2).

An EFI disk answers DKIOCGGEOM with ENOTSUP, so libmeta reads the GPT
and fakes 128 heads of 256 sectors (illumos-gate usr/src/lib/lvm/libmeta/
common/meta_nameinfo.c metagetvtoc, meta_efi_to_mdgeom; usr/src/head/
meta.h MD_EFI_FG_HEADS 128, MD_EFI_FG_SECTORS 256).  A stripe is rounded
down to its first component's cylinder (meta_stripe.c stripe_geom), a
mirror to its first submirror's (meta_mirror.c mirror_geom): on EFI every
one is a multiple of 32768 blocks.  prtvtoc reads the label itself and
shows the disk as it is (tests/svmsim/test_prtvtoc.py test_an_efi_disk).
"""

import pytest

from svmsim import presets


def host_with(label):
    host = presets.preset("article-x86")
    host["switches"] = {"disk_label": label}
    return host


def size_line(sim, name):
    return [line.strip() for line in sim.ok("metastat %s" % name).splitlines()
            if line.strip().startswith("Size:")][0]


@pytest.mark.parametrize("label, blocks, mb", [
    # 465885 = 14 * 32768 + 7133: rounded down to 14 cylinders of 128x256.
    ("efi", 458752, 224),
    # The description's 15 x 63 geometry: 465885 is 493 whole cylinders.
    ("smi-cyl1", 465885, 227),
])
def test_stripes_and_mirrors_take_the_geometry_libmeta_reports(
        make_sim, label, blocks, mb):
    sim = make_sim(host=host_with(label))
    for name in ("d10", "d11", "d12"):
        assert size_line(sim, name) == "Size: %d blocks (%d MB)" % (
            blocks, mb)


def test_a_stripe_on_an_efi_slice_keeps_whole_efi_cylinders(make_sim):
    """A slice of 2457600 blocks (1200 MiB, 75 EFI cylinders) keeps its
    size; one block less loses a whole cylinder of 32768."""
    host = host_with("efi")
    host["metadevices"], host["vfstab"] = [], {}
    host["disks"]["c0d1"]["slices"] = {"0": 2457600}
    host["disks"]["c1d0"]["slices"] = {"0": 2457599}
    sim = make_sim(host=host)
    sim.ok("metainit d11 1 1 c0d1s0")
    sim.ok("metainit d12 1 1 c1d0s0")
    assert size_line(sim, "d11") == "Size: 2457600 blocks (1.2 GB)"
    assert size_line(sim, "d12") == "Size: 2424832 blocks (1.2 GB)"
