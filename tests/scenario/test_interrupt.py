# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A real SIGINT (Ctrl-C) or SIGTERM sent to a running svmram while it
waits for a resync (the emulator's resyncs frozen, so it waits for as
long as the test likes): svmram stops at once, rolls nothing back, says
what state the mirror is in and which command finishes or undoes the
job, and exits 128 + the signal; a rerun finishes the job.  Also
restore's deadline (issue 13, section 3; issue 9, section 4)."""

import glob
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import releases

from hosts import SVMRAM, wrapping_bindir
from svmram.atomic import temporary_prefix

pytestmark = pytest.mark.emulator_only("freezes the emulator's resyncs")

FMRI = "svc:/system/svmram:d10"
JOURNAL = "var/svmram/d10.journal"


def start(host, *args):
    """svmram ARGS in the background, as the leader of its own process
    group (the terminal's foreground group, as it were)."""
    return subprocess.Popen(
        [sys.executable, SVMRAM] + list(args),
        env=dict(host.env, SVMRAM_POLL_SECONDS="0.2"),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_default_signals)


def _default_signals():
    """As at a terminal: a test run started in the background (a shell
    without job control ignores SIGINT there) must not pass that on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def wait_until_polling(host, proc, changed, reads=3):
    """Wait (without timing anything) until svmram has run `changed` and
    then read `metastat d10` `reads` times: it is in its resync wait."""
    for _ in range(3000):
        trace = host.trace(changes_only=False)
        if changed in trace:
            after = trace[trace.index(changed) + 1:]
            if after.count(["metastat", "d10"]) >= reads:
                return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("svmram never waited for the resync")


def stop(proc, signum, group=True):
    if group:
        os.killpg(proc.pid, signum)     # what Ctrl-C at a terminal does
    else:
        os.kill(proc.pid, signum)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def journal(host):
    with open(os.path.join(host.root, JOURNAL), encoding="utf-8") as stream:
        return json.load(stream)


def test_ctrl_c_while_setup_waits_for_a_resync_leaves_a_resumable_setup(host):
    assert host.sim("freeze").returncode == 0
    proc = start(host, "setup", "-y", "d10")
    wait_until_polling(host, proc, ["metattach", "d10", "d13"])
    code, out, err = stop(proc, signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    # Where detach leaves a hole (solaris10), d11 went first and d13
    # fills its slot.
    assert err.splitlines()[-3:] == [
        "svmram: the setup of d10 was stopped by SIGINT in step %s "
        "(Attach d13 to d10 and wait for its full resync), while waiting for "
        "the resync of d10; nothing was undone." % releases.on(
            host, "4 of 10", solaris10="5 of 8"),
        releases.on(
            host, "svmram: d10 now: d11 Okay, d12 Okay, d13 (RAM) Resyncing; "
            "read option roundrobin.  Current data: on d11 and d12.  A resync "
            "is running (0% done) and goes on without svmram.",
            solaris10="svmram: d10 now: d13 (RAM) Resyncing, d12 Okay; read "
            "option roundrobin.  Current data: on d12.  A resync is running "
            "(0% done) and goes on without svmram."),
        "svmram: Run 'svmram setup d10' to finish the setup (it resumes from "
        "%s/%s), or 'svmram teardown d10' to undo it." % (host.root,
                                                           JOURNAL)]
    assert out == ""
    # Nothing was rolled back: the last change is the attach.
    assert host.trace()[-1] == ["metattach", "d10", "d13"]
    log = journal(host)
    assert (log["operation"], log["completed"], log["failed"]) == (
        "setup", ["create ramdisk svmram_d10", "link c90t0d0s0",
                  "metainit d13"] + releases.on(host, [], solaris10=[
                      "detach d11"]),
        {"step": "attach d13", "message": "interrupted by SIGINT"})
    assert host.violations() == []
    # The resync goes on without svmram; the rerun finishes the setup.
    assert host.sim("thaw").returncode == 0
    again = host.svmram("setup", "-y", "d10")
    assert again.returncode == 0, again.stderr
    assert "setup d10: resuming the setup recorded in " in again.stderr
    assert host.metastat_p() == releases.set_up(host, releases.RAM_FIRST)
    assert not os.path.exists(os.path.join(host.root, JOURNAL))
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == "online\n"
    assert host.violations() == []


def test_a_second_ctrl_c_leaves_a_whole_journal_and_no_traceback(host):
    """Ctrl-C pressed twice: whichever moment the second one hits (the
    report's reading of the host, the report, the journal write), svmram
    says it stopped, exits 130 and leaves a whole journal to resume."""
    assert host.sim("freeze").returncode == 0
    proc = start(host, "setup", "-y", "d10")
    wait_until_polling(host, proc, ["metattach", "d10", "d13"])
    os.killpg(proc.pid, signal.SIGINT)
    code, _, err = stop(proc, signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("svmram: Run 'svmram setup d10' "
                                           "to finish the setup")
    assert journal(host)["operation"] == "setup"
    assert not glob.glob(os.path.join(host.root, os.path.dirname(
        JOURNAL).lstrip("/"), temporary_prefix(JOURNAL) + "*"))
    assert host.sim("thaw").returncode == 0
    again = host.svmram("setup", "-y", "d10")
    assert again.returncode == 0, again.stderr
    assert host.metastat_p() == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []


def test_ctrl_c_between_metaclear_and_metainit_lets_the_swap_finish(
        host_factory):
    """The swap step's metaclear sends SIGINT to svmram's process group as
    it returns (Ctrl-C at the worst moment): svmram still runs metainit,
    the rest of the step, and only then stops."""
    host = host_factory("swap")
    bindir = wrapping_bindir(host, "intbin", "metaclear", lambda real, _: (
        "#!/bin/sh\n%s \"$@\"\nstatus=$?\n"
        "[ \"$*\" = d10 ] && kill -INT -$(ps -o pgid= -p $PPID | tr -d ' ')\n"
        "exit $status\n" % real))
    proc = subprocess.Popen(
        [sys.executable, SVMRAM, "setup", "-y", "d10"],
        env=dict(host.env, SVMRAM_BINDIR=bindir), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.splitlines()[-5:] == [
        "setup d10: step 5 of 6: Clear d10 and recreate it at once from d13 "
        "d11 d12 in this order.",
        "svmram: SIGINT: stopping as soon as this step's commands have "
        "finished",
        "svmram: the setup of d10 was stopped by SIGINT after step 5 of 6 "
        "(Clear d10 and recreate it at once from d13 d11 d12 in this "
        "order); nothing was undone.",
        "svmram: d10 now: d13 (RAM) Okay, d11 Okay, d12 Okay; read option "
        "first.  Current data: on d11 and d12 and in RAM.",
        "svmram: Run 'svmram setup d10' to finish the setup (it resumes from "
        "%s/%s), or 'svmram teardown d10' to undo it." % (host.root,
                                                           JOURNAL)]
    assert host.trace()[-2:] == [
        ["metaclear", "d10"],
        ["metainit", "d10", "-m", "d13", "d11", "d12", "-r", "1"]]
    assert host.violations() == []
    again = host.svmram("setup", "-y", "d10")
    assert again.returncode == 0, again.stderr
    assert host.metastat_p() == releases.RAM_FIRST
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == "online\n"
    assert host.violations() == []


def test_sigterm_while_teardown_waits_says_teardown_finishes_it(host):
    """A setup stopped in its second resync (d11 re-attached behind d13)
    leaves the disks out of order; the teardown that undoes it detaches
    and re-attaches d12 (the RAM submirror stays until the disks are in
    order) and waits for that resync, where SIGTERM (a shutdown) stops
    it."""
    if releases.release(host) == releases.SOLARIS10:
        pytest.skip("where setup fills a hole in the slots it has no second "
                    "resync with the disks out of order")
    assert host.sim("freeze").returncode == 0
    proc = start(host, "setup", "-y", "d10")
    wait_until_polling(host, proc, ["metattach", "d10", "d13"], reads=1)
    assert host.sim("tick").returncode == 0
    wait_until_polling(host, proc, ["metattach", "d10", "d11"])
    code, _, err = stop(proc, signal.SIGINT)
    assert code == 130, err
    assert host.sim("tick").returncode == 0
    host.clear_trace()
    proc = start(host, "teardown", "-y", "d10")
    wait_until_polling(host, proc, ["metattach", "d10", "d12"])
    code, out, err = stop(proc, signal.SIGTERM, group=False)
    assert code == 143, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines[-3].startswith("svmram: the teardown of d10 was stopped by "
                                "SIGTERM in step ")
    assert lines[-3].endswith(" (Attach d12 to d10 and wait for its full "
                              "resync), while waiting for the resync of d10; "
                              "nothing was undone.")
    # Teardown puts the disks back in order before the RAM submirror goes.
    assert lines[-2] == (
        "svmram: d10 now: d13 (RAM) Okay, d11 Okay, d12 Resyncing; read "
        "option roundrobin.  Current data: on d11 and in RAM.  A resync is "
        "running (0% done) and goes on without svmram.")
    assert lines[-1] == (
        "svmram: Run 'svmram teardown d10' to finish it (it resumes from "
        "%s/%s)." % (host.root, JOURNAL))
    assert journal(host)["operation"] == "teardown"
    assert host.violations() == []
    assert host.sim("thaw").returncode == 0
    again = host.svmram("teardown", "-y", "d10")
    assert again.returncode == 0, again.stderr
    assert host.metastat_p() == releases.ORIGINAL
    assert host.ramdisks() == ""
    assert host.violations() == []


@pytest.fixture
def rebooted_before_metasync(host_after):
    """Set up, then rebooted before svc:/system/metasync ran: the boot
    resync of d10 is pending and nothing starts it."""
    return host_after(("svmram", "setup", "-y", "d10"),
                      ("reboot", "--before-metasync"))


def test_sigint_while_restore_waits_for_the_boot_resync(host_after):
    """A resync of d12 (detached and attached again by hand) runs when the
    host reboots; restore starts it again at boot and waits for it, frozen,
    until SIGINT."""
    host = host_after(("svmram", "setup", "-y", "d10"))
    assert host.sim("freeze").returncode == 0
    assert host.cmd("metadetach", "d10", "d12").returncode == 0
    assert host.cmd("metattach", "d10", "d12").returncode == 0
    assert host.reboot("--before-metasync").returncode == 0
    host.clear_trace()
    proc = start(host, "restore", "d10")
    wait_until_polling(host, proc, ["metasync", "d10"])
    code, out, err = stop(proc, signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.splitlines()[-3:] == [
        "svmram: the restore of d10 was stopped by SIGINT in the step (Start "
        "the resync SVM left pending in d10 and wait for it to finish), "
        "while waiting for the resync of d10; nothing was undone.",
        "svmram: d10 now: d13 (RAM) Resyncing, %s Resyncing, %s "
        "Resyncing; read option first.  The disk submirrors %s and %s are "
        "not Okay until the resync ends.  A resync is running (0%% done) and "
        "goes on without svmram." % tuple(releases.set_up(host, ["d11",
                                                                "d12"]) * 2),
        "svmram: d10 serves reads from its disk submirrors until its RAM "
        "submirror is Okay.  Run 'svmram restore d10' (or 'svcadm clear "
        "svmram:d10' if its boot service is in maintenance) to finish it."]
    assert host.trace() == [["dd", "if=/dev/md/rdsk/d10", "of=/dev/null",
                             "count=1"], ["metasync", "d10"]]
    assert host.ramdisks() == ""
    assert host.violations() == []
    assert host.sim("thaw").returncode == 0
    again = host.svmram("restore", "d10")
    assert again.returncode == 0, again.stderr
    assert host.sim("tick").returncode == 0
    assert host.metastat_p() == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []


def test_restore_starts_no_step_after_its_deadline(rebooted_before_metasync):
    host = rebooted_before_metasync
    result = host.svmram("restore", "--deadline", "0", "d10")
    assert result.returncode == 7, result.stderr
    assert result.stderr.splitlines() == [
        "svmram: restore of d10 stopped at its deadline (--deadline 0 "
        "seconds) before the step: Read one block of d10 so that SVM opens "
        "it without the ramdisk.",
        "svmram: d10 now: d13 (RAM) Needs maintenance, %s Needs "
        "maintenance, %s Needs maintenance; read option first.  The disk "
        "submirrors %s and %s wait for the resync that 'metasync d10' "
        "starts (svc:/system/metasync runs it at boot)." % tuple(
            releases.set_up(host, ["d11", "d12"]) * 2),
        "svmram: Nothing is lost: d10 serves reads from its disk submirrors.  "
        "Once 'metastat d10' shows no resync in progress, run 'svcadm clear "
        "svmram:d10' (or 'svmram restore d10'); it continues from the state "
        "it finds."]
    assert host.trace() == []
    # The SMF method maps any exit but 0 and 3 to maintenance, with the
    # message in the log; `svcadm clear` then runs restore again.
    assert host.violations() == []


def test_the_deadline_ends_before_the_start_methods_timeout():
    """restore's whole run ends a minute before SMF's timeout kills the
    start method, so that svmram, not SMF, says what happened; the start
    method's --wait (its timeout less 60 s) lengthens the deadline to
    match, and never beyond that minute."""
    import re
    from hosts import MANIFEST
    sys.path.insert(0, os.path.join(os.path.dirname(SVMRAM), "..", "lib"))
    from svmram.commands import restore
    with open(MANIFEST, encoding="utf-8") as stream:
        manifest = stream.read()
    start = re.search(r'<exec_method type="method" name="start"\s+'
                      r'exec="[^"]*" timeout_seconds="([0-9]+)"', manifest)
    assert start, "no start method in the manifest"
    timeout = int(start.group(1))
    assert restore.DEFAULT_DEADLINE <= 240
    assert restore.DEFAULT_DEADLINE + 60 <= timeout
    method = os.path.join(os.path.dirname(MANIFEST), "..", "smf", "svmram")
    with open(method, encoding="utf-8") as stream:
        text = stream.read()
    assert "typeset -i MARGIN=60\n" in text
    assert "wait=(--wait $(( timeout > MARGIN ? timeout - MARGIN : 0 )))" \
        in text
