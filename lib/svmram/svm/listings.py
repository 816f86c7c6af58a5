# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Parse the small listings: ``metaparam dN``, ``metadb [-i]`` and
``ramdiskadm`` (no arguments).

Formats: usr/src/cmd/lvm/util/metaparam.c with meta_mirror.c
meta_print_mirror_options; usr/src/cmd/lvm/util/metadb.c (a 20-column
flag field from "RSFDMaWm  pc luo tBr", then first block and block
count, "unknown" when the kernel does not know them, then the block
device; ``-i`` adds a legend); usr/src/cmd/ramdiskadm/main.c (a header
and one row per ramdisk; nothing at all when there is none).  Columns
are split on any run of blanks, so output whose tabs became spaces
parses too.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .model import MirrorParams, NAME_RE, Ramdisk, Replica, short_name

# DiskSuite wrote "mirror" in lower case.
_PARAMS_HEADER = re.compile(r"(\S+): [Mm]irror current parameters are:\Z")
_PASS = re.compile(r"Pass: ([0-9])\Z")
_READ = re.compile(r"Read option: (roundrobin \(default\)|geometric \(-g\)|"
                   r"first \(-r\))\Z")
_WRITE = re.compile(r"Write option: (parallel \(default\)|serial \(-S\))\Z")
_RESYNC = re.compile(r"Resync option: (.+)\Z")

_METADB_HEADER = re.compile(r"flags\s+first\s+blk\s+block\s+count\Z")
_METADB_FLAGS = frozenset("RSFDMaWmpcluotBr")
_METADB_LEGEND = re.compile(r"([A-Za-z]) - \S.*\Z")
_NUMBER = re.compile(r"[0-9]+\Z")

_RAMDISK_HEADER = re.compile(r"Block\s+Device\s+Size\s+Removable\Z")
_RAMDISK_ROW = re.compile(r"(/dev/ramdisk/([A-Za-z0-9_][A-Za-z0-9_-]{0,31}))"
                          r"\s+([0-9]+)\s+(Yes|No)\Z")


def _lines(text):
    """(line number, line, stripped) for each non-blank line."""
    for lineno, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if stripped:
            yield lineno, line, stripped


def parse_metaparam(text: str) -> MirrorParams:
    """The parameters ``metaparam dN`` shows for mirror dN."""
    source = "metaparam"
    found = {}
    name = None
    lineno = line = None
    for lineno, line, s in _lines(text):
        if name is None:
            match = _PARAMS_HEADER.match(s)
            if not match or not NAME_RE.match(match.group(1)):
                raise ParseError("expected 'dN: Mirror current parameters "
                                 "are:'", lineno, line, source)
            name = match.group(1)
            continue
        for key, pattern in (("pass", _PASS), ("read", _READ),
                             ("write", _WRITE), ("resync", _RESYNC)):
            match = pattern.match(s)
            if match:
                if key in found:
                    raise ParseError("duplicate line", lineno, line, source)
                found[key] = match.group(1)
                break
        else:
            raise ParseError("unexpected line", lineno, line, source)
    if name is None:
        raise ParseError("no output", source=source)
    missing = [k for k in ("pass", "read", "write") if k not in found]
    if missing:
        raise ParseError("no %s option line" % missing[0], lineno, line,
                         source)
    return MirrorParams(name, int(found["pass"]), found["read"].split()[0],
                        found["write"].split()[0], found.get("resync"))


def parse_metadb(text: str) -> list:
    """The replicas ``metadb`` or ``metadb -i`` lists; [] for no output."""
    source = "metadb"
    replicas = []
    header = legend = False
    for lineno, line, s in _lines(text):
        if not header:
            if not _METADB_HEADER.match(s):
                raise ParseError("expected the 'flags first blk block "
                                 "count' header", lineno, line, source)
            header = True
        elif _METADB_LEGEND.match(s) and s[0] in _METADB_FLAGS:
            legend = True
        elif legend:
            raise ParseError("replica line after the legend", lineno, line,
                             source)
        else:
            replicas.append(_replica(s.split(), lineno, line, source))
    return replicas


def _replica(words, lineno, line, source):
    if len(words) < 3:
        raise ParseError("bad replica line", lineno, line, source)
    *flags, first, count, device = words
    letters = "".join(flags)
    if not set(letters) <= _METADB_FLAGS:
        raise ParseError("unknown replica flag in %r" % letters, lineno,
                         line, source)
    numbers = []
    for word in (first, count):
        if word == "unknown":
            numbers.append(None)
        elif _NUMBER.match(word):
            numbers.append(int(word))
        else:
            raise ParseError("bad block number %r" % word, lineno, line,
                             source)
    name = short_name(device) if device.startswith("/dev/") else None
    if name is None:
        raise ParseError("bad device %r" % device, lineno, line, source)
    return Replica(letters, numbers[0], numbers[1], name)


def parse_ramdiskadm(text: str) -> list:
    """The ramdisks ``ramdiskadm`` lists; [] for no output."""
    source = "ramdiskadm"
    ramdisks = []
    header = False
    for lineno, line, s in _lines(text):
        if not header:
            if not _RAMDISK_HEADER.match(s):
                raise ParseError("expected the 'Block Device Size Removable' "
                                 "header", lineno, line, source)
            header = True
            continue
        match = _RAMDISK_ROW.match(s)
        if not match:
            raise ParseError("bad ramdisk line", lineno, line, source)
        device, name, size, removable = match.groups()
        ramdisks.append(Ramdisk(name, device, int(size), removable == "Yes"))
    return ramdisks
