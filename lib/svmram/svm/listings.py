# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Parse the small listings: ``metaparam dN``, ``metadb [-i]``,
``ramdiskadm`` (no arguments) and /etc/mnttab.

Formats: usr/src/cmd/lvm/util/metaparam.c with meta_mirror.c
meta_print_mirror_options; usr/src/cmd/lvm/util/metadb.c (a 20-column
flag field from "RSFDMaWm  pc luo tBr", then first block and block
count, "unknown" when the kernel does not know them, then the block
device; ``-i`` adds a legend); usr/src/cmd/ramdiskadm/main.c (a header
and one row per ramdisk; nothing at all when there is none).  Columns
are split on any run of blanks, so output whose tabs became spaces
parses too.

``replica_problems`` says, from a parsed metadb listing, which replicas
are unhealthy and why (the upper-case flags and their -i legend text).
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ..errors import ParseError
from dataclasses import dataclass
from typing import Tuple

from .model import MirrorParams, NAME_RE, Ramdisk, Replica, short_name

# Words in any letter case (DiskSuite wrote "mirror current parameters"
# in lower case); the option flags keep theirs: -S is not -s.
_PARAMS_HEADER = re.compile(r"(\S+): (?i:mirror current parameters are):\Z")
_PASS = re.compile(r"(?i:pass): ([0-9])\Z")
_READ = re.compile(r"(?i:read option): ((?i:roundrobin \(default\))|"
                   r"(?i:geometric) \(-g\)|(?i:first) \(-r\))\Z")
_WRITE = re.compile(r"(?i:write option): ((?i:parallel \(default\))|"
                    r"(?i:serial) \(-S\))\Z")
_RESYNC = re.compile(r"(?i:resync option): (.+)\Z")

_METADB_HEADER = re.compile(r"flags\s+first\s+blk\s+block\s+count\Z", re.I)
# The letters metadb prints: MDDB_FLAGS_STRING "RSFDMaWm  pc luo tBr" of
# usr/src/uts/common/sys/lvm/md_mddb.h, one per r_flags bit (the blanks
# are bits metadb never shows).  Their meanings are the -i legend of
# metadb.c info(); DiskSuite 4.2.1 words them "state database replica".
REPLICA_FLAGS = MappingProxyType({
    "r": "replica does not have device relocation information",
    "o": "replica active prior to last mddb configuration change",
    "u": "replica is up to date",
    "l": "locator for this replica was read successfully",
    "c": "replica's location was in /etc/lvm/mddb.cf",
    "p": "replica's location was patched in kernel",
    "m": "replica is master, this is replica selected as input",
    "t": "tagged data is associated with the replica",
    "W": "replica has device write errors",
    "a": "replica is active, commits are occurring to this replica",
    "M": "replica had problem with master blocks",
    "D": "replica had problem with data blocks",
    "F": "replica had format problems",
    "S": "replica is too small to hold current data base",
    "R": "replica had device read errors",
    "B": "tagged data associated with the replica is not valid",
})
_METADB_FLAGS = frozenset(REPLICA_FLAGS)
# "Uppercase letters indicate a problem status.  Lowercase letters
# indicate an Okay status." (Solstice DiskSuite 4.2.1 User's Guide and
# the Solaris Volume Manager Administration Guide, "How to Check the
# Status of State Database Replicas").
PROBLEM_FLAGS = "WMDFSRB"
_METADB_LEGEND = re.compile(r"([A-Za-z])\s+-\s+\S.*\Z")
_NUMBER = re.compile(r"[0-9]+\Z")

_RAMDISK_HEADER = re.compile(r"Block\s+Device\s+Size\s+Removable\Z", re.I)
_RAMDISK_ROW = re.compile(r"(/dev/ramdisk/([A-Za-z0-9_][A-Za-z0-9_-]{0,31}))"
                          r"\s+([0-9]+)\s+((?i:yes|no))\Z")


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
        s = " ".join(s.split())         # any run of blanks is one
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
    return MirrorParams(name, int(found["pass"]),
                        found["read"].split()[0].lower(),
                        found["write"].split()[0].lower(), found.get("resync"))


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
        ramdisks.append(Ramdisk(name, device, int(size),
                                removable.lower() == "yes"))
    return ramdisks


@dataclass(frozen=True)
class ReplicaProblem:
    """What is wrong with one replica that ``metadb`` lists."""

    replica: Replica
    # (flag, meaning) for each upper-case flag, in the order metadb
    # prints them, then ("a", ...) and ("u", ...) for a missing a or u.
    problems: Tuple[Tuple[str, str], ...]

    @property
    def flags(self):
        """The upper-case (problem) flags shown, e.g. "W"."""
        return "".join(f for f, _ in self.problems if f in PROBLEM_FLAGS)

    def describe(self):
        """One line for a message, e.g. "c2t3d0s1 block 16: W (replica
        has device write errors), not active (no a flag)"."""
        where = self.replica.device
        if self.replica.first_block is not None:
            where += " block %d" % self.replica.first_block
        return "%s: %s" % (where, ", ".join(
            "%s (%s)" % (flag, meaning) if flag in PROBLEM_FLAGS
            else meaning for flag, meaning in self.problems))


_MISSING = (("a", "not active (no a flag)"),
            ("u", "not up to date (no u flag)"))


def replica_problems(replicas):
    """The replicas of a parsed ``metadb`` listing that are not healthy,
    as ReplicaProblem, in listing order; [] when all are well.

    A replica is unhealthy when it shows an upper-case flag (W M D F S R
    B: an error metadb reports) or lacks ``a`` (SVM does not commit to
    it) or ``u`` (it is not up to date).  Pure: give it the list
    parse_metadb returned.  An empty list of replicas has no problem
    replica; whether there are enough replicas is the caller's question.
    """
    found = []
    for replica in replicas:
        problems = [(flag, REPLICA_FLAGS[flag]) for flag in PROBLEM_FLAGS
                    if flag in replica.flags]
        problems.sort(key=lambda item: replica.flags.index(item[0]))
        problems += [(flag, text) for flag, text in _MISSING
                     if flag not in replica.flags]
        if problems:
            found.append(ReplicaProblem(replica, tuple(problems)))
    return found


_FUSER_PID = re.compile(r"[0-9]+\Z")
# What fuser prints on stderr after "FILE: ": per process its usage
# letters (c r t o m y a n) and, with -u, "(login)"; per kernel user
# " [module]" or " [module,dev=(M,m),dev_path=...]"; then a newline.
_FUSER_CODES = re.compile(r"([crtomyan]*(\([^()\s]*\))?)*\Z")
_FUSER_KERNEL = re.compile(r"\[([A-Za-z0-9_.-]+)[^\[\]]*\]")


def parse_fuser(path, stdout, stderr):
    """Who has `path` open, from `fuser path` (one file): a tuple of
    "process PID" and "kernel module NAME" (usr/src/cmd/fuser/fuser.c
    report_process and report_kernel; pids go to stdout, everything
    else to stderr)."""
    source = "fuser"
    pids = stdout.split()
    for word in pids:
        if not _FUSER_PID.match(word):
            raise ParseError("expected process ids", 1, stdout, source)
    lines = stderr.splitlines()
    prefix = path + ": "
    if len(lines) != 1 or not lines[0].startswith(prefix):
        raise ParseError("expected one line starting %r" % prefix,
                         1, stderr, source)
    rest = lines[0][len(prefix):]
    modules = _FUSER_KERNEL.findall(rest)
    codes = _FUSER_KERNEL.sub(" ", rest).split()
    if not all(_FUSER_CODES.match(code) for code in codes):
        raise ParseError("unexpected usage codes", 1, lines[0], source)
    return tuple(["process %s" % pid for pid in pids] +
                 ["kernel module %s" % name for name in modules])


def mount_point(mnttab, unit):
    """Where the text of /etc/mnttab (tab-separated: special, mount
    point, ...; usr/src/head/sys/mnttab.h) has /dev/md/dsk/UNIT mounted,
    or None."""
    special = "/dev/md/dsk/%s" % unit
    for line in mnttab.splitlines():
        fields = line.split("\t")
        if len(fields) >= 2 and fields[0] == special:
            return fields[1]
    return None
