# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What setup decided for one array, and what teardown and the boot
restore need to know about how it was before (pure).  The record
(record.py) and the CLI's journal keep it as to_dict/to_json gives it."""

import re
from dataclasses import dataclass
from typing import FrozenSet, Tuple

from ..errors import RefusedError
from .names import check_array_name

_RAM = re.compile(r"ram[0-9]{1,4}\Z")


@dataclass(frozen=True)
class Intent:
    array: str                      # md0
    disks: Tuple[str, ...]          # the disk members, kernel names
    ram: str = "ram0"
    rd_size_kib: int = 0            # brd's rd_size
    offset_sectors: int = 2048      # the RAM member's data offset
    created: bool = False           # setup created the array
    # Disks that were write-mostly before setup: teardown leaves them so.
    write_mostly_before: FrozenSet[str] = frozenset()

    def write_mostly_wanted(self, disk):
        return disk in self.disks

    def to_dict(self):
        return {"array": self.array, "disks": list(self.disks),
                "ram": self.ram, "rd_size_kib": self.rd_size_kib,
                "offset_sectors": self.offset_sectors,
                "created": self.created,
                "write_mostly_before": sorted(self.write_mostly_before)}

    def to_json(self):
        """The form the CLI's journal keeps (the record's)."""
        return self.to_dict()

    @classmethod
    def from_dict(cls, data):
        try:
            it = cls(array=data["array"], disks=tuple(data["disks"]),
                     ram=data["ram"], rd_size_kib=int(data["rd_size_kib"]),
                     offset_sectors=int(data["offset_sectors"]),
                     created=bool(data["created"]),
                     write_mostly_before=frozenset(
                         data["write_mostly_before"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise RefusedError("svmram's record is damaged (%s)" % exc,
                               advice="Remove the record and set the array "
                                      "up again.") from exc
        check_array_name(it.array)
        if not _RAM.match(it.ram) or it.rd_size_kib <= 0 or not it.disks:
            raise RefusedError("svmram's record is damaged",
                               advice="Remove the record and set the array "
                                      "up again.")
        return it

