# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulated SMF repository on disk: ``SIMDIR/smf.json``, read and
written under an exclusive ``fcntl.flock`` on ``SIMDIR/smf.json.lock``.
A host without one starts with the services manifest.py preregisters.

Its own module so that repo.py (the model) and manifest.py (which fills
the model) both sit below it: neither imports the other's importer.
"""

import fcntl
import marshal
import os

from . import _common, manifest
from .repo import Repo
from ..lean import dumps, loads

STATE_FILE = "smf.json"
LOCK_FILE = "smf.json.lock"


def _default_data(simdir):
    data = {"version": 1, "services": {}}
    manifest.preregister(Repo(data, simdir))
    return data


# Repositories this process has read and not changed, for the next
# command that reads the same text: the tests run the emulated commands in
# one process (tests/scenario/inprocess.py), and parsing smf.json again at
# each metastat, svcs and svcprop was a third of their time.  text ->
# (data, marshal.dumps of what the text parsed to).  A repository is
# handed out only if it still marshals to those bytes: whatever changed it
# since (a command that did not mark it dirty, or a reference kept after
# the lock was released) makes it a miss, so each command gets what
# loads(text) gives, shared with no one.  Marshal (version 4) marks an
# object referred to twice, so a repository in which two places had come
# to share one dict or list would not match what the parser makes either.
# An emulated command run as a process reads the repository once or
# twice: the marshal bytes are only made from a process's second read on.
_parsed = {}
_PARSED_MAX = 4
_reads = [0]


def _read(simdir):
    """(data, fresh, text and the marshal bytes of what it parses to, or
    None: a fresh repository, or this process's first read)."""
    path = os.path.join(simdir, STATE_FILE)
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return _default_data(simdir), True, None
    kept = _parsed.pop(text, None)
    if kept is not None and marshal.dumps(kept[0]) == kept[1]:
        return kept[0], False, (text, kept[1])
    data = loads(text)
    _reads[0] += 1
    if _reads[0] == 1:
        return data, False, None
    return data, False, (text, marshal.dumps(data))


def _keep(parsed, data):
    """Keep `data`, unchanged since it was read as parsed[0], for the next
    reader of that text."""
    text, marshalled = parsed
    while len(_parsed) >= _PARSED_MAX:
        del _parsed[next(iter(_parsed))]
    _parsed[text] = (data, marshalled)


def _write(simdir, data):
    path = os.path.join(simdir, STATE_FILE)
    tmp = path + ".tmp.%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8") as f:
        # One line: the C encoder (json.dump with an indent is the pure
        # Python one, milliseconds for every svccfg and svcadm).
        f.write(dumps(data))
        f.write("\n")
    os.replace(tmp, path)


class locked:
    """``with locked(simdir) as repo``: the Repo under an exclusive lock,
    saved when the block ends (normally or with _common.Exit) if it was
    modified.  (A class, not contextlib.contextmanager: importing
    contextlib costs every emulated command start-up time.)"""

    def __init__(self, simdir):
        self.simdir = simdir
        self.fd = self.repo = self.parsed = None

    def __enter__(self):
        os.makedirs(self.simdir, exist_ok=True)
        self.fd = os.open(os.path.join(self.simdir, LOCK_FILE),
                          os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX)
            data, fresh, self.parsed = _read(self.simdir)
            self.repo = Repo(data, self.simdir)
            self.repo.dirty = fresh
        except BaseException:
            self._unlock()
            raise
        return self.repo

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None or issubclass(exc_type, _common.Exit):
                if self.repo.dirty:
                    _write(self.simdir, self.repo.data)
            if not self.repo.dirty and self.parsed is not None:
                _keep(self.parsed, self.repo.data)
        finally:
            self._unlock()
        return False

    def _unlock(self):
        try:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            os.close(self.fd)
