# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Where `svmram selftest` works: a directory of its own, made by mkdtemp
(mode 0700, a name no one else chose) inside the --directory DIR, which
must exist and be safe: a directory, no symbolic link, owned by the user
who runs svmram (root), and not writable by others unless its sticky bit
is set (/var/tmp, mode 1777, is).  Nothing outside the directory it made
is opened for writing or removed: real mkfile opens its files with
O_CREAT|O_TRUNC and without O_NOFOLLOW (usr/src/cmd/mkfile/mkfile.c:133
@a593473611), so a file or link another user planted under a fixed name
would have been truncated through it."""

import os
import stat
import tempfile

from ..errors import RefusedError

PREFIX = "svmram-selftest."


def check_parent(host_path, shown):
    """Refuse a --directory that is missing, not a directory, a link, or
    that another user could change; `host_path` is it under the host's
    root, `shown` as the administrator typed it."""
    advice = ("Name an existing directory that only root can change "
              "(default /var/tmp) with --directory.")
    if not shown.startswith("/"):
        raise RefusedError("--directory %s is not an absolute path" % shown,
                           advice=advice)
    try:
        status = os.lstat(host_path)
    except FileNotFoundError:
        raise RefusedError("--directory %s does not exist (svmram selftest "
                           "creates no directory there)" % shown,
                           advice=advice) from None
    except NotADirectoryError:
        raise RefusedError("--directory %s is not a directory: a part of "
                           "its path is a file" % shown,
                           advice=advice) from None
    except OSError as error:
        raise RefusedError("cannot read --directory %s: %s" % (
            shown, error.strerror), advice=advice) from None
    if stat.S_ISLNK(status.st_mode):
        raise RefusedError(
            "--directory %s is a symbolic link, and svmram selftest follows "
            "none it did not make" % shown,
            advice="Name the directory it points at with --directory.")
    if not stat.S_ISDIR(status.st_mode):
        raise RefusedError("--directory %s is not a directory" % shown,
                           advice=advice)
    unsafe = unsafe_because(status)
    if unsafe:
        raise RefusedError("--directory %s %s" % (shown, unsafe),
                           advice=advice)


def unsafe_because(status):
    """Why a directory of this os.lstat is not safe to work in, or ""."""
    if status.st_uid != os.geteuid():
        return "belongs to uid %d, not to uid %d that runs svmram " \
               "selftest" % (status.st_uid, os.geteuid())
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and \
            not status.st_mode & stat.S_ISVTX:
        return "can be written by other users and has no sticky bit " \
               "(mode %04o)" % stat.S_IMODE(status.st_mode)
    return ""


def make(host_parent):
    """A new directory of mode 0700 in `host_parent`: (its host path, its
    os.lstat)."""
    path = tempfile.mkdtemp(prefix=PREFIX, dir=host_parent)
    return path, os.lstat(path)


def is_own(host_path, directory_id):
    """Is `host_path` still the directory the journal recorded (device and
    inode), a directory and no link, and the running user's?"""
    if not directory_id:
        return False
    try:
        status = os.lstat(host_path)
    except OSError:
        return False
    return stat.S_ISDIR(status.st_mode) and \
        [status.st_dev, status.st_ino] == list(directory_id) and \
        status.st_uid == os.geteuid()
