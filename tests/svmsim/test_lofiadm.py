# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""mkfile and lofiadm: files in the fake root, lofi mappings, their nodes,
their messages (mkfile.c, lofiadm/main.c), and SVM on a lofi device."""

import os


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
    assert os.readlink(os.path.join(sim.root, "dev/rlofi/2")) == \
        "../../devices/pseudo/lofi@0:2,raw"
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


def test_lofiadm_refusals(sim):
    assert run(sim, "lofiadm -a /var/tmp/none") == (
        1, "", "lofiadm: /var/tmp/none: No such file or directory\n")
    sim.ok("mkfile 1001 /var/tmp/odd")
    assert run(sim, "lofiadm -a /var/tmp/odd") == (
        1, "", "lofiadm: size of /var/tmp/odd is not a multiple of 512\n")
    code, out, err = run(sim, "lofiadm -a")
    assert (code, out) == (2, "")
    assert err.startswith("lofiadm: option requires an argument -- a\n"
                          "Usage: lofiadm [-r] -a file [ device ]\n")


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
