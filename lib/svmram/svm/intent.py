"""What a setup intends: every name and number it chose, kept in the
journal while it runs and in the SMF record once it is done (pure)."""

from dataclasses import asdict, dataclass, fields
from typing import Tuple

from ..errors import RefusedError

RAMDISK_DIR = "/dev/ramdisk"
RAW_RAMDISK_DIR = "/dev/rramdisk"


@dataclass(frozen=True)
class Intent:
    mirror: str             # d10
    ram: str                # the RAM submirror, d13
    ramdisk: str            # ramdisk name
    size_bytes: int         # ramdisk size
    link: str               # cNtNdNsN name of the /dev/dsk and /dev/rdsk links
    method: str             # swap or rotate
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
    def from_json(cls, data, where):
        try:
            values = {f.name: data[f.name] for f in fields(cls)}
            values["disks"] = tuple(values["disks"])
            intent = cls(**values)
            if not all(isinstance(getattr(intent, name), str) for name in (
                    "mirror", "ram", "ramdisk", "link", "method",
                    "read_option", "write_option")) or not all(
                    isinstance(d, str) for d in intent.disks) \
                    or not isinstance(intent.size_bytes, int) \
                    or not isinstance(intent.size_blocks, int) \
                    or not isinstance(intent.pass_num, int):
                raise TypeError("wrong types")
            return intent
        except (KeyError, TypeError) as exc:
            raise RefusedError(
                "%s does not hold a complete svmram record (%s)" % (where, exc),
                advice="Check it by hand; svmram will not guess.") from exc
