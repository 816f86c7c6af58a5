# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Resync progress: auto-advance on metastat, freeze/tick/thaw, cancel."""


def attach_ram(sim):
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metattach d10 d13")


def progress(out):
    for line in out.split("\n"):
        if "Resync" in line and "done" in line:
            return line.strip()
    return None


def test_metastat_advances_each_call(sim):
    attach_ram(sim)
    seen = [progress(sim.ok("metastat d10")) for _ in range(10)]
    assert seen[:3] == ["Resync in progress: 10 % done",
                        "Resync in progress: 20 % done",
                        "Resync in progress: 30 % done"]
    assert seen[-1] is None
    out = sim.ok("metastat d10")
    assert out.count("State: Okay         \n") == 6


def test_resyncing_state_and_no_invoke(sim):
    attach_ram(sim)
    out = sim.ok("metastat d10")
    assert "    Submirror 2: d13\n      State: Resyncing    \n" in out
    assert "d13: Submirror of d10\n    State: Resyncing    \n    Size:" in out
    assert "Invoke" not in out
    assert sim.ok("metastat -c d10").startswith(
        "d10              m  227MB d11 d12 d13 (resync-20%)\n")


def test_freeze_tick_thaw(sim):
    sim.sim("freeze")
    attach_ram(sim)
    for _ in range(3):
        assert progress(sim.ok("metastat d10")) == \
            "Resync in progress: 0 % done"
    sim.sim("tick", "2")
    assert progress(sim.ok("metastat d10")) == "Resync in progress: 20 % done"
    sim.sim("thaw", "--step", "25")
    assert progress(sim.ok("metastat d10")) == "Resync in progress: 45 % done"
    sim.sim("tick")
    assert progress(sim.ok("metastat d10")) is None


def test_attach_during_resync_is_picked_up_after(make_sim):
    sim = make_sim("spare-disks")
    sim.sim("freeze")
    attach_ram(sim)
    sim.sim("tick", "5")
    sim.ok("metainit d21 1 1 c2d0s0")
    assert sim.ok("metattach d10 d21") == "d10: submirror d21 is attached\n"
    out = sim.ok("metastat d10")
    assert "Resync in progress: 50 % done" in out
    sim.sim("tick", "5")
    out = sim.ok("metastat d10")
    assert "Resync in progress: 0 % done" in out      # the next job
    assert "d13: Submirror of d10\n    State: Okay " in out
    assert "d21: Submirror of d10\n    State: Resyncing " in out
    sim.sim("tick")
    assert "Resync" not in sim.ok("metastat d10")


def test_cancel_and_restart(sim):
    sim.sim("freeze")
    attach_ram(sim)
    sim.sim("tick", "3")
    assert sim.ok("metasync -c d10") == ""
    out = sim.ok("metastat d10")
    assert "    Resync cancelled: 30 % done\n" in out
    assert "State: Resync cancelled\n" in out.replace(" \n", "\n")
    assert "    Invoke: metasync d10\n" in out
    sim.sim("tick")                      # nothing runs while cancelled
    assert "Resync cancelled: 30 % done" in sim.ok("metastat d10")
    sim.ok("metasync 2048 d10")
    st = sim.state()
    assert st["units"]["d10"]["resync"]["bufsize"] == 2048
    assert "Resync in progress: 30 % done" in sim.ok("metastat d10")


def test_buffer_size_semantics(sim):
    sim.sim("freeze")
    attach_ram(sim)
    # the running resync keeps its size; out-of-range sizes mean default
    sim.ok("metasync 2048 d10")
    assert sim.state()["units"]["d10"]["resync"]["bufsize"] == 1024
    sim.ok("metasync -c d10")
    sim.ok("metasync 4096 d10")
    assert sim.state()["units"]["d10"]["resync"]["bufsize"] == 1024
    sim.ok("metasync -c d10")
    sim.ok("metasync 512 d10")
    assert sim.state()["units"]["d10"]["resync"]["bufsize"] == 512


def test_refused_during_resync_allowed_after(sim):
    attach_ram(sim)
    p = sim.run("metadetach d10 d13")
    assert p.stderr == "metadetach: myhost: d10: resync in progress\n\n"
    assert sim.ok("metaparam -r first d10") == ""      # allowed meanwhile
    sim.sim("tick")
    assert sim.ok("metadetach d10 d13") == "d10: submirror d13 is detached\n"


def test_a_resumed_resync_whose_target_was_detached_ends_at_once(sim):
    """mirror_resync.c submirror_resync: the resumed thread finds no
    submirror ATTACHED_RESYNC (the cancelled resync's target was detached
    with -f) and ends (SET_RS_TYPE_NONE), closing the mirror; metaclear is
    not refused as open.  The old emulator resumed a job with no target,
    which held the mirror open until it ran to 100 %."""
    sim.sim("freeze")
    attach_ram(sim)
    sim.sim("tick", "3")
    sim.ok("metasync -c d10")
    assert sim.ok("metadetach -f d10 d13") == \
        "d10: submirror d13 is detached\n"
    assert sim.ok("metasync d10") == ""
    out = sim.ok("metastat d10")
    assert "Resync" not in out
    assert sim.state()["units"]["d10"]["resync"] is None
    assert sim.ok("metaclear d13") == "d13: Concat/Stripe is cleared\n"
