# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SIGHUP at every step point leaves the host as SIGTERM does (issue 36,
Done-when): for each flow that changes the host (setup by swap, by
rotate and by copy, and the teardown of each after its setup) and for
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
the host after setup).

Cost: every flow on all three profiles took 144 seconds of CPU (pytest
-n 2, startup included), over the two minutes allowed, so swap and copy
(the methods with a metaclear) run on every profile, and rotate (setup
and teardown) on illumos-2016 only: 97 seconds of CPU in all.  The worst points
with a real process group's signal: test_hangup.py."""

import json
import os
import shutil
import signal

import pytest

import releases
from hosts import clone

pytestmark = pytest.mark.emulator_only("signals svmram after each command")

JOURNAL = "var/svmram/d10.journal"
SIGNALS = (signal.SIGHUP, signal.SIGTERM)
# The flows that run on one profile only (see the cost above).
ONE_PROFILE = {"setup-rotate": releases.ILLUMOS,
               "teardown-rotate": releases.ILLUMOS}

# flow: (host, the command, what runs before it)
FLOWS = {
    "setup-swap": ("swap", ("setup", "-y", "d10"), ()),
    "setup-rotate": ("article", ("setup", "-y", "d10"), ()),
    "setup-copy": ("unlabeled-x86", ("setup", "-y", "--allow-label", "d10"),
                   ()),
    "teardown-swap": ("swap", ("teardown", "-y", "d10"),
                      ("setup", "-y", "d10")),
    "teardown-rotate": ("article", ("teardown", "-y", "d10"),
                        ("setup", "-y", "d10")),
    "teardown-copy": ("unlabeled-x86", ("teardown", "-y", "d10"),
                      ("setup", "-y", "--allow-label", "d10")),
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
    path = os.path.join(host.root, JOURNAL)
    journal = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as stream:
            journal = json.load(stream)
    name = signal.Signals(signum).name

    def normal(value):
        text = json.dumps(value).replace(host.dir, "HOST")
        return json.loads(text.replace(name, "SIGNAL"))
    return (result.returncode, normal(result.stderr),
            normal(host.trace(changes_only=False)),
            normal(state(host)), normal(journal))


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
    if before:
        done = start.svmram(*before)
        assert done.returncode == 0, done.stderr
    clean = clone(start, tmp_path / "clean")
    counted = []
    result = clean.svmram(*args, after=counted.append)
    assert result.returncode == 0, result.stderr
    done_state = state(clean)
    assert counted, "the clean run made no command"
    for nth in range(1, len(counted) + 1):
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
