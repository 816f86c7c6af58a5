# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A target's name as the instance of a template unit, escaped as
systemd escapes it (pure): what `systemd-escape NAME` prints, so that a
name with '/' (an LVM vg/lv) makes a valid unit name ("vg-lv").

systemd's src/basic/unit-name.c: do_escape escapes a leading '.', writes
'/' as '-', keeps VALID_CHARS (DIGITS LETTERS ":-_.\\\\") other than '-'
and '\\\\', and writes every other byte as "\\\\x" and two lower-case hex
digits (do_escape_char, hexchar); a name is its UTF-8 bytes."""

import string

_KEPT = frozenset((string.ascii_letters + string.digits + ":_.").encode())


def systemd_escape(name):
    """`name` escaped as `systemd-escape` (without --path) escapes it."""
    out = []
    for index, byte in enumerate(name.encode("utf-8")):
        if byte == ord("/"):
            out.append("-")
        elif byte in _KEPT and not (index == 0 and byte == ord(".")):
            out.append(chr(byte))
        else:
            out.append("\\x%02x" % byte)
    return "".join(out)
