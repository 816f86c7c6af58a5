# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SIGHUP at every step point leaves the host as SIGTERM does (issue 36,
Done-when): for each flow that changes the host (setup by swap, by
rotate and by copy, the teardown of each after its setup, the restore
after a boot, and selftest) and for
every command the run makes, the signal arrives right after that command
returns, once SIGHUP and once SIGTERM, each on a fresh copy of the same
host.  Both runs must leave the same host (state_digest, which holds
metastat -p, with svcs' start times left out), the same journal, run the
same commands, say the same (the signal's name and the host's directory
aside) and exit 128 + the signal (129, 143), with the safety monitor
clean; a rerun of the same command then finishes the job in both, to
the state the clean run left.

svmram runs in the test's process (inprocess.py): the signal is sent to
this process from host.svmram's after= callback, where svmram's own
handlers (interrupt.install) receive it.  While svmram runs, a signal it
does not catch meets a stand-in for the default action (the process
would die), which fails the test.  The clean run of each flow counts its
commands and leaves the end state; every case starts from a copy
(hosts.clone) of the host the clean run started from (for a teardown,
the host after setup).  The restore is `svmram restore d10` after a
reboot whose services did not start, as an administrator runs it; the
start method's `svmram restore --wait N d10` is a process of the same
code, which SMF stops with SIGTERM (test_boot_service.py).  The selftest's rerun must pass and
leave the host it started from; its directory's mkdtemp name is made
neutral (DIR) before the two runs are compared.

Cost: every flow on all three profiles took 144 seconds of CPU (pytest
-n 2, startup included), over the two minutes allowed, so swap and copy
(the methods with a metaclear) run on every profile, and rotate (setup
and teardown) on illumos-2016 only: 97 seconds of CPU in all.  The
restore (16 commands) runs on every profile.  selftest runs 252
commands, 55 of which change the host; signalled after each of the 252,
with a selftest and its rerun per case, it took 7 minutes of CPU (22 of
one worker's time), after the 55 some 5 minutes of one worker, so it
runs on illumos-2016 only and is signalled after the first command of
each kind that changes the host (FIRST_CHANGES_ONLY: program and first
argument, 28 points, 45 seconds of CPU).  The worst points
with a real process group's signal: test_hangup.py."""

import errno
import io
import json
import os
import re
import shutil
import signal

import pytest

import inprocess
import releases
from hosts import READ_ONLY, clone, run_step

pytestmark = pytest.mark.emulator_only("signals svmram after each command")

JOURNALS = "var/svmram"
SELFTEST_DIRECTORY = re.compile(r"svmram-selftest\.[A-Za-z0-9_]+")
SIGNALS = (signal.SIGHUP, signal.SIGTERM)
# The flows that run on one profile only (see the cost above).
ONE_PROFILE = {"setup-rotate": releases.ILLUMOS,
               "teardown-rotate": releases.ILLUMOS,
               "selftest": releases.ILLUMOS}
# The flows signalled only after the first command of each kind that
# changes the host (cost: see above).
FIRST_CHANGES_ONLY = ("selftest",)
SET_UP = ("svmram", "setup", "-y", "d10")
SET_UP_COPY = ("svmram", "setup", "-y", "--allow-label", "d10")

# flow: (host, the command, the steps before it (hosts.run_step))
FLOWS = {
    "setup-swap": ("swap", ("setup", "-y", "d10"), ()),
    "setup-rotate": ("article", ("setup", "-y", "d10"), ()),
    "setup-copy": ("unlabeled-x86", ("setup", "-y", "--allow-label", "d10"),
                   ()),
    "teardown-swap": ("swap", ("teardown", "-y", "d10"), (SET_UP,)),
    "teardown-rotate": ("article", ("teardown", "-y", "d10"), (SET_UP,)),
    "teardown-copy": ("unlabeled-x86", ("teardown", "-y", "d10"),
                      (SET_UP_COPY,)),
    "restore": ("article", ("restore", "d10"),
                (SET_UP, ("reboot", "--no-services"))),
    "selftest": ("article", ("selftest",), ()),
}


class UncaughtSignal(BaseException):
    """The signal met the default action's stand-in: svmram did not catch
    it, and a real process would have died there.  A BaseException, so
    that svmram's handlers of failures let it through."""


def _default_action(signum, frame):   # pylint: disable=unused-argument
    raise UncaughtSignal(signal.Signals(signum).name)


def state(host):
    """host.state_digest() with svcs -a's STIME column left out: the
    emulator's clock is real time."""
    digest = host.state_digest()
    services = [line.split(None, 2) for line in digest[-1].splitlines()]
    return digest[:-1] + ("\n".join(
        "%s %s" % (fields[0], fields[-1]) for fields in services),)


def reads_only(argv):
    """A command that changes nothing on the host (a listing, a query)."""
    prog, rest = os.path.basename(argv[0]), list(argv[1:])
    if prog in READ_ONLY:
        return True
    if prog == "ramdiskadm":
        return rest == []
    if prog == "lofiadm":
        return rest[:1] not in (["-a"], ["-d"])
    return False


def points(flow, counted):
    """The numbers of the commands after which `flow` is signalled: all,
    or for FIRST_CHANGES_ONLY the first of each program and first
    argument among those that change the host."""
    if flow not in FIRST_CHANGES_ONLY:
        return range(1, len(counted) + 1)
    kinds = {}
    for number, argv in enumerate(counted, 1):
        if not reads_only(argv):
            kinds.setdefault((os.path.basename(argv[0]), tuple(argv[1:2])),
                             number)
    return sorted(kinds.values())


def said(argv):
    """A command as the administrator would write it."""
    return " ".join([os.path.basename(argv[0])] + list(argv[1:]))


def signalled_after(host, args, signum, nth):
    """svmram ARGS in the test's process, sent `signum` right after its
    nth command returns: (exit status, stderr, the trace, the host's
    state, the journal or None), with the host's directory as HOST and
    the signal's name as SIGNAL."""
    calls = []

    def after(argv):
        calls.append(argv)
        if len(calls) == nth:
            os.kill(os.getpid(), signum)
    previous = {number: signal.signal(number, _default_action)
                for number in SIGNALS}
    try:
        host.clear_trace()
        result = host.svmram(*args, after=after)
    except UncaughtSignal as uncaught:
        pytest.fail("svmram did not catch %s sent after %s" % (
            uncaught, said(calls[-1])))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    assert len(calls) >= nth, "the run made fewer commands than before"
    name = signal.Signals(signum).name

    def normal(value):
        text = json.dumps(value).replace(host.dir, "HOST")
        text = SELFTEST_DIRECTORY.sub("DIR", text)
        return json.loads(text.replace(name, "SIGNAL"))
    return (result.returncode, normal(result.stderr),
            normal(host.trace(changes_only=False)),
            normal(state(host)), normal(journals(host)))


def journals(host):
    """{name: the journal} of every journal svmram keeps (a setup's, the
    selftest's), or None for one that is not JSON."""
    found = {}
    directory = os.path.join(host.root, JOURNALS)
    for name in sorted(os.listdir(directory)) if os.path.isdir(
            directory) else ():
        with open(os.path.join(directory, name), encoding="utf-8") as stream:
            try:
                found[name] = json.load(stream)
            except ValueError:
                found[name] = None
    return found


def finished(host, args):
    """The rerun of ARGS: exit 0, the monitor clean; the host's state."""
    again = host.svmram(*args)
    assert again.returncode == 0, again.stderr
    assert host.violations() == []
    return state(host)


@pytest.mark.parametrize("flow", sorted(FLOWS))
def test_sighup_after_every_command_leaves_the_host_as_sigterm_does(
        host_factory, tmp_path, release, flow):
    if ONE_PROFILE.get(flow, release) != release:
        pytest.skip("%s runs on %s only (cost)" % (flow, ONE_PROFILE[flow]))
    layout, args, before = FLOWS[flow]
    start = host_factory(layout)
    for step in before:
        run_step(start, step)
    clean = clone(start, tmp_path / "clean")
    counted = []
    result = clean.svmram(*args, after=counted.append)
    assert result.returncode == 0, result.stderr
    done_state = state(clean)
    assert counted, "the clean run made no command"
    for nth in points(flow, counted):
        seen, ends = {}, {}
        for signum in SIGNALS:
            host = clone(start, tmp_path / ("%d-%d" % (nth, signum)))
            seen[signum] = signalled_after(host, args, signum, nth)
            where = "%s after command %d (%s)" % (
                signal.Signals(signum).name, nth, said(counted[nth - 1]))
            code, err = seen[signum][:2]
            assert code == 128 + signum, (where, err)
            assert "Traceback" not in err, where
            assert host.violations() == [], where
            ends[signum] = finished(host, args)
            shutil.rmtree(host.dir)     # some 600 copies in all
        hup, term = seen[signal.SIGHUP], seen[signal.SIGTERM]
        assert hup[1:] == term[1:], "after command %d (%s)" % (
            nth, said(counted[nth - 1]))
        assert ends[signal.SIGHUP] == ends[signal.SIGTERM] == done_state


# --- SIGPIPE: output into a closed pipe at every write --------------------

# The flows whose every write is tried (on illumos-2016 only: the writes
# are svmram's, not the emulator's).
PIPE_FLOWS = ("setup-swap", "setup-copy", "teardown-swap", "teardown-copy")
OUTPUT = inprocess._Output      # pylint: disable=protected-access


class _Writes:
    """What every write of svmram's stdout and stderr meets: counted;
    from write number `at` on, a closed pipe (`closed`: EPIPE, as
    `2>&1 | true` gives once `true` has exited), or at that write only
    `signum` sent to this process first."""

    def __init__(self, at=0, closed=False, signum=None):
        self.count = 0
        self.made = 0
        self.stream = None      # the stream of write number `at`
        self.at, self.closed, self.signum = at, closed, signum

    def output(self, *args):
        """inprocess._Output; svmram's own two (the first made: an
        emulated command's come later) write through these writes."""
        self.made += 1
        if self.made > 2:
            return OUTPUT(*args)
        writes, name = self, ("stdout", "stderr")[self.made - 1]

        class Raw(io.BytesIO):
            def write(self, data):
                writes.count += 1
                if writes.count == writes.at:
                    writes.stream = name
                if writes.at and writes.count >= writes.at and writes.closed:
                    raise BrokenPipeError(errno.EPIPE, "Broken pipe")
                if writes.count == writes.at and writes.signum:
                    os.kill(os.getpid(), writes.signum)
                return super().write(data)
        made = OUTPUT(*args)
        made.raw = Raw()
        made.text = io.TextIOWrapper(made.raw, encoding="utf-8",
                                     errors="backslashreplace",
                                     write_through=True)
        return made


def run_with(monkeypatch, host, args, writes):
    """svmram ARGS in the test's process with `writes` under its output:
    (exit status, stderr, the trace, the host's state, the journals),
    the host's directory as HOST and the signal's name as SIGNAL."""
    monkeypatch.setattr(inprocess, "_Output", writes.output)
    previous = {number: signal.signal(number, _default_action)
                for number in SIGNALS}
    try:
        host.clear_trace()
        result = host.svmram(*args)
    except UncaughtSignal as uncaught:
        pytest.fail("svmram did not catch %s at write %d" % (
            uncaught, writes.at))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        monkeypatch.undo()

    def normal(value):
        text = json.dumps(value).replace(host.dir, "HOST")
        for name in ("SIGPIPE", "SIGTERM"):
            text = text.replace(name, "SIGNAL")
        return json.loads(text)
    return (result.returncode, result.stderr,
            normal(host.trace(changes_only=False)), normal(state(host)),
            normal(journals(host)))


@pytest.mark.parametrize("flow", PIPE_FLOWS)
def test_a_closed_pipe_at_every_write_leaves_the_host_as_sigterm_does(
        host_factory, tmp_path, release, monkeypatch, flow):
    """`svmram ... 2>&1 | less` and the reader quits: from any one write
    of stdout or stderr on, every write fails with EPIPE.  svmram stops
    as SIGTERM sent at that write stops it (issue 36 section 3.6:
    "SIGPIPE on output as SIGTERM"): the same commands, host and
    journal, exit 141 against 143, no traceback, the monitor clean, and
    the rerun finishes to the clean run's state."""
    if release != releases.ILLUMOS:
        pytest.skip("svmram's writes are tried on %s only (cost)"
                    % releases.ILLUMOS)
    layout, args, before = FLOWS[flow]
    start = host_factory(layout)
    for step in before:
        run_step(start, step)
    clean = clone(start, tmp_path / "clean")
    counting = _Writes()
    finished = run_with(monkeypatch, clean, args, counting)
    assert finished[0] == 0, finished[1]
    clean_stderr = finished[1]
    assert counting.count, "the clean run wrote nothing"
    for at in range(1, counting.count + 1):
        seen, streams = {}, {}
        for how, writes in (("SIGPIPE", _Writes(at, closed=True)),
                            ("SIGTERM", _Writes(at,
                                                signum=signal.SIGTERM))):
            host = clone(start, tmp_path / ("%d-%s" % (at, how)))
            seen[how] = run_with(monkeypatch, host, args, writes)
            streams[how] = writes.stream
            where = "%s at write %d" % (how, at)
            assert "Traceback" not in seen[how][1], where
            assert host.violations() == [], where
            if writes.stream != "stdout":   # else the job was done
                again = host.svmram(*args)
                assert again.returncode == 0, (where, again.stderr)
            assert state(host) == state(clean), where
            shutil.rmtree(host.dir)
        pipe, term = seen["SIGPIPE"], seen["SIGTERM"]
        assert streams["SIGPIPE"] == streams["SIGTERM"]
        # The last lines on stdout are written once the job is done
        # (common.say_done): SIGTERM then stops nothing and is not said;
        # the lost output's exit status is 141 (cli.main).
        done = streams["SIGTERM"] == "stdout"
        assert (pipe[0], term[0]) == (141, 0 if done else 143), (
            "write %d" % at, pipe[1], term[1])
        if done:
            assert term[1] == clean_stderr, "write %d" % at
        assert pipe[2:] == term[2:], "write %d" % at
