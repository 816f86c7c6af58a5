# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulated SMF repository on disk: ``SIMDIR/smf.json``, read and
written under an exclusive ``fcntl.flock`` on ``SIMDIR/smf.json.lock``.
A host without one starts with the services manifest.py preregisters.

Its own module so that repo.py (the model) and manifest.py (which fills
the model) both sit below it: neither imports the other's importer.
"""

import fcntl
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


def _read(simdir):
    path = os.path.join(simdir, STATE_FILE)
    try:
        with open(path, "r", encoding="utf-8") as f:
            return loads(f.read()), False
    except FileNotFoundError:
        return _default_data(simdir), True


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
        self.fd = self.repo = None

    def __enter__(self):
        os.makedirs(self.simdir, exist_ok=True)
        self.fd = os.open(os.path.join(self.simdir, LOCK_FILE),
                          os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX)
            data, fresh = _read(self.simdir)
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
        finally:
            self._unlock()
        return False

    def _unlock(self):
        try:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            os.close(self.fd)
