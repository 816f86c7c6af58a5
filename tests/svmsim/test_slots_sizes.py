# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Slots (attach appends, detach packs, 4 max) and size rules."""


def subs(sim, mirror="d10"):
    return sim.ok("metastat -p %s" % mirror).split("\n")[0].split()


def ramdisk_stripe(sim, rd, dn, ctd, size="230m"):
    sim.ok("ramdiskadm -a %s %s" % (rd, size))
    sim.link(rd, ctd)
    sim.ok("metainit %s 1 1 %s" % (dn, ctd))


def test_attach_appends_detach_packs(make_sim):
    sim = make_sim("spare-disks")
    sim.ok("metainit d21 1 1 c2d0s0")
    sim.ok("metainit d22 1 1 c3d0s0")
    sim.ok("metattach d10 d21")
    sim.sim("tick")
    sim.ok("metattach d10 d22")
    sim.sim("tick")
    assert subs(sim)[2:6] == ["/dev/md/rdsk/d11", "/dev/md/rdsk/d12",
                              "/dev/md/rdsk/d21", "/dev/md/rdsk/d22"]
    ramdisk_stripe(sim, "rd", "d13", "c5t0d0s0")
    p = sim.run("metattach d10 d13")
    assert (p.returncode, p.stderr) == (
        1, "metattach: myhost: d10: mirror has maximum number of "
           "submirrors\n\n")
    # detach slot 0: everything moves down, the next attach appends
    assert sim.ok("metadetach d10 d11") == "d10: submirror d11 is detached\n"
    out = sim.ok("metastat d10")
    assert "    Submirror 0: d12\n" in out and "    Submirror 2: d22\n" in out
    assert "Submirror 3" not in out
    sim.ok("metattach d10 d11")
    assert subs(sim)[2:6] == ["/dev/md/rdsk/d12", "/dev/md/rdsk/d21",
                              "/dev/md/rdsk/d22", "/dev/md/rdsk/d11"]


def test_online_reorder_does_not_put_ram_first(sim):
    """Reference 4.2: detach d11 then attach d13 lands d13 in slot 1."""
    ramdisk_stripe(sim, "testdisk", "d13", "c5t0d0s0")
    sim.ok("metadetach d10 d11")
    sim.ok("metattach d10 d13")
    sim.sim("tick")
    sim.ok("metattach d10 d11")
    sim.sim("tick")
    assert subs(sim)[2:5] == ["/dev/md/rdsk/d12", "/dev/md/rdsk/d13",
                              "/dev/md/rdsk/d11"]


def test_sizes_follow_geometry(sim):
    ramdisk_stripe(sim, "r230", "d13", "c5t0d0s0", "230m")
    assert "Size: 471000 blocks (229 MB)" in sim.ok("metastat d13")
    sim.ok("metaclear d13")
    sim.ok("ramdiskadm -d r230")
    ramdisk_stripe(sim, "r225", "d14", "c6t0d0s0", "225m")
    assert "Size: 460800 blocks (225 MB)" in sim.ok("metastat d14")
    # the mirror is the smallest submirror rounded down to the first
    # submirror's cylinder (1 x 600 for a 225m ramdisk); it never grows
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    sim.ok("metainit d10 -m d14")
    sim.ok("metattach d10 d11")
    assert "    Size: 460800 blocks (225 MB)\n" in sim.ok("metastat d10")
    # a 2 x 1 MiB striped ramdisk pair: interlace shown, size from rows
    sim.ok("ramdiskadm -a s1 1m")
    sim.ok("ramdiskadm -a s2 1m")
    sim.link("s1", "c7t0d0s0")
    sim.link("s2", "c7t1d0s0")
    assert sim.ok("metainit d30 1 2 c7t0d0s0 c7t1d0s0 -i 32k") == \
        "d30: Concat/Stripe is setup\n"
    assert sim.ok("metastat -p d30") == (
        "d30 1 2 /dev/rdsk/c7t0d0s0 /dev/rdsk/c7t1d0s0 -i 64b\n")
    out = sim.ok("metastat d30")
    assert "    Stripe 0: (interlace: 64 blocks)\n" in out


def test_mirror_size_rounding_uses_first_submirror(sim):
    ramdisk_stripe(sim, "r", "d13", "c5t0d0s0", "230m")
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    # first submirror d11: cylinder 15*63 = 945; smallest 465885 = 493 cyl
    sim.ok("metainit d10 -m d11")
    assert "    Size: 465885 blocks (227 MB)\n" in sim.ok("metastat d10")
    sim.ok("metaclear d10")
    sim.ok("metainit d10 -m d13")
    assert "    Size: 471000 blocks (229 MB)\n" in sim.ok("metastat d10")


def test_human_sizes(sim):
    from svmsim.report import number_to_string as n2s
    assert n2s(4194304) == "2.0 GB"
    assert n2s(41943040) == "20 GB"
    assert n2s(20971520) == "10 GB"
    assert n2s(2097152) == "1.0 GB"
    assert n2s(471000) == "229 MB"
    assert n2s(1) == "512  B"
    assert n2s(4194000) == "2.0 GB"
