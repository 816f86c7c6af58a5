# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One way to replace a file: atomically and durably.

A temporary file beside the target, made anew under a name no other
file has (O_CREAT|O_EXCL|O_NOFOLLOW: the next name when one is taken),
written, fsynced, renamed over the target, and the directory fsynced, so
that a crash or a power cut leaves either the old file or the new one,
and no file svmram did not make is opened for writing or removed: not
even one an administrator named FILE.new.  Its name, .FILE.svmram-PID,
is hidden and does not end in FILE's suffix, so node_exporter's textfile
collector, which reads only names ending in .prom
(prometheus/node_exporter collector/textfile.go:212 @a7dcc3a015), and
svmram's own listings (*.json, *.journal) never take it for one.  The
name is made of the pid, not of random letters: the md path imports
nothing that seeds a random generator (tests/md/test_entropy.py)."""

import errno
import os

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# Names tried after .FILE.svmram-PID (taken: left by a killed run whose
# pid this one has again), -PID-1 to -PID-99.
_MORE_NAMES = 99


def temporary_prefix(path):
    """The start of the name of the temporary file that replaces `path`
    (the pid follows)."""
    return ".%s.svmram-" % os.path.basename(path)


def write_atomically(path, text, mode=0o644):
    """Replace `path` with `text` (str), mode `mode` whatever the umask
    (node_exporter, not root, reads the metrics).  The directory must
    exist or be creatable.  On a failure only the temporary file this
    call made is removed."""
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        os.makedirs(directory, exist_ok=True)
        fsync_directory(os.path.dirname(directory) or ".")
    fd, temporary = _create_temporary(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            fd = None
            os.fchmod(stream.fileno(), mode)
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        if fd is not None:
            os.close(fd)
        _remove_own(temporary)
        raise
    fsync_directory(directory)


def _create_temporary(path):
    """(fd, name) of a new file beside `path`, under a name no file had."""
    first = os.path.join(os.path.dirname(path),
                         temporary_prefix(path) + str(os.getpid()))
    for number in range(_MORE_NAMES + 1):
        name = "%s-%d" % (first, number) if number else first
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                           _NOFOLLOW, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "%s and %d more names are taken" % (
        os.path.basename(first), _MORE_NAMES), first)


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


def _remove_own(temporary):
    """The temporary file this call made, once it is not renamed."""
    try:
        os.unlink(temporary)
    except FileNotFoundError:
        pass
