# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The resync copy counter: state["copied_blocks"][mirror] grows by the
blocks each resync writes into its targets, so tests can compare it with
svmram's cost estimate."""

ARTICLE_BLOCKS = 465885


def copied(sim, mirror="d10"):
    return sim.state()["copied_blocks"].get(mirror, 0)


def attach_ram(sim):
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metattach d10 d13")


def test_a_fresh_host_copied_nothing(sim):
    assert sim.state()["copied_blocks"] == {}


def test_a_submirror_resync_copies_the_whole_mirror(sim):
    sim.sim("freeze")
    attach_ram(sim)
    sim.sim("tick", "3")
    assert copied(sim) == 30 * ARTICLE_BLOCKS // 100   # 3 ticks of 10 %
    sim.sim("tick")
    assert copied(sim) == ARTICLE_BLOCKS


def test_a_cancelled_resync_resumes_and_copies_each_block_once(sim):
    sim.sim("freeze")
    attach_ram(sim)
    sim.sim("tick", "4")
    sim.ok("metasync -c d10")
    sim.sim("tick")
    assert copied(sim) == 40 * ARTICLE_BLOCKS // 100
    sim.ok("metasync d10")
    sim.sim("tick")
    assert copied(sim) == ARTICLE_BLOCKS


def test_detach_and_reattach_copies_again(sim):
    sim.ok("metadetach d10 d12")
    sim.ok("metattach d10 d12")
    sim.sim("tick")
    assert copied(sim) == ARTICLE_BLOCKS


def test_a_clean_reboot_copies_nothing_and_the_count_outlives_metaclear(sim):
    sim.ok("metadetach d10 d12")
    sim.ok("metattach d10 d12")
    sim.sim("tick")
    sim.sim("reboot")
    sim.sim("tick")
    assert copied(sim) == ARTICLE_BLOCKS       # optimized resync: clean
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    assert copied(sim) == ARTICLE_BLOCKS


def test_a_component_resync_copies_the_component(sim):
    attach_ram(sim)
    sim.sim("tick")
    sim.sim("reboot")
    # The ramdisk is gone; the first open failed its component.
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.ok("metareplace -e d10 c5t0d0s0")
    sim.sim("tick")
    assert copied(sim) == 2 * ARTICLE_BLOCKS
