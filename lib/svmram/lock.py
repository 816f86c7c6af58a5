# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One lock for all svmram runs on a host, so two cannot interleave."""

import errno
import fcntl
import os
import time

from . import testcut
from .errors import RefusedError


class HostLock:
    """An exclusive, non-blocking lock on a file (released when the process
    exits, even if it is killed)."""

    def __init__(self, path, wait=0, shared=False):
        self.path = path
        self.wait = wait            # seconds to wait for another run
        # A dry run only reads: it shares the lock with other readers, and
        # needs no right to create or write the lock file.
        self.shared = shared
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
        mode = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.lockf(fd, mode | fcntl.LOCK_NB)
                break
            except OSError as exc:
                busy = exc.errno in (errno.EAGAIN, errno.EACCES)
                if busy and time.monotonic() < deadline:
                    time.sleep(0.5)
                    continue
                os.close(fd)
                if not busy:
                    raise
                raise RefusedError(
                    "another svmram command is running (lock %s is held)"
                    % self.path,
                    advice="Wait for it to finish, then run this command "
                           "again.") from exc
        self._fd = fd
        if not self.shared:
            os.ftruncate(fd, 0)
            os.write(fd, b"%d\n" % os.getpid())
            testcut.locked()
        return self

    def __exit__(self, *exc_info):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
