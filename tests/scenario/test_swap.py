# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The swap method on a closed mirror, and how --method auto chooses.

tests/scenario/hosts/swap.json is the article's host with smaller disks
(453600 blocks, a multiple of both the disks' 945-block cylinder and the
ramdisk's 600-block one) and d10 closed: not mounted, not in vfstab.
closed-article.json is the article's host with d10 closed: 465885 blocks
is not a multiple of 600, so recreating d10 with the RAM submirror first
would shrink it.
"""

import os

import pytest

import releases

pytestmark = pytest.mark.emulator_only(
    "needs the emulator's disks of exact sizes (453600 and 465885 blocks)")

FMRI = "svc:/system/svmram:d10"
SIZE_LINE = "    Size: 453600 blocks (221 MB)\n"


SWAP_COMMANDS = [
    ["ramdiskadm", "-a", "svmram_d10", "222m"],
    ["metainit", "d13", "1", "1", "c90t0d0s0"],
    ["metattach", "d10", "d13"],
    ["metaclear", "d10"],
    ["metainit", "d10", "-m", "d13", "d11", "d12", "-r", "1"],
    # The record: one svccfg with its command file (svm/smf.py).
    ["svccfg", "-f", "/var/run/svmram.d10.svccfg"],
    ["svcadm", "enable", "-s", FMRI],
]

TEARDOWN_COMMANDS = [
    ["metaparam", "-r", "roundrobin", "d10"],
    ["metadetach", "d10", "d13"],
    ["metaclear", "d13"],
    ["ramdiskadm", "-d", "svmram_d10"],
    ["svcadm", "disable", "-s", FMRI],
    ["svccfg", "delete", FMRI],
]


@pytest.fixture
def swap_host(host_factory):
    return host_factory("swap")


def test_swap_sets_up_a_closed_mirror_whose_size_survives(swap_host):
    host = swap_host
    assert host.metastat_p("d10") == releases.ORIGINAL
    assert SIZE_LINE in host.cmd("metastat", "d10").stdout
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("d10: reads are served from the RAM submirror "
                             "d13 (ramdisk svmram_d10).\n")
    assert host.trace() == SWAP_COMMANDS
    assert host.metastat_p("d10") == releases.RAM_FIRST
    state = host.cmd("metastat", "d10").stdout
    assert state.startswith("d10: Mirror\n    Submirror 0: d13\n"
                            "      State: Okay         \n")
    assert SIZE_LINE in state
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == "online\n"
    assert host.violations() == []


def test_teardown_after_swap_restores_the_original(swap_host):
    host = swap_host
    assert host.svmram("setup", "-y", "d10").returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("d10: the RAM submirror is gone; reads use the "
                             "read option roundrobin again.\n")
    assert host.trace() == TEARDOWN_COMMANDS
    assert host.metastat_p("d10") == releases.ORIGINAL
    state = host.cmd("metastat", "d10").stdout
    assert SIZE_LINE in state
    # Where metadetach leaves a hole, the RAM submirror's slot 0 stays
    # free: the disks are in their order, and no resync closes the hole.
    assert [line.strip() for line in state.splitlines()
            if line.startswith("    Submirror ")] == releases.on(
        host, ["Submirror 0: d11", "Submirror 1: d12"],
        solaris10=["Submirror 1: d11", "Submirror 2: d12"])
    assert host.ramdisks() == ""
    assert not os.path.lexists(os.path.join(host.root, "dev/dsk/c90t0d0s0"))
    assert host.cmd("svcs", "-H", FMRI).returncode != 0
    assert host.violations() == []


@pytest.mark.parametrize("name, method, note", [
    ("article", "rotate", "auto chose rotate: d10 is mounted on /mnt and "
     "swap needs it closed."),
    ("swap", "swap", "auto chose swap: d10 is not mounted and keeps its "
     "size of 453600 blocks."),
    ("closed-article", "rotate", "auto chose rotate: recreating d10 with the "
     "RAM submirror first would make it 465600 blocks instead of 465885 "
     "(SVM rounds a mirror to its first submirror's cylinder)."),
])
def test_auto_picks_a_method_and_says_why(host_factory, name, method, note):
    host = host_factory(name)
    result = host.svmram("setup", "-n", "d10")
    assert result.returncode == 0, result.stderr
    script = result.stdout
    assert "# Method: %s.\n# %s\n" % (method, note) in script
    bindir = host.env["SVMRAM_BINDIR"]
    swapping = "\n%s/metaclear d10\n" % bindir
    rotating = "\n%s/metadetach d10 d11\n" % bindir
    assert (swapping in script, rotating in script) == (
        method == "swap", method == "rotate")
    assert host.trace() == []


def test_swap_is_refused_when_it_would_change_the_size(host_factory):
    host = host_factory("closed-article")
    before = host.state_digest()
    result = host.svmram("setup", "-y", "--method", "swap", "d10")
    assert result.returncode == 3
    assert result.stderr == (
        "svmram: cannot use swap: recreating d10 with the RAM submirror "
        "first would make it 465600 blocks instead of 465885 (SVM rounds a "
        "mirror to its first submirror's cylinder)\n"
        "svmram: Use --method rotate, which keeps the mirror in use and its "
        "size intact.\n")
    assert host.trace() == []
    assert host.state_digest() == before
    assert host.violations() == []


def test_an_open_mirror_is_never_swapped(swap_host):
    """A raw-device reader holds d10 open, unmounted (issue 9): SVM would
    refuse metaclear ("metadevice is open") after a whole RAM resync.
    fuser shows the reader, so auto rotates and swap is refused up
    front."""
    host = swap_host
    assert host.sim("open", "d10").returncode == 0
    note = ("# auto chose rotate: d10 is open (fuser: process 1001), and SVM "
            "will not clear an open metadevice.\n")
    assert note in host.svmram("setup", "-n", "d10").stdout
    before = host.state_digest()
    result = host.svmram("setup", "-y", "--method", "swap", "d10")
    assert (result.returncode, result.stderr) == (3, (
        "svmram: cannot use swap: d10 is open (fuser: process 1001), and SVM "
        "will not clear an open metadevice\n"
        "svmram: Use --method rotate, which keeps the mirror in use and its "
        "size intact.\n"))
    assert host.trace() == [] and host.state_digest() == before
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert ["metaclear", "d10"] not in host.trace()
    assert ["fuser", "/dev/md/rdsk/d10"] in host.trace(changes_only=False)
    host.sim("tick")
    assert host.metastat_p() == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []
