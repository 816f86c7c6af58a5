# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status -o, -H and -p: the fields, their values and the
table."""

from types import MappingProxyType

from ..copytime import duration_text, rate_text
from ..errors import UsageError
from .status_grade import GRADES

# -o: the fields, in the order svmram(8) lists them.
FIELDS = ("mirror", "verdict", "health", "serving", "ram", "ramstate",
          "resync", "rate", "left", "ramdisk", "ramdiskstate", "size",
          "disks", "current", "redundancy", "service", "unit", "method")
DEFAULT_FIELDS = ("mirror", "verdict", "health", "ram", "ramstate", "resync",
                  "ramdisk", "service")

def chosen_fields(text):
    """The -o list, or UsageError naming the valid fields."""
    if text is None:
        return DEFAULT_FIELDS
    chosen = [field.strip() for field in text.split(",")]
    wrong = [field for field in chosen if field not in FIELDS]
    if wrong or not chosen:
        raise UsageError("-o: unknown field%s %s; the fields are %s" % (
            "s" if len(wrong) > 1 else "",
            ", ".join(repr(field) for field in wrong),
            ",".join(FIELDS)))
    return tuple(chosen)


def nicenum(number):
    """A size as zfs(8) shows it: 1024-based, three digits at most
    (512, 1.50K, 227M, 4.00G)."""
    value, suffix = float(number), ""
    for suffix in ("", "K", "M", "G", "T", "P"):
        if value < 1024 or suffix == "P":
            break
        value /= 1024
    if not suffix:
        return "%d" % number
    for digits in (2, 1, 0):
        text = "%.*f" % (digits, value)
        if len(text) <= 4:
            return text + suffix
    return "%.0f%s" % (value, suffix)


def _ram_state(status):
    return next((s["state"] for s in status.copies if s["ram"]), None)


def _ramdisk_state(status):
    disk = status.ramdisk
    return "missing" if not disk["present"] else \
        "present" if disk["device_matches"] else "renumbered"


def _size(status, parsable):
    if status.size_blocks is None:
        return None
    size = status.size_blocks * 512
    return str(size) if parsable else nicenum(size)


def _sync(status, parsable):
    if status.sync_percent is None:
        return None
    return "%d%s" % (status.sync_percent, "" if parsable else "%")


def _rate(status, parsable):
    rate = status.sync_bytes_per_second
    if rate is None:
        return None
    return str(rate) if parsable else rate_text(rate)


def _left(status, parsable):
    left = status.sync_seconds_left
    if left is None:
        return None
    return str(left) if parsable else duration_text(left)


def _redundancy(status, key):
    redundancy = status.disk_redundancy
    if redundancy is None:
        return None
    return ",".join(redundancy[key]) if key == "current" \
        else redundancy[key]


# -o FIELD -> its value, from (status, problems, grade, parsable); the
# second column: whether it applies to a target svmram did not set up.
FIELD_VALUES = MappingProxyType({
    "mirror": (lambda s, p, g, x: s.target, True),
    "verdict": (lambda s, p, g, x: s.verdict, True),
    "health": (lambda s, p, g, x: GRADES[g], True),
    "serving": (lambda s, p, g, x: "yes" if s.serving_from_ram else "no",
                True),
    "ram": (lambda s, p, g, x: s.ram_copy, False),
    "ramstate": (lambda s, p, g, x: _ram_state(s), False),
    "resync": (lambda s, p, g, x: _sync(s, x), False),
    "rate": (lambda s, p, g, x: _rate(s, x), False),
    "left": (lambda s, p, g, x: _left(s, x), False),
    "ramdisk": (lambda s, p, g, x: s.ramdisk["name"], False),
    "ramdiskstate": (lambda s, p, g, x: _ramdisk_state(s), False),
    "size": (lambda s, p, g, x: _size(s, x), False),
    "disks": (lambda s, p, g, x: ",".join(p.disks), False),
    "current": (lambda s, p, g, x: _redundancy(s, "current"), False),
    "redundancy": (lambda s, p, g, x: _redundancy(s, "state"), False),
    "service": (lambda s, p, g, x: s.boot_service["state"], False),
    "unit": (lambda s, p, g, x: s.boot_service["name"], False),
    "method": (lambda s, p, g, x: s.method, False),
})
assert tuple(FIELD_VALUES) == FIELDS


def field_value(field, status, problems, grade, parsable):
    """One field of one target; "-" when it does not apply."""
    value_of, always = FIELD_VALUES[field]
    value = value_of(status, problems, grade, parsable) \
        if always or status.configured else None
    return "-" if value in (None, "") else value


def render_fields(rows, fields, scripted):
    """Tab-separated without a header (-H), else aligned columns under a
    header of the field names in capitals."""
    table = [[field_value(field, status, problems, grade, parsable)
              for field in fields]
             for status, problems, grade, parsable in rows]
    if scripted:
        return ["\t".join(row) for row in table]
    header = [field.upper() for field in fields]
    widths = [max(len(row[i]) for row in [header] + table)
              for i in range(len(fields))]
    return ["  ".join(cell.ljust(width) for cell, width in
                      zip(row, widths)).rstrip()
            for row in [header] + table]

