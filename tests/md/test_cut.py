# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The test switch SVMRAM_TEST_CUT (lib/svmram/testcut.py), which the
power cuts of tests/vm use: the command, run as a process on the fake
kernel (test_cli.py), stops dead at the point named, after printing
the mark, with the journal and the host exactly as they are there; the
command run again finishes the job.  A spelling that is not a point is
refused before anything changes; a point never reached is said; unset,
the switch changes nothing."""

import glob
import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

import faketree
from svmram.atomic import temporary_prefix
from mdcli import GROWN, HERE, RECORD, SETUP_ARGVS, set_up

JOURNAL = "/var/svmram/md0.journal"


def cut(host, point, *args, trace=False):
    """Run sbin/svmram ARGS with SVMRAM_TEST_CUT=point until it prints
    the mark; then check it is still there (asleep), kill it (a power
    cut, as far as svmram can tell) and return its stderr."""
    env = dict(os.environ, SVMRAM_ROOT=host.root, SVMRAM_BINDIR=host.bindir,
               SVMRAM_TRACE=host.trace, SVMRAM_POLL_SECONDS="0.01",
               SVMRAM_TEST_CUT=point)
    if trace:
        env["SVMRAM_TEST_TRACE"] = "1"
    proc = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "fake_svmram.py")] + list(args),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, env=env)
    err = b""
    deadline = time.monotonic() + 60
    try:
        while b"LAB-MARK cut" not in err:
            assert time.monotonic() < deadline, err
            ready, _, _ = select.select([proc.stderr], [], [], 1)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                assert chunk, (proc.wait(), err)    # it exited: not cut
                err += chunk
        time.sleep(0.3)
        assert proc.poll() is None          # it stays at the point
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    if os.path.exists(host.trace):
        os.unlink(host.trace)
    return err.decode()


def journal(host):
    path = host.path(JOURNAL)
    if not os.path.exists(path):
        return None
    with open(path) as stream:
        data = json.load(stream)
    return data["operation"], data["completed"]


def members(host):
    return sorted(name[len("dev-"):] for name in os.listdir(
        host.path("/sys/block/md0/md")) if name.startswith("dev-"))


def test_a_cut_before_a_step_stops_there_and_setup_resumes(host):
    err = cut(host, "before=grow-add ram0", "setup", "-y", "/dev/md0")
    assert err.splitlines()[-1] == "LAB-MARK cut before=grow-add ram0"
    assert "step 5 of 8: Grow md0 to 3 raid devices" in err
    assert journal(host) == ("setup", ["write record", "enable unit",
                                       "load brd", "raise speed md0"])
    assert members(host) == ["vda", "vdb"]
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert rc == 0, err
    assert "setup md0: resuming the setup recorded in %s;" % host.path(
        JOURNAL) in err
    assert ["mdadm", "--grow", "/dev/md0", "--raid-devices=3", "--add",
            "/dev/ram0"] in argvs
    assert members(host) == ["ram0", "vda", "vdb"]
    assert journal(host) is None


def test_setup_records_its_decision_before_the_first_change(host):
    """A power cut before setup's first change finds the record (for
    teardown and the boot unit) and the journal (for the rerun)."""
    err = cut(host, "before=load brd", "setup", "-y", "/dev/md0")
    assert err.splitlines()[-1] == "LAB-MARK cut before=load brd"
    assert host.record() == dict(GROWN)
    assert journal(host) == ("setup", ["write record", "enable unit"])
    # the unit enabled (a boot now starts md0 for its mounts), not started
    assert host.unit() == ["enabled", "inactive"]
    assert not os.path.exists(host.path("/sys/block/ram0"))   # no brd
    assert members(host) == ["vda", "vdb"]


@pytest.mark.parametrize("point, left", [
    ("journal-before=start:setup", None),
    ("journal-after=start:setup", ("setup", [])),
    ("journal-before=completed:enable unit", ("setup", ["write record"])),
    ("journal-before=completed:load brd", ("setup", ["write record",
                                                     "enable unit"])),
    ("journal-after=completed:load brd", ("setup", [
        "write record", "enable unit", "load brd"])),
    ("journal-before=finish", ("setup", [
        "write record", "enable unit", "load brd", "raise speed md0",
        "grow-add ram0",
        "writemostly vda", "writemostly vdb", "reset speed md0"])),
    ("journal-after=finish", None),
])
def test_a_cut_at_a_journal_write_leaves_the_journal_as_written(
        host, point, left):
    err = cut(host, point, "setup", "-y", "/dev/md0")
    assert err.splitlines()[-1] == "LAB-MARK cut " + point
    assert journal(host) == left
    assert not glob.glob(host.path(os.path.join(
        os.path.dirname(JOURNAL), temporary_prefix(JOURNAL) + "*")))
    rc, _, err, _ = host.svmram("setup", "-y", "/dev/md0")
    if point == "journal-after=finish":
        # the setup was whole, only its boot unit was not started yet
        assert rc == 0 and err == (
            "setup md0: md0 is set up but its boot unit "
            "svmram@md0.service is enabled, not started; setup starts "
            "it.\n"), err
    else:
        assert rc == 0, err
    assert members(host) == ["ram0", "vda", "vdb"]
    assert host.unit() == ["enabled", "active"] and journal(host) is None


def test_a_cut_in_a_teardown_s_journal_and_the_restore_stands_aside(host):
    set_up(host)
    point = "journal-after=completed:fail-remove ram0"
    err = cut(host, point, "teardown", "-y", "/dev/md0")
    assert err.splitlines()[-1] == "LAB-MARK cut " + point
    assert journal(host) == ("teardown", ["mark teardown",
                                          "-writemostly vda",
                                          "-writemostly vdb",
                                          "fail-remove ram0"])
    rc, _, err, argvs = host.svmram("restore", "md0")
    assert (rc, argvs) == (3, [])
    assert err.splitlines()[0] == (
        "svmram: a teardown of md0 has not finished (%s); the RAM member "
        "is not restored meanwhile" % host.path(JOURNAL))
    rc, _, err, _ = host.svmram("teardown", "-y", "/dev/md0")
    assert rc == 0, err
    assert members(host) == ["vda", "vdb"]
    assert not os.path.exists(host.path(RECORD)) and journal(host) is None


def test_a_cut_with_the_lock_held_keeps_other_runs_out(host):
    err = cut(host, "lock", "setup", "-y", "/dev/md0")
    assert err == "\nLAB-MARK cut lock\n"
    assert journal(host) is None            # nothing written yet
    # the process is gone (killed), so is its lock: a rerun does it all
    assert set_up(host)


def test_the_lock_stays_held_while_a_run_stands_at_a_point(host):
    env = dict(os.environ, SVMRAM_ROOT=host.root, SVMRAM_BINDIR=host.bindir,
               SVMRAM_TEST_CUT="lock")
    proc = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "fake_svmram.py"), "setup",
         "-y", "/dev/md0"], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stderr.readline() == b"\n"
        assert proc.stderr.readline() == b"LAB-MARK cut lock\n"
        with open(host.path("/var/run/svmram.lock")) as stream:
            since = json.load(stream)["since"]
        refusal = [
            "svmram: another svmram command is running (lock %s is held)"
            % host.path("/var/run/svmram.lock"),
            "svmram: Wait for svmram setup -y /dev/md0 (pid %d, running "
            "since %s) to finish, then run this command again." % (
                proc.pid, time.strftime("%H:%M:%S", time.localtime(since)))]
        for args in (("teardown", "-y", "/dev/md0"),
                     ("setup", "-n", "/dev/md0")):     # a dry run too
            rc, _, err, argvs = host.svmram(*args)
            assert (rc, argvs, err.splitlines()) == (3, [], refusal)
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()


def test_end_cuts_once_the_command_is_done(host):
    err = cut(host, "end", "setup", "-y", "/dev/md0")
    # the mark names the point alone: the seam waits for no copy (a test
    # that wants one further along waits for it itself: tests/vm)
    assert err.splitlines()[-1] == "LAB-MARK cut end"
    assert host.unit() == ["enabled", "active"]
    assert journal(host) is None


def test_the_trace_names_every_point_and_a_point_never_reached(host):
    rc, out, err, argvs = host.svmram(
        "stop", "md0", env={"SVMRAM_TEST_TRACE": "1",
                            "SVMRAM_TEST_CUT": "before=no such step"})
    assert (rc, argvs) == (0, [])
    set_up(host)
    rc, out, err, _ = host.svmram(
        "stop", "md0", env={"SVMRAM_TEST_TRACE": "1",
                            "SVMRAM_TEST_CUT": "before=no such step"})
    assert rc == 0
    assert [line for line in err.splitlines() if "LAB-" in line or
            "test cut" in line] == [
        "LAB-TRACE lock",
        "LAB-TRACE before=fail-remove ram0",
        "LAB-TRACE before=shrink md0",
        "LAB-TRACE before=unload brd",
        "LAB-TRACE end",
        "svmram: test cut point before=no such step never reached"]


@pytest.mark.parametrize("point", [
    "", "nowhere", "before", "before=", "wait", "lock=x", "end=1",
    "journal-before=", "journal-after=middle", "journal-before=start:",
    "Before=load brd"])
def test_a_spelling_that_is_no_point_is_refused_before_any_change(
        host, point):
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0",
                                      env={"SVMRAM_TEST_CUT": point})
    assert (rc, out, argvs) == (2, "", [])
    assert err == (
        "svmram: SVMRAM_TEST_CUT=%r is not a test cut point; give "
        "before=KEY, wait=KEY, journal-before=EVENT, journal-after=EVENT "
        "(EVENT: start:OPERATION, completed:KEY, failed:KEY or finish), "
        "lock or end\n" % point)
    assert not os.path.exists(host.path(RECORD))


def test_unset_the_switch_changes_nothing(host):
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert (rc, argvs) == (0, SETUP_ARGVS)
    assert "LAB-" not in err and "test cut" not in err
    rc, out, err, argvs = host.svmram(
        "stop", "md0", env={"SVMRAM_TEST_TRACE": "0"})
    assert rc == 0 and "LAB-" not in err and "test cut" not in err


def test_a_restore_standing_aside_starts_an_inactive_array_first(host):
    """A teardown cut short, md0 inactive at the next boot (the RAM member
    it still names vanished with the power): the restore stands aside,
    but first runs mdadm --run, since nothing else starts md0 for its
    mounts.  The fake mdadm has no --run: the failure is said with the
    reason it stood aside, and advice that works."""
    set_up(host)
    cut(host, "before=-writemostly vda", "teardown", "-y", "/dev/md0")
    faketree.write(host.root, "/sys/block/md0/md/array_state", "inactive")
    rc, out, err, argvs = host.svmram("restore", "md0")
    assert (rc, argvs) == (1, [["mdadm", "--run", "/dev/md0"]])
    assert out == ""
    assert err.splitlines() == [
        "restore md0: step 1 of 1: Start md0, which came up inactive "
        "without its RAM member.",
        "svmram: step 1 failed (Start md0, which came up inactive without "
        "its RAM member): %s/mdadm --run /dev/md0 failed: fake: unexpected "
        "arguments ['--run', '/dev/md0']; a teardown of md0 has not "
        "finished (%s); the RAM member is not restored meanwhile"
        % (host.bindir, host.path(JOURNAL)),
        "svmram: Check md0 (mdadm --detail /dev/md0) and start it by hand; "
        "then run 'svmram teardown md0' to finish it; the disks serve "
        "reads meanwhile."]
    # md0 running: the restore only stands aside, running nothing
    faketree.write(host.root, "/sys/block/md0/md/array_state", "clean")
    rc, out, err, argvs = host.svmram("restore", "md0")
    assert (rc, argvs) == (3, [])
    assert err.splitlines()[0] == (
        "svmram: a teardown of md0 has not finished (%s); the RAM member "
        "is not restored meanwhile" % host.path(JOURNAL))
