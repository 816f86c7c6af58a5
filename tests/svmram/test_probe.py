# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What an interrupted test of the slot behaviour left (svm/probe.py):
found from metastat -p, ramdiskadm and the /dev links, removed (a plan's
steps) in the reverse order of their making, and never anything of the
admin's."""

import pytest

from svmram.actions import RemoveLink, Run
from svmram.errors import RefusedError
from svmram.svm import metastat_p, probe

ADMIN = ("d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
         "d11 1 1 /dev/rdsk/c0d1s0\n"
         "d12 1 1 /dev/rdsk/c1d0s0\n")
LINKS = {"dsk/c90t0d0s0": "/dev/ramdisk/svmram_probe0",
         "rdsk/c90t0d0s0": "/dev/rramdisk/svmram_probe0",
         "dsk/c91t0d0s0": "/dev/ramdisk/svmram_probe1",
         "rdsk/c91t0d0s0": "/dev/rramdisk/svmram_probe1",
         "dsk/c92t0d0s0": "/dev/ramdisk/svmram_d10"}


def found(text, ramdisks=("svmram_probe0", "svmram_probe1"), links=LINKS):
    return probe.leftovers(metastat_p.parse(text), set(ramdisks), links)


def test_a_whole_scratch_mirror_is_found_and_removed_in_reverse_order():
    left = found("d127 -m /dev/md/rdsk/d126 /dev/md/rdsk/d125 1\n"
                 "d126 1 1 /dev/rdsk/c90t0d0s0\n"
                 "d125 1 1 /dev/rdsk/c91t0d0s0\n" + ADMIN)
    assert left == probe.Leftovers(("d127",), ("d126", "d125"),
                                   ("c90t0d0s0", "c91t0d0s0"),
                                   ("svmram_probe1", "svmram_probe0"))
    assert [step.do for step in probe.removal_plan(left, "d10").steps] == [
        (Run(("metaclear", "d127")),), (Run(("metaclear", "d126")),),
        (Run(("metaclear", "d125")),),
        (RemoveLink("/dev/dsk/c90t0d0s0"), RemoveLink("/dev/rdsk/c90t0d0s0")),
        (RemoveLink("/dev/dsk/c91t0d0s0"), RemoveLink("/dev/rdsk/c91t0d0s0")),
        (Run(("ramdiskadm", "-d", "svmram_probe1")),),
        (Run(("ramdiskadm", "-d", "svmram_probe0")),)]
    # After a reboot its submirrors are erred: only -f clears the mirror.
    assert [step.do for step in probe.removal_plan(
        left, "d10", force=True).steps][:2] == [
        (Run(("metaclear", "-f", "d127")),), (Run(("metaclear", "d126")),)]


def test_nothing_left_is_false():
    left = found(ADMIN, ramdisks=("svmram_d10",), links={})
    assert not left
    assert probe.removal_plan(left, "d10").steps == []


def test_a_ramdisk_alone_is_found():
    left = found(ADMIN, ramdisks=("svmram_probe0",), links={})
    assert left == probe.Leftovers(ramdisks=("svmram_probe0",))


def test_links_of_a_vanished_ramdisk_are_found():
    """After a reboot the ramdisks are gone and the links dangle."""
    left = found("d126 1 1 /dev/rdsk/c90t0d0s0\n" + ADMIN, ramdisks=())
    assert left == probe.Leftovers((), ("d126",),
                                   ("c90t0d0s0", "c91t0d0s0"), ())


def test_the_admins_ram_submirror_is_not_scratch():
    left = found(ADMIN + "d13 1 1 /dev/rdsk/c92t0d0s0\n", ramdisks=())
    assert left.stripes == ()


def test_a_stripe_mixing_a_scratch_ramdisk_with_a_slice_is_refused():
    with pytest.raises(RefusedError, match="d50 uses c90t0d0s0, which is on "
                       "svmram's scratch ramdisks"):
        found(ADMIN + "d50 1 2 /dev/rdsk/c90t0d0s0 /dev/rdsk/c0d0s1\n")


def test_a_mirror_with_a_disk_beside_a_scratch_stripe_is_refused():
    with pytest.raises(RefusedError, match="d20 uses d126"):
        found("d20 -m /dev/md/rdsk/d126 /dev/md/rdsk/d21 1\n"
              "d126 1 1 /dev/rdsk/c90t0d0s0\n"
              "d21 1 1 /dev/rdsk/c0d0s1\n" + ADMIN)
