# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The error hierarchy and the exit codes every svmram entry point uses.

Each error carries a message (what happened) and optional advice (what the
administrator should do).  The CLI turns them into output and an exit code
in one place (cli.main); a subcommand that ends normally returns its own
exit status (status's verdicts, check's and selftest's), and status also
puts the error into its machine formats (--json, --nagios, --prometheus).
"""

import os
import traceback

# Exit codes (documented in svmram(8)).
EXIT_OK = 0
EXIT_FAILED = 1      # a step failed or the system answered something unexpected
EXIT_USAGE = 2       # bad command line
EXIT_REFUSED = 3     # a precondition does not hold; nothing was changed
EXIT_NOT_SERVING = 4  # status: a target is not fully serving reads from RAM
EXIT_DEGRADED = 5     # status: a recorded disk copy is not current
EXIT_ONLY_COPY_IN_RAM = 6  # status: no disk copy is current, RAM's is
EXIT_DEADLINE = 7     # restore: its deadline passed; stopped at a safe point
EXIT_SELFTEST_FAILED = 8  # selftest: a check failed (the report says which)
# Stopped by a signal: 128 + the signal's number (130 SIGINT, 143 SIGTERM).
EXIT_SIGNAL_BASE = 128

# The advice that goes with an internal error (a bug), in cli.py and
# restore; {targets} is the backend's (cli.targets(): mirrors, arrays).
BUG_ADVICE = ("this is a bug in svmram; please report it with this output.  "
              "'svmram status' shows the state of the {targets}; "
              "SVMRAM_DEBUG=1 prints the traceback.")


def bug_advice(targets):
    """BUG_ADVICE for the targets of the backend in use."""
    return BUG_ADVICE.format(targets=targets)


class SvmramError(Exception):
    """Base class: an expected failure with a message for the operator."""

    exit_code = EXIT_FAILED

    def __init__(self, message, advice=None):
        super().__init__(message)
        self.message = message
        self.advice = advice

    def __str__(self):
        return self.message


class UsageError(SvmramError):
    exit_code = EXIT_USAGE


class RefusedError(SvmramError):
    """A precondition failed before anything was changed."""

    exit_code = EXIT_REFUSED


class AlreadySetUp(RefusedError):
    """Setup found its target set up already (recorded, boot service
    enabled).  commands/setup.py answers "nothing to do" (exit 0) when
    the setup asked for matches the recorded one, and refuses otherwise."""


class ParseError(SvmramError):
    """Output of a command, or a file the kernel writes, that a
    backend's parsers do not understand.

    ``lineno`` is 1-based; ``line`` is the offending input line (or None
    when the input ended too early).
    """

    def __init__(self, message, lineno=None, line=None, source=None):
        where = "" if lineno is None else "line %d: " % lineno
        what = "" if line is None else ": %r" % line
        prefix = "" if source is None else "%s output: " % source
        super().__init__(
            "cannot parse %s%s%s" % (prefix, where, message + what),
            advice="svmram refuses to act on output it does not understand; "
                   "please report the command's output.")
        self.reason = message
        self.lineno = lineno
        self.line = line
        self.source = source


def bug_text(bug):
    """One line for an exception svmram did not expect: its type, its
    text, and the file and line that raised it."""
    frames = traceback.extract_tb(bug.__traceback__)
    where = " (%s line %d)" % (os.path.basename(frames[-1].filename),
                               frames[-1].lineno) if frames else ""
    return "internal error: %s: %s%s" % (type(bug).__name__, bug, where)


def os_error_text(error):
    """An OSError as one line: the file (and the link) it concerns, and
    the system's reason."""
    reason = error.strerror or str(error)
    if error.filename is not None and error.filename2 is not None:
        return "%s (a link to %s): %s" % (error.filename2, error.filename,
                                          reason)
    if error.filename is not None:
        return "%s: %s" % (error.filename, reason)
    return reason


def whole_number(text, what, low, high):
    """An option's value as a whole number from low to high, or
    UsageError.  ASCII digits only: str.isdigit() also accepts '²', which
    int() refuses."""
    if not (text.isascii() and text.isdigit()) or \
            not low <= int(text) <= high:
        raise UsageError("%s %r is invalid; give a whole number from %d to %d"
                         % (what, text, low, high))
    return int(text)
