# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""status's disk-redundancy verdict from a Snapshot (pure)."""

from svmram.svm.status import disk_redundancy
from svmram.svm.intent import Intent
from svmram.svm.snapshot import MirrorView, Snapshot, StripeView

INTENT = Intent(mirror="d10", ram="d13", ramdisk="svmram_d10",
                size_bytes=228 << 20, link="c90t0d0s0", method="rotate",
                disks=("d11", "d12"), read_option="roundrobin",
                write_option="parallel", pass_num=1, size_blocks=465885)


def snapshot(ramdisks):
    mirror = MirrorView("d10", ("d13", "d11", "d12"),
                        ("Okay", "Resyncing", "Resyncing"),
                        read_option="first", size_blocks=465885,
                        resync="active", resync_percent=10)
    stripes = {name: StripeView(name, 465885, (comp,), "d10")
               for name, comp in (("d13", "c90t0d0s0"), ("d11", "c0d1s0"),
                                  ("d12", "c1d0s0"))}
    return Snapshot("d10", mirror, stripes=stripes,
                    ramdisks={name: 228 << 20 for name in ramdisks})


def test_a_ram_submirror_whose_ramdisk_is_gone_holds_no_copy():
    """Early in a boot SVM may still call the RAM submirror Okay (before
    the mirror's first open) while the disks resync: degraded, not the
    only copy in RAM."""
    assert disk_redundancy(snapshot(()), INTENT)["state"] == "degraded"


def test_with_its_ramdisk_the_ram_submirror_is_the_only_current_copy():
    assert disk_redundancy(snapshot(("svmram_d10",)), INTENT)["state"] == \
        "lost"
