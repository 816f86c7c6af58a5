# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The target of a run as one value: the backend whose name it is, the
name as the administrator typed it, the name the backend knows it by,
and a file-safe slug for every file svmram names after a target (its
journal, journal.py; md's record, md/record.py; SVM's svccfg command
file, svm/smf.py).

A command parses the target once, through its backend (Backend.target,
which checks the syntax with the backend's names.py), into a Target
(commands/common.py); the backends take ``target.name``.  The slug never
holds a '/' (an LVM ``vg/lv`` makes no subdirectory) and two different
names never share one: every byte outside [A-Za-z0-9_.-] is written
%XX, '%' included, so the slug of every SVM or md name is the name
itself (/var/svmram/d10.journal, /var/svmram/md0.journal)."""

from dataclasses import dataclass, field

# The bytes a slug keeps as they are.
SAFE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                 b"0123456789_.-")


def slug(name):
    """`name` as one file name: the bytes of SAFE as they are, every other
    one (a '/', a '%', a space) as %XX; "." and ".." (names no backend
    takes) have their dots written so too, so that no slug names a
    directory entry of its own."""
    if name in (".", ".."):
        return "%2E" * len(name)
    return "".join(chr(byte) if byte in SAFE else "%%%02X" % byte
                   for byte in name.encode("utf-8"))


def unslug(text):
    """The name whose slug `text` is, or None when no name's slug is
    `text` (a file svmram did not name: a byte outside SAFE, a '%' not
    followed by two capital hex digits, an escape where a byte of SAFE
    stands for itself, bytes that are not UTF-8)."""
    raw, i = bytearray(), 0
    while i < len(text):
        if text[i] == "%":
            digits = text[i + 1:i + 3]
            if len(digits) != 2 or digits.strip("0123456789ABCDEF"):
                return None
            raw.append(int(digits, 16))
            i += 3
        elif text[i].isascii() and ord(text[i]) in SAFE:
            raw.append(ord(text[i]))
            i += 1
        else:
            return None
    try:
        name = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return name if slug(name) == text else None


@dataclass(frozen=True)
class Target:
    """One target: `backend` (the registry's name of its backend: "svm",
    "md"), `name` (as the backend knows it: "d10", "md0") and `typed`
    (as the administrator gave it: "d10", "/dev/md0")."""

    backend: str
    name: str
    typed: str = field(default=None, compare=False)

    def __post_init__(self):
        if self.typed is None:
            object.__setattr__(self, "typed", self.name)

    @property
    def slug(self):
        return slug(self.name)

    def __str__(self):
        return self.name
