# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every failure takes the same road (issue 13, section 3): an exception
that is not an SvmramError, raised during a step, rolls back like a
failed command, is recorded in the journal and is reported in svmram's
words, never as a traceback.

One case per kind of in-process step (the /dev links, their removal, the
record's device number at setup and at restore) with an OSError, two
from the file system itself (a dangling /dev/rdsk, a /dev/ramdisk link
that vanished), and a bug (an AssertionError) in a step's check and in
the rollback's planner."""

import json
import os
import subprocess
import sys

import pytest

import releases

from hosts import Result, wrapping_bindir

pytestmark = pytest.mark.emulator_only(
    "breaks /dev under the emulator's root or patches svmram in-process")

HERE = os.path.dirname(os.path.abspath(__file__))
RAISING = os.path.join(HERE, "raising_svmram.py")
FMRI = "svc:/system/svmram:d10"
JOURNAL = "var/svmram/d10.journal"

BUG = ("This is a bug in svmram; please report it with this output "
       "(SVMRAM_DEBUG=1 adds the traceback).")

# What the rollback of a swap setup stopped after its attach runs.
SWAP_ROLLBACK = [
    ["metadetach", "d10", "d13"],
    ["metaclear", "d13"],
    ["ramdiskadm", "-d", "svmram_d10"],
]


def raising(host, spec, *args, env=None):
    """svmram ARGS on `host`, with the call `spec` describes raising."""
    proc = subprocess.run(
        [sys.executable, RAISING] + list(args),
        env=dict(host.env, SVMRAM_TEST_RAISE=json.dumps(spec), **(env or {})),
        stdin=subprocess.DEVNULL, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def last_lines(result, n=2):
    return result.stderr.splitlines()[-n:]


def journal(host):
    with open(os.path.join(host.root, JOURNAL), encoding="utf-8") as stream:
        return json.load(stream)


def links(host):
    return sorted(name for kind in ("dsk", "rdsk") for name in os.listdir(
        os.path.join(host.root, "dev", kind)) if name.startswith("c90"))


def rolled_back(host):
    assert host.metastat_p() == releases.ORIGINAL
    assert host.ramdisks() == ""
    assert links(host) == []
    assert not os.path.exists(os.path.join(host.root, JOURNAL))
    assert host.cmd("svcs", "-H", FMRI).returncode != 0
    assert host.violations() == []


@pytest.fixture
def swap_host(host_factory):
    return host_factory("swap")


def test_a_dangling_dev_rdsk_fails_the_link_step_and_rolls_back(host):
    """The issue's reproduction: os.symlink raises FileNotFoundError."""
    if releases.release(host) != releases.ILLUMOS:
        pytest.skip("where svmram tests the slots first, the scratch "
                    "mirror's links meet this fault first (its failures: "
                    "test_slots_labels.py)")
    rdsk = os.path.join(host.root, "dev", "rdsk")
    os.rename(rdsk, rdsk + ".moved")
    os.symlink("/nonexistent", rdsk)
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert last_lines(result) == [
        "svmram: step 2 failed (Link /dev/dsk/c90t0d0s0 and "
        "/dev/rdsk/c90t0d0s0 to the ramdisk): %s/dev/rdsk/c90t0d0s0 (a link "
        "to /dev/rramdisk/svmram_d10): No such file or directory.  "
        "Everything was rolled back; d10 is as it was before." % host.root,
        "svmram: Fix the cause, then run 'svmram setup d10' again."]
    assert "setup d10: step 1 of 6: Delete the ramdisk svmram_d10." not in \
        result.stderr
    assert host.trace() == [["ramdiskadm", "-a", "svmram_d10", "228m"],
                            ["ramdiskadm", "-d", "svmram_d10"]]
    os.unlink(rdsk)
    os.rename(rdsk + ".moved", rdsk)
    rolled_back(host)


def test_an_oserror_making_the_links_rolls_back(host):
    if releases.release(host) != releases.ILLUMOS:
        pytest.skip("where svmram tests the slots first, the scratch "
                    "mirror's links meet this fault first (its failures: "
                    "test_slots_labels.py)")
    spec = {"target": "os:symlink", "match": "/dev/rdsk/c90t0d0s0",
            "nth": 1, "error": ["PermissionError", 13, "Permission denied",
                                "/dev/rdsk/c90t0d0s0"]}
    result = raising(host, spec, "setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert last_lines(result) == [
        "svmram: step 2 failed (Link /dev/dsk/c90t0d0s0 and "
        "/dev/rdsk/c90t0d0s0 to the ramdisk): /dev/rdsk/c90t0d0s0: "
        "Permission denied.  Everything was rolled back; d10 is as it was "
        "before.",
        "svmram: Fix the cause, then run 'svmram setup d10' again."]
    # The rollback removed the /dev/dsk link the step had made.
    assert "rolling back: step 1 of 2: Remove the links" not in result.stderr
    assert host.trace() == [["ramdiskadm", "-a", "svmram_d10", "228m"],
                            ["ramdiskadm", "-d", "svmram_d10"]]
    rolled_back(host)


def test_a_vanished_ramdisk_link_fails_the_record_step_and_rolls_back(
        swap_host):
    """The record step reads the ramdisk's device number with os.stat;
    /dev/ramdisk/svmram_d10 is removed (devfsadm -C, say) just before."""
    host = swap_host
    node = os.path.join(host.root, "dev", "ramdisk", "svmram_d10")
    bindir = wrapping_bindir(
        host, "rmbin", "metainit", lambda real, bindir: (
            "#!/bin/sh\n%s \"$@\"\nstatus=$?\n"
            "case \"$*\" in *-m*) rm -f %s ;; esac\nexit $status\n" % (
                real, node)))
    result = host.svmram("setup", "-y", "d10", env={"SVMRAM_BINDIR": bindir})
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert last_lines(result) == [
        "svmram: step 6 failed (Record the configuration in "
        "svc:/system/svmram:d10): %s: No such file or directory.  "
        "Everything was rolled back; d10 is as it was before." % node,
        "svmram: Fix the cause, then run 'svmram setup d10' again."]
    assert host.trace() == [
        ["ramdiskadm", "-a", "svmram_d10", "222m"],
        ["metainit", "d13", "1", "1", "c90t0d0s0"],
        ["metattach", "d10", "d13"],
        ["metaclear", "d10"],
        ["metainit", "d10", "-m", "d13", "d11", "d12", "-r", "1"],
        # the rollback: nothing of the record was written
        ["metaparam", "-r", "roundrobin", "d10"],
        ["metadetach", "d10", "d13"],
        ["metaclear", "d13"],
        ["ramdiskadm", "-d", "svmram_d10"]]
    rolled_back(host)


def test_a_bug_in_a_steps_check_rolls_back_and_asks_for_a_report(
        swap_host):
    host = swap_host
    spec = {"target": "svmram.svm.host:differences", "match": "",
            "nth": 4, "error": ["AssertionError", "injected"]}
    result = raising(host, spec, "setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    message, advice = last_lines(result)
    assert message.startswith(
        "svmram: step 4 failed (Attach d13 to d10 and wait for its full "
        "resync): internal error: AssertionError: injected "
        "(raising_svmram.py line ")
    assert message.endswith(").  Everything was rolled back; d10 is as it "
                            "was before.")
    assert advice == "svmram: Fix the cause, then run 'svmram setup d10' " \
                     "again.  " + BUG
    assert host.trace() == [
        ["ramdiskadm", "-a", "svmram_d10", "222m"],
        ["metainit", "d13", "1", "1", "c90t0d0s0"],
        ["metattach", "d10", "d13"]] + SWAP_ROLLBACK
    rolled_back(host)


def test_svmram_debug_adds_the_traceback_of_a_steps_bug(swap_host):
    host = swap_host
    spec = {"target": "svmram.svm.host:differences", "match": "",
            "nth": 4, "error": ["AssertionError", "injected"]}
    result = raising(host, spec, "setup", "-y", "d10",
                     env={"SVMRAM_DEBUG": "1"})
    assert result.returncode == 1
    assert "Traceback (most recent call last):" in result.stderr
    assert "AssertionError: injected" in result.stderr
    rolled_back(host)


def test_an_oserror_removing_a_link_in_teardown_is_journaled(host_after):
    host = host_after(("svmram", "setup", "-y", "d10"))
    spec = {"target": "os:unlink", "match": "/dev/rdsk/c90t0d0s0",
            "nth": 1, "error": ["PermissionError", 13, "Permission denied",
                                "/dev/rdsk/c90t0d0s0"]}
    result = raising(host, spec, "teardown", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    # Where setup filled a hole (solaris10), teardown tests the slots and
    # puts d11 first again before it clears d13.
    reorder = releases.on(host, [], solaris10=[["metadetach", "d10", "d11"],
                                               ["metattach", "d10", "d11"]])
    assert last_lines(result) == [
        "svmram: step %d failed (Remove the links /dev/dsk/c90t0d0s0 and "
        "/dev/rdsk/c90t0d0s0): /dev/rdsk/c90t0d0s0: Permission denied"
        % (4 + len(reorder)),
        "svmram: Nothing was undone; run 'svmram teardown d10' again to "
        "continue from where it stopped."]
    assert releases.after_slot_test(host, host.trace()) == [
        ["metaparam", "-r", "roundrobin", "d10"],
        ["metadetach", "d10", "d13"]] + reorder + [["metaclear", "d13"]]
    log = journal(host)
    assert (log["operation"], log["completed"], log["failed"]) == (
        "teardown", ["read option roundrobin", "detach d13"] + releases.on(
            host, [], solaris10=["detach d11", "attach d11"]) + [
            "metaclear d13"],
        {"step": "unlink c90t0d0s0",
         "message": "/dev/rdsk/c90t0d0s0: Permission denied"})
    host.clear_trace()
    again = host.svmram("teardown", "-y", "d10")
    assert again.returncode == 0, again.stderr
    assert host.trace() == [["ramdiskadm", "-d", "svmram_d10"],
                            ["svcadm", "disable", "-s", FMRI],
                            ["svccfg", "delete", FMRI]]
    rolled_back(host)


def test_an_oserror_in_the_rollback_leaves_the_log_of_both(swap_host):
    """The setup fails at metaclear; its rollback cannot remove a link:
    the journal keeps the setup's log under `previous`, and teardown
    finishes."""
    host = swap_host
    assert host.sim("faults", "add", "metaclear", "--nth", "1", "--exit",
                    "1", "--svm-error", "metadevice is open", "--name",
                    "d10").returncode == 0
    spec = {"target": "os:unlink", "match": "/dev/dsk/c90t0d0s0",
            "nth": 1, "error": ["OSError", 5, "I/O error",
                                "/dev/dsk/c90t0d0s0"]}
    result = raising(host, spec, "setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    failed = [line for line in lines if "rolling back failed too" in line]
    assert failed == [
        "svmram: step 5 failed (Clear d10 and recreate it at once from d13 "
        "d11 d12 in this order): %s/metaclear d10 failed: metaclear: "
        "myhost: d10: metadevice is open; rolling back failed too: step 3 "
        "failed (Remove the links /dev/dsk/c90t0d0s0 and "
        "/dev/rdsk/c90t0d0s0): /dev/dsk/c90t0d0s0: I/O error" % (
            host.env["SVMRAM_BINDIR"])]
    assert lines[lines.index(failed[0]) + 1] == (
        "svmram: Run 'svmram teardown d10' to finish the rollback, or "
        "finish it by hand:")
    log = journal(host)
    assert log["operation"] == "teardown"
    assert log["completed"] == ["detach d13", "metaclear d13"]
    assert log["failed"] == {"step": "unlink c90t0d0s0",
                             "message": "/dev/dsk/c90t0d0s0: I/O error"}
    assert log["previous"]["operation"] == "setup"
    assert log["previous"]["failed"]["step"] == "swap d10"
    again = host.svmram("teardown", "-y", "d10")
    assert again.returncode == 0, again.stderr
    rolled_back(host)


def test_an_oserror_reading_the_device_number_at_restore(host_after):
    """restore's replace step records the new ramdisk's device number:
    an OSError there stops restore with svmram's message; the disks serve
    reads, and `svmram restore` finishes once the cause is gone."""
    host = host_after(("svmram", "setup", "-y", "d10"), ("reboot",))
    assert host.cmd("ramdiskadm", "-a", "other", "1m").returncode == 0
    host.clear_trace()
    spec = {"target": "svmram.actions:device_number",
            "match": "", "nth": 1,
            "error": ["FileNotFoundError", 2, "No such file or directory",
                      "/dev/ramdisk/svmram_d10"]}
    result = raising(host, spec, "restore", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    # The third step of the run: the ramdisk, the links, the replace.
    assert last_lines(result) == [
        "svmram: step 3 failed (Replace the RAM component c90t0d0s0 of d10 "
        "by c91t0d0s0): /dev/ramdisk/svmram_d10: No such file or directory",
        "svmram: d10 keeps serving reads from its disk submirrors.  Fix the "
        "cause, then run 'svcadm clear svmram:d10' (or 'svmram restore "
        "d10'); it continues from the state it finds."]
    assert "metareplace" not in [argv[0] for argv in host.trace()]
    again = host.svmram("restore", "d10")
    assert again.returncode == 0, again.stderr
    assert host.trace()[-1] == ["svccfg", "-f", "/var/run/svmram.d10.svccfg"]
    assert host.sim("tick").returncode == 0
    assert host.violations() == []


def test_a_bug_in_the_rollback_planner_is_reported_and_teardown_finishes(
        swap_host):
    host = swap_host
    assert host.sim("faults", "add", "metaclear", "--nth", "1", "--exit",
                    "1", "--svm-error", "metadevice is open", "--name",
                    "d10").returncode == 0
    spec = {"target": "svmram.svm.backend:plan_teardown", "match": "",
            "nth": 1, "error": ["AssertionError",
                                "planner does not converge"]}
    result = raising(host, spec, "setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    failed = [line for line in lines if "rolling back failed too" in line]
    assert len(failed) == 1
    assert failed[0].startswith(
        "svmram: step 5 failed (Clear d10 and recreate it at once from d13 "
        "d11 d12 in this order): %s/metaclear d10 failed: metaclear: "
        "myhost: d10: metadevice is open; rolling back failed too: "
        "internal error: "
        "AssertionError: planner does not converge (raising_svmram.py line "
        % host.env["SVMRAM_BINDIR"])
    assert lines[lines.index(failed[0]) + 1] == (
        "svmram: " + BUG + "  Run 'svmram teardown d10' to finish the "
        "rollback, or finish it by hand:")
    # The script that follows is the rollback's plan, made again.
    assert any(line.endswith("/metadetach d10 d13") for line in lines)
    # Nothing was rolled back; the journal still holds the setup.
    assert host.trace()[-1] == ["metaclear", "d10"]
    log = journal(host)
    assert (log["operation"], log["failed"]["step"]) == ("setup", "swap d10")
    again = host.svmram("teardown", "-y", "d10")
    assert again.returncode == 0, again.stderr
    rolled_back(host)


def test_a_bug_between_restore_steps_is_reported_with_the_state(host_after):
    """restore plans each next step after the last: a bug there (the
    re-plan after the ramdisk is created raises) is reported in svmram's
    words, with the mirror's state; a rerun finishes."""
    host = host_after(("svmram", "setup", "-y", "d10"), ("reboot",))
    spec = {"target": "svmram.svm.backend:plan_restore_steps", "match": "",
            "nth": 2, "error": ["AssertionError", "injected"]}
    result = raising(host, spec, "restore", "d10")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[-3].startswith("svmram: internal error: AssertionError: "
                                "injected (raising_svmram.py line ")
    disks = releases.set_up(host, ["d11", "d12"])
    assert lines[-2] == (
        "svmram: d10 now: d13 (RAM) Needs maintenance, %s Okay, %s Okay; "
        "read option first.  Current data: on %s and %s." % tuple(disks * 2))
    assert lines[-1] == (
        "svmram: d10 keeps serving reads from its disk submirrors.  Run "
        "'svcadm clear svmram:d10' (or 'svmram restore d10') to try again; "
        "this is a bug in svmram; please report it with this output.  "
        "'svmram status' shows the state of the mirrors; SVMRAM_DEBUG=1 "
        "prints the traceback.")
    assert host.trace() == [["ramdiskadm", "-a", "svmram_d10", "228m"]]
    again = host.svmram("restore", "d10")
    assert again.returncode == 0, again.stderr
    assert host.sim("tick").returncode == 0
    assert host.violations() == []


def test_a_bug_in_a_degraded_instances_restore_advises_svcadm_restart(
        host_after):
    """The bug path's retry is the one the host needs, as the refusals'
    is (issue 27 section 4.4): run by a degraded instance (Solaris 11.4)
    with every disk submirror current, 'svcadm restart', since 'svcadm
    clear' would only mark the instance online with no RAM copy."""
    host = host_after(("svmram", "setup", "-y", "d10"), ("reboot",))
    spec = {"target": "svmram.svm.backend:plan_restore_steps", "match": "",
            "nth": 2, "error": ["AssertionError", "injected"]}
    result = raising(host, spec, "restore", "d10", env={
        "SMF_FMRI": FMRI, "SVMRAM_SMF_DEGRADED": "1"})
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines()[-1].startswith(
        "svmram: d10 keeps serving reads from its disk submirrors.  Run "
        "'svcadm restart svmram:d10' (or 'svmram restore d10') to try "
        "again; ")
