# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""newfs, mount -F ufs and umount on a metadevice, as illumos has them:
newfs.c and mkfs.c (the summary on stderr, mkfs's mounted refusal),
ufs/mount/mount.c rpterr, umount.c doexec and rpterr (EBUSY); a mount
opens the metadevice (ufs_vfsops.c mountfs, md.c mdopen), so metaclear
refuses it as open (mirror_ioctl.c mirror_reset: md_unit_isopen); the
file system lives on the blocks beneath the metadevice."""

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
    # newfs without a terminal asks nothing and writes nothing on stdout;
    # mkfs's summary is on stderr (mkfs.c 2096-2099), its geometry the
    # mirror's (15 x 63), the size in 1 KiB fragments (465885 blocks
    # are 232942 fragments), the last cylinder partial.
    p = sim.run("newfs /dev/md/rdsk/d20")
    assert (p.returncode, p.stdout, p.stderr) == (
        0, "", "Warning: 1 sector(s) in last cylinder unallocated\n"
        "/dev/md/rdsk/d20:\t465884 sectors in 493 cylinders of 15 tracks, "
        "63 sectors\n")
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


def test_umount_of_a_file_system_in_use_is_busy(make_sim):
    """A process with a file open or its working directory in the file
    system: umount2 fails with EBUSY, and umount names the mount point
    whichever name it was given (umount.c doexec, rpterr)."""
    sim = make_sim("spare-disks")
    scratch(sim)
    os.makedirs(os.path.join(sim.root, "scratch"))
    sim.ok("newfs /dev/md/rdsk/d20")
    sim.ok("mount -F ufs /dev/md/dsk/d20 /scratch")
    assert sim.sim("hold", "/scratch/lost+found").returncode == 0
    for name in ("/scratch", "/dev/md/dsk/d20"):
        p = sim.run("umount %s" % name)
        assert (p.returncode, p.stdout, p.stderr) == (
            1, "", "umount: /scratch busy\n")
    assert "/dev/md/dsk/d20\t/scratch\tufs\t" in mnttab(sim)
    assert sim.state()["opens"]["d20"] == 1
    # Something held elsewhere does not keep it busy.
    assert sim.sim("hold", "/scratchpad").returncode == 0
    assert sim.sim("release", "/scratch/lost+found").returncode == 0
    assert sim.ok("umount /scratch") == ""
    assert "d20" not in sim.state()["opens"]
    # A reboot ends the processes that held files.
    sim.ok("mount -F ufs /dev/md/dsk/d20 /scratch")
    assert sim.sim("hold", "/scratch").returncode == 0
    sim.sim("reboot")
    assert sim.state()["held"] == []


def test_the_file_system_lives_on_the_blocks_beneath(make_sim):
    """Not on the metadevice's name: a mirror made again of one of the
    same stripes under another name holds it, with its files; a mirror
    of the same name on other blocks does not; a newfs of one stripe
    leaves the other stripe's copy as it was."""
    sim = make_sim("spare-disks")
    scratch(sim)
    os.makedirs(os.path.join(sim.root, "scratch"))
    sim.ok("newfs /dev/md/rdsk/d20")
    sim.ok("mount -F ufs /dev/md/dsk/d20 /scratch")
    with open(os.path.join(sim.root, "scratch/file"), "w") as stream:
        stream.write("data\n")
    sim.ok("umount /scratch")
    sim.ok("metaclear d20")
    sim.ok("metainit d40 -m d22")
    sim.ok("mount -F ufs /dev/md/dsk/d40 /scratch")
    with open(os.path.join(sim.root, "scratch/file")) as stream:
        assert stream.read() == "data\n"
    sim.ok("umount /scratch")
    sim.ok("metaclear d40")
    # d21 alone is a stripe again: newfs makes a new file system on
    # c2d0s0; the copy on c3d0s0 (d22) is untouched.
    sim.ok("newfs /dev/md/rdsk/d21")
    sim.ok("mount -F ufs /dev/md/dsk/d21 /scratch")
    assert os.listdir(os.path.join(sim.root, "scratch")) == ["lost+found"]
    sim.ok("umount /scratch")
    sim.ok("mount -F ufs /dev/md/dsk/d22 /scratch")
    assert sorted(os.listdir(os.path.join(sim.root, "scratch"))) == [
        "file", "lost+found"]
    sim.ok("umount /scratch")
    # d20 again, on a lofi device newfs never wrote: no file system.
    sim.ok("metaclear d21 d22")
    sim.ok("mkfile 8m /var/tmp/f")
    assert sim.ok("lofiadm -a /var/tmp/f") == "/dev/lofi/1\n"
    os.symlink("/dev/lofi/1", os.path.join(sim.root, "dev/dsk/c95t0d0s0"))
    os.symlink("/dev/rlofi/1", os.path.join(sim.root, "dev/rdsk/c95t0d0s0"))
    sim.ok("metainit d21 1 1 c95t0d0s0")
    sim.ok("metainit d20 -m d21")
    p = sim.run("mount -F ufs /dev/md/dsk/d20 /scratch")
    assert (p.returncode, p.stderr) == (
        32, "mount: /dev/md/dsk/d20 is not this fstype\n")
