# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""ramdiskadm: names, sizes, memory cap, limits, busy, listing."""

import os

import pytest

from svmsim import presets


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


# --- the memory cap as the driver computes it (issue 20 §2) ---------------
# ramdisk.c (illumos-gate 3e2cb48) rd_init_tuneables 258-301: percent_physmem
# from ramdisk.conf, read with ddi_prop_lookup_string and stoi when the
# driver initialises (at boot), 100 or more ignored; the cap is
# availrmem_initial * percent / 100 pages.  The article host: 960 MiB of
# availrmem_initial, so 25 % is 240 MiB and 50 % is 480 MiB.

RELEASES = ("illumos-2016", "solaris11", "solaris10")
EAGAIN = 'ramdiskadm: couldn\'t create ramdisk "big": ' \
         'Resource temporarily unavailable\n'


def write_conf(sim, line, path="kernel/drv/ramdisk.conf"):
    full = os.path.join(sim.root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "a") as f:
        f.write(line + "\n")


def largest(sim, low, high):
    """The largest size in MiB in [low, high] that ramdiskadm -a accepts
    (each attempt deleted again)."""
    best = None
    for mib in range(low, high + 1):
        if sim.run("ramdiskadm -a big %dm" % mib).returncode == 0:
            sim.ok("ramdiskadm -d big")
            best = mib
    return best


@pytest.mark.parametrize("release", RELEASES)
def test_percent_physmem_takes_effect_at_the_next_boot(make_sim, release):
    sim = make_sim(release=release)
    with open(os.path.join(sim.root, "kernel/drv/ramdisk.conf")) as f:
        assert 'name="ramdisk" parent="pseudo" instance=1024;' in f.read()
    write_conf(sim, 'percent_physmem="50";')
    assert largest(sim, 239, 241) == 240            # read at boot only
    assert sim.sim("reboot").returncode == 0
    assert largest(sim, 479, 481) == 480
    assert sim.state()["ramdisk_percent"] == 50
    # Written before the boot, the file is older than the boot time.
    conf = os.path.join(sim.root, "kernel/drv/ramdisk.conf")
    assert os.stat(conf).st_mtime < sim.state()["boot_time"]
    # Written after it, even within the boot's second, it is newer.
    write_conf(sim, 'percent_physmem="40";')
    assert os.stat(conf).st_mtime > sim.state()["boot_time"]


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("value", ["100", "500", "99999"])
def test_percent_physmem_of_100_or_more_is_ignored(make_sim, release, value):
    sim = make_sim(release=release)
    write_conf(sim, 'percent_physmem="%s";' % value)
    p = sim.sim("reboot")
    assert p.returncode == 0
    assert "WARNING: ramdisk: rd_percent_physmem (%s) >= 100; using " \
        "default (25%%)." % value in p.stderr
    assert largest(sim, 239, 241) == 240


def test_percent_physmem_as_the_driver_reads_it(make_sim):
    sim = make_sim()
    # An unquoted number is an integer property, which the string lookup
    # does not find: the default stays.
    write_conf(sim, "percent_physmem=50;")
    sim.sim("reboot")
    assert sim.state()["ramdisk_percent"] == 25
    # stoi: the leading digits; comments ignored; the lookup passes over
    # the integer and finds the first global string (drvconf.lookup).
    write_conf(sim, 'percent_physmem="30x"; # percent_physmem="90";')
    sim.sim("reboot")
    assert sim.state()["ramdisk_percent"] == 30
    write_conf(sim, 'percent_physmem="none";')
    sim.sim("reboot")
    assert sim.state()["ramdisk_percent"] == 30
    os.unlink(os.path.join(sim.root, "kernel/drv/ramdisk.conf"))
    write_conf(sim, 'percent_physmem="none";')
    sim.sim("reboot")
    assert sim.state()["ramdisk_percent"] == 0
    assert run(sim, "ramdiskadm -a big 4k")[2] == EAGAIN


def test_etc_driver_drv_only_on_solaris11(make_sim):
    for release, percent in (("solaris11", 40), ("illumos-2016", 25),
                             ("solaris10", 25)):
        sim = make_sim(release=release, name=release)
        write_conf(sim, 'percent_physmem="40";',
                   "etc/driver/drv/ramdisk.conf")
        sim.sim("reboot")
        assert sim.state()["ramdisk_percent"] == percent, release


def test_the_cap_counts_every_ramdisk_and_the_pages_free_now(make_sim):
    sim = make_sim()
    sim.ok("ramdiskadm -a other 100m")
    assert run(sim, "ramdiskadm -a big 141m") == (1, "", EAGAIN)
    sim.ok("ramdiskadm -a big 140m")
    # Under the cap, but page_create_wait(npages, 0) finds too few free
    # pages now: 300 MiB free, less throttlefree (physmem/256, 4 MiB).
    host = dict(presets.preset("article"), freemem=300 << 20)
    sim = make_sim(host=host, name="busy")
    write_conf(sim, 'percent_physmem="50";')
    sim.sim("reboot")
    assert run(sim, "ramdiskadm -a big 297m") == (1, "", EAGAIN)
    sim.ok("ramdiskadm -a big 296m")


def test_kstat_shows_the_boot_time_and_free_memory(make_sim):
    host = dict(presets.preset("article"), freemem=300 << 20)
    sim = make_sim(host=host)
    before = sim.state()["boot_time"]
    out = sim.ok("kstat -p unix:0:system_misc:boot_time "
                 "unix:0:system_pages:freemem")
    assert out == ("unix:0:system_misc:boot_time\t%d\n"
                   "unix:0:system_pages:freemem\t%d\n" % (before, 300 * 256))
    sim.sim("reboot")
    assert sim.state()["boot_time"] >= before


def test_the_kernel_names_the_conf_file_by_the_path_it_opened(make_sim):
    """kobj_file_err's "on line N of FILE": FILE is the full path
    kobj_open_path made of the module directory and drv/ramdisk.conf
    (modsysfile.c 162-163, kobj.c 3735-3739, modsubr.c 392-393)."""
    sim = make_sim()
    write_conf(sim, 'percent_physmem="50"')
    reboot = sim.sim("reboot")
    lines = sum(1 for _ in open(os.path.join(
        sim.root, "kernel/drv/ramdisk.conf")))
    assert "WARNING: Unexpected EOF on line %d of /kernel/drv/ramdisk.conf" \
        "\n" % (lines + 1) in reboot.stderr
    assert sim.state()["ramdisk_percent"] == 25
