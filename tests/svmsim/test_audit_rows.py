# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Rows of the fidelity audit (/work/shared/research/fidelity-audit.md)
whose emulator fix has no better home: 1.3, 6.2, 7.8, 8.4."""

USAGE_HEAD = "usage:\tmetaparam [-s setname] [options] concat/stripe | RAID\n"


def add_ramdisk_d13(sim):
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")


def test_parented_stripe_on_its_own_has_the_state_columns(sim):
    """1.3, meta_stripe.c stripe_report: the rows follow MD_HAS_PARENT."""
    top = ("d13: Concat/Stripe\n    Size: 471000 blocks (229 MB)\n"
           "    Stripe 0:\n"
           "\tDevice     Start Block  Dbase\tReloc\n"
           "\tc5t0d0s0          0     No   \tNo \n\n")
    add_ramdisk_d13(sim)
    assert sim.ok("metastat d13").startswith(top)
    sim.ok("metattach d10 d13")
    sim.sim("tick")
    assert sim.ok("metastat d13").startswith(
        "d13: Concat/Stripe\n    Size: 471000 blocks (229 MB)\n"
        "    Stripe 0:\n"
        "\tDevice     Start Block  Dbase        State Reloc Hot Spare\n"
        "\tc5t0d0s0          0     No            Okay   No  \n\n")


def test_metaparam_options_of_the_other_kind_are_usage_errors(sim):
    """7.8, metaparam.c: mirror_params getopt "s:r:w:p:", stripe_params
    "s:h:"."""
    for cmd in ("metaparam -h none d10", "metaparam -r first d11"):
        p = sim.run(cmd)
        assert (p.returncode, p.stdout) == (1, ""), cmd
        assert p.stderr.startswith(USAGE_HEAD), cmd
    assert sim.ok("metaparam -h none d11") == ""


def test_ramdisk_of_an_attached_stripe_is_busy_only_while_open(sim):
    """8.4, ramdisk.c rd_delete_disk: EBUSY only if rd_is_open()."""
    add_ramdisk_d13(sim)
    sim.ok("metattach d10 d13")
    sim.sim("close", "d10")
    busy = ('ramdiskadm: couldn\'t delete ramdisk "testdisk": '
            'Device busy\n')
    assert sim.run("ramdiskadm -d testdisk").stderr == busy  # resyncing
    sim.sim("tick")
    assert sim.ok("ramdiskadm -d testdisk") == ""


def test_attach_is_the_first_open_after_boot(make_sim):
    """6.2: metattach ends in mirror_resync_unit, which opens the mirror
    (mirror_internal_open): the missing ramdisk errs as at any first open."""
    sim = make_sim("spare-disks")
    add_ramdisk_d13(sim)
    sim.ok("metattach d10 d13")
    sim.sim("tick")
    sim.sim("reboot", "--before-metasync")
    comp = sim.state()["units"]["d13"]["rows"][0]["comps"][0]
    assert comp["state"] == "Okay"
    sim.ok("metainit d21 1 1 c2d0s0")
    sim.ok("metattach d10 d21")
    comp = sim.state()["units"]["d13"]["rows"][0]["comps"][0]
    assert comp["state"] == "Maintenance"
