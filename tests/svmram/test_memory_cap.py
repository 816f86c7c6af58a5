# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""sizing.MemoryCap: the ramdisk memory cap as ramdisk.c computes it, read
from kstat and ramdisk.conf (pure; issue 20 §2)."""

import pytest

from svmram.svm.sizing import MemoryCap, conf_properties, conf_setting, stoi
from svmram.svm.snapshot import Snapshot

MIB = 1 << 20
KCONF = "/kernel/drv/ramdisk.conf"
SHIPPED = 'name="ramdisk" parent="pseudo" instance=1024;\n'


def snap(conf="", mtime=100.0, boot=200, ramdisks=None, availrmem=None):
    ramdisks = ramdisks or {}
    used = sum(ramdisks.values())
    return Snapshot(
        "d10", None, physmem_bytes=1024 * MIB, freemem_bytes=768 * MIB,
        availrmem_bytes=960 * MIB - used if availrmem is None else availrmem,
        boot_time=boot, ramdisks=ramdisks,
        ramdisk_confs=((KCONF, SHIPPED + conf, mtime),))


def test_driver_conf_syntax():
    assert conf_properties('a="1"; b=2 c="x y";# d="3"\n') == {
        "a": ("1", True), "b": ("2", False), "c": ("x y", True)}
    assert (stoi("30x"), stoi("none"), stoi("-5")) == (30, 0, 0)


@pytest.mark.parametrize("conf, percent", [
    ("", 25),
    ('percent_physmem="50";', 50),
    ('percent_physmem="50";\npercent_physmem="40";', 40),
    ('percent_physmem="99";', 99),
    ('percent_physmem="100";', 25),       # ignored: 100 or more
    ('percent_physmem="500";', 25),
    ("percent_physmem=50;", 25),          # an integer: not found
    ('percent_physmem="0";', 0),
])
def test_the_percentage_the_driver_takes(conf, percent):
    cap = MemoryCap(snap(conf))
    assert (cap.percent, cap.next_percent) == (percent, percent)
    assert cap.cap == 960 * MIB * percent // 100 // 4096 * 4096


def test_the_basis_is_availrmem_now_plus_the_ramdisks():
    cap = MemoryCap(snap(ramdisks={"hog": 100 * MIB}))
    assert cap.basis == 960 * MIB and cap.used == 100 * MIB
    # Kernel memory locked since boot lowers the estimate (never raises it).
    assert MemoryCap(snap(availrmem=800 * MIB)).basis == 800 * MIB


def test_a_conf_changed_since_boot_is_not_counted_on():
    cap = MemoryCap(snap('percent_physmem="50";', mtime=300.0))
    assert cap.changed and (cap.percent, cap.next_percent) == (25, 50)
    assert "changed after the last boot" in cap.sureness()
    lower = MemoryCap(snap('percent_physmem="10";', mtime=300.0))
    assert lower.percent == 10


def test_the_percent_that_fits_and_when_none_does():
    cap = MemoryCap(snap())
    assert cap.percent_for(240 * MIB) == 25
    assert cap.percent_for(240 * MIB + 4096) == 26
    assert cap.percent_for(950 * MIB) == 99
    assert cap.percent_for(951 * MIB) is None
    # Leaving 10 % of 1 GiB free out of at most 960 MiB.
    assert cap.largest() == 960 * MIB - 1024 * MIB // 10


def test_etc_driver_drv_wins_over_kernel_drv():
    percent, where, _ = conf_setting((
        (KCONF, 'percent_physmem="30";', 1.0),
        ("/etc/driver/drv/ramdisk.conf", 'percent_physmem="40";', 1.0)))
    assert (percent, where[0]) == (40, "/etc/driver/drv/ramdisk.conf")
