# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The opt-in recorder of what emulated commands print (issue 36 section 1).

`svmsim record-facts DIR FILE` turns it on: each emulated command then
appends one JSON line to FILE with its program, arguments, stdout,
stderr and exit status, and whether the test harness's fault switch
(`svmsim faults add`) injected the output instead (that output is no fact
of the emulator).  tests/svmsim/test_facts.py checks every recorded line
against the inventory in svmsim/facts.py.  Off, it costs the emulator one
lookup in the state it loads anyway: this module is imported only when
recording.
"""

import os
import sys

from svmsim.lean import dumps


class _Tee:
    """A text stream that keeps a copy of what is written through it."""

    def __init__(self, stream):
        self.stream = stream
        self.copy = []

    def write(self, text):
        self.copy.append(text)
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


class Recorder:
    def __init__(self, path, prog, argv):
        self.path = path
        self.prog = prog
        self.argv = list(argv)
        self.saved = sys.stdout, sys.stderr
        self.out, self.err = _Tee(sys.stdout), _Tee(sys.stderr)
        sys.stdout, sys.stderr = self.out, self.err

    def done(self, status, injected=False):
        """Put the streams back and append the record; `status` None means
        the command ended by an exception (a traceback, never a fact)."""
        sys.stdout, sys.stderr = self.saved
        record = {"prog": self.prog, "argv": self.argv,
                  "stdout": "".join(self.out.copy),
                  "stderr": "".join(self.err.copy),
                  "exit": status, "injected": injected}
        line = (dumps(record) + "\n").encode("utf-8", "backslashreplace")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                     0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)


def read(path):
    """The records of a log, in order."""
    from svmsim.lean import loads
    try:
        with open(path, encoding="utf-8") as stream:
            return [loads(line) for line in stream if line.strip()]
    except FileNotFoundError:
        return []
