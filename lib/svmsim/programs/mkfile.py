# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""mkfile: create files of a given size, filled with zeros
(illumos usr/src/cmd/mkfile/mkfile.c main).

The files are made in the fake root; they are sparse here (mkfile writes
its zeros, which reads back the same).  The exit status is the number of
files that could not be made; a usage error is exit 1.
"""

import os
import stat

from svmsim import devices
from svmsim.messages import strerror
from svmsim.lean import MappingProxyType

USAGE = "Usage: mkfile [-nv] <size>[g|k|b|m] <name1> [<name2>] ...\n"
MULTIPLIERS = MappingProxyType({"k": 1024, "b": 512, "m": 1024 ** 2,
                                "g": 1024 ** 3})
# mkfile.c FILE_MODE: S_ISVTX + S_IRUSR + S_IWUSR
FILE_MODE = stat.S_ISVTX | stat.S_IRUSR | stat.S_IWUSR


class _Usage(Exception):
    pass


def run(ctx, argv):
    try:
        return _run(ctx, argv)
    except _Usage:
        ctx.err(USAGE)
        return 1


def _run(ctx, argv):
    if not argv:
        raise _Usage()
    verbose = False
    while argv and argv[0].startswith("-"):
        for option in argv[0][1:]:
            if option == "v":
                verbose = True
            elif option != "n":
                raise _Usage()
        argv = argv[1:]
    if len(argv) < 2:
        raise _Usage()
    size = _size(ctx, argv[0])
    errors = 0
    for name in argv[1:]:
        if verbose:
            ctx.out("%s %d bytes\n" % (name, size))
        errors += _make(ctx, name, size)
    return errors


def _size(ctx, text):
    """atoll of the digits times the suffix's multiplier; a suffix after
    anything but digits is "unknown size" (mkfile.c)."""
    multiplier = 1
    digits = text
    if text and text[-1].isalpha():
        multiplier = MULTIPLIERS.get(text[-1].lower())
        digits = text[:-1]
        if multiplier is None or not all(c.isdigit() for c in digits):
            ctx.err("unknown size %s\n" % text)
            raise _Usage()
    return _atoll(digits) * multiplier


def _atoll(text):
    text = text.lstrip()
    end = 1 if text[:1] in ("+", "-") else 0
    while end < len(text) and text[end].isdigit():
        end += 1
    try:
        return int(text[:end])
    except ValueError:
        return 0


def _make(ctx, name, size):
    """open(O_CREAT|O_TRUNC|O_RDWR), seek to size-1, write a byte: the
    file holds `size` zero bytes.  A relative name is taken from / (the
    emulated commands run there)."""
    emulated = name if name.startswith("/") else "/" + name
    path = devices.host_path(ctx.root, emulated)
    # A new file: whatever a lofi mapping of the old one wrote is gone.
    ctx.st.get("lofi_files", {}).pop(emulated, None)
    try:
        fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_RDWR, FILE_MODE)
    except OSError as error:
        ctx.err("Could not open %s: %s\n" % (name, strerror(error.errno)))
        return 1
    try:
        if size < 1:
            ctx.err("Could not seek to offset %d in %s: %s\n" % (
                (size - 1) & ((1 << 64) - 1), name, strerror(22)))
            return 1
        os.ftruncate(fd, size)
    finally:
        os.close(fd)
    os.chmod(path, FILE_MODE)
    return 0
