# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The SVM planners on hand-built snapshots (pure: no emulator)."""

from dataclasses import replace

import pytest

from svmram.actions import Run
from svmram.errors import RefusedError
from svmram.plan import converge_plan, render_script
from svmram.svm.script import PRELUDE
from svmram.svm import planner
from svmram.svm.snapshot import MirrorView, Snapshot, StripeView, differences

MIB = 1024 * 1024


def article(mounted=True, size=465885, **changes):
    """The seed article's host: d10 = d11 + d12, 1 GiB of memory."""
    snap = Snapshot(
        mirror_name="d10",
        mirror=MirrorView("d10", ("d11", "d12"), ("Okay", "Okay"),
                          size_blocks=size, numbers=(0, 1)),
        stripes={"d11": StripeView("d11", 465885, ("c0d1s0",), "d10"),
                 "d12": StripeView("d12", 465885, ("c1d0s0",), "d10")},
        metadevices=frozenset({"d10", "d11", "d12"}),
        used_controllers=frozenset({0, 1}),
        mounted_on="/mnt" if mounted else None,
        physmem_bytes=1024 * MIB, freemem_bytes=800 * MIB,
        detach_compacts=True, slot_evidence="illumos")
    return snap.evolve(**changes)


def keys(plan):
    return [step.key for step in plan.steps]


def test_auto_picks_rotate_for_a_mounted_mirror():
    intent, notes = planner.choose_intent(article(), "d10")
    assert intent.method == "rotate"
    assert notes[0] == ("auto chose rotate: d10 is mounted on /mnt and swap "
                        "needs it closed.")
    assert (intent.ram, intent.ramdisk, intent.link) == (
        "d13", "svmram_d10", "c90t0d0s0")
    assert intent.size_bytes == 228 * MIB


def test_rotate_plan_moves_each_disk_behind_the_ram_submirror():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    plan = planner.plan_setup(snap, intent)
    assert keys(plan) == [
        "create ramdisk svmram_d10", "link c90t0d0s0", "metainit d13",
        "attach d13", "detach d11", "attach d11", "detach d12", "attach d12",
        "read option first", "record d10"]
    final = plan.steps[-1].expect
    assert final.mirror.slots == ("d13", "d11", "d12")
    assert final.mirror.read_option == "first"
    assert final.mirror.size_blocks == 465885
    assert plan.copies_blocks == 3 * 465885
    assert plan.closed_seconds == 0


def test_every_rotate_state_keeps_a_disk_submirror():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    for step in planner.plan_setup(snap, intent).steps:
        disks = [s for s in step.expect.mirror.slots if s != "d13"]
        assert disks, step.key


def test_auto_refuses_swap_when_it_would_change_the_size():
    # 465885 is not a multiple of the ramdisk's 600-block cylinder.
    intent, notes = planner.choose_intent(article(mounted=False), "d10")
    assert intent.method == "rotate"
    assert "465600 blocks instead of 465885" in notes[0]
    with pytest.raises(RefusedError, match="cannot use swap"):
        planner.choose_intent(article(mounted=False), "d10", method="swap")


def test_swap_plan_for_a_closed_mirror_whose_size_survives():
    snap = article(mounted=False, size=465600)
    intent, notes = planner.choose_intent(snap, "d10")
    assert intent.method == "swap", notes
    plan = planner.plan_setup(snap, intent)
    assert keys(plan) == [
        "create ramdisk svmram_d10", "link c90t0d0s0", "metainit d13",
        "attach d13", "swap d10", "record d10"]
    swap = plan.steps[4]
    # One step: nothing can come between the clear and the n-way metainit.
    assert swap.do == (
        Run(("metaclear", "d10")),
        Run(("metainit", "d10", "-m", "d13", "d11", "d12", "-r", "1")))
    assert swap.expect.mirror.slots == ("d13", "d11", "d12")
    assert swap.expect.mirror.size_blocks == 465600
    assert plan.closed_seconds == 5


def test_teardown_after_rotate_restores_the_original_mirror():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    done = planner.plan_setup(snap, intent).steps[-1].expect
    plan = planner.plan_teardown(done, intent)
    assert keys(plan) == [
        "read option roundrobin", "detach d13", "metaclear d13",
        "unlink c90t0d0s0", "delete ramdisk svmram_d10", "unrecord d10"]
    final = plan.steps[-1].expect
    assert final.mirror.slots == ("d11", "d12")
    assert differences(snap, final) == []


def test_rollback_of_a_rotate_interrupted_after_a_detach_reattaches_first():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    setup = planner.plan_setup(snap, intent)
    after_detach = setup.steps[keys(setup).index("detach d11")].expect
    plan = planner.plan_teardown(after_detach, intent, reattach=intent.disks)
    assert keys(plan)[:1] == ["attach d11"]


def swap_cleared(snap, intent):
    """The host after a swap's metaclear and before its metainit (svmram
    killed, or the host rebooted, between the two)."""
    setup = planner.plan_setup(snap, intent)
    before = setup.steps[keys(setup).index("swap d10")]
    stripes = {name: replace(view, parent=None)
               for name, view in before.expect.stripes.items()}
    attached = setup.steps[keys(setup).index("attach d13")].expect
    return attached.evolve(mirror=None, stripes=stripes,
                           metadevices=attached.metadevices - {"d10"})


def test_resume_of_a_swap_interrupted_after_metaclear_uses_the_disks_only():
    """The RAM submirror may be blank by now (a reboot recreates the
    ramdisk empty), so it never goes into the recreating metainit."""
    snap = article(mounted=False, size=465600)
    intent, _ = planner.choose_intent(snap, "d10")
    plan = planner.plan_setup(swap_cleared(snap, intent), intent)
    assert keys(plan) == ["metainit d10", "attach d13", "attach d12",
                          "swap d10", "record d10"]
    assert plan.steps[0].do == (Run(("metainit", "d10", "-m", "d11", "1")),)


def test_a_swap_that_changed_the_size_is_undone_at_once():
    snap = article(mounted=False, size=465600)
    intent, _ = planner.choose_intent(snap, "d10")
    setup = planner.plan_setup(snap, intent)
    swapped = setup.steps[keys(setup).index("swap d10")].expect
    wrong = swapped.evolve(mirror=replace(swapped.mirror, size_blocks=465000))
    back = planner.plan_teardown(wrong, intent)
    assert keys(back)[0] == "rebuild d10"
    assert back.steps[0].do == (
        Run(("metaclear", "d10")),
        Run(("metainit", "d10", "-m", "d11", "d12", "1")))
    assert back.steps[-1].expect.mirror.size_blocks == 465600
    assert differences(snap, back.steps[-1].expect) == []
    # Mounted, it is left alone: metaclear would be refused anyway.
    mounted = wrong.evolve(mounted_on="/mnt")
    assert "rebuild d10" not in keys(planner.plan_teardown(mounted, intent))


@pytest.mark.parametrize("changes, message", [
    (dict(has_replicas=False, mirror=None), "no state database replicas"),
    (dict(mirror=None, other_types={"d10": "concat/stripe"}),
     "d10 is a concat/stripe, not a mirror"),
    (dict(mirror=None), "there is no mirror d10"),
    (dict(record={"mirror": "d10"}, service_state="online"), "already set up"),
    (dict(record={"mirror": "d10"}, service_state="maintenance"),
     "but its boot service svc:/system/svmram:d10 is maintenance"),
    (dict(ramdisks={"svmram_d10": 1}), "ramdisk named svmram_d10 already"),
    (dict(physmem_bytes=512 * MIB), "exceed the ramdisk memory cap"),
    (dict(freemem_bytes=250 * MIB), "less than 10% of memory free"),
])
def test_setup_refusals(changes, message):
    with pytest.raises(RefusedError, match=message):
        planner.choose_intent(article(**changes), "d10")


def test_setup_refuses_a_resyncing_or_degraded_or_full_mirror():
    base = article()
    m = base.mirror
    for mirror, message in [
            (replace(m, resync="active", resync_percent=5), "resync in progress"),
            (replace(m, pending=True), "resync in progress or pending"),
            (replace(m, states=("Okay", "Needs maintenance")), "d12 of d10 is not Okay"),
            (replace(m, slots=("d11",), states=("Okay",)), "1 healthy disk submirror"),
            (replace(m, slots=("d11", "d12", "d14", "d15"), states=("Okay",) * 4),
             "no free slot")]:
        stripes = dict(base.stripes)
        for name in mirror.slots:
            stripes.setdefault(name, StripeView(name, 465885, ("c9d0s0",), "d10"))
        with pytest.raises(RefusedError, match=message):
            planner.choose_intent(base.evolve(mirror=mirror, stripes=stripes), "d10")


def test_size_too_small_is_refused_with_the_size_needed():
    with pytest.raises(RefusedError, match="too small") as info:
        planner.choose_intent(article(), "d10", size=200 * MIB)
    assert info.value.advice == "Use at least --size 228m."


def test_plan_script_is_runnable_ksh_with_waits():
    snap = article()
    intent, notes = planner.choose_intent(snap, "d10")
    plan = planner.plan_setup(snap, intent)
    plan.notes = notes
    script = render_script(plan, lambda name: "/usr/sbin/" + name,
                           PRELUDE)
    assert script.startswith("#!/bin/ksh93\n")
    assert "/usr/sbin/ramdiskadm -a svmram_d10 228m\n" in script
    assert "ln -s /dev/ramdisk/svmram_d10 /dev/dsk/c90t0d0s0\n" in script
    assert "/usr/sbin/metattach d10 d13\nwait_resync d10\n" in script
    assert "/usr/sbin/metaparam -r first d10\n" in script


def test_rollback_of_a_rotate_puts_the_disks_back_in_their_order():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    setup = planner.plan_setup(snap, intent)
    for key, back in [
            # The RAM submirror stays in, one more current copy, while a
            # disk submirror resyncs; it goes last.
            ("detach d11", ["attach d11", "detach d12", "attach d12",
                            "detach d13"]),
            ("attach d11", ["detach d12", "attach d12", "detach d13"]),
            ("detach d12", ["attach d12", "detach d13"]),
            ("attach d12", ["detach d13"])]:
        state = setup.steps[keys(setup).index(key)].expect
        plan = planner.plan_teardown(state, intent, reattach=intent.disks)
        assert keys(plan)[:len(back)] == back, key
        assert keys(plan)[len(back)] == "metaclear d13", key
        assert plan.steps[-1].expect.mirror.slots == ("d11", "d12"), key
        assert differences(snap, plan.steps[-1].expect) == [], key


def test_setup_writes_afresh_a_record_it_did_not_finish():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    plan = planner.plan_setup(snap, intent)
    done = plan.steps[-1].expect
    # The instance is enabled only after the lock is released.
    assert done.service_state == "disabled"
    assert plan.afterwards == [("svcadm", "enable", "-s",
                                "svc:/system/svmram:d10")]
    resumed = planner.plan_setup(done, intent)
    assert keys(resumed) == []
    assert resumed.afterwards == plan.afterwards
    assert planner.plan_setup(done.evolve(service_state="online"),
                              intent).afterwards == []
    for record, state in [({}, "disabled"), ({"mirror": "d10"}, "disabled"),
                          ({"mirror": "d10"}, "uninitialized")]:
        unfinished = done.evolve(record=record, service_state=state)
        assert keys(planner.plan_setup(unfinished, intent)) == [
            "unrecord d10", "record d10"]
        assert keys(planner.plan_teardown(unfinished, intent))[-1] == \
            "unrecord d10"


# --- issue 9: hazards ------------------------------------------------------

def set_up_rotate():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    return snap, intent, planner.plan_setup(snap, intent).steps[-1].expect


def during_boot_copy(done):
    """The boot restore's copy into the new ramdisk is running."""
    m = done.mirror
    return done.evolve(mirror=replace(
        m, states=("Resyncing", "Okay", "Okay"), resync="active",
        resync_percent=20))


def cancelled(snap, submirror):
    """`metasync -c` stopped the resync into `submirror`."""
    m = snap.mirror
    states = tuple("Resync cancelled" if s == submirror else st
                   for s, st in zip(m.slots, m.states))
    return snap.evolve(mirror=replace(m, states=states, resync="cancelled",
                                      pending=True))


def test_teardown_during_the_boot_copy_expects_what_cancel_leaves():
    snap, intent, done = set_up_rotate()
    plan = planner.plan_teardown(during_boot_copy(done), intent)
    assert keys(plan)[:3] == ["read option roundrobin", "cancel resync d10",
                              "detach d13"]
    after_cancel = plan.steps[1].expect
    assert after_cancel.mirror.states == ("Resync cancelled", "Okay", "Okay")
    assert plan.steps[2].do == (Run(("metadetach", "-f", "d10", "d13")),)
    assert differences(snap, plan.steps[-1].expect) == []


def test_teardown_rerun_after_a_cancelled_boot_copy_makes_progress():
    snap, intent, done = set_up_rotate()
    state = cancelled(during_boot_copy(done).evolve(
        mirror=replace(done.mirror, read_option="roundrobin",
                       states=("Resyncing", "Okay", "Okay"))), "d13")
    plan = planner.plan_teardown(state, intent)
    assert keys(plan)[0] == "detach d13"
    assert differences(snap, plan.steps[-1].expect) == []


def test_a_cancelled_resync_into_a_disk_submirror_is_restarted():
    """Setup resumed after a reboot stopped the resync of a disk submirror
    that a rotate had just re-attached: neither setup nor teardown waits
    on a resync that no longer runs, both restart it."""
    snap, intent, _ = set_up_rotate()
    setup = planner.plan_setup(snap, intent)
    state = cancelled(setup.steps[keys(setup).index("attach d11")].expect,
                      "d11")
    assert keys(planner.plan_setup(state, intent))[:3] == [
        "restart resync d10", "wait resync d10", "detach d12"]
    assert keys(planner.plan_teardown(state, intent))[:2] == [
        "restart resync d10", "wait resync d10"]


def test_a_planner_that_does_not_converge_refuses_with_advice():
    snap, intent, done = set_up_rotate()
    plan = planner.Plan("teardown", "d10")
    with pytest.raises(RefusedError, match="cannot plan") as info:
        converge_plan(plan, done, intent,
                      lambda s, it: planner.steps.wait_resync(s, it),
                      "d10", planner.state_command(intent))
    assert "metastat d10" in info.value.advice


@pytest.mark.parametrize("backend", ["svm", "md"])
def test_a_restore_planner_that_loops_refuses_as_the_others_do(
        monkeypatch, backend):
    """One loop limit and one refusal for every planner (plan.MAX_STEPS,
    plan.converge_plan): a looping restore was an AssertionError on SVM
    and a refusal on md, after 64 steps on SVM and 32 on md."""
    import importlib
    from svmram.plan import MAX_STEPS, Step
    restore = importlib.import_module("svmram.%s.restore" % backend)
    calls = []

    def looping(snap, *args):
        calls.append(1)
        return Step(key="again %d" % len(calls), summary="", expect=snap)
    if backend == "svm":
        snap, intent, done = set_up_rotate()
        monkeypatch.setattr(restore, "_next_step", looping)
        run = lambda: restore.plan_restore(done, intent, "retry")
        shown = "metastat d10"
    else:
        from svmram.md.intent import Intent
        from svmram.md import planner as md_planner
        intent = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, True)
        monkeypatch.setattr(restore, "check_kernel", lambda snap: None)
        monkeypatch.setattr(restore, "_next_restore_step", looping)
        run = lambda: restore.plan_restore(object(), intent)
        shown = "mdadm --detail /dev/md0"
        assert md_planner.state_command(intent) == shown
    with pytest.raises(RefusedError, match="cannot plan the restore") as info:
        run()
    assert len(calls) == MAX_STEPS + 1 == 65
    assert info.value.advice == (
        "Nothing was changed.  Check %s by hand and report this state as a "
        "bug." % shown)


def test_a_cleared_mirror_comes_back_from_one_disk_submirror():
    """Nothing proves the cleared disk submirrors still hold the same
    data: one comes back as the mirror, the others are attached with a
    full resync (never an n-way metainit of submirrors not just seen
    Okay)."""
    snap = article(mounted=False, size=465600)
    intent, _ = planner.choose_intent(snap, "d10")
    for plan in (planner.plan_setup(swap_cleared(snap, intent), intent),
                 planner.plan_teardown(swap_cleared(snap, intent), intent)):
        assert plan.steps[0].do == (
            Run(("metainit", "d10", "-m", "d11", "1")),)
        assert "attach d12" in keys(plan)
        assert any("d11" in note for note in plan.notes)
        assert plan.steps[-1].expect.mirror is not None
    back = planner.plan_teardown(swap_cleared(snap, intent), intent)
    assert back.steps[-1].expect.mirror.slots == ("d11", "d12")


def test_a_swap_is_not_redone_unless_every_submirror_is_okay():
    snap = article(mounted=False, size=465600)
    intent, _ = planner.choose_intent(snap, "d10")
    setup = planner.plan_setup(snap, intent)
    attached = setup.steps[keys(setup).index("attach d13")].expect
    m = attached.mirror
    bad = attached.evolve(mirror=replace(m, states=(
        "Okay", "Needs maintenance", "Okay")))
    with pytest.raises(RefusedError, match="d12 is Needs maintenance"):
        planner.plan_setup(bad, intent)


def hand_attached_ram(snap, slot_name="d14"):
    """An admin attached a RAM submirror of their own in slot 2."""
    m = snap.mirror
    stripes = dict(snap.stripes, **{slot_name: StripeView(
        slot_name, 466800, ("c95t0d0s0",), "d10")})
    links = dict(snap.links, **{"dsk/c95t0d0s0": "/dev/ramdisk/mine",
                                "rdsk/c95t0d0s0": "/dev/rramdisk/mine"})
    return snap.evolve(
        mirror=m.with_slots(m.slots + (slot_name,), m.states + ("Okay",)),
        stripes=stripes, links=links, ramdisks={"mine": 239 * MIB},
        metadevices=snap.metadevices | {slot_name})


def test_setup_refuses_a_ram_submirror_it_did_not_create():
    with pytest.raises(RefusedError, match="d14") as info:
        planner.choose_intent(hand_attached_ram(article()), "d10")
    assert "svmram did not create" in info.value.message
    assert "metadetach d10 d14" in info.value.advice


def test_plans_never_touch_a_submirror_svmram_did_not_record():
    snap, intent, done = set_up_rotate()
    setup = planner.plan_setup(snap, intent)
    mid = setup.steps[keys(setup).index("detach d11")].expect
    for state in (hand_attached_ram(mid), hand_attached_ram(done)):
        for plan_it in (planner.plan_setup, planner.plan_teardown):
            with pytest.raises(RefusedError, match="d14"):
                plan_it(state, intent)


def split_off(snap, disk):
    m = snap.mirror
    index = m.slots.index(disk)
    stripes = dict(snap.stripes, **{disk: replace(snap.stripes[disk],
                                                  parent=None)})
    return snap.evolve(mirror=m.with_slots(
        m.slots[:index] + m.slots[index + 1:],
        m.states[:index] + m.states[index + 1:]), stripes=stripes)


def test_teardown_leaves_a_split_off_disk_submirror_alone():
    snap, intent, done = set_up_rotate()
    plan = planner.plan_teardown(split_off(done, "d12"), intent)
    assert "attach d12" not in keys(plan)
    assert plan.steps[-1].expect.mirror.slots == ("d11",)
    assert any("d12 is no longer in d10" in note for note in plan.notes)
    # The admin asks for it back (svmram teardown --reattach).
    plan = planner.plan_teardown(split_off(done, "d12"), intent,
                                 reattach=intent.disks)
    assert keys(plan)[:2] == ["read option roundrobin", "attach d12"]
    assert differences(snap, plan.steps[-1].expect) == []


def test_a_reboot_after_a_rotate_refills_the_ram_submirror_in_place():
    """The disks are in their final order: the RAM submirror is refilled
    with metareplace -e as restore does, not detached and rotated again."""
    snap, intent, _ = set_up_rotate()
    setup = planner.plan_setup(snap, intent)
    moved = setup.steps[keys(setup).index("attach d12")].expect
    ram = moved.stripes["d13"]
    rebooted = moved.evolve(ramdisks={}, stripes=dict(
        moved.stripes, d13=replace(ram, component_states=("Okay",))))
    plan = planner.plan_setup(rebooted, intent)
    assert keys(plan) == ["open d10", "create ramdisk svmram_d10",
                          "enable c90t0d0s0", "wait resync d10",
                          "read option first", "record d10"]
    assert plan.copies_blocks == 465885


def test_a_rollback_says_as_it_was_only_when_metastat_shows_it():
    from svmram.svm.backend import SvmBackend
    snap, intent, _ = set_up_rotate()
    svm = SvmBackend()
    assert svm.rolled_back_text(snap, "d10", intent) == \
        "d10 is as it was before."
    assert svm.rolled_back_text(split_off(snap, "d12"), "d10", intent) == \
        "but d10 is not as it was: it has the submirrors d11 (Okay)."


def test_the_memory_cap_advice_names_the_tunable_file_and_the_value():
    """Issue 9, issue 20: where the tunable lives on this release, and a
    valid value that makes the ramdisk fit, written as the driver reads
    it (a string).  Without kstat's availrmem, availrmem at boot is taken
    as 15/16 of 1 GiB: 300m needs 31.25 %, so 32."""
    from svmram.errors import RefusedError as Refused
    from svmram.svm.planner import check_memory
    from svmram.svm.snapshot import Snapshot
    gib = 1 << 30
    snap = Snapshot("d10", None, physmem_bytes=gib, freemem_bytes=gib)
    cases = [
        (snap, {}, 'Set percent_physmem="32"; in /kernel/drv/ramdisk.conf '
                   "(the driver reads it as a string when it initialises "
                   "at boot) and reboot, then run 'svmram setup d10'."),
        (snap.evolve(ramdisk_conf="/etc/driver/drv/ramdisk.conf"),
         {"restoring": "d10", "retry": "svcadm clear svmram:d10"},
         'Set percent_physmem="32"; in /etc/driver/drv/ramdisk.conf (the '
         "driver reads it as a string when it initialises at boot) and "
         "reboot, then run 'svcadm clear svmram:d10'; until then d10 "
         "serves reads from its disk submirrors."),
        # Issue 27: a statement the kernel drops (no ';' before the end of
        # the file) is named first, as a value added after it would join
        # that statement.
        (snap.evolve(ramdisk_confs=((
            "/kernel/drv/ramdisk.conf",
            'name="ramdisk" parent="pseudo" instance=1024;\n'
            'percent_physmem="40"\n', 0.0),)), {},
         "Correct line 3 of /kernel/drv/ramdisk.conf (the kernel warns: the "
         "file ends before the ';'), then set percent_physmem=\"32\"; in "
         "/kernel/drv/ramdisk.conf (the driver reads it as a string when it "
         "initialises at boot) and reboot, then run 'svmram setup d10'."),
    ]
    for observed, who, advice in cases:
        try:
            check_memory(observed, 300 << 20, **who)
        except Refused as refusal:
            assert refusal.advice == advice
        else:
            raise AssertionError("not refused")


def test_a_resumed_setup_never_opens_the_mirror_while_another_ramdisk_exists():
    """A setup has no record of the device number SVM took for the RAM
    component, so any other ramdisk might hold it: the mirror is fenced
    (the RAM submirror detached, no I/O to it) instead of opened, then
    the RAM submirror is rebuilt on a fresh ramdisk with a full resync."""
    snap, intent, _ = set_up_rotate()
    setup = planner.plan_setup(snap, intent)
    moved = setup.steps[keys(setup).index("attach d12")].expect
    ram = moved.stripes["d13"]
    rebooted = moved.evolve(
        ramdisks={"other": 1 << 20}, ramdisk_devs={"other": "250,1"},
        stripes=dict(moved.stripes, d13=replace(
            ram, component_states=("Okay",))))
    plan = planner.plan_setup(rebooted, intent)
    assert "open d10" not in keys(plan)
    assert keys(plan)[:3] == ["detach d13", "metaclear d13",
                              "create ramdisk svmram_d10"]


def test_auto_does_not_swap_a_mirror_that_other_metadevices_use():
    """A soft partition (or any metadevice) built on the mirror keeps SVM
    from clearing it (metadevice in use): auto picks rotate and says why,
    and --method swap is refused before anything changes (issue 9)."""
    snap = article(mounted=False, size=465600).evolve(users=("d50",))
    intent, notes = planner.choose_intent(snap, "d10")
    assert intent.method == "rotate"
    assert notes[0] == ("auto chose rotate: d10 is in use by d50, and SVM "
                        "will not clear a metadevice that another is built "
                        "on.")
    with pytest.raises(RefusedError, match="cannot use swap: d10 is in use "
                                           "by d50"):
        planner.choose_intent(snap, "d10", method="swap")


# --- slots (issue 10 section 3) ----------------------------------------------

def test_where_detach_leaves_a_hole_ram_fills_slot_0_with_one_disk_resync():
    snap = article(detach_compacts=False, slot_evidence="probe")
    intent, notes = planner.choose_intent(snap, "d10")
    assert intent.method == "rotate"
    assert notes[1].startswith("Metadetach leaves a hole in the slots here "
                               "(probe), so the slot-0 disk submirror is "
                               "detached")
    plan = planner.plan_setup(snap, intent)
    assert keys(plan) == [
        "create ramdisk svmram_d10", "link c90t0d0s0", "metainit d13",
        "detach d11", "attach d13", "attach d11", "read option first",
        "record d10"]
    states = [step.expect.mirror for step in plan.steps[3:6]]
    assert [(m.slots, m.numbers) for m in states] == [
        (("d12",), (1,)), (("d13", "d12"), (0, 1)),
        (("d13", "d12", "d11"), (0, 1, 2))]
    assert plan.copies_blocks == 2 * 465885

    down = planner.plan_teardown(plan.steps[-1].expect, intent)
    assert keys(down) == [
        "read option roundrobin", "detach d13", "detach d11", "attach d11",
        "metaclear d13", "unlink c90t0d0s0", "delete ramdisk svmram_d10",
        "unrecord d10"]
    final = down.steps[-1].expect.mirror
    assert (final.slots, final.numbers) == (("d11", "d12"), (0, 1))
    assert down.copies_blocks == 465885


def test_the_rotate_depends_on_the_slot_behaviour_when_it_is_unknown():
    snap = article(detach_compacts=None, slot_evidence="Solaris 10")
    intent, notes = planner.choose_intent(snap, "d10")
    assert notes[1] == ("Whether metadetach leaves a hole in the slots here "
                        "is not known yet (Solaris 10).")
    with pytest.raises(planner.SlotBehaviourUnknown) as refused:
        planner.plan_setup(snap, intent)
    assert "(Solaris 10)" in refused.value.message
    # A swap never detaches a disk submirror: nothing to know.
    closed = article(mounted=False, size=465600, detach_compacts=None)
    intent, _ = planner.choose_intent(closed, "d10")
    assert intent.method == "swap"
    assert "swap d10" in keys(planner.plan_setup(closed, intent))


def test_a_free_slot_0_takes_the_ram_submirror_without_a_disk_resync():
    """The mirror shows a hole at slot 0: one attach puts RAM first, the
    same whatever metadetach does, so nothing needs to be known."""
    hole = replace(article().mirror, numbers=(1, 2))
    snap = article(mirror=hole, detach_compacts=None)
    intent, _ = planner.choose_intent(snap, "d10")
    plan = planner.plan_setup(snap, intent)
    assert keys(plan)[3:5] == ["attach d13", "read option first"]
    final = plan.steps[-1].expect.mirror
    assert (final.slots, final.numbers) == (("d13", "d11", "d12"), (0, 1, 2))
    assert plan.copies_blocks == 465885
    # Teardown detaches it and the disks stay in their slots and order.
    down = planner.plan_teardown(plan.steps[-1].expect, intent)
    assert keys(down)[:2] == ["read option roundrobin", "detach d13"]
    assert down.steps[-1].expect.mirror.slots == ("d11", "d12")


def test_slot_moves_never_detach_the_last_disk_submirror():
    for compacts in (True, False):
        moves = planner.slot_moves(
            ((0, "d11"), (1, "d12")), "d13", ("d11", "d12"),
            planner._setup_goal("d13", ("d11", "d12")), compacts)
        state = [(0, "d11"), (1, "d12")]
        for kind, name in moves:
            if kind == "detach":
                state = [(s, n) for s, n in state if n != name]
                if compacts:
                    state = [(i, n) for i, (_, n) in enumerate(state)]
                assert any(n in ("d11", "d12") for _, n in state)
            else:
                free = min(set(range(4)) - {s for s, _ in state})
                state = sorted(state + [(free, name)])
        assert state[0][1] == "d13"
    assert planner.slot_moves(((0, "d11"), (1, "d12")), "d13", ("d11", "d12"),
                              planner._setup_goal("d13", ("d11", "d12")),
                              True) == [
        ("attach", "d13"), ("detach", "d11"), ("attach", "d11"),
        ("detach", "d12"), ("attach", "d12")]


def test_a_wrong_slot_behaviour_is_caught_after_the_detach():
    snap = article()
    intent, _ = planner.choose_intent(snap, "d10")
    plan = planner.plan_setup(snap, intent)
    after = plan.steps[keys(plan).index("detach d11")].expect
    holed = after.evolve(mirror=replace(after.mirror, numbers=(1, 2)))
    assert differences(after, holed) == [
        "d10 has its submirrors in slots d12 in 1, d13 in 2, expected d12 "
        "in 0, d13 in 1 (metadetach does not compact the slots on this "
        "host)"]


# --- labels ------------------------------------------------------------------

UNLABELED = dict(labels={"d11": False, "d12": False},
                 label_evidence={"d11": "c0d1s0 starts at sector 945",
                                 "d12": "c1d0s0 starts at sector 945"})


def test_an_unlabeled_mirror_is_refused_by_the_attaching_methods():
    for mounted, method in ((True, "rotate"), (False, "swap")):
        snap = article(mounted=mounted, size=465600, **UNLABELED)
        with pytest.raises(RefusedError) as refused:
            planner.choose_intent(snap, "d10", method=method,
                                  allow_label=True)
        assert refused.value.message == (
            "cannot use %s: d10 is not labeled (c0d1s0 starts at sector "
            "945; c1d0s0 starts at sector 945), and SVM refuses to attach a "
            "labeled submirror to an unlabeled mirror (a ramdisk stripe is "
            "always labeled), which %s needs" % (method, method))


def test_an_open_unlabeled_mirror_is_refused_with_the_copy_window():
    """Issue 20 §1: the copy method needs the mirror closed for as long as
    it takes to read it twice; check shows the same window."""
    snap = article(mounted=True, size=465600, **UNLABELED)
    with pytest.raises(RefusedError) as refused:
        planner.choose_intent(snap, "d10", allow_label=True)
    assert refused.value.message == (
        "d10 is mounted on /mnt; its submirrors are not labeled (c0d1s0 "
        "starts at sector 945; c1d0s0 starts at sector 945), so SVM refuses "
        "to attach a RAM submirror, and the RAM submirror can only be "
        "filled while d10 is closed, for about 16 seconds (227.3 MiB read "
        "twice, to copy and to compare, at an assumed 30 MiB/s disk read "
        "speed)")
    assert "svmram setup --allow-label d10" in refused.value.advice


def test_a_closed_unlabeled_mirror_needs_allow_label():
    snap = article(mounted=False, size=465600, **UNLABELED)
    with pytest.raises(RefusedError) as refused:
        planner.choose_intent(snap, "d10")
    assert "SVM then refuses every write that starts at its block 0" in \
        refused.value.message
    assert refused.value.advice.startswith("Nothing was changed.")
    intent, notes = planner.choose_intent(snap, "d10", allow_label=True)
    assert intent.method == "copy"
    assert notes[0].startswith("copy: d10 is not labeled")


def test_one_labeled_submirror_makes_the_mirror_labeled():
    snap = article(labels={"d11": False, "d12": True})
    intent, _ = planner.choose_intent(snap, "d10")
    assert intent.method == "rotate"
    # Unknown labels are not refused: a refused attach changes nothing.
    snap = article(labels={"d11": None, "d12": False})
    assert planner.choose_intent(snap, "d10")[0].method == "rotate"


def test_prtvtoc_rows_in_both_layouts_give_the_first_sector():
    from svmram.svm import labels
    old = ("       0      0    00        945    465885    466829\n"
           "       2      5    01          0    466830    466829\n")
    new = ("       0      2    00          0      465885      465884   /a\n"
           "       8     11    00     465885       16384      482268\n")
    assert labels.parse_prtvtoc(old) == {0: 945, 2: 0}
    assert labels.parse_prtvtoc(new) == {0: 0, 8: 465885}
    assert labels.stripe_label("c0d1s0", 0, old) == (
        False, "c0d1s0 starts at sector 945")
    assert labels.stripe_label("c0d1s0", 0, new) == (
        True, "c0d1s0 starts at sector 0")
    assert labels.stripe_label("c0d1s0", 8208, new)[0] is False
    assert labels.stripe_label("c0d1s3", 0, new)[0] is None
    assert labels.stripe_label("d20", 0, new)[0] is None
    assert labels.stripe_label("c0d1s0", 0, "garbage\n")[0] is None
    assert labels.stripe_label("c0d1s0", 0, None)[0] is None
    assert labels.mirror_label({"d11": False, "d12": None}) is None
    assert labels.release_compacts(
        "  OmniOS v11 r151022\n") is True
    assert labels.release_compacts(
        "   Oracle Solaris 11.4 X86\n") is None


def test_teardown_of_a_swap_needs_no_slot_behaviour():
    """Detaching the RAM submirror from [RAM, d11, d12] leaves the disks in
    their order whatever metadetach does: nothing to test first."""
    snap = article(mounted=False, size=465600, detach_compacts=None)
    intent, _ = planner.choose_intent(snap, "d10")
    done = planner.plan_setup(snap, intent).steps[-1].expect
    assert (done.mirror.slots, done.mirror.numbers) == (
        ("d13", "d11", "d12"), (0, 1, 2))
    down = planner.plan_teardown(done, intent)
    assert keys(down)[:3] == ["read option roundrobin", "detach d13",
                              "metaclear d13"]
    # The numbers after that detach are not known, so not checked.
    assert down.steps[1].expect.mirror.numbers == ()


def test_a_copy_method_mirror_is_known_labeled_only_from_what_proves_it():
    """metastat does not show MD_LABELED: a rerun of the copy method's
    setup takes the mirror as labeled when the RAM submirror is in it, or
    when slot 0 is free and a recorded disk submirror is out (the moves
    after the rebuild on a hole-leaving host); not from a mirror
    recreated part-way from one disk, nor from a hole the mirror had
    before setup."""
    snap = article(mounted=False, detach_compacts=False,
                   slot_evidence="probe", **UNLABELED)
    intent, _ = planner.choose_intent(snap, "d10", allow_label=True)
    clean = planner.plan_setup(snap, intent)
    assert keys(clean)[2:8] == [
        "metainit d13", "copy d10", "detach d11", "detach d13", "attach d13",
        "attach d11"]
    # What a rerun observes: the RAM concat made (on its ramdisk, linked),
    # the mirror as given, and no model knowledge of the copy.
    made = clean.steps[2].expect

    def state(slots, numbers):
        mirror = MirrorView("d10", slots, ("Okay",) * len(slots),
                            size_blocks=465885, numbers=numbers)
        stripes = {name: replace(stripe, parent="d10" if name in slots
                                 else None)
                   for name, stripe in made.stripes.items()}
        return made.evolve(mirror=mirror, stripes=stripes)
    for slots, numbers, labeled in [
            (("d11", "d12"), (0, 1), False),            # before the copy
            (("d11", "d12"), (1, 2), False),            # an old hole
            (("d11",), (0,), False),                    # from one disk
            (("d11", "d13", "d12"), (0, 1, 2), True),
            (("d13", "d12"), (1, 2), True),
            (("d12",), (2,), True),                     # RAM out, hole at 0
            (("d13", "d12"), (0, 2), True)]:
        assert planner.labeled_already(state(slots, numbers), intent) is \
            labeled, slots
    # From the last of those moves' states the rerun attaches the RAM
    # submirror (its label blocks first) and then d11, not copy again.
    plan = planner.plan_setup(state(("d12",), (2,)), intent)
    assert keys(plan)[:2] == ["attach d13", "attach d11"]
    assert clean.steps[6].do == (Run(("metattach", "d10", "d13")),)
    assert plan.steps[0].do == (
        Run(("dd", "if=/dev/md/rdsk/d12", "of=/dev/rramdisk/svmram_d10",
             "bs=512", "count=2")), Run(("metattach", "d10", "d13")))
    final = plan.steps[1].expect.mirror
    assert (final.slots, final.numbers) == (("d13", "d11", "d12"),
                                            (0, 1, 2))


def test_a_resync_that_ended_before_its_cancel_is_no_difference():
    """'metasync -c' of a mirror whose resync has just ended cancels
    nothing (mirror_ioctl_resync returns 0): the RAM submirror promised as
    Resync cancelled is Okay, which is no failure; any other state is."""
    promised = article(mirror=MirrorView(
        "d10", ("d13", "d11", "d12"),
        ("Resync cancelled", "Okay", "Okay"), size_blocks=465885,
        numbers=(0, 1, 2)))
    ended = promised.evolve(mirror=replace(
        promised.mirror, states=("Okay", "Okay", "Okay")))
    assert differences(promised, ended) == []
    running = promised.evolve(mirror=replace(
        promised.mirror, states=("Resyncing", "Okay", "Okay")))
    assert differences(promised, running) == [
        "d13 is Resyncing, expected Resync cancelled"]
