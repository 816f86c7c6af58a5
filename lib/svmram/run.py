# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The one module that starts processes.

It holds no program table: each backend names the commands it runs, with
their absolute paths, in its own programs.py (a Programs, below), and
runs them through it.  Callers pass argv lists built by pure functions;
nothing is ever run through a shell.  Two environment variables exist for
testing:

SVMRAM_BINDIR   run every command from this directory instead (the SVM
                emulator's bin/, or a directory of fake binaries).
SVMRAM_TRACE    append each argv, as one JSON list per line, to this file,
                so tests can assert the exact command sequence.
"""

import json
import os
import subprocess
import time
from dataclasses import dataclass
from typing import List, Optional, Tuple
from types import MappingProxyType

from .errors import RefusedError, SvmramError

# No SVM, ramdisk or SMF command svmram runs should take more than seconds
# (resyncs run in the kernel, after the command returns).  One that hangs
# is killed, so that svmram, not SMF's method timeout, says what happened.
COMMAND_TIMEOUT = 300



class Deadline:
    """When the commands of one run must end.  `at` is the latest moment
    (time.monotonic()) any of them may run until, or None: restore sets it
    so that its whole run ends before SMF's method timeout, and a command
    still running then is killed, even before COMMAND_TIMEOUT.  `seconds`
    is that deadline as the administrator gave it (--deadline), for the
    message that says it passed.  One per run: the Backend holds it, its
    Hosts' runner (Programs.runner) reads it, and the run context
    (context.py) hands it to the subcommand that sets it."""

    def __init__(self):
        self.at = None
        self.seconds = None

    def timeout(self):
        """How long the next command may run."""
        if self.at is None:
            return COMMAND_TIMEOUT
        return max(1.0, min(COMMAND_TIMEOUT, self.at - time.monotonic()))

# The environment every command runs with: C locale so messages and number
# formats are the ones the parsers expect.
_BASE_ENV = MappingProxyType(
    {"LC_ALL": "C", "LANG": "C", "PATH": "/usr/sbin:/usr/bin:/sbin"})


@dataclass(frozen=True)
class Result:
    argv: Tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self):
        return self.returncode == 0


class CommandError(SvmramError):
    """An external command failed or could not be started."""

    def __init__(self, result: Result, message: Optional[str] = None):
        text = (result.stderr.strip() or result.stdout.strip()
                or "exit status %d" % result.returncode)
        super().__init__(message or "%s failed: %s" % (
            " ".join(result.argv), text.splitlines()[0]))
        self.result = result


def command_path(name: str, path: str) -> str:
    """The path command `name` (whose absolute path is `path`) runs from:
    `path`, or the one under SVMRAM_BINDIR."""
    bindir = os.environ.get("SVMRAM_BINDIR")
    if bindir:
        return os.path.join(bindir, name)
    return path


# The names svmram passes on from its environment to every command (the
# rest is _BASE_ENV): the two test seams above, which point a command at
# an emulated host (SVMRAM_ROOT: its files), and the time zone.  No
# emulator's own names: the SVM emulator's commands find their state
# themselves (their bin/ scripts name it).
PASSED_ON = ("SVMRAM_BINDIR", "SVMRAM_ROOT", "TZ")


def _environment():
    env = dict(_BASE_ENV)
    for name in PASSED_ON:
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def _trace(argv: List[str]) -> None:
    path = os.environ.get("SVMRAM_TRACE")
    if path:
        with open(path, "a", encoding="utf-8") as trace:
            trace.write(json.dumps(argv) + "\n")


def missing_command(name, path, reason):
    """The neutral refusal for a command that cannot be started."""
    return RefusedError(
        "cannot run %s: %s" % (path, reason),
        advice="svmram needs this command from the base system; check "
               "that it is installed.")


# Where to look when a command hangs, in neutral words: a backend's
# Programs names its own (Words.hung_command).
HUNG = "the console, the system log"


def start_process(argv, env, timeout):
    """Run argv with stdin from /dev/null and wait for it: (exit status,
    stdout, stderr), the last two as bytes.  A session of its own: a
    Ctrl-C at the terminal reaches svmram, which lets a step's commands
    finish (see interrupt.py), not them."""
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, check=False, timeout=timeout,
                          start_new_session=True)
    return proc.returncode, proc.stdout, proc.stderr


# The test seam (as pkg5's smf.py has one): every command svmram runs
# goes through run.start(argv, env, timeout).  The test suite puts the
# SVM emulator here to run its commands inside the test's own process
# (tests/scenario/inprocess.py); nothing else changes it.
start = start_process


def run(name: str, path: str, args: List[str], check: bool = True,
        deadline: Optional[Deadline] = None, refusal=missing_command,
        hung: str = HUNG) -> Result:
    """Run command `name`, whose absolute path is `path` (a backend's
    Programs gives both), with `args`; never via a shell.

    With check=True a non-zero exit raises CommandError carrying the
    result, so the caller can turn the system's own message into advice.
    `deadline` (the run's Deadline) kills a command still running at it;
    `refusal(name, path, reason)` is the error for a command that cannot
    be started and `hung` where to look when one is killed, both in the
    words of the backend that runs it (its Programs passes them).
    """
    argv = [command_path(name, path)] + list(args)
    _trace([name] + list(args))
    timeout = deadline.timeout() if deadline is not None \
        else COMMAND_TIMEOUT
    try:
        returncode, stdout, stderr = start(argv, _environment(), timeout)
    except subprocess.TimeoutExpired as exc:
        raise SvmramError(
            "%s did not finish within %d seconds and was killed" % (
                " ".join(argv), timeout),
            advice="Look for what holds it up (%s), then run svmram "
                   "again; it continues from the state it finds."
            % hung) from exc
    except OSError as exc:
        # Nothing ran: a missing command is a precondition, not a failure.
        # (A step that hits this fails as a step; see execute.py.)
        raise refusal(name, argv[0], exc.strerror) from exc
    result = Result(tuple(argv), returncode,
                    stdout.decode("utf-8", "replace"),
                    stderr.decode("utf-8", "replace"))
    if check and not result.ok:
        raise CommandError(result)
    return result


class Programs:
    """The commands one backend may run, each with its absolute path
    (`table`: name -> path), in the backend's programs.py.  `run` and
    `path` refuse (KeyError) a command outside it, so that a backend
    cannot run another's commands by mistake.  Their failures are worded
    for the backend: `refusal` and `hung` (run()'s)."""

    def __init__(self, owner, table, refusal=missing_command, hung=HUNG):
        self.owner = owner
        self.refusal = refusal
        self.hung = hung
        self.table = MappingProxyType(dict(table))
        for name, path in self.table.items():
            if not os.path.isabs(path):
                raise ValueError("%s: %s is not an absolute path" % (
                    name, path))

    @property
    def names(self):
        return tuple(self.table)

    def _check(self, name):
        if name not in self.table:
            raise KeyError("not in the %s command table: %s" % (
                self.owner, name))

    def path(self, name):
        """The path a -n script prints for `name`."""
        self._check(name)
        return command_path(name, self.table[name])

    def run(self, name, args, check=True, deadline=None):
        """Run `name` through run() (argv list, LC_ALL=C, the per-command
        timeout or the run's `deadline`, SVMRAM_TRACE and SVMRAM_BINDIR
        for tests)."""
        self._check(name)
        return run(name, self.table[name], list(args), check=check,
                   deadline=deadline, refusal=self.refusal, hung=self.hung)

    def runner(self, deadline):
        """run() for the Hosts of one run (its signature: name, args,
        check), ending every command by that run's `deadline`."""
        def run_one(name, args, check=True):
            return self.run(name, args, check, deadline)
        return run_one
