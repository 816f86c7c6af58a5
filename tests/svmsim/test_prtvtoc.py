# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""prtvtoc: the SVM-era illumos prtvtoc.c layout (puttable, puttable64,
findfree, warn), byte for byte, for the emulated disks; and /etc/release
per release profile."""

from svmsim import presets

SMI_CYL1 = (
    "* /dev/rdsk/c0d1s0 partition map\n"
    "*\n"
    "* Dimensions:\n"
    "*     512 bytes/sector\n"
    "*      63 sectors/track\n"
    "*      15 tracks/cylinder\n"
    "*     945 sectors/cylinder\n"
    "*     496 cylinders\n"
    "*     494 accessible cylinders\n"
    "*\n"
    "* Flags:\n"
    "*   1: unmountable\n"
    "*  10: read-only\n"
    "*\n"
    "*                          First     Sector    Last\n"
    "* Partition  Tag  Flags    Sector     Count    Sector  Mount Directory\n"
    "       0      0    00        945    465885    466829\n"
    "       2      5    01          0    466830    466829\n"
    "       8      1    01          0       945       944\n")


def test_an_x86_smi_disk_has_s0_at_cylinder_1(make_sim):
    sim = make_sim("article-x86")
    p = sim.run("prtvtoc /dev/rdsk/c0d1s0")
    assert (p.returncode, p.stdout, p.stderr) == (0, SMI_CYL1, "")
    # -h leaves out the headers; /dev/dsk names the same disk.
    p = sim.run("prtvtoc -h /dev/dsk/c0d1s0")
    assert p.stdout == SMI_CYL1.split("Directory\n")[1]


def test_the_articles_disks_start_s0_at_sector_0(sim):
    assert sim.ok("prtvtoc -h /dev/rdsk/c1d0s0") == (
        "       0      0    00          0    465885    465884\n"
        "       2      5    01          0    465885    465884\n")
    # The root disk: its mounted slice names its mount point; the space
    # between slices is listed as unallocated.
    out = sim.ok("prtvtoc /dev/rdsk/c0d0s0")
    assert "* Unallocated space:\n*\tFirst     Sector    Last\n" \
           "*\tSector     Count    Sector \n" in out
    assert "       0      0    00          0   8388608   8388607   /\n" in out


def test_an_efi_disk(make_sim):
    host = presets.preset("article")
    host["switches"] = {"disk_label": "efi"}
    for disk in host["disks"].values():
        disk.pop("starts", None)
    sim = make_sim(host=host)
    assert sim.ok("prtvtoc /dev/rdsk/c1d0s0") == (
        "* /dev/rdsk/c1d0s0 partition map\n"
        "*\n"
        "* Dimensions:\n"
        "*     512 bytes/sector\n"
        "* 482558 sectors\n"
        "* 482491 accessible sectors\n"
        "*\n"
        "* Flags:\n"
        "*   1: unmountable\n"
        "*  10: read-only\n"
        "*\n"
        "* Unallocated space:\n"
        "*\tFirst     Sector    Last\n"
        "*\tSector     Count    Sector \n"
        "*          34       222       255\n"
        "*\n"
        "*                          First     Sector    Last\n"
        "* Partition  Tag  Flags    Sector     Count    Sector  "
        "Mount Directory\n"
        "       0      0    00        256    465885    466140\n"
        "       8     11    00     466141     16384    482524\n")


def test_errors_and_usage(sim):
    p = sim.run("prtvtoc /dev/rdsk/c9d9s0")
    assert (p.returncode, p.stdout, p.stderr) == (
        1, "", "prtvtoc: /dev/rdsk/c9d9s0: No such file or directory\n")
    p = sim.run("prtvtoc")
    assert (p.returncode, p.stderr) == (
        1, "Usage:\tprtvtoc [ -fhs ] [ -t fstab ] [ -m mnttab ] "
           "rawdisk ...\n")
    p = sim.run("prtvtoc -x /dev/rdsk/c0d1s0")
    assert p.returncode == 1
    assert p.stderr.endswith("Usage:\tprtvtoc [ -fhs ] [ -t fstab ] "
                             "[ -m mnttab ] rawdisk ...\n")


def test_etc_release_follows_the_profile(make_sim):
    for release, first in (("illumos-2016", "OpenIndiana Hipster 2016.10"),
                           ("solaris11", "Oracle Solaris 11.4 X86"),
                           ("solaris10", "Oracle Solaris 10 1/13")):
        sim = make_sim(name=release, release=release)
        with open(sim.root + "/etc/release") as stream:
            assert first in stream.readline()


# ramdisk.c rd_fake_disk_geometry for 230m: ncyl = size / 300k = 785,
# nsect = size / (512 * 785) = 600, one head; slice 0 = 785 * 600 blocks.
RAMDISK_230M = (
    '* /dev/rramdisk/testdisk (volume "ramdisk") partition map\n'
    "*\n"
    "* Dimensions:\n"
    "*     512 bytes/sector\n"
    "*     600 sectors/track\n"
    "*       1 tracks/cylinder\n"
    "*     600 sectors/cylinder\n"
    "*     785 cylinders\n"
    "*     785 accessible cylinders\n"
    "*\n"
    "* Flags:\n"
    "*   1: unmountable\n"
    "*  10: read-only\n"
    "*\n"
    "*                          First     Sector    Last\n"
    "* Partition  Tag  Flags    Sector     Count    Sector  Mount Directory\n"
    "       0      0    01          0    471000    470999\n")


def test_a_ramdisk_shows_its_fake_vtoc(sim):
    """ramdisk.c:496-549, prtvtoc.c:474-526 @a593473611 (audit 4 S14)."""
    sim.ok("ramdiskadm -a testdisk 230m")
    p = sim.run("prtvtoc /dev/rramdisk/testdisk")
    assert (p.returncode, p.stdout, p.stderr) == (0, RAMDISK_230M, "")
    sim.link("testdisk")                  # as svmram's c90t0d0s0 links
    assert sim.ok("prtvtoc -h /dev/rdsk/c5t0d0s0") == \
        "       0      0    01          0    471000    470999\n"
    assert sim.ok("prtvtoc -f /dev/rdsk/c5t0d0s0") == \
        "FREE_START=0 FREE_SIZE=0 FREE_COUNT=0 FREE_PART=\n"


def test_a_lofi_device_shows_its_fake_vtoc(sim):
    """lofi.c:2204-2276 (8m: 27 cylinders of 606 sectors, audit 4 S14's
    row 0 0 01 0 16362 16361)."""
    sim.ok("mkfile 8m /var/tmp/a")
    sim.ok("lofiadm -a /var/tmp/a")
    out = sim.ok("prtvtoc /dev/rlofi/1")
    assert out.startswith(
        '* /dev/rlofi/1 (volume "lofi") partition map\n*\n* Dimensions:\n'
        "*     512 bytes/sector\n*     606 sectors/track\n"
        "*       1 tracks/cylinder\n*     606 sectors/cylinder\n"
        "*      27 cylinders\n*      27 accessible cylinders\n")
    assert out.endswith("Mount Directory\n"
                        "       0      0    01          0     16362     16361\n")
