# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Signals and failures inside execute(), in-process with a fake backend:
a signal never cuts a step's commands or a journal write, a second one
changes nothing, any exception becomes StepFailed and is journaled, and
the deadline stops a resync wait."""

import errno
import glob
import io
import json
import os
import signal
import sys

import pytest

from svmram import interrupt, streams
from svmram.atomic import temporary_prefix
from svmram import journal as journal_module
from svmram.actions import Run
from svmram.execute import (DeadlinePassed, Polling, ResyncStatus,
                            StepFailed, execute, wait_for_resync)
from svmram.journal import Journal
from svmram.plan import Plan, Step
from svmram.progress import Progress


@pytest.fixture(autouse=True)
def handlers():
    uninstall = interrupt.install()
    yield
    uninstall()


class Backend:
    """Performs a step by running its commands (in `ran`), calling
    `during` between them; its resync stays active while `resyncing`."""

    def __init__(self, during=None, resyncing=False):
        self.ran = []
        self.during = during
        self.resyncing = resyncing

    def perform(self, step, values):
        for number, argv in enumerate(step.commands):
            if number and self.during:
                self.during(argv)
            self.ran.append(argv)

    def resync_status(self, mirror):
        return ResyncStatus(self.resyncing, 40 if self.resyncing else None)

    def observe(self, intent=None):
        return None

    def differences(self, expected, observed):
        return []


def sigint(*_):
    os.kill(os.getpid(), signal.SIGINT)


def plan(*steps):
    return Plan("setup", "d10", steps=list(steps))


SWAP = Step("swap d10", "Clear d10 and recreate it.",
            do=(Run(("metaclear", "d10")), Run(("metainit", "d10", "-m",
                                                "d13"))))
ATTACH = Step("attach d13", "Attach d13.", do=(Run(("metattach", "d10",
                                                     "d13")),),
              wait_resync="d10")


def journal(tmp_path):
    made = Journal(str(tmp_path / "var" / "svmram" / "d10.journal"))
    made.start("setup", {"mirror": "d10"})
    return made


def stored(made):
    with open(made.path, encoding="utf-8") as stream:
        return json.load(stream)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM,
                                    signal.SIGHUP])
def test_a_signal_between_a_steps_commands_lets_them_finish(tmp_path,
                                                            signum):
    made = journal(tmp_path)
    backend = Backend(during=lambda _: os.kill(os.getpid(), signum))
    with pytest.raises(interrupt.Interrupted) as raised:
        execute(plan(SWAP, ATTACH), backend, made, Progress())
    assert backend.ran == [("metaclear", "d10"), ("metainit", "d10", "-m",
                                                  "d13")]
    assert (raised.value.signum, raised.value.number, raised.value.step,
            raised.value.waiting) == (signum, 1, SWAP, None)
    assert raised.value.exit_code == 128 + signum
    assert stored(made)["failed"] == {
        "step": "swap d10",
        "message": "interrupted by %s" % interrupt.signal_name(signum)}


class ClosedPipe:
    """A stream whose reader has gone: every write fails with EPIPE."""

    def __init__(self):
        self.tried = []

    def write(self, text):
        self.tried.append(text)
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    def flush(self):
        pass

    def isatty(self):
        return False


def test_output_into_a_closed_pipe_between_a_steps_commands_lets_them_finish(
        tmp_path):
    """A step's line written into a closed pipe (SIGPIPE, as Python
    reports it) is acted on as a signal: the step's commands finish,
    nothing more is written, and the run stops after the step."""
    made = journal(tmp_path)
    pipe = ClosedPipe()
    out = streams.Guarded(pipe)
    backend = Backend(during=lambda _: out.write("step 1 of 2\n"))
    with pytest.raises(interrupt.Interrupted) as raised:
        execute(plan(SWAP, ATTACH), backend, made, Progress())
    assert backend.ran == [("metaclear", "d10"), ("metainit", "d10", "-m",
                                                  "d13")]
    assert (raised.value.signum, raised.value.number, raised.value.step,
            raised.value.exit_code) == (signal.SIGPIPE, 1, SWAP, 141)
    assert pipe.tried == ["step 1 of 2\n"]     # then nothing more is tried
    assert (out.lost, out.closed_pipe) == (True, True)
    assert stored(made)["failed"] == {"step": "swap d10",
                                      "message": "interrupted by SIGPIPE"}


def test_output_into_a_closed_pipe_outside_a_step_stops_at_once():
    out = streams.Guarded(ClosedPipe())
    with pytest.raises(interrupt.Interrupted) as raised:
        out.write("d10: serving reads from RAM\n")
    assert raised.value.signum == signal.SIGPIPE
    out.write("more\n")                # svmram is stopping: let go
    out.flush()


def test_a_terminal_that_hung_up_is_let_go_without_a_signal_of_its_own():
    """EIO: the terminal went away; its SIGHUP stops the run, not the
    write."""
    class HungUp(ClosedPipe):
        def write(self, text):
            raise OSError(errno.EIO, "Input/output error")
    out = streams.Guarded(HungUp())
    assert out.write("step 1 of 2\n") == len("step 1 of 2\n")
    assert (out.lost, out.closed_pipe) == (True, False)
    interrupt.check()                   # nothing pending


def test_any_other_write_error_is_raised():
    class Full(ClosedPipe):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(OSError):
        streams.Guarded(Full()).write("x")


def test_a_second_signal_in_a_critical_section_changes_nothing(capsys):
    with pytest.raises(interrupt.Interrupted) as raised:
        with interrupt.deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGINT)
            inside = True
    assert inside
    assert raised.value.signum == signal.SIGTERM
    assert capsys.readouterr().err == (
        "svmram: SIGTERM: stopping as soon as this step's commands have "
        "finished\n")
    interrupt.check()               # nothing is left pending


def test_a_signal_during_a_journal_write_leaves_a_whole_journal(
        tmp_path, monkeypatch):
    made = journal(tmp_path)
    real_write = journal_module.write_atomically

    def write_with_a_signal(path, text, **options):
        sigint()
        real_write(path, text, **options)
    monkeypatch.setattr(journal_module, "write_atomically",
                        write_with_a_signal)
    with pytest.raises(interrupt.Interrupted) as raised:
        execute(plan(Step("metainit d13", "Make d13.",
                          do=(Run(("metainit", "d13")),))), Backend(), made,
                Progress())
    # The step's journal entry was written whole, then the signal raised.
    assert (raised.value.number, raised.value.step.key,
            raised.value.before) == (1, "metainit d13", False)
    assert stored(made)["completed"] == ["metainit d13"]
    assert not glob.glob(os.path.join(os.path.dirname(made.path),
                                      temporary_prefix(made.path) + "*"))


def test_a_signal_while_waiting_stops_the_wait_at_once(tmp_path):
    made = journal(tmp_path)
    with pytest.raises(interrupt.Interrupted) as raised:
        execute(plan(ATTACH), Backend(resyncing=True), made, Progress(),
                Polling(first=0, most=0), sleep=sigint)
    assert (raised.value.step, raised.value.waiting) == (ATTACH, "d10")
    assert stored(made)["failed"] == {"step": "attach d13",
                                      "message": "interrupted by SIGINT"}


def test_any_exception_in_a_step_is_journaled_and_becomes_step_failed(
        tmp_path):
    made = journal(tmp_path)

    def bug(argv):
        raise AssertionError("planner does not converge")
    with pytest.raises(StepFailed) as raised:
        execute(plan(SWAP), Backend(during=bug), made, Progress())
    assert raised.value.bug
    assert raised.value.message.startswith(
        "step 1 failed (Clear d10 and recreate it): internal error: "
        "AssertionError: planner does not converge (test_interrupt.py line ")
    assert stored(made)["failed"]["message"] == raised.value.reason


def test_an_oserror_in_a_step_is_a_failure_not_a_bug(tmp_path):
    made = journal(tmp_path)

    def denied(argv):
        raise PermissionError(13, "Permission denied", "/dev/rdsk/c90t0d0s0")
    with pytest.raises(StepFailed) as raised:
        execute(plan(SWAP), Backend(during=denied), made, Progress())
    assert not raised.value.bug
    assert raised.value.reason == "/dev/rdsk/c90t0d0s0: Permission denied"


def test_the_deadline_stops_a_resync_wait():
    polling = Polling(first=0, most=0, deadline=0.0)   # long past
    with pytest.raises(DeadlinePassed) as raised:
        wait_for_resync(Backend(resyncing=True), "d10", Progress(), polling,
                        sleep=lambda _: None)
    assert raised.value.message == (
        "the deadline passed while svmram waited for the resync of d10 "
        "(40 % done)")
    assert (raised.value.target, raised.value.percent,
            raised.value.exit_code) == ("d10", 40, 7)


def test_a_signal_ignored_at_start_stays_ignored():
    uninstall_outer = None
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        uninstall_outer = interrupt.install()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        if uninstall_outer:
            uninstall_outer()
        signal.signal(signal.SIGTERM, previous)


def test_the_journal_directory_is_created_and_the_log_kept(tmp_path):
    made = journal(tmp_path)
    made.completed("create ramdisk svmram_d10")
    made.failed("link c90t0d0s0", "denied")
    made.start("teardown", {"mirror": "d10"})
    assert stored(made) == {
        "format": 1, "operation": "teardown", "intent": {"mirror": "d10"},
        "completed": [], "failed": None,
        "previous": {"operation": "setup",
                     "completed": ["create ramdisk svmram_d10"],
                     "failed": {"step": "link c90t0d0s0",
                                "message": "denied"}}}


def test_after_the_first_signal_more_only_cut_the_report_short():
    with pytest.raises(interrupt.Interrupted):
        sigint()
        for _ in range(1000):       # the handler runs between bytecodes
            pass
    sigint()                        # ignored: the report is being made
    with pytest.raises(interrupt.Interrupted):
        with interrupt.cuttable():
            sigint()
            for _ in range(1000):
                pass


def test_a_signal_during_a_failing_step_waits_for_the_failure_to_be_told(
        tmp_path):
    made = journal(tmp_path)

    def fails_after_a_signal(argv):
        sigint()
        raise OSError(5, "I/O error", "/dev/dsk/c90t0d0s0")
    with pytest.raises(StepFailed):
        execute(plan(SWAP), Backend(during=fails_after_a_signal), made,
                Progress())
    assert stored(made)["failed"]["message"] == \
        "/dev/dsk/c90t0d0s0: I/O error"
    with pytest.raises(interrupt.Interrupted):
        interrupt.check()           # the next safe point: the rollback's


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM,
                                    signal.SIGHUP])
def test_a_signal_once_the_job_is_done_stops_nothing_and_is_not_said(
        capsys, monkeypatch, signum):
    """common.say_done writes the last lines of a job that is done: a
    signal that comes while it writes neither raises nor says "stopping
    as soon as this step's commands have finished" (which it said, and
    then exited 0); one after it acts again."""
    from svmram.commands import common

    class Signalling(io.StringIO):
        def write(self, text):
            os.kill(os.getpid(), signum)
            return super().write(text)
    out = Signalling()
    monkeypatch.setattr(sys, "stdout", out)
    common.say_done("d10: done.")
    assert out.getvalue() == "d10: done.\n"
    assert capsys.readouterr().err == ""
    with pytest.raises(interrupt.Interrupted):
        os.kill(os.getpid(), signum)
