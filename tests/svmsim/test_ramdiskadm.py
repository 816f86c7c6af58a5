# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""ramdiskadm: names, sizes, memory cap, limits, busy, listing."""

import os


def run(sim, cmd):
    p = sim.run(cmd)
    return p.returncode, p.stdout, p.stderr


USAGE = "Usage: ramdiskadm [ -a <name> <size>[g|m|k|b] | -d <name> ]\n"


def test_create_list_delete(sim):
    assert run(sim, "ramdiskadm") == (0, "", "")
    assert run(sim, "ramdiskadm -a a1 1000") == (0, "/dev/ramdisk/a1\n", "")
    assert run(sim, "ramdiskadm -a /dev/rramdisk/b2 0x10k") == (
        0, "/dev/ramdisk/b2\n", "")
    out = sim.ok("ramdiskadm")
    assert out == (
        "%-45s %20s  %-10s\n" % ("Block Device", "Size", "Removable") +
        "%-45s %20d    Yes\n" % ("/dev/ramdisk/a1", 4096) +
        "%-45s %20d    Yes\n" % ("/dev/ramdisk/b2", 16384))
    st = os.stat(os.path.join(sim.root, "devices/pseudo/ramdisk@0:a1"))
    assert os.minor(st.st_rdev) == 1
    assert os.readlink(os.path.join(sim.root, "dev/ramdisk/a1")) == \
        "../../devices/pseudo/ramdisk@0:a1"
    assert os.readlink(os.path.join(sim.root, "dev/rramdisk/a1")) == \
        "../../devices/pseudo/ramdisk@0:a1,raw"
    assert run(sim, "ramdiskadm -d a1") == (0, "", "")
    assert run(sim, "ramdiskadm -d a1") == (
        1, "", 'ramdiskadm: couldn\'t delete ramdisk "a1": Invalid argument\n')
    assert run(sim, "ramdiskadm -a b2 1m") == (
        1, "", 'ramdiskadm: couldn\'t create ramdisk "b2": File exists\n')


def test_usage_errors(sim):
    assert run(sim, "ramdiskadm -a x") == (
        2, "", "ramdiskadm: <size> missing\n" + USAGE)
    for bad in ("1M", "10mb", "0", "abc", "08"):
        assert run(sim, "ramdiskadm -a x %s" % bad) == (
            2, "", 'ramdiskadm: Illegal <size> "%s"\n' % bad + USAGE)
    assert run(sim, "ramdiskadm -a bad.name 1m") == (
        2, "", 'ramdiskadm: illegal <name> "bad.name"\n' + USAGE)
    assert run(sim, "ramdiskadm -a %s 1m" % ("n" * 33))[0] == 2
    assert run(sim, "ramdiskadm -a x 1m extra") == (2, "", USAGE)
    assert run(sim, "ramdiskadm -z") == (
        2, "", "ramdiskadm: illegal option -- z\n" + USAGE)
    assert run(sim, "ramdiskadm -a x 1m -d x") == (2, "", USAGE)


def test_memory_cap_and_max_disks(sim):
    # Audit 8.3, ramdisk.c rd_init_tuneables: 25 % of availrmem_initial,
    # by default 15/16 of physmem: 25 % of 960 MiB = 240 MiB
    assert run(sim, "ramdiskadm -a big 241m")[2].endswith(
        "Resource temporarily unavailable\n")
    assert sim.ok("ramdiskadm -a big 240m") == "/dev/ramdisk/big\n"
    assert run(sim, "ramdiskadm -a more 1") == (
        1, "", 'ramdiskadm: couldn\'t create ramdisk "more": '
               'Resource temporarily unavailable\n')
    sim.ok("ramdiskadm -d big")
    for i in range(32):
        sim.ok("ramdiskadm -a r%d 4k" % i)
    assert run(sim, "ramdiskadm -a r32 4k")[2].endswith(
        "Resource temporarily unavailable\n")


def test_busy(sim):
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    assert sim.ok("ramdiskadm -d testdisk") == ""     # unused stripe
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.sim("open", "d13")
    busy = (1, "", 'ramdiskadm: couldn\'t delete ramdisk "testdisk": '
                   'Device busy\n')
    assert run(sim, "ramdiskadm -d testdisk") == busy
    sim.sim("close", "d13")
    sim.ok("metattach d10 d13")
    assert run(sim, "ramdiskadm -d testdisk") == busy
