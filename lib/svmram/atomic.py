# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One way to replace a file: atomically and durably.

A temporary file beside the target (created new, never through a link),
written, fsynced, renamed over the target, and the directory fsynced, so
that a crash or a power cut leaves either the old file or the new one,
and never a file svmram did not make opened for writing."""

import os

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def write_atomically(path, text, mode=0o644):
    """Replace `path` with `text` (str).  The directory must exist or be
    creatable; a temporary file left by a killed run is replaced only when
    it is a regular file (never followed when it is a link)."""
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        os.makedirs(directory, exist_ok=True)
        fsync_directory(os.path.dirname(directory) or ".")
    temporary = path + ".new"
    _remove_stale(temporary)
    fd = os.open(temporary,
                 os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            fd = None
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        if fd is not None:
            os.close(fd)
        _remove_stale(temporary)
        raise
    os.replace(temporary, path)
    fsync_directory(directory)


def fsync_directory(path):
    """Make a new or removed entry in `path` durable (POSIX leaves it to
    the application); a file system that cannot fsync a directory is let
    be."""
    try:
        fd = os.open(path or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_stale(temporary):
    """A temporary file a killed run left: removed (unlink removes a link
    itself, never what it points at)."""
    try:
        os.unlink(temporary)
    except FileNotFoundError:
        pass
