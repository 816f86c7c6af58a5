# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One lock for all svmram runs on a host, so two cannot interleave; a
run refused names the run that holds it.

The holder of the exclusive lock writes one line into the lock file (the
record): {"pid": ..., "command": ..., "since": ...}, the command line as
svmram was called and the time it took the lock (seconds since the
epoch), and empties the file again before it lets the lock go.  A run
that cannot have the lock reads the record to name the holder in its
refusal.  The record is written in one write after the file is emptied,
and counts only once its line is whole (JSON, ended by its newline), so
a reader never takes half of one: it tries the lock again for a moment
and, if the line is still not whole, names no holder.

A run killed with SIGKILL leaves its record, and its pid may since name
another process.  So the record is believed only while the kernel shows
an exclusive holder (a shared lock cannot be had): when only readers
hold the lock (a status or a dry run, which write nothing) the record is
a killed run's and names no holder.  In the moment between a holder
taking the lock and writing its record a killed run's record still
stands; a pid that is no longer running (kill(pid, 0)) names no holder
either.  An older svmram wrote its pid alone, and is named by its
pid."""

import errno
import fcntl
import json
import os
import time

from . import testcut
from .errors import RefusedError, SvmramError

# How long a refused run waits for a record being written to be whole.
SETTLE_SECONDS = 0.2
_POLL_SECONDS = 0.05

class Holder:
    """The run a lock file names: pid; command, its command line, and
    since, when it took the lock in seconds since the epoch (both None
    for an older svmram, which wrote its pid alone)."""

    def __init__(self, pid, command, since):
        self.pid, self.command, self.since = pid, command, since


class HostLock:
    """An exclusive, non-blocking lock on a file (released when the process
    exits, even if it is killed)."""

    def __init__(self, path, wait=0, shared=False, command=None):
        self.path = path
        self.wait = wait            # seconds to wait for another run
        # A dry run only reads: it shares the lock with other readers, and
        # needs no right to create or write the lock file.
        self.shared = shared
        # The command line as svmram was called, for the record.
        self.command = command
        self._fd = None

    def __enter__(self):
        if self.shared:
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return self         # no svmram has run since boot
        else:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._take(fd)
            if not self.shared:
                self._record(fd)
        except BaseException:
            os.close(fd)            # and with it the lock
            raise
        self._fd = fd
        if not self.shared:
            testcut.locked()
        return self

    def _take(self, fd):
        mode = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        deadline = time.monotonic() + self.wait
        settle = None
        while True:
            try:
                fcntl.lockf(fd, mode | fcntl.LOCK_NB)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                now = time.monotonic()
                if now < deadline:
                    time.sleep(0.5)
                    continue
                holder = read_holder(self.path)
                if holder is None:
                    # Nothing whole to read: a record being written, or a
                    # reader's lock; try again for a moment.
                    settle = now + SETTLE_SECONDS if settle is None \
                        else settle
                    if now < settle:
                        time.sleep(_POLL_SECONDS)
                        continue
                raise RefusedError(
                    "another svmram command is running (lock %s is held)"
                    % self.path,
                    advice="Wait for %s to finish, then run this command "
                           "again." % describe(holder)) from exc

    def _record(self, fd):
        try:
            write_record(fd, record(os.getpid(), self.command, time.time()))
        except OSError as exc:
            directory = os.path.dirname(self.path)
            raise SvmramError(
                "cannot write svmram's lock file %s: %s" % (
                    self.path, exc.strerror or exc),
                advice="Check that %s can be written (df %s shows its free "
                       "space), then run this command again." % (
                           directory, directory)) from exc

    def __exit__(self, *exc_info):
        if self._fd is not None:
            if not self.shared:
                os.ftruncate(self._fd, 0)       # no holder to name now
            os.close(self._fd)
            self._fd = None


def record(pid, command, since):
    """The lock file's line for a holder."""
    return (json.dumps({"pid": pid, "command": command, "since": int(since)},
                       sort_keys=True) + "\n").encode("utf-8")


def write_record(fd, line):
    """Replace what the lock file holds by `line`, in one write."""
    os.ftruncate(fd, 0)
    written = os.pwrite(fd, line, 0)
    while written < len(line):          # not seen on a regular file
        written += os.pwrite(fd, line[written:], written)


def read_holder(path):
    """The running holder the lock file names, or None: no exclusive
    holder (readers only: the record is a killed run's), empty, not yet
    whole, not a record, or a record of a process that is gone.  This
    process must hold no lock on `path` (closing the file lets it go)."""
    try:
        with open(path, "rb") as stream:
            if not _held_exclusively(stream.fileno()):
                return None
            text = stream.read(4096)
    except OSError:
        return None
    holder = parse_record(text)
    if holder is None or not _running(holder.pid):
        return None
    return holder


def parse_record(text):
    """A Holder from the lock file's bytes, or None unless they are one
    whole line: a record, or an older svmram's pid."""
    if not text.endswith(b"\n") or text.count(b"\n") != 1:
        return None
    line = text.decode("utf-8", "replace").strip()
    if line.isdigit():
        return Holder(int(line), None, None)
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or type(data.get("pid")) is not int:
        return None
    command, since = data.get("command"), data.get("since")
    return Holder(data["pid"],
                  command if isinstance(command, str) else None,
                  since if type(since) is int else None)


def _held_exclusively(fd):
    """Whether another process holds an exclusive lock on `fd`'s file: a
    shared lock cannot be had (one had is let go with the file)."""
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return True
        raise
    return False


def _running(pid):
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True                     # another user's: it runs
    return True


def describe(holder, now=None):
    """The holder in words: "svmram restore d10 (pid 1234, running since
    14:02:11)"; "svmram (pid 1234)" for an older svmram; "it" when the
    lock file names none."""
    if holder is None:
        return "it"
    since = ""
    if holder.since is not None:
        since = ", running since %s" % clock(holder.since, now)
    return "%s (pid %d%s)" % (holder.command or "svmram", holder.pid, since)


def clock(since, now=None):
    """Local time of day, with the date unless it is today's."""
    when = time.localtime(since)
    today = time.localtime(time.time() if now is None else now)
    if when[:3] == today[:3]:
        return time.strftime("%H:%M:%S", when)
    return time.strftime("%Y-%m-%d %H:%M:%S", when)
