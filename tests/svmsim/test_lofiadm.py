# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""mkfile and lofiadm: files in the fake root, lofi mappings, their nodes,
their messages (mkfile.c, lofiadm/main.c), and SVM on a lofi device."""

import os

import pytest


def run(sim, cmd):
    p = sim.run(cmd)
    return p.returncode, p.stdout, p.stderr


HEADER = "%-20s     %-30s\t%s\n" % ("Block Device", "File", "Options")


def test_mkfile_makes_zero_files_of_the_size(sim):
    assert run(sim, "mkfile 9000k /var/tmp/a") == (0, "", "")
    path = os.path.join(sim.root, "var/tmp/a")
    assert os.path.getsize(path) == 9000 * 1024
    assert open(path, "rb").read(4096) == bytes(4096)
    assert run(sim, "mkfile -v 2b /var/tmp/b") == (
        0, "/var/tmp/b 1024 bytes\n", "")


def test_mkfile_refusals(sim):
    usage = "Usage: mkfile [-nv] <size>[g|k|b|m] <name1> [<name2>] ...\n"
    assert run(sim, "mkfile") == (1, "", usage)
    assert run(sim, "mkfile 1m") == (1, "", usage)
    assert run(sim, "mkfile 1x /var/tmp/a") == (
        1, "", "unknown size 1x\n" + usage)
    assert run(sim, "mkfile 1m /nowhere/a") == (
        1, "", "Could not open /nowhere/a: No such file or directory\n")


def test_lofiadm_maps_lists_and_unmaps(sim):
    sim.ok("mkfile 9000k /var/tmp/a /var/tmp/b")
    assert run(sim, "lofiadm") == (0, HEADER, "")
    assert run(sim, "lofiadm -a /var/tmp/a") == (0, "/dev/lofi/1\n", "")
    assert run(sim, "lofiadm -a /var/tmp/b") == (0, "/dev/lofi/2\n", "")
    assert run(sim, "lofiadm") == (0, HEADER + "".join(
        "%-20s     %-30s\t%s\n" % ("/dev/lofi/%d" % n, "/var/tmp/" + f, "-")
        for n, f in ((1, "a"), (2, "b"))), "")
    assert run(sim, "lofiadm /dev/lofi/2") == (0, "/var/tmp/b\n", "")
    assert run(sim, "lofiadm /var/tmp/a") == (0, "/dev/lofi/1\n", "")
    assert run(sim, "lofiadm -a /var/tmp/a") == (
        1, "", "lofiadm: could not map file /var/tmp/a: Device busy\n")
    assert run(sim, "lofiadm -d /dev/lofi/1") == (0, "", "")
    assert run(sim, "lofiadm -d /var/tmp/b") == (0, "", "")
    assert run(sim, "lofiadm") == (0, HEADER, "")
    assert not os.path.lexists(os.path.join(sim.root, "dev/lofi/1"))
    assert run(sim, "lofiadm -d /dev/lofi/1") == (
        1, "", "lofiadm: could not unmap device /dev/lofi/1: "
        "No such device or address\n")


@pytest.mark.parametrize("release, node, minor", [
    # after illumos 6602 (406fc5100d): lofi.h:58-80, lofi.c:1822-1831,
    # devfsadm/lofi_link.c:73-76; x86 shift 6 (cmlb.h:91-94)
    ("illumos-2016", "lofi@2:disk", 2 << 6),
    ("solaris11", "lofi@0:2", 2),         # the S11 snapshot's lofi.c
    ("solaris10", "lofi@0:2", 2)])
def test_lofi_nodes_per_profile(make_sim, release, node, minor):
    sim = make_sim(release=release)
    sim.ok("mkfile 9000k /var/tmp/a /var/tmp/b")
    sim.ok("lofiadm -a /var/tmp/a")
    sim.ok("lofiadm -a /var/tmp/b")
    for link, suffix in (("dev/lofi/2", ""), ("dev/rlofi/2", ",raw")):
        path = os.path.join(sim.root, link)
        assert os.readlink(path) == "../../devices/pseudo/" + node + suffix
        assert os.minor(os.stat(path).st_rdev) == minor
    # the device answers at that minor: its fake VTOC (9000k: 30 x 600)
    assert sim.ok("prtvtoc -h /dev/rlofi/2") == \
        "       0      0    01          0     18000     17999\n"
    sim.ok("lofiadm -d /dev/lofi/2")
    assert not os.path.lexists(os.path.join(
        sim.root, "devices/pseudo/" + node))


def test_lofiadm_refusals(sim):
    assert run(sim, "lofiadm -a /var/tmp/none") == (
        1, "", "lofiadm: /var/tmp/none: No such file or directory\n")
    sim.ok("mkfile 1001 /var/tmp/odd")
    assert run(sim, "lofiadm -a /var/tmp/odd") == (
        1, "", "lofiadm: size of /var/tmp/odd is not a multiple of 512\n")
    code, out, err = run(sim, "lofiadm -a")
    assert (code, out) == (2, "")
    assert err.startswith("lofiadm: option requires an argument -- a\n"
                          "Usage: lofiadm [-r] [-l] -a file [ device ]\n")


@pytest.mark.parametrize("release, first_line", [
    # illumos after 6602: main.c:72-84, getopt "a:c:Cd:efk:lrs:T:U" :1938
    ("illumos-2016", "Usage: lofiadm [-r] [-l] -a file [ device ]\n"),
    # Oracle Solaris 11.3/11.4 document -l (lofiadm(1M)); the text is a GUESS
    ("solaris11", "Usage: lofiadm [-r] [-l] -a file [ device ]\n"),
    # before 6602 (406fc5100d^ main.c:70-82, getopt :1875): no -l
    ("solaris10", "Usage: lofiadm [-r] -a file [ device ]\n")])
def test_lofiadm_l_per_profile(make_sim, release, first_line):
    sim = make_sim(release=release)
    sim.ok("mkfile 1m /var/tmp/a")
    code, out, err = run(sim, "lofiadm -X")
    assert (code, out) == (2, "")
    assert err.startswith("lofiadm: illegal option -- X\n" + first_line)
    code, out, err = run(sim, "lofiadm -l -a /var/tmp/a")
    if "[-l]" in first_line:
        # taken, but a labeled lofi device (cmlb) is not emulated
        assert (code, out, err) == (
            1, "", "lofiadm: -l is not emulated\n")
    else:
        assert (code, out) == (2, "")
        assert err.startswith("lofiadm: illegal option -- l\n" + first_line)
    assert run(sim, "lofiadm") == (0, HEADER, "")


def test_svm_uses_a_lofi_device_through_a_ctd_link(sim):
    """metainit takes a cNtNdNsN link to /dev/lofi/N (as svmram links
    ramdisks), not /dev/lofi/N itself (rawname() maps dsk/rdsk only); an
    open stripe's lofi device is not unmapped."""
    sim.ok("mkfile 9000k /var/tmp/a")
    sim.ok("lofiadm -a /var/tmp/a")
    assert run(sim, "metainit d50 1 1 /dev/lofi/1")[0] == 1
    os.symlink("/dev/lofi/1", os.path.join(sim.root, "dev/dsk/c95t0d0s0"))
    os.symlink("/dev/rlofi/1", os.path.join(sim.root, "dev/rdsk/c95t0d0s0"))
    assert run(sim, "metainit d50 1 1 c95t0d0s0") == (
        0, "d50: Concat/Stripe is setup\n", "")
    assert "d50 1 1 /dev/rdsk/c95t0d0s0" in sim.ok("metastat -p d50") or \
        "d50 1 1 c95t0d0s0" in sim.ok("metastat -p d50")
    sim.svmsim("open", sim.dir, "d50")
    assert run(sim, "lofiadm -d /dev/lofi/1") == (
        1, "", "lofiadm: could not unmap device /dev/lofi/1: Device busy\n")
    sim.svmsim("close", sim.dir, "d50")
    sim.ok("metaclear d50")
    assert run(sim, "lofiadm -d /dev/lofi/1") == (0, "", "")


def _link(sim, controller, minor):
    for kind, target in (("dsk", "/dev/lofi/%d"), ("rdsk", "/dev/rlofi/%d")):
        os.symlink(target % minor, os.path.join(
            sim.root, "dev/%s/c%dt0d0s0" % (kind, controller)))


def test_a_lofi_device_reads_its_files_bytes_and_cmp_skips(sim):
    """lofi reads its file (lofi.c lofi_strategy_task): bytes written into
    the file before lofiadm -a show; mkfile's zeros are blank.  cmp's skip
    operands (libcmd cmp.c b_cmp), here the two label blocks, count the
    position from the skip."""
    sim.ok("mkfile 8m /var/tmp/a /var/tmp/b")
    with open(os.path.join(sim.root, "var/tmp/a"), "r+b") as stream:
        stream.seek(1024)
        stream.write(b"\x5a" * 4096)
    sim.ok("lofiadm -a /var/tmp/a")
    sim.ok("lofiadm -a /var/tmp/b")
    _link(sim, 95, 1)
    _link(sim, 96, 2)
    a, b = "/dev/rdsk/c95t0d0s0", "/dev/rdsk/c96t0d0s0"
    assert run(sim, "cmp %s %s 1024 1024" % (a, b)) == (
        1, "%s %s differ: char 1, line 1\n" % (a, b), "")
    assert run(sim, "cmp %s %s" % (a, b))[0] == 1
    # Both files blank: equal, with or without the skips.
    sim.ok("lofiadm -d /dev/lofi/1")
    sim.ok("mkfile 8m /var/tmp/a")
    sim.ok("lofiadm -a /var/tmp/a")
    assert run(sim, "cmp %s %s 1024 1024" % (a, b)) == (0, "", "")
    assert run(sim, "cmp %s %s" % (a, b)) == (0, "", "")
    # Skips the emulator does not model: the usage, exit status 2.
    assert run(sim, "cmp %s %s 1024 0" % (a, b))[0] == 2


def test_a_reboot_loses_every_lofi_mapping_and_keeps_the_files(sim):
    """lofi.c keeps its mappings in soft state only, and nothing maps
    them again at boot: after a reboot lofiadm lists none, their nodes
    are gone, and the file maps again at the same device (issue 36
    section 3.2: the emulator kept them)."""
    sim.ok("mkfile 9000k /var/tmp/a")
    assert run(sim, "lofiadm -a /var/tmp/a") == (0, "/dev/lofi/1\n", "")
    sim.sim("reboot")
    assert run(sim, "lofiadm") == (0, HEADER, "")
    assert not os.path.lexists(os.path.join(sim.root, "dev/lofi/1"))
    assert not os.path.lexists(os.path.join(
        sim.root, "devices/pseudo/lofi@0:1"))
    assert os.path.getsize(os.path.join(sim.root, "var/tmp/a")) == \
        9000 * 1024
    assert run(sim, "lofiadm -a /var/tmp/a /dev/lofi/1") == (0, "", "")
    assert run(sim, "lofiadm /dev/lofi/1") == (0, "/var/tmp/a\n", "")
