# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""MdHost on fake sysfs trees written from the states tests/vm
captured on Debian's 6.1 kernel (fixtures/vm-*.sysfs.txt): what it
observes, what it writes and runs, how it reports a resync, and a whole
setup executed against a runner that moves the tree to the next real
state."""

import io
import os

import pytest

from svmram import run
from svmram.actions import Run, WriteFile
from svmram.errors import ParseError, SvmramError
from svmram.execute import Polling, execute
from svmram.md import host as md_host
from svmram.md import planner, programs
from svmram.md.host import MdHost, kernel_name, wait_for_disks
from svmram.md.intent import Intent
from svmram.md.model import Array, Brd, Disk, Member
from svmram.md.restore import plan_restore
from svmram.md.snapshot import Snapshot
from svmram.plan import Step
from svmram.progress import Progress

import faketree
from faketree import fixture


class Runner:
    """Records each argv; `then` maps a command name to a function that
    changes the fake tree as the kernel would have."""

    def __init__(self, then=None):
        self.argvs = []
        self.then = then or {}

    def __call__(self, name, args, check=True):
        self.argvs.append(tuple([name] + list(args)))
        if name in self.then:
            self.then[name](args)
        return run.Result(tuple([name] + list(args)), 0, "", "")


def tree(tmp_path, name):
    return faketree.build(str(tmp_path), fixture(name))


def test_observe_the_new_array_as_captured(tmp_path):
    backend = MdHost("md0", root=tree(tmp_path,
                                         "vm-after-setup-new.sysfs.txt"))
    snap = backend.observe()
    a = snap.array
    assert (a.level, a.raid_disks, a.state, a.metadata, a.component_kib) == \
        ("raid1", 3, "clean", "1.2", 130048)
    assert a.members == (
        Member("ram0", 0, frozenset(["in_sync"]), 2048, None),
        Member("vda", 1, frozenset(["in_sync", "write_mostly"]), 2048, None),
        Member("vdb", 2, frozenset(["in_sync", "write_mostly"]), 2048, None))
    assert (a.bitmap, a.backlog, a.sync_action, a.resync_start,
            a.sync_completed, a.degraded) == ("+8", 0, "idle", None, None, 0)
    assert (a.speed_min, a.speed_max) == ((1000, False), (200000, False))
    assert snap.brd == Brd(True, False, 131072, 1, ("ram0",),
                           {"ram0": ("md0",)})
    assert snap.disks == {"vda": Disk("vda", 262144, ("md0",)),
                          "vdb": Disk("vdb", 262144, ("md0",))}
    assert snap.kernel == (6, 1, 0, "6.1.0-56-cloud-amd64")
    assert (snap.mem_total_kib, snap.mem_available_kib) == (1000000, 900000)


def test_observe_the_inactive_array_as_captured(tmp_path):
    snap = MdHost("md0", root=tree(tmp_path,
                                      "vm-inactive.sysfs.txt")).observe()
    a = snap.array
    assert (a.level, a.raid_disks, a.state, a.running) == ("", 0, "inactive",
                                                           False)
    assert [(x.name, x.role) for x in a.members] == [("vda", "spare"),
                                                     ("vdb", "spare")]
    assert snap.brd == Brd()


def test_observe_without_the_array(tmp_path):
    backend = MdHost("md0", root=tree(tmp_path, "vm-before.sysfs.txt"),
                        disks=("vda", "vdb", "vdz"))
    snap = backend.observe()
    assert snap.array is None and snap.brd == Brd()
    assert sorted(snap.disks) == ["vda", "vdb"]      # no vdz on this host


def test_observe_refuses_an_attribute_it_does_not_know(tmp_path):
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    faketree.write(root, "/sys/block/md0/md/dev-vda/state",
                   "in_sync,write_mostly,shiny")
    with pytest.raises(ParseError, match="unknown member state"):
        MdHost("md0", root=root).observe()


def test_observe_sees_mounts_and_partitions(tmp_path):
    root = tree(tmp_path, "vm-before.sysfs.txt")
    faketree.write(root, "/sys/block/vdb/vdb1/partition", "1")
    faketree.write(root, "/proc/mounts", "/dev/vda /srv ext4 rw 0 0")
    snap = MdHost("md0", root=root, disks=("vda", "vdb")).observe()
    assert snap.disks["vda"].mounted_on == "/srv"
    assert snap.disks["vdb"].partitions == ("vdb1",)


def test_perform_writes_sysfs_and_runs_argv(tmp_path):
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    runner = Runner()
    backend = MdHost("md0", root=root, runner=runner)
    backend.perform(Step("k", "s", do=(WriteFile(
        "/sys/block/md0/md/dev-vda/state", "-writemostly"),)), {})
    with open(faketree.path_in(root, "/sys/block/md0/md/dev-vda/state")) as f:
        assert f.read() == "-writemostly"
    backend.perform(Step("k", "s", do=(Run(("mdadm", "/dev/md0", "--add",
                                             "/dev/ram0")),)), {})
    assert runner.argvs == [("mdadm", "/dev/md0", "--add", "/dev/ram0")]


def test_an_unreadable_attribute_is_an_error_not_a_traceback(tmp_path):
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    faketree.remove(root, "/sys/block/md0/md/level")
    os.mkdir(faketree.path_in(root, "/sys/block/md0/md/level"))  # EISDIR
    with pytest.raises(SvmramError, match="cannot read /sys/block/md0/md/"
                                          "level"):
        MdHost("md0", root=root).observe()


def test_a_refused_sysfs_write_is_an_error_not_a_traceback(tmp_path):
    backend = MdHost("md0", root=str(tmp_path))
    with pytest.raises(SvmramError, match="cannot write writemostly"):
        backend.perform(Step("k", "s", do=(WriteFile(
            "/sys/block/md0/md/dev-vda/state", "writemostly"),)), {})


def test_the_default_runner_is_run_py_with_the_md_table(tmp_path,
                                                        monkeypatch):
    """programs.run_command goes through run.run (argv, trace, bindir)."""
    trace = tmp_path / "trace"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "mdadm"
    script.write_text("#!/bin/sh\necho \"$@\"\n")
    script.chmod(0o755)
    monkeypatch.setenv("SVMRAM_TRACE", str(trace))
    monkeypatch.setenv("SVMRAM_BINDIR", str(bindir))
    result = programs.run_command("mdadm", ["--run", "/dev/md0"])
    assert result.stdout == "--run /dev/md0\n"
    assert trace.read_text() == '["mdadm", "--run", "/dev/md0"]\n'
    monkeypatch.delenv("SVMRAM_BINDIR")
    assert programs.PROGRAMS.path("mdadm") == "/sbin/mdadm"
    with pytest.raises(KeyError):
        programs.run_command("dd", [])


# --- resync status -----------------------------------------------------------

def recovering_tree(tmp_path, action="recover", completed="65024 / 260096",
                    ram_state="spare", ram_slot="0", degraded="1"):
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    for attr, value in (("sync_action", action),
                        ("sync_completed", completed),
                        ("degraded", degraded),
                        ("dev-ram0/state", ram_state),
                        ("dev-ram0/slot", ram_slot)):
        faketree.write(root, "/sys/block/md0/md/" + attr, value)
    return root


def test_resync_status_while_md_recovers(tmp_path):
    backend = MdHost("md0", root=recovering_tree(tmp_path))
    status = backend.resync_status("md0")
    assert (status.active, status.percent, status.problem) == (True, 25,
                                                               None)


def test_resync_status_when_done(tmp_path):
    backend = MdHost("md0", root=tree(tmp_path,
                                         "vm-after-setup-new.sysfs.txt"))
    assert backend.resync_status("md0").active is False


def test_resync_status_frozen_is_a_problem(tmp_path):
    backend = MdHost("md0", root=recovering_tree(tmp_path, "frozen"))
    assert "frozen" in backend.resync_status("md0").problem


def test_a_recovery_md_does_not_start_is_given_a_minute(tmp_path):
    now = [100.0]
    backend = MdHost("md0", root=recovering_tree(
        tmp_path, "idle", "none", ram_slot="none"), clock=lambda: now[0])
    assert backend.resync_status("md0").active is True
    now[0] += 61
    assert "has not started" in backend.resync_status("md0").problem


def test_a_pending_resync_counts_as_active(tmp_path):
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    faketree.write(root, "/sys/block/md0/md/resync_start", "0")
    assert MdHost("md0", root=root).resync_status("md0").active is True


# --- a whole setup against the captured states -------------------------------

def test_setup_of_a_new_array_executes_against_the_captured_states(
        tmp_path):
    root = tree(tmp_path, "vm-before.sysfs.txt")

    def modprobe(args):
        for line in fixture("vm-after-setup-new.sysfs.txt").splitlines():
            if "/sys/module/brd/" in line or "/sys/block/ram0/" in line:
                faketree.build(root, line, meminfo=None)

    def mdadm(args):
        faketree.build(root, fixture("vm-after-setup-new.sysfs.txt"))

    runner = Runner({"modprobe": modprobe, "mdadm": mdadm})
    backend = MdHost("md0", root=root, runner=runner, disks=("vda", "vdb"))
    snap = backend.observe()
    it, _ = planner.choose_setup(snap, "md0", ("vda", "vdb"))
    plan = planner.plan_setup(snap, it)
    out = io.StringIO()
    execute(plan, backend, None, Progress(out), polling=Polling(limit=5),
            sleep=lambda s: None)
    assert runner.argvs == [
        ("modprobe", "brd", "rd_nr=1", "rd_size=131072"),
        ("mdadm", "--create", "/dev/md0", "--run", "--metadata=1.2",
         "--level=1", "--raid-devices=3", "--bitmap=internal", "/dev/ram0",
         "--write-mostly", "/dev/vda", "/dev/vdb")]
    assert "md0 resync: done" in out.getvalue()
    assert planner.plan_setup(backend.observe(), it).steps == []
    # and setup refuses to run twice
    with pytest.raises(SvmramError, match="already has a RAM member"):
        planner.choose_setup(backend.observe(), "md0")


def test_a_step_whose_promise_fails_stops_the_plan(tmp_path, monkeypatch):
    """The kernel did not set write-mostly (the write was ignored)."""
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    faketree.write(root, "/sys/block/md0/md/dev-vda/state", "in_sync")
    it = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, True)
    monkeypatch.setattr(md_host, "sysfs_write", lambda path, value: None)
    backend = MdHost("md0", root=root, runner=Runner())
    plan = planner.plan_setup(backend.observe(), it)
    assert [s.key for s in plan.steps] == ["writemostly vda"]
    with pytest.raises(SvmramError, match="vda in md0 is not write-mostly"):
        execute(plan, backend, None, Progress(io.StringIO()))


def test_device_paths_resolve_to_kernel_names(tmp_path):
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    os.makedirs(os.path.join(root, "dev/md"))
    os.makedirs(os.path.join(root, "dev/disk/by-id"))
    for name in ("md0", "vda"):
        open(os.path.join(root, "dev", name), "w").close()
    os.symlink("../md0", os.path.join(root, "dev/md/data"))
    os.symlink("../../vda", os.path.join(root, "dev/disk/by-id/virtio-a"))
    assert kernel_name(root, "/dev/md0") == "md0"
    assert kernel_name(root, "/dev/md/data") == "md0"
    assert kernel_name(root, "/dev/disk/by-id/virtio-a") == "vda"
    for bad in ("md0", "/dev/vdz", "/etc/passwd", "/dev/md/../../etc"):
        with pytest.raises(SvmramError):
            kernel_name(root, bad)


@pytest.mark.parametrize("gone", ["enodev", "deleted"])
def test_a_member_that_leaves_while_it_is_read_is_gone(tmp_path, monkeypatch,
                                                       gone):
    """After `mdadm --remove` md lists the member's directory for a
    moment and its attributes read ENODEV (md.c rdev_attr_show), then
    the directory goes, perhaps between the listing and the reads: the
    member has left the array either way, not an error."""
    import errno
    root = tree(tmp_path, "vm-after-setup-new.sysfs.txt")
    member = faketree.path_in(root, "/sys/block/md0/md/dev-ram0")
    def show(path):
        """md's sysfs (the seam md.host.sysfs_read): the member was
        listed; at the first read of its attributes it is going
        (ENODEV) or gone (the directory deleted: ENOENT)."""
        if path.startswith(member + "/"):
            if gone == "enodev":
                raise OSError(errno.ENODEV, "No such device")
            if os.path.isdir(member):
                faketree.remove(root, "/sys/block/md0/md/dev-ram0")
        return md_host.read_attribute(path)
    monkeypatch.setattr(md_host, "sysfs_read", show)
    a = MdHost("md0", root=root).observe().array
    assert [m.name for m in a.members] == ["vda", "vdb"]


def test_a_sysfs_attribute_is_read_with_one_read_call(tmp_path, monkeypatch):
    """md's prealloc attributes answer each read(2) from a new show(): a
    second read after the state changed returned the tail of the new
    text, and a backend saw 'active\\nidle\\n' on a real kernel.  MdHost
    reads each attribute with one read(2)."""
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
    host = MdHost("md0", root=str(tmp_path))
    assert host._read("/sys/block/md0/md/array_state") == "active\n"
    assert len(calls) == 1 and calls[0] >= 4096
    assert host._read("/sys/block/md0/md/none") is None
    monkeypatch.setattr(os, "read", real)
    (tmp_path / "proc/meminfo").write_text("MemTotal: 1 kB\n")
    assert host._read("/proc/meminfo") == "MemTotal: 1 kB\n"


class Booting:
    """A host whose observe() returns `seen` one by one (udev adding the
    recorded disks at boot), then the last one for ever."""

    def __init__(self, *seen):
        self.seen = list(seen)
        self.calls = 0

    def observe(self, intent=None):
        self.calls += 1
        return self.seen.pop(0) if len(self.seen) > 1 else self.seen[0]


def _member(name):
    return Member(name, None, frozenset(("spare",)), 2048)


def _booting_snaps():
    inactive = Array("md0", "", 0, "inactive", (_member("vda"),),
                     component_kib=261120)
    return (Snapshot("md0", None), Snapshot("md0", inactive),
            Snapshot("md0", inactive.with_member(_member("vdb"))))


INTENT = Intent("md0", ("vda", "vdb"), "ram0", 262144, 2048, False,
                frozenset())


def test_restore_waits_for_the_recorded_disks_before_running_the_array():
    """At boot the restore waits (wait_for_disks: restore's --wait-disks)
    until udev has added every recorded disk to the inactive array, so
    that it never starts the array short of one about to appear."""
    host = Booting(*_booting_snaps())
    out, slept = io.StringIO(), []
    snap = wait_for_disks(host, INTENT, 20, out, slept.append,
                          clock=lambda: 0)
    assert [m.name for m in snap.array.members] == ["vda", "vdb"]
    assert host.calls == 3 and slept == [0.5, 0.5]
    assert out.getvalue() == ("restore md0: waiting up to 20 s for the "
                              "array to be assembled\n")


def test_restore_gives_up_waiting_and_lets_the_planner_judge():
    missing, inactive, _ = _booting_snaps()
    clock = iter(range(0, 100, 5))
    out = io.StringIO()
    snap = wait_for_disks(Booting(inactive), INTENT, 20, out,
                          lambda s: None, clock=lambda: next(clock))
    assert [m.name for m in snap.array.members] == ["vda"]
    assert out.getvalue() == ("restore md0: waiting up to 20 s for its "
                              "disk vdb\n")
    snap = wait_for_disks(Booting(missing), INTENT, 20, io.StringIO(),
                          lambda s: None, clock=lambda: next(clock))
    with pytest.raises(SvmramError, match="md0 is not assembled"):
        plan_restore(snap.evolve(kernel=(6, 1, 0, "6.1.0")), INTENT)


def test_restore_waits_for_md_to_give_a_returning_disk_its_slot():
    """Once the array runs, the wait goes on while a recorded disk is a
    spare of it (md gives it its slot a moment later) or there but not
    in it (udev may re-add it): a RAM member added meanwhile takes the
    disk's slot (issue 28).  A disk that is not there is not waited for
    (the planner refuses it), nor is anything once the RAM member is
    in."""
    vda = Member("vda", 0, frozenset(("in_sync", "write_mostly")), 2048)
    running = Array("md0", "raid1", 2, "clean", (vda,),
                    component_kib=261120)
    spare = running.with_member(Member("vdb", None,
                                       frozenset(("write_mostly",)), 2048))
    back = running.with_member(Member(
        "vdb", 1, frozenset(("in_sync", "write_mostly")), 2048))
    disk = Disk("vdb", 524288)
    out, slept = io.StringIO(), []
    host = Booting(Snapshot("md0", running, disks={"vdb": disk}),
                   Snapshot("md0", spare, disks={"vdb": disk}),
                   Snapshot("md0", back, disks={"vdb": disk}))
    snap = wait_for_disks(host, INTENT, 20, out, slept.append,
                          clock=lambda: 0)
    assert snap.array is back and host.calls == 3 and slept == [0.5, 0.5]
    assert out.getvalue() == ("restore md0: waiting up to 20 s for md to "
                              "take vdb back into its slot\n")
    out = io.StringIO()
    for array, disks in ((running, {}),
                         (spare.with_member(Member("ram0", 2, frozenset(
                             ("in_sync",)), 2048)), {"vdb": disk})):
        host = Booting(Snapshot("md0", array, disks=disks))
        assert wait_for_disks(host, INTENT, 20, out, slept.append,
                              clock=lambda: 0).array is array
        assert host.calls == 1
    assert out.getvalue() == ""


def test_a_disk_s_timed_read_is_sequential_o_direct_and_stops_at_its_end():
    """host.read_disk_timed, the time-to-RAM estimate's measurement: it
    reads what there is from the offset (O_DIRECT, which tmpfs refuses,
    so the file lives on /var/tmp), and a disk that cannot be opened is
    named with the kernel's words."""
    import tempfile
    with tempfile.TemporaryDirectory(dir="/var/tmp") as where:
        path = os.path.join(where, "vda")
        with open(path, "wb") as stream:
            stream.write(os.urandom(3 << 20))
        try:
            done, took = md_host.read_disk_timed(path, 1 << 20, 8 << 20)
        except OSError as exc:
            pytest.skip("no O_DIRECT on /var/tmp here: %s" % exc)
        assert done == 2 << 20 and took > 0
        assert md_host.read_disk_timed(path, 0, 1 << 20)[0] == 1 << 20
    snap = Snapshot("md0", None, disks={"vda": Disk("vda", 6144)})
    rates = MdHost("md0", root=where).disk_read_rates(snap, ("vda",))
    assert rates == {"vda": (None, "cannot read /dev/vda: No such file or "
                             "directory")}
