# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Progress while waiting for a resync: a bar on a terminal, plain lines
(one per change of at least 10 %) otherwise, e.g. in an SMF log."""

import sys


class Progress:
    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self._last = None
        self._bar = False           # a bar is drawn and its line open

    def update(self, what, percent):
        if self.tty:
            filled = percent * 30 // 100
            self.stream.write("\r%s: %3d%% [%s%s]" % (
                what, percent, "#" * filled, "." * (30 - filled)))
            self._bar = True
        elif self._last is None or percent >= self._last + 10:
            self.stream.write("%s: %d%% done\n" % (what, percent))
            self._last = percent
        else:
            return
        self.stream.flush()

    def done(self, what, word="done"):
        """The wait is over: "done", or "stopped" for a copy that ended
        short (execute.ResyncStatus.stopped)."""
        if self.tty:
            self.stream.write("\r%s: %s%s\n" % (what, word, " " * 36))
            self._bar = False
        else:
            self.stream.write("%s: %s\n" % (what, word))
        self.stream.flush()
        self._last = None

    def break_line(self):
        """End an open progress bar's line, so that what follows (an
        error, a note about a signal) starts on a line of its own."""
        if self._bar:
            self.stream.write("\n")
            self.stream.flush()
            self._bar = False

    def say(self, line):
        self.break_line()
        self.stream.write(line + "\n")
        self.stream.flush()
