# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The plans against the states a real kernel reached (fixtures/vm-*,
captured by tests/vm on Debian's 6.1): what each plan promises must be
what the kernel then showed, and execute.py must carry each plan through
a fake tree that moves from one captured state to the next."""

import io
import os
from dataclasses import replace

from svmram import run
from svmram.execute import Polling, execute
from svmram.md import host as md_host
from svmram.md import parse, planner, restore
from svmram.md.host import MdHost
from svmram.md.intent import Intent
from svmram.md.model import Brd
from svmram.md.snapshot import differences
from svmram.progress import Progress

import fakekernel
import faketree
from faketree import fixture

CREATED = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, True)
GROWN = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, False)


def observe(tmp_path, name, sub="t"):
    root = faketree.build(str(tmp_path / sub), fixture(name))
    return MdHost("md0", root=root).observe()


def test_every_captured_mdstat_parses():
    names = sorted(os.listdir(faketree.FIXTURES))
    for name in names:
        if name.endswith(".mdstat.txt"):
            parse.mdstat(fixture(name))
    restoring = parse.mdstat(fixture("vm-restoring.mdstat.txt"))["md0"]
    assert restoring["progress"] == ("recovery", 30592, 130048)
    assert restoring["raid"] == (3, 2, "_UU")
    assert restoring["members"]["ram0"] == {"number": 3, "flags": ""}
    torn = parse.mdstat(fixture("vm-after-teardown.mdstat.txt"))["md0"]
    assert torn["raid"] == (2, 2, "UU") and set(torn["members"]) == {
        "vda", "vdb"}


def test_setup_on_the_existing_array_promises_what_the_kernel_showed(
        tmp_path):
    before = observe(tmp_path, "vm-after-teardown.sysfs.txt", "a")
    it, _ = planner.choose_setup(before, "md0")
    assert it == GROWN
    plan = planner.plan_setup(before, it)
    after = observe(tmp_path, "vm-after-setup-existing.sysfs.txt", "b")
    assert differences(plan.steps[-1].expect, after) == []
    assert planner.plan_setup(after, it).steps == []


def test_teardown_promises_what_the_kernel_showed(tmp_path):
    before = observe(tmp_path, "vm-after-setup-new.sysfs.txt", "a")
    plan = planner.plan_teardown(before, CREATED)
    after = observe(tmp_path, "vm-after-teardown.sysfs.txt", "b")
    assert differences(plan.steps[-1].expect, after) == []
    assert planner.plan_teardown(after, CREATED).steps == []


def test_the_restored_member_in_recovery_is_what_restore_promised(tmp_path):
    """restoring: just after restore's --add, md recovering ram0 (a torn
    read: sync_action already idle while ram0 still shows its
    recovery_start -- md between ending the recovery and marking ram0 in
    sync).  The state before --add is that tree without ram0 and brd."""
    restoring = observe(tmp_path, "vm-restoring.sysfs.txt", "a")
    started = restoring.evolve(array=restoring.array.without_member("ram0"),
                               brd=Brd())
    plan = restore.plan_restore(started, CREATED)
    assert [s.key for s in plan.steps] == [
        "load brd", "raise speed md0", "add ram0"]
    assert [argv for s in plan.steps for argv in s.commands] == [
        ("modprobe", "brd", "rd_nr=1", "rd_size=131072"),
        ("mdadm", "/dev/md0", "--add", "/dev/ram0")]
    # Captured before svmram raised md's limit for the copy.
    raised = restoring.evolve(array=replace(restoring.array,
                                            speed_max=(2147483647, True)))
    assert differences(plan.steps[-1].expect, raised) == []
    assert restore.plan_restore(raised, CREATED).steps == []


def test_the_torn_read_of_a_finishing_recovery_still_waits(tmp_path):
    root = faketree.build(str(tmp_path), fixture("vm-restoring.sysfs.txt"))
    status = MdHost("md0", root=root).resync_status("md0")
    assert status.active is True and status.problem is None


# --- whole plans through execute.py on a fake kernel -------------------------

class FakeKernel(MdHost):
    """Moves the fake tree as the kernel did: sysfs writes change the
    member's state words (fakekernel.sysfs_write at svmram's seam, which
    the test puts there); each command jumps to the captured state it led
    to (`states`: command name -> fixture, or a function)."""

    def __init__(self, root, states):
        super().__init__("md0", root=root, runner=self._command)
        self.states = states
        self.argvs = []

    def _command(self, name, args, check=True):
        self.argvs.append(tuple([name] + list(args)))
        state = self.states.pop(0)
        state(self.root)
        return run.Result(tuple([name] + list(args)), 0, "", "")


def jump(name, keep_brd=True):
    def apply(root):
        # mdadm does not touch the array's speed limits: keep them.
        limits = {}
        for attr in SPEED_LIMITS:
            path = faketree.path_in(root, attr)
            if os.path.exists(path):
                with open(path) as stream:
                    limits[attr] = stream.read().rstrip("\n")
        faketree.remove(root, "/sys/block/md0")
        if not keep_brd:
            faketree.remove(root, "/sys/module/brd")
            faketree.remove(root, "/sys/block/ram0")
        faketree.build(root, fixture(name), meminfo=None)
        for attr, value in limits.items():
            faketree.write(root, attr, value)
    return apply


SPEED_LIMITS = ("/sys/block/md0/md/sync_speed_min",
                "/sys/block/md0/md/sync_speed_max")


def remove_ram_member(root):
    faketree.remove(root, "/sys/block/md0/md/dev-ram0")
    faketree.remove(root, "/sys/block/ram0/holders/md0")
    faketree.write(root, "/sys/block/md0/md/degraded", "1")


def load_brd(root):
    for line in fixture("vm-after-setup-existing.sysfs.txt").splitlines():
        if "/sys/module/brd" in line:
            faketree.build(root, line, meminfo=None)
    os.makedirs(faketree.path_in(root, "/sys/block/ram0/holders"))


def unload_brd(root):
    faketree.remove(root, "/sys/module/brd")
    faketree.remove(root, "/sys/block/ram0")


def test_teardown_then_setup_again_through_execute(tmp_path, monkeypatch):
    monkeypatch.setattr(md_host, "sysfs_write", fakekernel.sysfs_write)
    root = faketree.build(str(tmp_path), fixture(
        "vm-after-setup-new.sysfs.txt"))
    kernel = FakeKernel(root, [
        remove_ram_member,                         # --fail --remove
        jump("vm-after-teardown.sysfs.txt"),       # --grow -n2
        unload_brd])                               # rmmod
    plan = planner.plan_teardown(kernel.observe(), CREATED)
    execute(plan, kernel, None, Progress(io.StringIO()))
    assert kernel.argvs == [
        ("mdadm", "/dev/md0", "--fail", "/dev/ram0", "--remove", "/dev/ram0"),
        ("mdadm", "--grow", "/dev/md0", "--raid-devices=2"),
        ("rmmod", "brd")]
    assert planner.plan_teardown(kernel.observe(), CREATED).steps == []

    def grown(root):
        """The state after --grow -n3 --add: the captured one, before the
        write-mostly flags (setup's next steps) were set."""
        jump("vm-after-setup-existing.sysfs.txt")(root)
        for disk in ("vda", "vdb"):
            faketree.write(root, "/sys/block/md0/md/dev-%s/state" % disk,
                           "in_sync")

    kernel = FakeKernel(root, [load_brd, grown])
    snap = kernel.observe()
    it, _ = planner.choose_setup(snap, "md0")
    plan = planner.plan_setup(snap, it)
    execute(plan, kernel, None, Progress(io.StringIO()),
            polling=Polling(limit=5), sleep=lambda s: None)
    assert kernel.argvs == [
        ("modprobe", "brd", "rd_nr=1", "rd_size=131072"),
        ("mdadm", "--grow", "/dev/md0", "--raid-devices=3", "--add",
         "/dev/ram0")]
    final = kernel.observe()
    assert final.array.speed_max == (200000, False)     # put back
    assert [(m.name, sorted(m.flags)) for m in final.array.members] == [
        ("ram0", ["in_sync"]), ("vda", ["in_sync", "write_mostly"]),
        ("vdb", ["in_sync", "write_mostly"])]
    assert planner.plan_setup(final, it).steps == []
