# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The data-safety monitor catches unsafe sequences and stays quiet on a
safe one."""


def ram_first_online(sim):
    """Reference 4.3: put the RAM submirror in slot 0 with d10 mounted."""
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    for cmd in ("metattach d10 d13", "metadetach d10 d11",
                "metattach d10 d11", "metadetach d10 d12",
                "metattach d10 d12"):
        sim.ok(cmd)
        sim.sim("tick")
    sim.ok("metaparam -r first d10")
    assert sim.ok("metastat -p d10").split("\n")[0] == (
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1")


def monitor(sim):
    p = sim.sim("monitor")
    return p.returncode, p.stdout


def test_safe_sequence_is_clean(sim):
    ram_first_online(sim)
    sim.sim("write", "d10")
    sim.sim("reboot")
    out = sim.ok("metastat d10")
    assert "c5t0d0s0          0     No     Maintenance" in out
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.ok("metareplace -e d10 c5t0d0s0")
    for _ in range(12):
        sim.ok("metastat d10")                 # polls; app keeps writing
    assert "Resync" not in sim.ok("metastat d10")
    assert monitor(sim) == (0, "no violations\n")


def test_blank_ramdisk_recreated_before_first_open(sim):
    ram_first_online(sim)
    assert monitor(sim)[0] == 0
    sim.sim("reboot", "--before-metasync")
    # the unsafe tool: recreates the ramdisk (same minor) before d10's
    # first open after boot, so SVM opens a blank Okay component
    # The monitor judges the closed mirror as its next open would find
    # it, so the violation is charged to this command, not to the open.
    sim.ok("ramdiskadm -a testdisk 230m")
    rc, text = monitor(sim)
    assert rc == 1
    assert text == ("VIOLATION d10 submirror d13 regions 0-99: read option "
                    "first can serve blank data from this submirror (after "
                    "#%s: ramdiskadm -a testdisk 230m)\n"
                    % text.split("#")[1].split(":")[0])
    sim.ok("metasync -r")
    out = sim.stat_smf_down("metastat d10")
    assert "c5t0d0s0          0     No            Okay   No" in out
    # ... and again where an open makes it live, once.
    rc2, both = monitor(sim)
    opened = both.split("#")[2].split(":")[0]
    assert (rc2, both) == (rc, text + text.replace(
        "#%s: ramdiskadm -a testdisk 230m" % text.split("#")[1].split(":")[0],
        "#%s: metasync -r" % opened))
    sim.stat_smf_down("metastat d10")
    assert monitor(sim) == (rc, both)


def test_missing_ramdisk_before_first_open_is_not_a_violation(sim):
    """Before the first open the RAM component is still recorded Okay, but
    its device is absent: the open will fail it, so no read can come from
    it and the monitor stays quiet (reference 9.1)."""
    ram_first_online(sim)
    sim.sim("reboot", "--before-metasync")
    assert "c5t0d0s0          0     No            Okay   No" in \
        sim.stat_smf_down("metastat d10")
    assert monitor(sim) == (0, "no violations\n")
    sim.ok("metasync -r")
    assert "Maintenance" in sim.stat_smf_down("metastat d10")
    assert monitor(sim) == (0, "no violations\n")


def test_article_one_way_rebuild_is_caught(sim):
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metattach d10 d13")
    sim.sim("tick")
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    assert monitor(sim)[0] == 0
    sim.ok("metainit d10 -m d13")     # RAM is now the only current copy
    rc, text = monitor(sim)
    assert rc == 1
    assert "VIOLATION d10 regions 0-99: no disk-backed submirror holds the " \
        "current data (after #" in text
    assert "metainit d10 -m d13" in text
    # the violation stays recorded after the disks are resynced
    sim.ok("metaclear d10")
    sim.ok("metainit d10 -m d11")
    assert monitor(sim)[0] == 1
    sim.sim("monitor", "--reset")
    assert monitor(sim) == (0, "no violations\n")


def test_resync_from_blank_ramdisk_overwrites_disks(sim):
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    sim.ok("ramdiskadm -a testdisk 225m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metainit d10 -m d13")
    sim.ok("metattach d10 d12")
    sim.sim("tick")
    rc, text = monitor(sim)
    assert rc == 1
    assert "d10 submirror d12" in text
    assert "resync overwrote newer data with older data" in text


def test_metaonline_copies_dirty_regions(sim):
    ram_first_online(sim)
    sim.ok("metaoffline d10 d13")
    sim.sim("write", "d10")
    sim.ok("metaonline d10 d13")
    sim.sim("tick")
    assert monitor(sim)[0] == 0       # dirty regions were copied back


def test_a_mirror_never_written_has_nothing_to_lose(sim):
    """A scratch mirror of two ramdisks, never written, whose ramdisks
    vanish at a reboot: no read of it can return wrong data, so the
    monitor stays quiet.  One that was written is still judged."""
    for name, link in (("scratch0", "c95t0d0s0"), ("scratch1", "c96t0d0s0")):
        sim.ok("ramdiskadm -a %s 1m" % name)
        sim.link(name, link)
    sim.ok("metainit d126 1 1 c95t0d0s0")
    sim.ok("metainit d125 1 1 c96t0d0s0")
    sim.ok("metainit d127 -m d126 d125")
    sim.ok("metadetach d127 d126")
    sim.sim("reboot")
    assert monitor(sim) == (0, "no violations\n")
