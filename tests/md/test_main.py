# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md entry point (svmram.md.main, which the VM tests drive with power
cuts; systemd/svmram@.service runs the svmram command's restore and stop)
on a kernel simulated from the planners' own promises: the record is
written before anything changes and removed last, a setup resumes from
it, restore waits for the recorded disks, stands aside for a teardown
cut short, and stop leaves the array for a clean assembly.  tests/vm runs
the same entry point on a real kernel, with power cuts."""

import io
import json
import os
from dataclasses import replace


from svmram.execute import Polling, ResyncStatus
from svmram.md import main
from svmram.md.model import Array, Brd, Disk, Member
from svmram.md.snapshot import Snapshot

KERNEL = (6, 1, 0, "6.1.0-56-cloud-amd64")


def m(name, slot, *flags):
    return Member(name, slot, frozenset(flags or ("in_sync",)), 2048)


def plain():
    return Snapshot("md0", Array("md0", "raid1", 2, "clean",
                                 (m("vda", 0), m("vdb", 1)),
                                 component_kib=261120, bitmap="+8"),
                    disks={"vda": Disk("vda", 524288),
                           "vdb": Disk("vdb", 524288)},
                    kernel=KERNEL, mem_total_kib=4000000,
                    mem_available_kib=3000000)


class Kernel:
    """Each step does exactly what it promised; `log` lists the step
    keys.  `boots` is a list of snapshots observe() returns first (udev
    still adding disks), one per call."""

    def __init__(self, snap, boots=()):
        self.snap = snap
        self.boots = list(boots)
        self.log = []
        self.record_seen = []

    def backend(self, array, disks=()):
        return self

    def observe(self, intent=None):
        if self.boots:
            return self.boots.pop(0)
        return self.snap

    def perform(self, step, values):
        self.log.append(step.key)
        self.snap = step.expect

    def differences(self, expected, observed):
        return []

    def resync_status(self, target):
        return ResyncStatus(False)


def run(kernel, op, tmp_path, *disks, **kw):
    out, err = io.StringIO(), io.StringIO()
    rc = main.run(op, "md0", disks, record=str(tmp_path / "md0.json"),
                  out=out, err=err, make_backend=kernel.backend,
                  polling=Polling(first=0, most=0), sleep=lambda s: None,
                  **kw)
    return rc, out.getvalue(), err.getvalue()


def test_setup_writes_the_record_before_the_first_step(tmp_path):
    kernel = Kernel(plain())
    record = tmp_path / "md0.json"
    seen = []
    perform = kernel.perform
    kernel.perform = lambda step, values: (seen.append(record.exists()),
                                           perform(step, values))
    rc, out, err = run(kernel, "setup", tmp_path)
    assert (rc, err) == (0, "")
    assert seen == [True] * 6
    assert kernel.log == ["load brd", "raise speed md0", "grow-add ram0",
                          "writemostly vda", "writemostly vdb",
                          "reset speed md0"]
    assert json.loads(record.read_text())["rd_size_kib"] == 262144
    assert "setup md0: done (6 steps)" in out


def test_a_setup_cut_short_resumes_from_its_record(tmp_path):
    kernel = Kernel(plain())
    kernel.perform = lambda step: (_ for _ in ()).throw(OSError(5, "EIO"))
    rc, _, err = run(kernel, "setup", tmp_path)
    assert rc == 1 and "step 1 failed" in err
    kernel = Kernel(plain())
    rc, out, _ = run(kernel, "setup", tmp_path)
    assert rc == 0 and kernel.log[0] == "load brd"


def test_a_second_setup_is_refused(tmp_path):
    kernel = Kernel(plain())
    assert run(kernel, "setup", tmp_path)[0] == 0
    rc, _, err = run(kernel, "setup", tmp_path)
    assert rc == 3 and "md0 is set up already" in err


def test_restore_teardown_and_status_need_the_record(tmp_path):
    # stop has nothing to do then: test_stop_without_a_record_...
    for op in ("restore", "teardown", "status"):
        rc, _, err = run(Kernel(plain()), op, tmp_path)
        assert rc == 3 and "no record" in err, op


def test_stop_then_restore_then_teardown(tmp_path):
    kernel = Kernel(plain())
    run(kernel, "setup", tmp_path)
    assert run(kernel, "stop", tmp_path)[0] == 0
    assert kernel.log[-3:] == ["fail-remove ram0", "shrink md0",
                               "unload brd"]
    assert run(kernel, "restore", tmp_path)[0] == 0
    assert kernel.log[-3:] == ["load brd", "raise speed md0",
                               "grow-add ram0"]
    rc, out, _ = run(kernel, "teardown", tmp_path)
    assert rc == 0 and not (tmp_path / "md0.json").exists()
    assert not (tmp_path / "md0.json.teardown").exists()
    end = kernel.snap.array
    assert (end.raid_disks, [(x.name, x.flags) for x in end.members]) == \
        (2, [("vda", {"in_sync"}), ("vdb", {"in_sync"})])


def test_restore_stands_aside_while_a_teardown_is_cut_short(tmp_path):
    kernel = Kernel(plain())
    run(kernel, "setup", tmp_path)
    kernel.perform = lambda step: (_ for _ in ()).throw(OSError(5, "EIO"))
    assert run(kernel, "teardown", tmp_path)[0] == 1
    rc, _, err = run(kernel, "restore", tmp_path)
    assert rc == 3 and "a teardown of md0 was cut short" in err
    assert "teardown md0 finishes it" in err
    # The unit's stop (at shutdown, or teardown's disable --now) leaves
    # the array to the teardown and succeeds, so the unit does not fail.
    done = len(kernel.log)
    rc, out, _ = run(kernel, "stop", tmp_path)
    assert (rc, kernel.log[done:]) == (0, [])
    assert out == ("stop md0: a teardown of it is running or was cut short, "
                   "and finishes it; nothing to stop\n")


def test_stop_without_a_record_has_nothing_to_stop(tmp_path):
    kernel = Kernel(plain())
    rc, out, _ = run(kernel, "stop", tmp_path)
    assert (rc, kernel.log) == (0, [])
    assert out == ("stop md0: not set up by svmram (no record %s); nothing "
                   "to stop\n" % (tmp_path / "md0.json"))


def test_restore_waits_for_the_recorded_disks_before_running_the_array(
        tmp_path):
    kernel = Kernel(plain())
    run(kernel, "setup", tmp_path)
    # a power cut: udev has added vda only, then vdb; both inactive
    inactive = replace(kernel.snap, brd=Brd(), array=Array(
        "md0", "", 0, "inactive", (m("vda", None, "spare"),),
        component_kib=261120))
    both = replace(inactive, array=replace(inactive.array, members=(
        m("vda", None, "spare"), m("vdb", None, "spare"))))
    kernel.snap = both
    kernel.boots = [replace(inactive, array=None), inactive]
    del kernel.log[:]
    rc, out, err = run(kernel, "restore", tmp_path)
    assert "waiting up to 20 s for the array to be assembled" in out
    assert kernel.log[0] == "run md0"
    assert kernel.boots == []


def test_restore_gives_up_waiting_and_lets_the_planner_judge(tmp_path):
    kernel = Kernel(plain())
    run(kernel, "setup", tmp_path)
    kernel.snap = replace(kernel.snap, array=None, brd=Brd())
    clock = iter(range(0, 100, 5))
    rc, out, err = run(kernel, "restore", tmp_path, clock=lambda: next(
        clock))
    assert rc == 3 and "md0 is not assembled" in err


def test_dry_run_prints_the_script_and_changes_nothing(tmp_path):
    kernel = Kernel(plain())
    rc, out, _ = run(kernel, "setup", tmp_path, dry_run=True)
    assert rc == 0 and kernel.log == []
    assert "--grow /dev/md0 --raid-devices=3 --add /dev/ram0" in out
    assert not (tmp_path / "md0.json").exists()


def test_status_prints_the_entry_and_exits_with_its_verdict(tmp_path):
    kernel = Kernel(plain())
    run(kernel, "setup", tmp_path)
    rc, out, _ = run(kernel, "status", tmp_path)
    assert rc == 0 and json.loads(out)["verdict"] == "serving"
    run(kernel, "stop", tmp_path)
    rc, out, _ = run(kernel, "status", tmp_path)
    assert rc == 4 and json.loads(out)["verdict"] == "not_serving"


def test_the_command_line(capsys):
    assert main.main(["frob", "md0"]) == 2
    assert main.main(["restore"]) == 2
    assert main.main(["restore", "md0", "vda"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_a_failed_step_says_how_to_continue(tmp_path):
    kernel = Kernel(plain())
    kernel.perform = lambda step: (_ for _ in ()).throw(OSError(5, "EIO"))
    rc, _, err = run(kernel, "setup", tmp_path)
    assert rc == 1
    assert "setup md0 again continues from here" in err


def test_a_teardown_refused_before_its_first_step_leaves_no_marker(tmp_path):
    kernel = Kernel(plain())
    run(kernel, "setup", tmp_path)
    a = kernel.snap.array
    for disk in ("vda", "vdb"):
        a = a.with_member(m(disk, None, "spare", "write_mostly"))
    kernel.snap = replace(kernel.snap, array=a)
    rc, _, err = run(kernel, "teardown", tmp_path)
    assert rc == 3 and "lose the only copy" in err
    assert not (tmp_path / "md0.json.teardown").exists()
    assert (tmp_path / "md0.json").exists()


def test_a_sysfs_attribute_is_read_with_one_read_call(tmp_path, monkeypatch):
    """md's prealloc attributes answer each read(2) from a new show(): a
    second read after the state changed returned the tail of the new
    text, and the backend saw 'active\\nidle\\n' on a real kernel.  The
    entry point's backend reads each attribute with one read(2)."""
    path = tmp_path / "sys/block/md0/md/array_state"
    path.parent.mkdir(parents=True)
    path.write_text("active\n")
    (tmp_path / "proc").mkdir()
    shows = [b"active\n", b"idle\n"]     # then md is active-idle
    calls = []
    real = os.read

    def prealloc_read(fd, size):
        calls.append(size)
        real(fd, size)
        return shows[len(calls) - 1] if len(calls) <= 2 else b""

    monkeypatch.setattr(os, "read", prealloc_read)
    backend = main.MdHost("md0", root=str(tmp_path))
    assert backend._read("/sys/block/md0/md/array_state") == "active\n"
    assert len(calls) == 1 and calls[0] >= 4096
    assert backend._read("/sys/block/md0/md/none") is None
    monkeypatch.setattr(os, "read", real)
    (tmp_path / "proc/meminfo").write_text("MemTotal: 1 kB\n")
    assert backend._read("/proc/meminfo") == "MemTotal: 1 kB\n"
