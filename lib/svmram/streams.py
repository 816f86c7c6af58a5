# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""stdout and stderr as a run writes them: a reader that went away never
raises into svmram.

A write to a pipe whose reader has exited (`svmram status | head -1`)
fails with EPIPE (Python ignores SIGPIPE); one to a terminal that hung up
(a dropped ssh session) fails with EIO.  Either would otherwise raise
from whatever line was printing: a traceback, or a step cut between two
of its commands.  cli.main runs every subcommand with both streams
wrapped in Guarded: the first such failure points the stream at
/dev/null, so nothing buffered fails again at exit, drops what follows,
and, for a closed pipe, tells interrupt.output_lost(), which stops the
run at the next safe point as a SIGPIPE would.  A hung-up terminal comes
with its SIGHUP, which stops the run itself."""

import errno
import os
import sys
from contextlib import contextmanager

from . import interrupt

_GONE = (errno.EPIPE, errno.EIO)


class Guarded:
    """A text stream whose writes and flushes never fail because the
    reader is gone: `lost` says whether it went, `closed_pipe` whether
    it was a pipe's (not a terminal's) reader."""

    def __init__(self, stream):
        self._stream = stream
        self.lost = False
        self.closed_pipe = False

    def write(self, text):
        if self.lost:
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as error:
            self._gone(error)
            return len(text)

    def flush(self):
        if self.lost:
            return
        try:
            self._stream.flush()
        except OSError as error:
            self._gone(error)

    def _gone(self, error):
        if error.errno not in _GONE:
            raise error
        self.lost = True
        self.closed_pipe = error.errno == errno.EPIPE
        _to_null(self._stream)
        if self.closed_pipe:
            interrupt.output_lost()

    def __getattr__(self, name):        # isatty, fileno, encoding, ...
        return getattr(self._stream, name)


def _to_null(stream):
    """What `stream` still holds goes to /dev/null when it is flushed
    (at exit), not to the pipe or terminal that is gone."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return                          # not a file (a test's capture)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


@contextmanager
def guarded():
    """sys.stdout and sys.stderr Guarded while inside; yields the pair."""
    saved = sys.stdout, sys.stderr
    pair = Guarded(sys.stdout), Guarded(sys.stderr)
    sys.stdout, sys.stderr = pair
    try:
        yield pair
    finally:
        sys.stdout, sys.stderr = saved
