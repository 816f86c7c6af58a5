# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SIGINT (Ctrl-C), SIGTERM (a shutdown, a kill), SIGHUP (the terminal or
the ssh session went away) and a closed pipe on svmram's output (SIGPIPE):
stop at a safe point.

cli.main installs the handler for every subcommand.  Outside a critical
section a signal raises Interrupted at once: while svmram reads the host,
plans, or waits for a resync, which goes on in the kernel without it.
Inside one (a step's commands, a journal write: see deferred()) the signal
is remembered and raised when the section ends, so a step is never cut
between two of its commands (a swap's metaclear and metainit) and the
journal is never half written.  A second signal during a critical section
changes nothing; after the first has been raised, a further one only cuts
short the reading of the host for the report (see cuttable()) and is
otherwise ignored, so it cannot interrupt the report itself.

A signal that was ignored when svmram started (nohup, a background job
of a non-interactive shell) stays ignored.

Python ignores SIGPIPE itself: a write to a pipe whose reader has gone
fails instead (EPIPE).  streams.py catches that failure on stdout and
stderr and calls output_lost(), which acts as a SIGPIPE would: held back
inside a critical section, raised outside one, exit 128 + 13.

What the handler and the critical sections share is PROCESS, this
module's one piece of state: process-wide by nature, as a signal's
disposition is (a handler cannot be handed a run context), and reset by
install() for every run.  tests/svmram/test_module_state.py names it as
one of lib/svmram's test seams and refuses any other.
"""

import signal
import sys
from contextlib import contextmanager
from types import MappingProxyType

from .errors import EXIT_SIGNAL_BASE

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_NAMES = MappingProxyType({signal.SIGINT: "SIGINT",
                           signal.SIGTERM: "SIGTERM",
                           signal.SIGHUP: "SIGHUP",
                           signal.SIGPIPE: "SIGPIPE"})


class ProcessSignals:
    """The signal state of the process (see the module's text):

    depth     critical sections entered
    pending   a signal they hold back, or None
    changed   this run has begun to change the host
    stopping  a signal has been raised, so more only cut short what runs
              under cuttable()
    cuttable  what runs now may be cut short (cuttable())
    """

    def __init__(self):
        self.reset()

    def reset(self):
        self.depth = 0
        self.pending = None
        self.changed = False
        self.stopping = False
        self.cuttable = False


PROCESS = ProcessSignals()


class Interrupted(KeyboardInterrupt):
    """A signal asked svmram to stop.  Not an Exception, so that no
    handler meant for failures (and their rollback) catches it.  execute
    sets `number`, `step`, `waiting` (the target whose copy it was
    waiting for) and `before` (the step had not begun) when it stops a
    plan."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum
        self.number = None
        self.step = None
        self.waiting = None
        self.before = False

    @property
    def name(self):
        return signal_name(self.signum)

    @property
    def exit_code(self):
        return EXIT_SIGNAL_BASE + self.signum


def signal_name(signum):
    return _NAMES.get(signum, "signal %d" % signum)


def install():
    """Catch SIGINT, SIGTERM and SIGHUP; returns a function that puts the
    previous handlers back."""
    previous = {}
    for signum in SIGNALS:
        current = signal.getsignal(signum)
        if current == signal.SIG_IGN or current is None:
            continue
        previous[signum] = current
        signal.signal(signum, _handler)
    PROCESS.reset()

    def uninstall():
        for number, handler in previous.items():
            signal.signal(number, handler)
    return uninstall


def _handler(signum, frame):       # pylint: disable=unused-argument
    _act_on(signum, say=True)


def output_lost():
    """streams.py: stdout or stderr went to a closed pipe.  Acted on as
    a SIGPIPE: a step's commands and a journal write still finish, and
    svmram stops at the next safe point.  Nothing is said: the reader is
    gone, and a note would only go into the same pipe.  Once svmram is
    stopping, the rest of its report is let go, never cut short."""
    if not PROCESS.stopping:
        _act_on(signal.SIGPIPE, say=False)


def _act_on(signum, say):
    if PROCESS.stopping:
        if PROCESS.cuttable:
            raise Interrupted(signum)
        return
    if PROCESS.depth:
        if PROCESS.pending is None:
            PROCESS.pending = signum
            if not say:
                return
            sys.stderr.write("%ssvmram: %s: stopping as soon as this step's "
                             "commands have finished\n" % (
                                 "\n" if sys.stderr.isatty() else "",
                                 signal_name(signum)))
            sys.stderr.flush()
        return
    PROCESS.stopping = True
    raise Interrupted(signum)


@contextmanager
def cuttable():
    """After a signal was acted on: what a further signal may cut short
    (reading the host for the report)."""
    PROCESS.cuttable = True
    try:
        yield
    finally:
        PROCESS.cuttable = False


@contextmanager
def deferred(raise_pending=True, keep_pending=False):
    """A critical section: a signal that arrives inside it is raised as
    Interrupted when it ends (unless it ends with an exception, which then
    goes first; the signal is raised at the next safe point).  With
    raise_pending=False (svmram is already stopping, or done) it is
    dropped; with keep_pending=True it is left for the next safe point
    (a failure is being recorded, and must be reported first)."""
    PROCESS.depth += 1
    try:
        yield
    finally:
        PROCESS.depth -= 1
        if not raise_pending and not keep_pending and not PROCESS.depth:
            PROCESS.pending = None
    if not keep_pending:
        check()


@contextmanager
def done():
    """The job is done and its last lines are written: a signal that
    comes now stops nothing and is not said (the exit status stays the
    job's; output lost into a closed pipe makes it 141 in cli.main)."""
    was = PROCESS.stopping
    PROCESS.stopping = True
    try:
        yield
    finally:
        PROCESS.stopping = was


def changing():
    """Note that this run has begun to change the host."""
    PROCESS.changed = True


def changed():
    """Has this run begun to change the host?"""
    return PROCESS.changed


def check():
    """A safe point: raise the signal a critical section held back."""
    signum = PROCESS.pending
    if signum is not None and not PROCESS.depth:
        PROCESS.pending = None
        PROCESS.stopping = True
        raise Interrupted(signum)
