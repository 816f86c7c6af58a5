# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""newfs, mount -F ufs and umount on a metadevice, as illumos has them:
newfs.c and mkfs.c (mkfs's mounted refusal), ufs/mount/mount.c rpterr,
umount.c rpterr; a mount opens the metadevice (ufs_vfsops.c mountfs,
md.c mdopen), so metaclear refuses it as open (mirror_ioctl.c
mirror_reset: md_unit_isopen)."""

import os


def scratch(sim):
    """A closed two-way mirror d20 (spare-disks: c2d0s0, c3d0s0)."""
    sim.ok("metainit d21 1 1 c2d0s0")
    sim.ok("metainit d22 1 1 c3d0s0")
    sim.ok("metainit d20 -m d21")
    sim.ok("metattach d20 d22")
    sim.sim("tick")


def mnttab(sim):
    with open(os.path.join(sim.root, "etc/mnttab")) as stream:
        return stream.read()


def test_newfs_mount_and_umount(make_sim):
    sim = make_sim("spare-disks")
    scratch(sim)
    os.makedirs(os.path.join(sim.root, "scratch"))
    p = sim.run("mount -F ufs /dev/md/dsk/d20 /scratch")
    assert (p.returncode, p.stdout, p.stderr) == (
        32, "", "mount: /dev/md/dsk/d20 is not this fstype\n")
    assert sim.ok("newfs /dev/md/rdsk/d20").startswith(
        "/dev/md/rdsk/d20:\t")
    assert sim.ok("mount -F ufs /dev/md/dsk/d20 /scratch") == ""
    assert "/dev/md/dsk/d20\t/scratch\tufs\t" in mnttab(sim)
    assert sim.state()["opens"]["d20"] == 1
    assert os.listdir(os.path.join(sim.root, "scratch")) == ["lost+found"]
    with open(os.path.join(sim.root, "scratch/file"), "w") as stream:
        stream.write("data\n")
    # Mounted: newfs, metaclear and a second mount are refused.
    p = sim.run("newfs /dev/md/rdsk/d20")
    assert (p.returncode, p.stderr) == (
        32, "/dev/md/dsk/d20 is mounted, can't mkfs\n")
    p = sim.run("metaclear d20")
    assert p.stderr == "metaclear: myhost: d20: metadevice is open\n\n"
    p = sim.run("mount -F ufs /dev/md/dsk/d20 /scratch")
    assert (p.returncode, p.stderr) == (
        32, "mount: /dev/md/dsk/d20 is already mounted or /scratch is "
        "busy\n")
    assert sim.ok("umount /scratch") == ""
    assert "d20" not in mnttab(sim)
    assert "d20" not in sim.state()["opens"]
    # The unmounted file system's files are not in the mount point, and
    # come back with the next mount.
    assert os.listdir(os.path.join(sim.root, "scratch")) == []
    sim.ok("mount -F ufs /dev/md/dsk/d20 /scratch")
    with open(os.path.join(sim.root, "scratch/file")) as stream:
        assert stream.read() == "data\n"
    sim.ok("umount /dev/md/dsk/d20")
    assert sim.ok("metaclear d20") == "d20: Mirror is cleared\n"


def test_refusals(make_sim):
    sim = make_sim("spare-disks")
    scratch(sim)
    sim.ok("newfs /dev/md/rdsk/d20")
    p = sim.run("mount -F ufs /dev/md/dsk/d20 /nowhere")
    assert (p.returncode, p.stderr) == (
        32, "mount: /dev/md/dsk/d20 or /nowhere, no such file or "
        "directory\n")
    p = sim.run("umount /nowhere")
    assert (p.returncode, p.stderr) == (
        1, "umount: warning: /nowhere not in mnttab\n"
        "umount: /nowhere not mounted\n")
    p = sim.run("newfs /dev/md/rdsk/d99")
    assert (p.returncode, p.stderr) == (
        1, "/dev/md/rdsk/d99: No such file or directory\n")
    # A submirror: mdopen refuses a write open (md.c, EROFS).
    p = sim.run("newfs /dev/md/rdsk/d21")
    assert (p.returncode, p.stderr) == (
        32, "/dev/md/rdsk/d21: cannot create: Read-only file system\n")


def test_a_reboot_unmounts_what_mount_mounted(make_sim):
    sim = make_sim("spare-disks")
    scratch(sim)
    os.makedirs(os.path.join(sim.root, "scratch"))
    sim.ok("newfs /dev/md/rdsk/d20")
    sim.ok("mount -F ufs /dev/md/dsk/d20 /scratch")
    sim.sim("reboot")
    assert "d20" not in mnttab(sim)
    assert os.listdir(os.path.join(sim.root, "scratch")) == []
    assert sim.ok("metaclear d20") == "d20: Mirror is cleared\n"
