# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What a setup intends: every name and number it chose, kept in the
journal while it runs and in the SMF record once it is done (pure)."""

from dataclasses import asdict, dataclass, fields
from typing import Tuple

from ..errors import RefusedError
from . import names, record
from .names import NMIRROR, PASS_MAX

METHODS = ("swap", "rotate", "copy")
READ_OPTIONS = ("roundrobin", "geometric", "first")
WRITE_OPTIONS = ("parallel", "serial")

RAMDISK_DIR = "/dev/ramdisk"
RAW_RAMDISK_DIR = "/dev/rramdisk"


@dataclass(frozen=True)
class Intent:
    mirror: str             # d10
    ram: str                # the RAM submirror, d13
    ramdisk: str            # ramdisk name
    size_bytes: int         # ramdisk size
    link: str               # cNtNdNsN name of the /dev/dsk and /dev/rdsk links
    method: str             # one of METHODS
    disks: Tuple[str, ...]  # the disk submirrors, in their original order
    read_option: str        # the original read option
    write_option: str       # kept to recreate the mirror (swap)
    pass_num: int           # likewise
    size_blocks: int        # the mirror's size, which must never change

    @property
    def block_link_target(self):
        return "%s/%s" % (RAMDISK_DIR, self.ramdisk)

    @property
    def raw_link_target(self):
        return "%s/%s" % (RAW_RAMDISK_DIR, self.ramdisk)

    @property
    def order(self):
        """The slot order setup establishes: RAM first, then the disks."""
        return (self.ram,) + self.disks

    def to_json(self):
        data = asdict(self)
        data["disks"] = list(self.disks)
        return data

    @classmethod
    def from_record(cls, props, mirror):
        """The intent an SMF record holds: `props`, its properties as
        svcprop gives them (svm/record.py), of `mirror`'s instance;
        RefusedError when they are not a whole intent."""
        return cls.from_json(record.to_intent_json(props),
                             record.fmri(mirror))

    @classmethod
    def from_json(cls, data, where):
        try:
            values = {f.name: data[f.name] for f in fields(cls)}
            values["disks"] = tuple(values["disks"])
            intent = cls(**values)
            for name in ("mirror", "ram", "ramdisk", "link", "method",
                         "read_option", "write_option", "disks"):
                values = intent.disks if name == "disks" else (
                    getattr(intent, name),)
                if not all(isinstance(value, str) for value in values):
                    raise TypeError("%s is not text" % name)
            for name in ("size_bytes", "size_blocks", "pass_num"):
                if not isinstance(getattr(intent, name), int):
                    raise TypeError("%s is not a whole number" % name)
        except (KeyError, TypeError) as exc:
            raise RefusedError(
                "%s does not hold a complete svmram record (%s)" % (where, exc),
                advice="Check it by hand; svmram will not guess.") from exc
        problem = intent.problem()
        if problem:
            raise RefusedError(
                "%s does not hold a valid svmram record (%s)" % (where,
                                                                 problem),
                advice="Check it by hand; svmram will not guess.")
        return intent

    def problem(self):
        """What makes this intent impossible for svmram to have written
        (a name svmram would refuse, an unknown option), or None.  A
        record or journal edited or damaged by hand must not make svmram
        run commands on names it never chose."""
        for what, name in [("mirror", self.mirror), ("RAM submirror",
                                                     self.ram)] + [
                ("disk submirror", disk) for disk in self.disks]:
            if not names.is_metadevice(name):
                return "%s %r is not a metadevice name" % (what, name)
        if not names.is_ramdisk(self.ramdisk):
            return "ramdisk name %r is invalid" % (self.ramdisk,)
        if not names.is_link(self.link):
            return "link name %r is invalid" % (self.link,)
        for what, value, allowed in (
                ("method", self.method, METHODS),
                ("read option", self.read_option, READ_OPTIONS),
                ("write option", self.write_option, WRITE_OPTIONS)):
            if value not in allowed:
                return "%s %r is not one of %s" % (what, value,
                                                   ", ".join(allowed))
        if not 0 <= self.pass_num <= PASS_MAX:
            return "pass number %d is not 0-%d" % (self.pass_num, PASS_MAX)
        if self.size_bytes <= 0 or self.size_blocks <= 0:
            return "sizes must be positive"
        if not 1 <= len(self.disks) < NMIRROR or \
                len(set(self.disks)) != len(self.disks):
            return "disk submirrors %s: expected 1 to %d different names" % (
                ",".join(self.disks) or "(none)", NMIRROR - 1)
        if self.ram in self.disks:
            return "%s is both the RAM submirror and a disk submirror" % (
                self.ram,)
        if self.mirror in self.order:
            return "%s is both the mirror and one of its submirrors" % (
                self.mirror,)
        return None
