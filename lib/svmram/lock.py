"""One lock for all svmram runs on a host, so two cannot interleave."""

import errno
import fcntl
import os

from .errors import RefusedError


class HostLock:
    """An exclusive, non-blocking lock on a file (released when the process
    exits, even if it is killed)."""

    def __init__(self, path):
        self.path = path
        self._fd = None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise RefusedError(
                    "another svmram command is running (lock %s is held)"
                    % self.path,
                    advice="Wait for it to finish, then run this command "
                           "again.") from exc
            raise
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
        self._fd = fd
        return self

    def __exit__(self, *exc_info):
        os.close(self._fd)
        self._fd = None
