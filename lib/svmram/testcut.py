# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A switch for tests, never set in production: SVMRAM_TEST_CUT=POINT
makes the command stop dead at POINT, so that a test can cut the power
there (tests/vm kills QEMU on the mark).  At the point svmram syncs the
file systems, prints "LAB-MARK cut POINT" on stderr (and on /dev/console
when stderr is not a terminal: under systemd a unit's output goes to
the journal) and sleeps until it is killed.  SVMRAM_TEST_TRACE=1 prints
"LAB-TRACE POINT" for every point passed, so a test sees where a run
is and which points it has.

The points (KEY: a step's key, as the trace shows it):

  before=KEY             just before the step KEY does anything
  wait=KEY               while the step KEY waits for its resync (the
                         backend's recovery), once it is >= 10 % done
  journal-before=EVENT   just before a journal write, and
  journal-after=EVENT    just after it (the file renamed, or removed,
                         and synced); EVENT is start:OPERATION (a setup
                         or teardown begins, a rollback included),
                         completed:KEY, failed:KEY or finish (the
                         journal removed at the end)
  lock                   the host lock just taken (not a dry run's)
  end                    the subcommand done with exit status 0

A test that wants the power cut while the kernel copies onto the RAM
copy (restore does not wait for it) lets the command end and waits for
the copy itself (tests/vm: md's sync_completed): the seam only stops the
command, it never polls the host for a test.

Any other spelling is refused as bad input (UsageError, exit 2), before
the subcommand runs.  A point the run never reaches is said on stderr as
it exits, so a test can tell "not cut" from a cut.  Children (the
commands run.py starts, from each backend's programs.py) never inherit
the switch.
"""

import os
import sys
import time

from .errors import UsageError

VARIABLE = "SVMRAM_TEST_CUT"
TRACE = "SVMRAM_TEST_TRACE"
WITH_VALUE = ("before", "wait", "journal-before", "journal-after")
ALONE = ("lock", "end")
EVENTS = ("start:", "completed:", "failed:")
WAIT_PERCENT = 10

# point: the one asked for; reached: whether the run got there; trace:
# SVMRAM_TEST_TRACE=1; step: the key of the step being carried out.
_state = {"point": None, "reached": False, "trace": False, "step": None}


def configure(environ=None):
    """Read the switch from the environment; UsageError for a spelling
    that is not a point.  Called by cli.main before a subcommand runs."""
    environ = os.environ if environ is None else environ
    _state.update(point=None, reached=False, step=None,
                  trace=environ.get(TRACE) == "1")
    text = environ.get(VARIABLE)
    if text is None:
        return
    kind, equals, value = text.partition("=")
    good = (kind in ALONE and not equals) or (
        kind in WITH_VALUE and value.strip() != "" and (
            not kind.startswith("journal-") or value == "finish" or any(
                value.startswith(e) and len(value) > len(e)
                for e in EVENTS)))
    if not good:
        raise UsageError(
            "%s=%r is not a test cut point; give before=KEY, wait=KEY, "
            "journal-before=EVENT, journal-after=EVENT (EVENT: "
            "start:OPERATION, completed:KEY, failed:KEY or finish), lock "
            "or end" % (VARIABLE, text))
    _state["point"] = text


def active():
    return _state["point"] is not None or _state["trace"]


def at(point, detail=""):
    """The run passes `point`: trace it, and stop dead there if it is
    the one asked for."""
    if _state["trace"]:
        _say("LAB-TRACE %s%s" % (point, detail))
    if point == _state["point"]:
        _cut(point + detail)


def step(key):
    """execute.py: the step `key` is about to begin."""
    _state["step"] = key
    at("before=" + key)


def resync(percent):
    """execute.py: the current step's resync is `percent` done (None:
    not known yet)."""
    if percent is not None and percent >= WAIT_PERCENT and \
            _state["step"] is not None:
        point = "wait=" + _state["step"]
        if point == _state["point"] or _state["trace"]:
            _state["step"] = None       # traced once a step
            at(point, " (%d %% done)" % percent)


def journal(when, event):
    """journal.py: a write of `event` is about to be made ("before") or
    has been made ("after")."""
    at("journal-%s=%s" % (when, event))


def locked():
    """lock.py: the host lock has just been taken."""
    at("lock")


def end(status):
    """cli.py: the subcommand returned `status`."""
    if active() and status == 0:
        at("end")


def never_reached():
    """cli.py, as the run exits: say so when the point was not reached."""
    if _state["point"] is not None and not _state["reached"]:
        _say("svmram: test cut point %s never reached" % _state["point"])


def _say(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _cut(point):
    _state["reached"] = True
    os.sync()
    line = "LAB-MARK cut %s" % point
    _say("\n" + line)
    if not sys.stderr.isatty():
        console = os.path.join(os.environ.get("SVMRAM_ROOT") or "/",
                               "dev/console")
        try:
            fd = os.open(console, os.O_WRONLY | os.O_NOCTTY)
            try:
                os.write(fd, ("\n%s\n" % line).encode())
            finally:
                os.close(fd)
        except OSError:
            pass
    while True:
        time.sleep(3600)
