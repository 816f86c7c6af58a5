"""One lock for all svmram runs on a host, so two cannot interleave."""

import errno
import fcntl
import os
import time

from .errors import RefusedError


class HostLock:
    """An exclusive, non-blocking lock on a file (released when the process
    exits, even if it is killed)."""

    def __init__(self, path, wait=0):
        self.path = path
        self.wait = wait            # seconds to wait for another run
        self._fd = None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
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
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
        self._fd = fd
        return self

    def __exit__(self, *exc_info):
        os.close(self._fd)
        self._fd = None
