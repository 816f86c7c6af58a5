# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Reboot: ramdisks and their links vanish, hand-made links stay, snarf
flags, the first-open rule, minors reassigned in creation order."""

import os


def setup_ram_first(sim, name="testdisk"):
    sim.ok("ramdiskadm -a %s 230m" % name)
    sim.link(name)
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metattach d10 d13")
    sim.sim("tick")


def test_ramdisks_and_links(sim):
    setup_ram_first(sim)
    root = sim.root
    sim.sim("reboot")
    assert sim.ok("ramdiskadm") == ""
    assert not os.path.lexists(os.path.join(root, "dev/ramdisk/testdisk"))
    assert not os.path.lexists(os.path.join(root, "dev/rramdisk/testdisk"))
    link = os.path.join(root, "dev/dsk/c5t0d0s0")
    assert os.path.islink(link)                       # dangling, kept
    assert os.readlink(link) == "/dev/ramdisk/testdisk"
    assert os.path.lexists(os.path.join(root, "dev/dsk/c0d1s0"))


def test_before_metasync_then_first_open(sim):
    setup_ram_first(sim)
    sim.sim("reboot", "--before-metasync")
    out = sim.stat_smf_down("metastat d10")
    assert out.count("State: Needs maintenance \n") == 6
    assert out.count("    Invoke: metasync d10\n") == 3
    assert "\tc5t0d0s0          0     No            Okay   No  \n" in out
    p = sim.run("metareplace -e d10 c5t0d0s0")
    assert (p.stdout, p.stderr) == ("", "metareplace: myhost: c5t0d0s0: "
                                    "No such file or directory\n\n")
    p = sim.run("metadetach d10 d13")
    assert p.stderr == "metadetach: myhost: d10: resync in progress\n\n"
    sim.ok("metasync -r")            # opens d10: the missing ramdisk errs
    out = sim.stat_smf_down("metastat d10")
    assert "    Submirror 2: d13\n      State: Needs maintenance \n" in out
    assert "    Invoke: metareplace d10 c5t0d0s0 <new device>\n" in out
    assert "\tc5t0d0s0          0     No     Maintenance   No  \n" in out
    assert out.count("State: Okay         \n") == 4


def test_component_okay_until_first_open(sim):
    setup_ram_first(sim)
    sim.sim("reboot", "--before-metasync")
    st = sim.state()
    comp = st["units"]["d13"]["rows"][0]["comps"][0]
    assert comp["state"] == "Okay"
    sim.sim("open", "d10")
    comp = sim.state()["units"]["d13"]["rows"][0]["comps"][0]
    assert comp["state"] == "Maintenance"


def test_minor_depends_on_creation_order(sim):
    setup_ram_first(sim)                      # testdisk got minor 1
    sim.sim("reboot")
    sim.ok("ramdiskadm -a other 10m")         # takes minor 1 now
    sim.ok("ramdiskadm -a testdisk 230m")     # minor 2: a new dev_t
    rdev = os.stat(os.path.join(sim.root, "dev/ramdisk/testdisk")).st_rdev
    assert os.minor(rdev) == 2
    raw = os.stat(os.path.join(sim.root, "dev/rramdisk/testdisk")).st_rdev
    assert raw == rdev
    assert sim.ok("metareplace -e d10 c5t0d0s0") == \
        "d10: device c5t0d0s0 is replaced with c5t0d0s0\n"


def test_same_minor_gives_enabled(sim):
    setup_ram_first(sim)
    sim.sim("reboot")
    sim.ok("ramdiskadm -a testdisk 230m")
    assert sim.ok("metareplace -e d10 c5t0d0s0") == \
        "d10: device c5t0d0s0 is enabled\n"
    sim.sim("tick")
    assert sim.sim("monitor").returncode == 0


def test_pass_zero_and_one_way_mirrors_untouched(make_sim):
    sim = make_sim("spare-disks")
    sim.ok("metainit d21 1 1 c2d0s0")
    sim.ok("metainit d20 -m d21")
    sim.ok("metaparam -p 0 d10")
    sim.sim("reboot", "--before-metasync")
    assert "Needs maintenance" not in sim.stat_smf_down("metastat")


def test_every_open_of_a_closed_mirror_applies_the_rule(make_sim):
    """mirror_open_all_devs runs at every open of a closed mirror, not
    only at the first since boot (mirror.c:2198-2203 @a593473611).  Audit
    4 S16: a mirror opened since boot, closed, whose ramdisk is then
    deleted: the next open sets the RAM component to Maintenance."""
    sim = make_sim("article-bare")
    sim.ok("metainit d21 1 1 c0d1s0")
    sim.ok("metainit d20 -m d21")
    sim.ram_stripe("d22", "230m")
    sim.ok("metattach d20 d22")
    sim.sim("thaw", "--step", "100")
    sim.sim("tick")
    sim.ok("dd if=/dev/md/rdsk/d20 of=/dev/null count=1")   # open, close
    assert sim.state()["opens"] == {}
    sim.ok("ramdiskadm -d testdisk")
    comp = sim.state()["units"]["d22"]["rows"][0]["comps"][0]
    assert comp["state"] == "Okay"
    sim.ok("dd if=/dev/md/rdsk/d20 of=/dev/null count=1")
    comp = sim.state()["units"]["d22"]["rows"][0]["comps"][0]
    assert comp["state"] == "Maintenance"
    assert sim.state()["units"]["d21"]["rows"][0]["comps"][0]["state"] == \
        "Okay"


def test_an_open_of_an_open_mirror_applies_no_rule(make_sim):
    """The rule is not applied while the mirror is open (md_unit_isopen,
    mirror.c:2200): the component stays Okay until the last close."""
    sim = make_sim("article-bare")
    sim.ok("metainit d21 1 1 c0d1s0")
    sim.ok("metainit d20 -m d21")
    sim.ram_stripe("d22", "230m")
    sim.ok("metattach d20 d22")
    sim.sim("thaw", "--step", "100")
    sim.sim("tick")
    sim.sim("open", "d20")
    sim.sim("close", "d20")
    sim.sim("open", "d20")
    comp = sim.state()["units"]["d22"]["rows"][0]["comps"][0]
    assert comp["state"] == "Okay"
